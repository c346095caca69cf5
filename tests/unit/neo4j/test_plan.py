"""What a load plans and reports (graphmem/store/neo4j/plan.py, load.py ``Counts``): the people of a
conversation are its speakers and the humans they name, not every name; a dialogue file of three
speakers plans as one of two does."""

from __future__ import annotations

import json

from graphmem.claims.build import mirror
from graphmem.data.dialogue import dialogue, turn_file
from graphmem.store.neo4j.checks import Counts
from graphmem.store.neo4j.plan import plan

TURNS = [
    {"id": "c1", "speaker": "Nate", "text": "I made coconut milk ice cream for the party.", "conversation": "friends"},
    {"id": "c2", "speaker": "Jo", "text": "My friend Jenna loved it!", "conversation": "friends"},
    {"id": "c3", "speaker": "Nate", "text": "Thanks, Jo! I adopted a dog called Rex last week.", "conversation": "friends"},
]


def _plan(tmp_path, turns):
    path = tmp_path / "turns.jsonl"
    path.write_text("".join(json.dumps(t) + "\n" for t in turns))
    (conv,) = dialogue(path, turn_file(path)).conversations
    return plan(conv, mirror(conv)[1])


def test_a_dog_named_in_a_turn_is_no_person_of_the_load_report(tmp_path):
    p = _plan(tmp_path, TURNS)
    assert {r["id"]: r["human"] for r in p.rows["merge_people"]} == {"nate": True, "jo": True, "jenna": True,
                                                                     "rex": False}
    assert (p.expected["people"], p.expected["others"]) == (3, 1)
    counts = Counts("friends", dict(p.expected), dict(p.expected))
    assert counts.ok and "   3 people (1 other named)" in counts.line()
    assert counts.nodes == 1 + p.expected["sessions"] + 3 + 4 + p.expected["assertions"]  # Rex is a node still


def test_a_third_speaker_is_a_person_of_the_load(tmp_path):
    p = _plan(tmp_path, TURNS + [{"id": "c4", "speaker": "Cy", "text": "Jo, you made my day.", "conversation": "friends"}])
    assert p.rows["merge_conversations"] == [{"id": "friends", "speakers": ["Nate", "Jo", "Cy"]}]
    assert {r["id"] for r in p.rows["merge_people"] if r["speaker"]} == {"nate", "jo", "cy"}
    assert p.expected["people"] == 4 and p.expected["spoke"] == 4
