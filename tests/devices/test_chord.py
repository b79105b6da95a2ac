"""UP and DOWN held together (the mute chord): one ``both`` gesture, and nothing else from
either button, whatever order they go down and up in; no other hold changes."""

from companion.devices.gestures import Gesture, GestureDecoder, Timing

T = Timing()


def run(edges, until):
    """Feed (t, button, pressed) edges with 10 ms ticks between them up to ``until``."""
    decoder, out, t = GestureDecoder(T), [], 0
    pending = sorted(edges)
    while t <= until:
        while pending and pending[0][0] <= t:
            at, button, pressed = pending.pop(0)
            out += decoder.edge(button, pressed, at)
        out += decoder.tick(t)
        t += 10
    return out


def test_held_together_is_one_both():
    got = run([(0, "UP", True), (40, "DOWN", True), (1200, "DOWN", False), (1250, "UP", False)], 1500)
    assert got == [Gesture("UP", "both")]
    got = run([(0, "DOWN", True), (10, "UP", True), (2000, "UP", False), (2010, "DOWN", False)], 2500)
    assert got == [Gesture("UP", "both")]            # once, however long


def test_let_go_too_soon_is_nothing_and_the_buttons_work_again():
    got = run([(0, "UP", True), (20, "DOWN", True), (300, "UP", False), (320, "DOWN", False),
               (600, "UP", True), (650, "UP", False)], 900)
    assert got == [Gesture("UP")]
    # one let go, the other still held: it does not start repeating
    got = run([(0, "UP", True), (20, "DOWN", True), (200, "UP", False), (1500, "DOWN", False)], 1600)
    assert got == []


def test_a_repeat_already_running_then_the_chord():
    got = run([(0, "UP", True), (600, "DOWN", True), (1400, "UP", False), (1400, "DOWN", False)], 1500)
    assert got[:2] == [Gesture("UP", "repeat")] * 2 and got[-1] == Gesture("UP", "both")
    assert Gesture("DOWN", "repeat") not in got


def test_other_holds_are_untouched():
    assert run([(0, "BACK", True), (900, "BACK", False)], 1000) == [Gesture("BACK", "long")]
    assert run([(0, "OK", True), (0, "GO", True), (900, "OK", False), (900, "GO", False)], 1000) == [
        Gesture("OK", "long"), Gesture("GO", "long")]
