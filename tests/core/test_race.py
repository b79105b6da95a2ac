import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core import race
from companion.core.race import Car, RaceError


def cars(*names):
    return [Car(n, n) for n in names]


def run(state, *names):
    for n in names:
        state = race.cross(state, n)
    return state


def order(state):
    return [c.name for c in race.race_order(state)]


def test_start_checks_the_field_and_length():
    with pytest.raises(RaceError, match="2 to 12 cars, not 1"):
        race.start(cars("Red"), 5)
    with pytest.raises(RaceError, match="not 13"):
        race.start([Car(f"C{i}", "Red") for i in range(13)], 5)
    with pytest.raises(RaceError, match="'Red' is empty or used twice"):
        race.start(cars("Red", "Red"), 5)
    with pytest.raises(RaceError, match="1 to 999 laps, not 0"):
        race.start(cars("Red", "Blue"), 0)
    s = race.start(cars("Red", "Blue", "Green"), 5)
    assert s.laps == (0, 0, 0) and order(s) == ["Red", "Blue", "Green"]
    assert race.laps_to_go(s) == 5 and not race.flag_out(s) and not race.is_over(s)


def test_unknown_car_is_named_with_the_field():
    s = race.start(cars("Red", "Blue"), 5)
    with pytest.raises(RaceError, match="no car 'Pink' in this race; cars: Red, Blue"):
        race.cross(s, "Pink")


def test_order_is_laps_then_who_completed_the_lap_first():
    s = race.start(cars("Red", "Blue", "Green"), 5)
    s = run(s, "Green")                     # Green leads, the others keep grid order
    assert order(s) == ["Green", "Red", "Blue"]
    s = run(s, "Blue", "Red")               # all on lap 1: Green, Blue, Red completed it in that order
    assert order(s) == ["Green", "Blue", "Red"]
    s = run(s, "Red")
    assert order(s) == ["Red", "Green", "Blue"]
    assert race.leader(s) == Car("Red", "Red")
    assert race.laps_of(s, "Red") == 2 and race.laps_to_go(s) == 3


def test_laps_led_go_to_the_first_car_to_complete_each_lap():
    s = race.start(cars("Red", "Blue", "Green"), 9)
    s = run(s, "Red", "Blue", "Green", "Blue", "Red", "Green", "Red", "Blue", "Blue")
    # lap 1 Red, lap 2 Blue, lap 3 Red, lap 4 Blue (Blue's second crossing in a row)
    assert race.laps_led(s) == {"Red": 2, "Blue": 2, "Green": 0}
    assert [x.led for x in s.crossings] == [True, False, False, True, False, False, True, False, True]


def test_leader_finishes_then_each_car_at_its_next_crossing():
    s = race.start(cars("Red", "Blue", "Green"), 2)
    s = run(s, "Red", "Blue", "Green", "Red")        # Red completes lap 2: chequered flag
    assert race.flag_out(s) and s.flagged == ("Red",)
    assert [c.name for c in race.running(s)] == ["Blue", "Green"]
    s = run(s, "Green")                              # Green finishes behind Red on lap 2
    assert s.flagged == ("Red", "Green") and not race.is_over(s)
    with pytest.raises(RaceError, match="Green has already taken the chequered flag"):
        race.cross(s, "Green")
    s = run(s, "Blue")
    assert race.is_over(s)
    assert [c.name for c in race.finish_order(s)] == ["Red", "Green", "Blue"]
    with pytest.raises(RaceError, match="race is over"):
        race.cross(s, "Blue")


def test_a_lapped_car_flagged_first_is_classified_behind_cars_with_more_laps():
    s = race.start(cars("Red", "Blue", "Green"), 3)
    s = run(s, "Red", "Blue", "Red", "Blue", "Green", "Red")   # Red done; Blue on 2, Green on 1
    s = run(s, "Green")                                        # Green flagged on 2 laps
    assert [c.name for c in race.finish_order(s)] == ["Red", "Green"]
    s = run(s, "Blue")                                         # Blue flagged later, on 3 laps
    assert s.flagged == ("Red", "Green", "Blue")
    assert [c.name for c in race.finish_order(s)] == ["Red", "Blue", "Green"]


def test_countdown_ends_the_race_when_the_counter_reaches_zero():
    s = race.start(cars("Red", "Blue", "Green"), 3, countdown=True)
    s = run(s, "Red", "Blue")
    assert race.laps_to_go(s) == 2
    s = race.tick(s)                                     # a Top Speed round starts
    assert race.laps_to_go(s) == 1 and not race.flag_out(s)
    s = run(s, "Blue")                                   # leader completes a lap: 0 to go
    assert race.is_over(s)
    assert [c.name for c in race.finish_order(s)] == ["Blue", "Red", "Green"]
    with pytest.raises(RaceError, match="race is over"):
        race.tick(s)


def test_tick_is_only_for_countdown_races():
    with pytest.raises(RaceError, match="only a countdown race"):
        race.tick(race.start(cars("Red", "Blue"), 3))


def test_end_classifies_the_running_cars_where_they_stand():
    s = race.start(cars("Red", "Blue", "Green"), 10)
    s = run(s, "Blue", "Green", "Blue")
    s = race.end(s)
    assert race.is_over(s) and s.flagged == ("Blue", "Green", "Red")
    assert race.end(s) == s


def test_lap_times_and_fastest_lap():
    s = race.start(cars("Red", "Blue"), 5, at=100.0)
    s = race.cross(s, "Red", at=160.0)
    s = race.cross(s, "Blue", at=165.0)
    s = race.cross(s, "Red", at=215.0)      # 55 s
    s = race.cross(s, "Blue", at=220.0)     # 55 s too, set later
    assert race.lap_times(s) == {"Red": (60.0, 55.0), "Blue": (65.0, 55.0)}
    assert race.fastest_lap(s) == race.FastLap("Red", 2, 55.0)


def test_lap_times_without_a_start_time_or_a_crossing_time():
    s = race.start(cars("Red", "Blue"), 5)
    assert race.fastest_lap(s) is None
    s = race.cross(s, "Red", at=10.0)
    s = race.cross(s, "Red")
    s = race.cross(s, "Red", at=50.0)
    s = race.cross(s, "Red", at=70.5)
    assert race.lap_times(s)["Red"] == (None, None, None, 20.5)
    assert race.fastest_lap(s) == race.FastLap("Red", 4, 20.5)


def test_next_to_cross_puts_the_longest_since_crossing_first():
    s = race.start(cars("Red", "Blue", "Green"), 2)
    assert [c.name for c in race.next_to_cross(s)] == ["Red", "Blue", "Green"]
    s = run(s, "Red", "Blue")
    assert [c.name for c in race.next_to_cross(s)] == ["Green", "Red", "Blue"]
    s = run(s, "Green", "Red")              # Red flagged: no longer offered
    assert [c.name for c in race.next_to_cross(s)] == ["Blue", "Green"]


def test_lap_orders_and_entries():
    s = race.start([Car("Ann", "Red"), Car("Bob", "Blue")], 3, at=0.0)
    s = race.cross(s, "Bob", at=30.0)
    s = race.cross(s, "Ann", at=31.0)
    s = race.cross(s, "Ann", at=50.0)
    assert race.lap_orders(s) == [("Bob", "Ann"), ("Ann",)]
    assert race.entries(s) == [
        {"name": "Ann", "colour": "Red", "laps": 2, "laps_led": 1, "best_lap": 19.0,
         "fastest_lap": True, "finished": False},
        {"name": "Bob", "colour": "Blue", "laps": 1, "laps_led": 1, "best_lap": 30.0,
         "fastest_lap": False, "finished": False},
    ]


@settings(max_examples=150, deadline=None)
@given(n=st.integers(2, 12), length=st.integers(1, 6), countdown=st.booleans(),
       picks=st.lists(st.tuples(st.integers(0, 11), st.booleans()), max_size=80))
def test_any_sequence_of_crossings_keeps_the_race_consistent(n, length, countdown, picks):
    field = [Car(f"Car{i}", "Red") for i in range(n)]
    s = race.start(field, length, countdown=countdown)
    names = {c.name for c in field}
    for pick, tick in picks:
        if race.is_over(s):
            break
        before = s
        if tick and countdown:
            s = race.tick(s)
        else:
            live = race.next_to_cross(s)
            s = race.cross(s, live[pick % len(live)])
        ordered = race.race_order(s)
        assert sorted(c.name for c in ordered) == sorted(names)           # a permutation
        assert all(a <= b for a, b in zip(before.laps, s.laps))            # laps never go down
        assert [s.laps[race.index_of(s, c)] for c in ordered] == sorted(s.laps, reverse=True)
        assert race.leader(s) == ordered[0]
        assert sum(race.laps_led(s).values()) == max(s.laps)              # every lap led once
        assert race.laps_to_go(s) <= race.laps_to_go(before)
        assert before.flagged == s.flagged[:len(before.flagged)]          # the flag is never taken back
        assert [c.name for c in race.finish_order(s)] == [c.name for c in ordered if c.name in s.flagged]
        if s.flagged and not countdown:
            assert s.laps[race.index_of(s, s.flagged[0])] == length
    if race.is_over(s):
        assert race.finish_order(s) == race.race_order(s)
        assert race.next_to_cross(s) == ()
