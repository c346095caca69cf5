"""Questions about a habit asked by its verb, and the value a turn gives it (graphmem.memory.habits)."""

from __future__ import annotations

import pytest

from graphmem.memory.habits import habit_asked, habit_value


@pytest.mark.parametrize("question, expected", [
    ("Where do I volunteer on Saturdays?", ("other:volunteer", False)),
    ("Which team does the user support?", ("other:support", False)),
    ("What does Maya collect these days?", ("other:collect", False)),
    ("Who does Tom mentor?", ("other:mentor", False)),
    ("What did I collect in 2022?", ("other:collect", True)),  # the past with a date
    ("What did I collect before?", ("other:collect", True)),  # the past with an earlier-value word
])
def test_a_habit_is_asked_by_its_verb(question, expected):
    assert habit_asked(question) == expected


@pytest.mark.parametrize("question", [
    "What did Ana bake?",  # the past without a date: an event
    "Where does Sam work?",  # an attribute read elsewhere
    "What do I eat?",
    "Which band does Jo like?",  # liking, not a habit
    "Where do I go?",
    "How do I commute?",  # not a what, where, which or who
])
def test_other_questions_ask_no_habit(question):
    assert habit_asked(question) is None


@pytest.mark.parametrize("attribute, text, expected", [
    ("other:volunteer", "I volunteer at the food bank on Saturdays.", "food bank"),
    ("other:support", "I've switched to supporting Brighton lol", "Brighton"),
    ("other:support", "Supporting Chelsea these days, sorry dad", "Chelsea"),
    ("other:collect", "I collect vinyl records.", "vinyl records"),
])
def test_a_habit_s_value_is_the_phrase_after_its_verb(attribute, text, expected):
    assert habit_value(attribute, text) == (expected, [])


def test_a_clause_ending_the_habit_ends_the_value_it_names():
    assert habit_value("other:volunteer", "Stopped the food bank, too tired.") == (None, ["food bank"])
    value, ended = habit_value("other:volunteer", "Quit volunteering at the shelter.")
    assert value is None and "shelter" in ended


@pytest.mark.parametrize("attribute, text", [
    ("other:collect", "The weather is nice."),  # the verb not said
    ("other:collect", "I collect"),  # the verb with nothing after it
])
def test_no_value_where_the_verb_takes_none(attribute, text):
    assert habit_value(attribute, text) == (None, [])
