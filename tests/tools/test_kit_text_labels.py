import pytest

from companion.kit.text import fit, label, short_name
from companion.profile import LABEL_CHARS as LABEL


@pytest.mark.parametrize("text, limit, expected", [
    ("Tire dice", LABEL, "Tire dice"),
    ("Die 1 > Red tire", LABEL, "Die 1 > Red"),          # cut at a word, never "Red ti"
    ("Die 1 > Yellow tire", LABEL, "Die 1 > Yellow"),
    ("Use Tempo cards", LABEL, "Use Tempo"),
    ("Maximilian-Alexander", 6, "Maximi"),               # one long word: cut hard
    ("A Supercalifragilistic", LABEL, "A Supercalifra"),  # the word boundary is too early
    ("  spaced   out  ", LABEL, "spaced out"),
])
def test_fit_keeps_labels_short_and_whole_words(text, limit, expected):
    assert fit(text, limit) == expected and len(fit(text, limit)) <= limit


def test_short_name_drops_the_note_in_brackets():
    assert short_name("Suit (1 car)") == "Suit"
    assert short_name("Team deck (72 cards)") == "Team deck"
    assert short_name("(only a note)") == "(only a note)"


def test_label_is_fit_to_the_profile():
    assert label("Die 1 > Yellow tire") == fit("Die 1 > Yellow tire", LABEL) == "Die 1 > Yellow"
