"""Facts with time: the kind rule (what replaces what), and ``graphmem facts`` on the command line."""

from __future__ import annotations

import json
import random
from datetime import datetime

import pytest
from click.testing import CliRunner

from graphmem.cli import main
from graphmem.claims.facts import KINDS, Told, facts_of, holding, kind_of, superseded
from graphmem.domain import Claim


def _claim(predicate: str, obj: str, day: int, subject: str = "alice", negated: bool = False) -> Claim:
    return Claim(subject, predicate, obj, negated, f"I {predicate} {obj}.", f"t{day}", datetime(2023, 1, day))


@pytest.mark.parametrize("predicate, obj, kind", [
    ("live", "in Paris", ("residence", "paris")),
    ("move", "from Paris to Berlin last month", ("residence", "berlin")),
    ("work", "as a nurse", ("occupation", "nurse")),
    ("work", "at Google now", ("employer", "google")),
    ("be", "a teacher", ("occupation", "teacher")),
    ("be", "a good friend", None),
    ("drive", "a red Volvo", ("vehicle", "red volvo")),
    ("drive", "through the Icefields Parkway", None),
    ("drive", "my kids to school", None),
    ("study", "biology at UCLA", ("study", "biology")),
    ("study", "for my exams", None),
    ("major", "in computer science", ("study", "computer science")),
    ("be", "the mechanic", None),
    ("work", "on some music collaborations with Japanese artists", None),
    ("see", "Sam tomorrow", None),
    ("date", "Sam", ("partner", "sam")),
    ("live", "with my parents", None),
    ("love", "Paris", None),
])
def test_a_claims_kind_and_value(predicate, obj, kind):
    assert kind_of(_claim(predicate, obj, 1)) == kind


def test_a_negated_claim_has_no_kind():
    assert kind_of(_claim("live", "in Paris", 1, negated=True)) is None


def test_a_later_value_of_the_same_attribute_ends_the_earlier_and_nothing_else():
    claims = [_claim("live", "in Paris", 1), _claim("work", "as a nurse", 2), _claim("live", "in Paris", 3),
              _claim("move", "to Berlin", 9), _claim("live", "in Rome", 4, subject="bob")]
    assert superseded(claims) == {0: datetime(2023, 1, 9), 2: datetime(2023, 1, 9)}
    every = facts_of(claims, "alice", history=True)
    assert [(f.turn_id, f.attribute, f.value) for f in every] == [
        ("t1", "residence", "paris"), ("t3", "residence", "paris"), ("t9", "residence", "berlin"),
        ("t2", "occupation", "nurse")]
    assert [(f.valid_to, f.ended_by) for f in every] == [(datetime(2023, 1, 9), "t9")] * 2 + [(None, None)] * 2
    assert [f.turn_id for f in facts_of(claims, "alice")] == ["t2", "t9"]  # what holds now
    then = facts_of(claims, "alice", as_of=datetime(2023, 1, 5))
    assert [f.turn_id for f in then] == ["t1", "t2", "t3"] and all(f.valid_to is None for f in then)  # Berlin unknown then
    assert [f.turn_id for f in facts_of(claims, "alice", as_of=datetime(2023, 1, 9))] == ["t2", "t9"]


def test_the_same_value_said_again_replaces_nothing():
    assert superseded([_claim("live", "in Paris", 1), _claim("move", "to Paris", 5)]) == {}


def test_a_negation_ends_the_value_it_denies_and_an_affirmation_the_denial():
    claims = [_claim("work", "at Google", 1), _claim("work", "at Google anymore", 3, negated=True),
              _claim("work", "at Google again", 6)]
    every = facts_of(claims, "alice", history=True)
    assert [(f.value, f.negated, f.ended_by) for f in every] == [("google", False, "t3"), ("google", True, "t6"),
                                                                 ("google", False, None)]


def test_many_values_add_up_until_one_is_ended():
    claims = [_claim("speak", "French", 1), _claim("speak", "Spanish and German", 2),
              _claim("play", "the violin", 3), _claim("play", "the piano", 4), _claim("give", "up the violin", 5)]
    now = facts_of(claims, "alice")
    assert sorted((f.attribute, f.value) for f in now) == [
        ("instrument", "piano"), ("language", "french"), ("language", "german"), ("language", "spanish")]


SAID = [("live", "in Paris"), ("live", "in Rome"), ("move", "to Berlin"), ("work", "as a nurse"), ("be", "a teacher"),
        ("work", "at Google"), ("drive", "a red Volvo"), ("drive", "a blue Fiat"), ("date", "Sam"), ("love", "Paris"),
        ("play", "the cello"), ("sell", "the Volvo")]


def _random_claims(rng: random.Random, n: int) -> list[Claim]:
    """Claims of two people on a few days (many said the same day), of attributes and of none, some negated."""
    return [_claim(*rng.choice(SAID), rng.randint(1, 6), subject=rng.choice(("alice", "bob")),
                   negated=rng.random() < 0.1) for _ in range(n)]


def test_one_value_of_a_one_valued_attribute_holds_at_a_time():
    """On random claims: at any moment, no two facts of a one-valued attribute with different
    values both hold, and every ended fact was ended by a turn said on its valid_to."""
    rng = random.Random(7)
    for n in [*range(12), *[40] * 100]:
        claims = _random_claims(rng, n)
        said_on = {c.turn_id: c.date for c in claims}
        for who in ("alice", "bob"):
            every = facts_of(claims, who, history=True)
            for day in range(1, 8):
                held = facts_of(claims, who, as_of=datetime(2023, 1, day))
                for kind in ("residence", "occupation", "employer", "vehicle", "partner"):
                    values = {f.value for f in held if f.attribute == kind and not f.negated}
                    assert len(values) <= 1, (kind, held)
            assert all(f.valid_to is None or said_on[f.ended_by] == f.valid_to for f in every)


def test_claims_told_once_give_what_plain_claims_give():
    """A store's claims with their statements read once (``Told``, kept between calls) give the
    facts and the turns that hold that the same claims give read afresh, in any order, joined or not."""
    rng = random.Random(11)
    for _ in range(100):
        claims = _random_claims(rng, 30)
        told = Told.joined([Told.of(claims[:10]), Told.of(claims[10:]), Told.of([])])
        assert list(told) == claims and len(told) == 30 and told[3] == claims[3]
        for who in ("alice", "bob", "cy"):
            for as_of in (None, datetime(2023, 1, 3), datetime(2023, 1, 9)):
                for history in (False, True):
                    assert facts_of(told, who, as_of, history) == facts_of(claims, who, as_of, history)
                assert holding(told, who, KINDS, as_of) == holding(claims, who, KINDS, as_of)


def test_graphmem_facts_on_the_command_line(tmp_path):
    turns = tmp_path / "turns.jsonl"
    rows = [{"id": "m1", "speaker": "Alice", "text": "I live in Paris.", "date": "2023-01-10", "conversation": "c"},
            {"id": "m2", "speaker": "Bob", "text": "Lovely, Alice!", "date": "2023-01-10", "conversation": "c"},
            {"id": "m3", "speaker": "Alice", "text": "I moved from Paris to Berlin.", "date": "2023-06-02", "conversation": "c"}]
    turns.write_text("".join(json.dumps(r) + "\n" for r in rows))
    runner = CliRunner()
    listed = runner.invoke(main, ["facts", "Alice", "--data", str(turns)])
    assert listed.exit_code == 0, listed.output
    assert "residence" in listed.output and "berlin" in listed.output and "[m1]" not in listed.output
    history = runner.invoke(main, ["facts", "Alice", "--data", str(turns), "--history"])
    assert history.exit_code == 0, history.output
    assert "until 2023-06-02" in history.output and "[m1, ended by m3]" in history.output and "[m3]" in history.output
    then = runner.invoke(main, ["facts", "Alice", "--data", str(turns), "--as-of", "2023-03-01", "--json"])
    rows = [json.loads(line) for line in then.output.splitlines()]
    assert then.exit_code == 0 and [r["turn_id"] for r in rows] == ["m1"] and rows[0]["valid_to"] is None  # the move not said yet
    assert rows[0]["attribute"] == "residence" and rows[0]["value"] == "paris"
    every = runner.invoke(main, ["facts", "Alice", "--data", str(turns), "--history", "--json"])
    rows = [json.loads(line) for line in every.output.splitlines()]
    assert [(r["value"], r["valid_to"], r["ended_by"]) for r in rows] == [
        ("paris", "2023-06-02T00:00:00", "m3"), ("berlin", None, None)]
    nobody = runner.invoke(main, ["facts", "Zed", "--data", str(turns)])
    assert nobody.exit_code == 0 and "nothing held about Zed" in nobody.output
    bad = runner.invoke(main, ["facts", "Alice", "--data", str(turns), "--as-of", "someday"])
    assert bad.exit_code == 1 and len(bad.output.strip().splitlines()) == 1


def test_the_assistants_names_are_the_index_s():
    """claims/ may not import index/ (imports run downward), so facts keeps its own copy of the machine's
    role names; this keeps the two in step."""
    from graphmem.claims.facts import _ASSISTANTS
    from graphmem.index.shape import ASSISTANT_ROLES

    assert _ASSISTANTS == ASSISTANT_ROLES
