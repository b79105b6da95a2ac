"""Race types, the advanced rules (qualifying, KERS), the correction screen, one race a session."""

import pytest

from companion.core.config import ConfigError
from companion.core.deck import DeckError
from companion.games.top_speed import rules as R
from companion.games.top_speed import screens as S
from tests.games.top_speed.helpers import (act, data, finish_round, kinds, new_race, next_round, stacked_orders,
                                           stacked_start)

RED, BLUE, YELLOW = 0, 1, 2


def names(state, car=0):
    return sorted(c.name for c in state.cars[car].pile.draw)


@pytest.mark.parametrize("race, removed", [
    ("wet", {}),
    ("normal", {"Safety Car": 1, "Yellow Flag": 1, "Off Track": 1}),
    ("custom", {"Drive Through": 2, "Off Track": 2}),
])
def test_race_types_take_the_rulebook_cards_out_of_every_deck(race, removed):
    state = new_race(3, race=race)
    full = new_race(3, race="wet")
    assert len(full.cars[0].pile.draw) == 72
    for car in range(3):
        for card in set(names(full)):
            assert names(state, car).count(card) == names(full).count(card) - removed.get(card, 0)


def test_owner_can_change_what_a_normal_race_removes():
    state = R.setup({"players": 2, "race": "normal"},
                    data(race_types={"normal": {"remove": {"Safety Car": 2, "Yellow Flag": 1, "Off Track": 1}}}))
    assert names(state).count("Safety Car") == 0 and len(state.cars[0].pile.draw) == 68


@pytest.mark.parametrize("override, key", [
    ({"race_types": {"wet": {"remove": {"Banana": 1}}}}, "race_types.wet.remove"),
    ({"race_types": {"wet": {"remove": {"Safety Car": 9}}}}, "race_types.wet.remove.Safety Car"),
    ({"circuit": {"spaces": 3}}, "circuit.spaces"),
    ({"decks": {"team": {"cards": [{"name": "1", "count": 3, "value": 1, "trouble": True}]}}},
     "decks.team.cards[0]"),
    ({"decks": {"team": {"cards": [{"name": "X", "trouble": True, "signal": "red-flag"}]}}},
     "decks.team.cards[0].signal"),
])
def test_bad_data_is_a_clear_config_error(override, key):
    with pytest.raises(ConfigError) as err:
        R.setup({"players": 2, "race": "wet"}, data(**override))
    assert err.value.key == key
    assert "\n" not in str(err.value)


def test_unknown_race_type_and_wrong_player_counts_are_refused():
    with pytest.raises(ConfigError, match="unknown race type"):
        R.setup({"players": 2, "race": "snow"}, data())
    for players in (1, 9):
        with pytest.raises(R.RuleError, match="2 to 8 players"):
            R.setup({"players": players}, data())


def test_qualifying_sets_the_grid_by_the_fastest_lap_and_keeps_the_cards_played():
    state = new_race(3, grid="qualifying")
    assert kinds(state) == ["qualify"]
    state = R.apply(state, {"kind": "qualify", "decks": stacked_orders(state, {
        RED: ["1", "Tire Trouble", "Tire Trouble"], BLUE: ["2", "2"], YELLOW: ["2", "Drive Through"]})})
    assert state.phase == R.QUALIFY and state.turn == RED            # seat order, clockwise
    assert "pit" not in kinds(state) and "no-lap" in kinds(state)
    state = act(act(act(state, "draw"), "draw"), "draw")            # 1, 2, 2
    state = act(act(act(state, "draw"), "draw"), "draw")            # Tire, 2, Drive Through
    state = act(state, "draw")                                       # Red: Tire again, bust
    state = act(act(state, "pass"), "pass")                          # Blue 4, Yellow 2 - DT = 0
    assert [(s.car, s.amount) for s in state.steps] == [(RED, 0), (BLUE, 4), (YELLOW, 0)]
    assert len(state.cars[RED].damage) == 1                          # damage counts in qualifying
    state = finish_round(state)
    assert state.phase == R.QUALIFY and state.qround == 2
    for _ in range(3):
        state = act(state, "no-lap")                                 # nobody wants a lap: it ends
    assert state.phase == R.START and state.qualified and kinds(state) == ["start"]
    assert S.view(state).body[-1].text.startswith("Blu 4")
    state = act(state, "start")
    assert state.phase == R.GRID and state.grid[0] == BLUE        # the grid is shown first
    state = act(state, "go")
    assert state.grid[0] == BLUE and state.order[0] == BLUE
    assert len(state.cars[BLUE].pile.discard) == 2                   # qualifying cards stay out
    assert state.laps_left == 65


def test_qualifying_lasts_at_most_five_laps():
    state = act(new_race(2, grid="qualifying"), "qualify")
    for lap in range(1, 6):
        assert state.phase == R.QUALIFY and state.qround == lap
        state = act(act(state, "draw"), "draw")
        while state.phase == R.QUALIFY:
            state = act(state, "pass" if "pass" in kinds(state) else "no-lap")
        state = finish_round(state)
    assert state.phase == R.START and state.qualified


def test_kers_keeps_one_green_card_for_a_later_round():
    state = stacked_start(new_race(2, kers=True), grid=[RED, BLUE], tops={RED: ["2", "1"]})
    state = act(act(state, "draw"), "draw")                          # Red 2, Blue 1
    assert "keep" in kinds(state)
    state = act(state, "keep")
    red = state.cars[RED]
    assert red.kers.name == "2" and red.row == () and state.turn == RED
    assert "pit" not in kinds(state) and "kers" not in kinds(state)   # not both in one round
    state = act(act(state, "draw"), "draw")                           # Red 1, Blue
    assert state.turn == RED and "keep" not in kinds(state)           # one card kept at most
    state = act(act(state, "pass"), "pass")
    state = next_round(state)
    turn_red = state if state.turn == RED else act(state, "draw")
    assert "kers" in kinds(turn_red)
    state = act(turn_red, "kers")
    assert [c.name for c in state.cars[RED].row][-1] == "2" and state.cars[RED].kers is None


def test_correction_screen_moves_a_car_past_occupied_spaces():
    state = stacked_start(new_race(3), grid=[RED, BLUE, YELLOW])
    state = act(act(act(state, "draw"), "draw"), "draw")
    state = act(act(act(state, "pass"), "pass"), "pass")               # 1 each: blocked in a row
    state = finish_round(state)
    assert kinds(state) == ["next", "fix"]
    state = act(state, "fix")
    first = state.fix_car
    view = S.view(state)
    assert view.title == f"Fix {state.name(first).upper()}" and view.status == "1st"
    state = act(state, "fix-car")
    second = state.fix_car
    d = {c: state.cars[c].distance for c in range(3)}
    state = act(state, "fix-move", by=1)                                # jumps over the leader
    assert state.cars[second].distance == d[first] + 1
    state = act(state, "fix-done")
    assert state.phase == R.ROUND_END
    assert next_round(state).order[0] == second


def test_correction_screen_between_turns_returns_to_the_player_on_turn():
    state = stacked_start(new_race(3), grid=[RED, BLUE, YELLOW])
    state = act(state, "draw")                                          # Red draws; Blue's turn
    assert "fix" in kinds(state)
    state = act(state, "fix")
    assert state.phase == R.FIX and state.fix_car == BLUE              # the car on turn first
    before = state.cars[BLUE].distance
    state = act(act(state, "fix-move", by=-1), "fix-move", by=-1)       # Yellow's space is jumped
    assert state.cars[BLUE].distance == before - 3
    state = act(state, "fix-done")
    assert state.phase == R.DRAW and state.turn == BLUE and [c.name for c in state.cars[RED].row] == ["1"]
    state = act(act(state, "draw"), "draw")
    assert state.turn == RED                                            # the turn order stays the round's


def test_no_correction_while_the_movement_is_shown():
    state = stacked_start(new_race(2), grid=[RED, BLUE])
    state = act(act(act(act(state, "draw"), "draw"), "pass"), "pass")
    assert state.phase == R.STEPS and "fix" not in kinds(state)


def test_a_corrected_leader_over_the_line_takes_no_lap_off_later():
    state = stacked_start(new_race(2, spaces=20), grid=[RED, BLUE])
    state = act(state, "draw")
    state = act(state, "fix")                                           # Blue on turn
    state = act(state, "fix-car")                                       # Red, the leader
    for _ in range(20):
        state = act(state, "fix-move", by=1)                            # the board says: over the line
    laps = state.laps_left
    state = act(state, "fix-done")
    state = next_round(act(act(act(state, "draw"), "pass"), "pass"))
    assert state.laps_left == laps - 1                                  # the round start only


def short_race(state):
    """A two-lap race Red wins: Red draws a 2, both pass, the laps run out."""
    state = stacked_start(state, grid=[RED, BLUE], tops={RED: ["2"]})
    state = act(act(act(act(state, "draw"), "draw"), "pass"), "pass")
    return finish_round(next_round(state))


def test_one_session_is_one_race_and_its_standings_carry_what_the_championship_adds_up():
    assert "races" not in [o.key for o in R.OPTIONS]
    state = short_race(new_race(2, laps=2))
    assert state.phase == R.OVER and R.finished(state) and R.moves(state) == []
    rows = R.standings(state)
    assert [(r["position"], r["name"], r["colour"], r["points"]) for r in rows] == [
        (1, "Red", "Red", 25), (2, "Blue", "Blue", 18)]


def test_the_platform_championship_adds_up_finished_races(tmp_path):
    from companion.league import seasons
    from companion.core.journal import Journal
    from companion.core.rng import make_rng
    from companion.games.top_speed.autoplay import demo_script
    from companion.session import SessionRunner

    races = []
    with Journal(tmp_path) as journal:
        for seed in (1, 2):
            runner = SessionRunner.start(journal, "top-speed", {"players": 3, "laps": 4}, data(),
                                         championship="top-speed")
            rng = make_rng(seed)
            while not runner.finished():
                runner.perform(demo_script(runner.state), rng)
            races.append(runner.finish()["standings"])
        key, table = seasons.shown_table(journal)
    assert key == "top-speed"
    totals = {name: sum(r["points"] for race in races for r in race if r["name"] == name)
              for name in ("Red", "Blue", "Yellow")}
    assert {r["name"]: r["points"] for r in table} == totals
    assert [r["position"] for r in table] == [1, 2, 3] and all(r["colour"] == r["name"] for r in table)


def test_events_that_do_not_fit_are_refused_with_a_clear_error():
    state = stacked_start(new_race(2), grid=[RED, BLUE])
    with pytest.raises(R.RuleError, match="unknown Top Speed event"):
        R.apply(state, {"kind": "teleport"})
    with pytest.raises(R.RuleError, match="not car 1's turn"):
        R.apply(state, {"kind": "pass", "car": BLUE})
    with pytest.raises(R.RuleError, match="cannot pass"):
        R.apply(state, {"kind": "pass", "car": RED})
    with pytest.raises(DeckError, match="do not match"):
        R.apply(state, {"kind": "draw", "car": RED, "cards": [{"name": "Drive Through"}], "reshuffle": None})
    with pytest.raises(R.RuleError, match="malformed"):
        R.apply(state, {"kind": "draw"})
    with pytest.raises(R.RuleError, match="does not fit"):
        R.apply(state, {"kind": "fix-done"})
