"""Values of an attribute read off a sentence by their type, and the ones it ends (graphmem.memory.values,
graphmem.memory.habits), and the order :mod:`graphmem.memory.said` puts them in."""

from __future__ import annotations

from datetime import datetime

import pytest

from graphmem.domain import Turn
from graphmem.memory.habits import habit_asked, habit_value
from graphmem.memory.said import said_value
from graphmem.memory.tallies import count, favourite
from graphmem.memory.values import read, same_value


@pytest.mark.parametrize("attribute, text, value, ended", [
    ("residence", "We finally moved from Leeds to Bristol in the spring.", "Bristol", ["Leeds"]),
    ("residence", "My brother lives in Madrid.", None, []),  # someone else's
    ("employer", "Quit Acme last week and joined Initech.", "Initech", ["Acme"]),
    ("partner", "Sam and I split up; I've been dating a woman named Priya.", "Priya", ["Sam"]),
    ("vehicle", "Traded my Honda Accord for a Kia EV6.", "Kia EV6", ["Honda Accord"]),
    ("vehicle", "Can't afford a car anymore, taking the bus.", None, ["car"]),
    ("instrument", "I gave up the trumpet and switched to the oboe.", "oboe", ["trumpet"]),
    ("study", "I changed my major to economics after a year of physics.", "economics", []),
    ("pet", "We adopted a tabby called Noodle last month.", "tabby called Noodle", []),
])
def test_a_sentence_gives_its_value_and_what_it_ends(attribute, text, value, ended):
    got = read(attribute, text)
    assert (got.value, got.ended) == (value, ended)


def test_a_name_said_ended_ends_a_value_of_that_name():
    assert read("pet", "Noodle died on Tuesday, we're heartbroken.").ends == ["Noodle"]
    assert same_value("tabby called Noodle", "Noodle") and same_value("sax", "saxophone") and not same_value("Kia", "Honda")


def test_counts_and_favourites_are_read_as_said():
    assert count("children", "We have four kids now.") == "four kids"
    assert count("books", "that brings my book count to 40") == "40"
    assert count("stamps", "I bought 6 more stamps") is None  # an increment, not how many
    assert favourite("movie", "Alien is my favourite film, no question.") == "Alien"
    assert favourite("band", "my favorite band is Blur these days") == "Blur"
    assert favourite("food", "Honestly nothing beats ramen.") == "ramen"
    assert favourite("game", "Tetris is still the best, sorry.") == "Tetris"


def _turn(i: int, speaker: str, text: str, month: int) -> Turn:
    return Turn(f"t{i}", speaker, text, datetime(2022, month, 1))


def test_the_values_said_in_order_answer_now_as_of_and_before():
    turns = [_turn(1, "Ana", "Living in Porto, loving the light.", 1), _turn(2, "Bo", "I live in Oslo.", 2),
             _turn(3, "Ana", "Big move: Lisbon is home now.", 6), _turn(4, "Ana", "Lisbon traffic, ugh.", 8)]
    assert said_value("residence", "ana", turns, None, False, False)[1] == "Lisbon"
    assert said_value("residence", "ana", turns, datetime(2022, 3, 1), False, False)[1] == "Porto"
    assert said_value("residence", "ana", turns, None, True, False)[1] == "Porto"  # the earlier value
    assert said_value("residence", "ana", turns, None, True, False, before="Lisbon")[1] == "Porto"
    assert said_value("residence", "bo", turns, None, False, False)[1] == "Oslo"


def test_a_habit_is_asked_by_its_verb_and_read_after_it():
    assert habit_asked("Where does Lea volunteer on Sundays?") == ("other:volunteer", False)
    assert habit_asked("Which club do I support?") == ("other:support", False)
    assert habit_asked("What did Caroline research?") is None  # an event in the past, no date asked
    assert habit_asked("Where does Lea live?") is None  # an attribute read elsewhere
    assert habit_value("other:volunteer", "I volunteer at the library on Sundays.") == ("library", [])
    assert habit_value("other:volunteer", "Quit the library, now I volunteer at the zoo.") == ("zoo", ["library"])


def test_a_yes_no_question_about_a_value_that_ended_is_answered_by_the_ending():
    from graphmem import Memory
    mem = Memory()
    mem.ingest([{"id": "a", "speaker": "Ines", "text": "Cycling to work at Globex again, rain or shine.", "date": "2022-01-05"},
                {"id": "b", "speaker": "Ines", "text": "Got made redundant from Globex, so that's that.", "date": "2022-06-01"}])
    answer = mem.ask("Does Ines still work for Globex?", asked_on="2022-07-01")
    assert "redundant" in answer.reply and "Globex" not in answer.reply, answer
    assert mem.ask("Does Ines still work for Globex?", asked_on="2022-02-01").reply == "Globex"


def test_how_often_is_read_as_said_in_a_clause_naming_the_thing():
    from graphmem.memory.tallies import frequency
    assert frequency("swim", "Swimming three mornings a week now, before work.") == "three mornings a week"
    assert frequency("go gym", "Gym every morning, no excuses.") == "every morning"
    assert frequency("swim", "My sister runs twice a week.") is None  # another thing
