"""Who is a person: a speaker, or a third party introduced as a human and never as an animal or a thing."""

from __future__ import annotations

from datetime import datetime

import pytest

from graphmem.claims.extract import extract
from graphmem.claims.naming import persons
from graphmem.domain import Conversation, Session, Turn

DAY = datetime(2023, 5, 8)


def _persons(*lines: tuple[str, str]) -> tuple[set[str], set[str]]:
    """(the people, every named party) of a conversation of (speaker, text) lines."""
    turns = tuple(Turn(f"D1:{i}", who, text, DAY, session=1) for i, (who, text) in enumerate(lines, 1))
    conv = Conversation("c", tuple(dict.fromkeys(who for who, _ in lines)), (Session(1, DAY, "", turns),))
    reading = extract(conv)
    return set(persons(reading.people, reading.claims)), set(reading.people.keys)


def test_rex_the_dog_is_named_but_no_person_and_a_friend_named_is_one():
    people, named = _persons(("Nate", "Thanks, Jo! I adopted a dog called Rex last week."),
                             ("Jo", "My friend Jenna has a dog too."), ("Nate", "Rex loves the park."))
    assert named == {"nate", "jo", "rex", "jenna"}
    assert people == {"nate", "jo", "jenna"}


@pytest.mark.parametrize("text, name, person", [
    ("My sister Ann is visiting.", "ann", True),
    ("I met someone named David at the event.", "david", True),
    ("Our one-year-old is so cute, his name is Kyle!", "kyle", True),  # the noun before the name
    ("My cat Luna sleeps all day.", "luna", False),
    ("We got a puppy named Pixie.", "pixie", False),
    ("Oscar, my guinea pig, is great.", "oscar", False),
    ("I adopted a pup last week. I named it Ned.", "ned", False),  # "it": a thing or an animal
    ("My faithful furry friend Daisy lay down next to me.", "daisy", False),  # an animal word wins over "friend"
    ("Max is my mother's cat.", "max", False),  # the cat is named, not the mother
    ("Her name is Coco and she's adorable.", "coco", False),  # no kind said: no evidence of a person
])
def test_an_introduction_says_what_the_named_party_is(text, name, person):
    people, named = _persons(("Zoe", "Hello!"), ("Bob", text))
    assert name in named
    assert (name in people) is person


def test_a_speaker_is_a_person_whatever_else_is_said():
    people, _ = _persons(("Rex", "Woof, I mean hello."), ("Bob", "Hi Rex! My dog Rex would like you."))
    assert "rex" in people and "bob" in people


def test_one_animal_introduction_outweighs_a_human_one():
    people, named = _persons(("Ann", "My buddy Toby came along."), ("Bob", "Nice!"), ("Ann", "Toby, my puppy, loved it."))
    assert "toby" in named and "toby" not in people
