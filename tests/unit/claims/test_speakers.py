"""Dialogue of more than two speakers: "you" is the person addressed, by name or else the speaker before."""

from __future__ import annotations

import random
from datetime import datetime

from graphmem.claims.extract import extract
from graphmem.claims.people import People
from graphmem.domain import Conversation, Session, Turn

DAY = datetime(2023, 5, 8)

TRIO = [
    ("Ann", "I adopted a dog called Rex last week."),
    ("Bob", "Nice! You said you walk him every morning."),       # no vocative: the speaker before (Ann)
    ("Cy", "Ann, you went to Paris in May."),                      # a vocative over the speaker before (Bob)
    ("Bob", "Yes, and you visited Rome, Cy."),
    ("Ann", "Jo, did you finish the marathon? You trained for months."),  # named in a question, addressed after it
    ("Jo", "I did! You inspired me."),
    ("Jo", "You even ran with me."),                               # Jo again: still the speaker before Jo (Ann)
    ("Cy", "Bob, your sister Dee is lovely. Thanks, Cy!"),         # "your": Bob's sister; Cy naming Cy is no vocative
]


def _conv(lines: list[tuple[str, str]], speakers: tuple[str, ...] | None = None) -> Conversation:
    turns = tuple(Turn(f"D1:{i}", who, text, DAY, session=1) for i, (who, text) in enumerate(lines, 1))
    speakers = speakers or tuple(dict.fromkeys(who for who, _ in lines))
    return Conversation("trio", speakers, (Session(1, DAY, "", turns),), {t.id: t for t in turns})


def _about(lines: list[tuple[str, str]]) -> dict[str, list[tuple[str, str]]]:
    """Per turn, (subject, predicate) of each claim read from it."""
    out: dict[str, list[tuple[str, str]]] = {}
    for c in extract(_conv(lines)).claims:
        out.setdefault(c.turn_id, []).append((c.subject, c.predicate))
    return out


def test_you_is_whom_a_vocative_names_else_the_last_other_speaker():
    about = _about(TRIO)
    assert about["D1:2"] == [("ann", "say")]
    assert about["D1:3"] == [("ann", "go")]
    assert about["D1:4"] == [("cy", "visit")]
    assert about["D1:5"] == [("jo", "train")]
    assert ("ann", "inspire") in about["D1:6"]
    assert about["D1:7"] == [("ann", "run")]


def test_your_is_the_addressed_persons_and_a_speakers_own_name_is_no_vocative():
    claims = [c for c in extract(_conv(TRIO)).claims if c.turn_id == "D1:8"]
    naming = [c for c in claims if c.predicate == "call"]
    assert [(c.subject, c.object, c.topic) for c in naming] == [("bob", "Dee", "your sister")]


def test_addressed_is_the_last_speaker_before_who_is_not_this_one():
    people = People(("Ann", "Bob", "Cy"))
    keys = ["ann", "ann", "bob", "cy", "cy", "ann", "bob", "bob"]
    assert people.addressed(keys) == ["bob", "bob", "ann", "bob", "bob", "cy", "ann", "ann"]
    assert people.addressed(["cy"]) == ["ann"]  # no one else has spoken yet: the first speaker who is not Cy


def test_in_two_party_dialogue_you_is_always_the_other_speaker():
    people = People(("Ann", "Bob"))
    rng = random.Random(3)
    for _ in range(50):
        keys = [rng.choice(("ann", "bob")) for _ in range(rng.randint(1, 12))]
        assert people.addressed(keys) == ["bob" if k == "ann" else "ann" for k in keys]


def test_two_party_vocatives_change_nothing():
    """A vocative in two-party dialogue names the other speaker, who is addressed anyway."""
    lines = [("Ann", "Bob, you went to Paris."), ("Bob", "Thanks, Ann! You visited Rome.")]
    assert _about(lines) == {"D1:1": [("bob", "go")], "D1:2": [("ann", "visit")]}
