"""The gesture decoder, edge by edge, with exact times (milliseconds)."""

import pytest

from companion.devices.gestures import Gesture, GestureDecoder, Timing

T = Timing(bounce_ms=20, long_press_ms=700, repeat_delay_ms=400, repeat_interval_ms=120, stuck_ms=30_000)


def run(decoder, events):
    """events: ("edge", button, pressed, t) or ("tick", t); -> [(t, gesture)]"""
    out = []
    for event in events:
        if event[0] == "edge":
            _, button, pressed, t = event
            out += [(t, g) for g in decoder.edge(button, pressed, t)]
        else:
            out += [(event[1], g) for g in decoder.tick(event[1])]
    return out


def ticks(start, stop, step=10):
    return [("tick", t) for t in range(start, stop + 1, step)]


def test_short_press_fires_on_release_not_before():
    d = GestureDecoder(T)
    assert d.edge("OK", True, 1000) == []
    assert d.tick(1100) == []
    assert d.edge("OK", False, 1150) == [Gesture("OK", "press")]
    assert d.tick(5000) == []


def test_bouncy_press_and_release_give_one_press():
    d = GestureDecoder(T)
    bouncy = [("edge", "GO", True, 0), ("edge", "GO", False, 3), ("edge", "GO", True, 5),
              ("edge", "GO", False, 9), ("edge", "GO", True, 12),
              ("tick", 30), ("tick", 100),
              ("edge", "GO", False, 200), ("edge", "GO", True, 204), ("edge", "GO", False, 207),
              ("tick", 230), ("tick", 400)]
    assert run(d, bouncy) == [(200, Gesture("GO", "press"))]


def test_edges_exactly_bounce_ms_apart_both_count():
    d = GestureDecoder(T)
    assert d.edge("OK", True, 0) == []
    assert d.edge("OK", False, 19) == []        # inside the quiet time: ignored for now
    assert d.edge("OK", True, 20) == []         # back down at the end of it: still held
    assert d.edge("OK", False, 40) == [Gesture("OK", "press")]


def test_bounce_that_settles_released_is_applied_when_the_quiet_time_ends():
    d = GestureDecoder(T)
    d.edge("BACK", True, 0)
    d.edge("BACK", False, 15)                   # a real 15 ms tap, inside the quiet time
    assert d.tick(19) == []
    assert d.tick(20) == [Gesture("BACK", "press")]
    assert d.tick(2000) == []                   # no long press from a button that is up


def test_settled_release_found_by_a_later_edge():
    d = GestureDecoder(T)
    d.edge("OK", True, 0)
    d.edge("OK", False, 10)
    # no tick in between: the next edge first settles the release at t=20
    assert d.edge("OK", True, 500) == [Gesture("OK", "press")]
    assert d.edge("OK", False, 600) == [Gesture("OK", "press")]


def test_long_press_fires_once_while_held_and_no_press_on_release():
    d = GestureDecoder(T)
    out = run(d, [("edge", "BACK", True, 100)] + ticks(110, 2000) + [("edge", "BACK", False, 2005)] + ticks(2010, 3000))
    assert out == [(800, Gesture("BACK", "long"))]


def test_long_press_boundary():
    d = GestureDecoder(T)
    d.edge("GO", True, 0)
    assert d.tick(699) == []
    assert d.tick(700) == [Gesture("GO", "long")]
    d2 = GestureDecoder(T)
    d2.edge("GO", True, 0)
    assert d2.edge("GO", False, 699) == [Gesture("GO", "press")]


def test_release_after_long_press_time_without_ticks_is_long():
    d = GestureDecoder(T)
    d.edge("OK", True, 0)
    assert d.edge("OK", False, 900) == [Gesture("OK", "long")]


def test_repeat_first_after_delay_then_every_interval():
    d = GestureDecoder(T)
    out = run(d, [("edge", "DOWN", True, 0)] + ticks(1, 1000, 1) + [("edge", "DOWN", False, 1001)])
    assert out == [(t, Gesture("DOWN", "repeat")) for t in (400, 520, 640, 760, 880, 1000)]


def test_up_down_never_long_press_and_short_tap_is_a_press():
    d = GestureDecoder(T)
    out = run(d, [("edge", "UP", True, 0)] + ticks(10, 390) + [("edge", "UP", False, 395)])
    assert out == [(395, Gesture("UP", "press"))]


def test_no_press_after_repeats():
    d = GestureDecoder(T)
    d.edge("UP", True, 0)
    assert d.tick(400) == [Gesture("UP", "repeat")]
    assert d.edge("UP", False, 450) == []


def test_stalled_loop_gets_one_repeat_not_a_flood():
    d = GestureDecoder(T)
    d.edge("DOWN", True, 0)
    assert d.tick(2000) == [Gesture("DOWN", "repeat")]    # 14 repeats were due: one is given
    assert d.tick(2119) == []
    assert d.tick(2120) == [Gesture("DOWN", "repeat")]


def test_stuck_button_reported_once_instead_of_repeats():
    d = GestureDecoder(T)
    out = run(d, [("edge", "UP", True, 0)] + ticks(10, 40_000, 10))
    repeats = [t for t, g in out if g.kind == "repeat"]
    assert repeats == list(range(400, 30_000, 120))
    stuck = [(t, g) for t, g in out if g.kind == "stuck"]
    assert stuck == [(30_000, Gesture("UP", "stuck"))]
    assert [g for t, g in out if t > 30_000] == []
    assert d.edge("UP", False, 40_050) == []            # nothing on release either
    d.edge("UP", True, 41_000)                          # a fresh press works again
    assert d.edge("UP", False, 41_100) == [Gesture("UP", "press")]


def test_stuck_ok_gives_long_then_stuck():
    d = GestureDecoder(T)
    out = run(d, [("edge", "OK", True, 0)] + ticks(100, 31_000, 100))
    assert out == [(700, Gesture("OK", "long")), (30_000, Gesture("OK", "stuck"))]


def test_button_down_at_start_can_only_be_stuck():
    d = GestureDecoder(T)
    d.already_down("BACK", 0)
    out = run(d, ticks(10, 31_000, 10) + [("edge", "BACK", False, 31_005)])
    assert out == [(30_000, Gesture("BACK", "stuck"))]
    d.edge("BACK", True, 32_000)
    assert d.edge("BACK", False, 32_100) == [Gesture("BACK", "press")]


def test_buttons_are_independent():
    d = GestureDecoder(T)
    out = run(d, [("edge", "DOWN", True, 0), ("edge", "OK", True, 5), ("edge", "OK", False, 105)]
              + ticks(110, 530) + [("edge", "DOWN", False, 531)])
    assert out == [(105, Gesture("OK", "press")), (400, Gesture("DOWN", "repeat")), (520, Gesture("DOWN", "repeat"))]


def test_clock_is_injectable_and_never_runs_backwards():
    now = [0]
    d = GestureDecoder(T, clock=lambda: now[0])
    d.edge("GO", True)
    now[0] = 100
    assert d.edge("GO", False) == [Gesture("GO", "press")]
    d.edge("GO", True, 200)
    assert d.tick(150) == []              # an earlier time counts as 200
    assert d.edge("GO", False, 250) == [Gesture("GO", "press")]


def test_busy_while_a_button_is_down_or_settling():
    d = GestureDecoder(T)
    assert not d.busy
    d.edge("OK", True, 0)
    assert d.busy
    d.edge("OK", False, 100)
    d.edge("OK", True, 110)               # bounce: raw differs from the level
    assert d.busy
    d.tick(200)
    assert d.busy                         # settled as pressed again
    d.edge("OK", False, 300)
    assert not d.busy
    d.edge("GO", True, 400)
    d.tick(30_400)                        # reported stuck: no need to tick until it is released
    assert not d.busy


def test_timing_from_pinout_table():
    assert Timing.from_table({"bounce_ms": 5, "long_press_ms": 900, "UP": 5}) == Timing(bounce_ms=5, long_press_ms=900)


@pytest.mark.parametrize("button, kind", [("LEFT", "press"), ("OK", "tap"), ("OK", "repeat")])
def test_bad_gestures_are_refused(button, kind):
    with pytest.raises(ValueError):
        Gesture(button, kind)


def test_unknown_button_edge_is_a_value_error():
    with pytest.raises(ValueError, match="unknown button 'LEFT'"):
        GestureDecoder(T).edge("LEFT", True, 0)
