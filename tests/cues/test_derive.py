"""Which cues a move made, read from the race's public view before and after it."""

from companion.cues.derive import Moment, cues_between, moment


def car(name, out=False, state=""):
    return {"name": name, "colour": "Red", "out": out, "state": state, "row": [], "widgets": []}


def view(**changes):
    base = {"laps": "Lap 1 of 3", "lap": 1, "turn": "Ann", "waiting": "Ann: Roll", "notes": [],
            "cars": [car("Ann"), car("Bob")]}
    return moment({**base, **changes}, changes.pop("finished", False) if "finished" in changes else False)


def test_the_race_marks():
    before = view()
    assert cues_between(before, view(lap=2, laps="Lap 2 of 3")) == ["line"]
    assert cues_between(view(lap=2, laps="Lap 2 of 3"), view(lap=3, laps="Lap 3 of 3")) == ["last-lap"]
    assert cues_between(view(), view(laps="last lap of 5")) == ["last-lap"]
    assert cues_between(view(), view(laps="Track card 4 of 4", lap=4)) == ["last-lap"]
    assert cues_between(view(laps="Lap 1 of 1"), view(laps="Lap 1 of 1")) == []     # a one-lap race: no repeat
    done = moment({"laps": "finished", "lap": 3, "cars": []}, True)
    assert cues_between(view(lap=3, laps="Lap 3 of 3"), done) == ["flag"]
    assert cues_between(done, done) == []


def test_a_car_out_once_and_the_turn_it_passes_is_not_cued_too():
    bust = view(turn="Bob", cars=[car("Ann", state="bust"), car("Bob")])
    assert cues_between(view(), bust) == ["car-out"]
    assert cues_between(bust, bust) == []
    assert cues_between(view(), view(cars=[car("Ann", out=True), car("Bob")])) == ["car-out"]
    assert cues_between(view(), view(cars=[car("Ann", state="in the pits"), car("Bob")])) == []


def test_the_safety_car_and_a_challenge():
    out = view(notes=["Safety Car out (3)"])
    assert cues_between(view(), out) == ["sc-out"]
    assert cues_between(out, view()) == ["sc-in"]
    assert cues_between(view(), view(laps="Lap 1 of 3, yellow flag")) == ["sc-out"]
    challenge = view(notes=["Challenge: Ann 1 against Bob"])
    assert cues_between(view(), challenge) == ["challenge"]
    assert cues_between(challenge, challenge) == []


def test_the_turn_to_a_human_and_a_choice_face_down():
    assert cues_between(view(), view(turn="Bob", waiting="Bob: Roll")) == ["turn"]
    assert cues_between(view(), view(turn="Bob", waiting="Bob: Roll"), automated={"Bob"}) == []
    assert cues_between(view(), view(turn="", turn_cars=["Ann", "Bob"],
                                     waiting="Ann and Bob: play face down")) == ["your-choice"]
    assert cues_between(view(), view()) == []          # the same turn: a press is no cue


def test_a_race_without_a_public_view_cues_only_its_flag():
    assert cues_between(moment(None), moment(None)) == []
    assert cues_between(moment(None), moment(None, True)) == ["flag"]
    assert Moment() == moment({})
