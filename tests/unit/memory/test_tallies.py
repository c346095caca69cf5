"""Counts, favourites and frequencies read off a sentence (graphmem.memory.tallies)."""

from __future__ import annotations

import pytest

from graphmem.memory.tallies import count, favourite, frequency


@pytest.mark.parametrize("thing, text, expected", [
    ("children", "we have three kids", "three kids"),  # kids and children meet
    ("kids", "Our third child was born in May.", "3"),  # an ordinal says how many
    ("kids", "Baby number three arrived last night!", "3"),  # "number three" with a word of birth
    ("children", "Baby number 4 is here!", "4"),
    ("kids", "Our third arrived on Friday.", "3"),  # the child unsaid
    ("species", "that brings my species count to 32", "32"),
    ("dogs", "We adopted two puppies.", "two puppies"),
    ("chickens", "We've got five hens now.", "five hens"),
])
def test_a_count_is_a_number_said_with_the_thing_s_noun(thing, text, expected):
    assert count(thing, text) == expected


@pytest.mark.parametrize("thing, text", [
    ("postcards", "I got 8 more postcards today"),  # an increment, not how many
    ("kids", "My kids are loud today."),  # the noun, no number
    ("books", "I read a book about 3 kings"),  # a number, of something else
    ("cats", "I love cats."),
    ("kids", "Baby number three is due in May."),  # not born yet
    ("kids", "Kid number two started school."),  # no birth
    ("kids", "Our third date went well, she arrived late."),  # the ordinal of something else
    ("kids", "My first marathon is here."),
])
def test_no_count_where_none_is_said(thing, text):
    assert count(thing, text) is None


@pytest.mark.parametrize("thing, text, expected", [
    ("band", "My favourite band is Radiohead, by far.", "Radiohead"),
    ("book", "Dune is my fave book now", "Dune"),
    ("colour", "my favourite color is green", "green"),  # US and UK spellings meet
    ("food", "My favorite food is sushi but I rarely eat it", "sushi"),
    ("writer", "I like Le Guin best", "Le Guin"),
    ("book", "Piranesi just replaced Dune as my favourite", "Piranesi"),
    ("writer", "Read three Ishiguro novels. He's my favourite writer now.", "Ishiguro"),  # the name before a pronoun
    ("film", "Rewatched Paddington 2. Still my favourite film.", "Paddington 2"),
])
def test_a_favourite_is_the_phrase_said_to_be_the_favourite(thing, text, expected):
    assert favourite(thing, text) == expected


@pytest.mark.parametrize("thing, text", [
    ("band", "I listened to some music today."),
    ("film", "It's my all time favourite"),  # a pronoun and no name before it
])
def test_no_favourite_where_none_is_named(thing, text):
    assert favourite(thing, text) is None


@pytest.mark.parametrize("thing, text, expected", [
    ("run", "Running twice a week now", "twice a week"),
    ("run", "four runs a week", "four runs a week"),
    ("gym", "gym every morning", "every morning"),
    ("yoga", "I do yoga daily.", "daily"),
    ("", "Piano practice once a day.", "once a day"),  # no thing asked: any frequency said
])
def test_a_frequency_is_how_often_a_clause_naming_the_thing_says(thing, text, expected):
    assert frequency(thing, text) == expected


@pytest.mark.parametrize("thing, text", [
    ("run", "I love running."),  # the thing, no frequency
    ("run", "Ran a marathon last week."),  # a date, not how often
    ("swim", "I swim, and my brother cycles every day."),  # the frequency is of another clause's thing
])
def test_no_frequency_where_none_is_said_of_the_thing(thing, text):
    assert frequency(thing, text) is None
