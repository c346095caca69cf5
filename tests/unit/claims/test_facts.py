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


def test_a_later_value_of_the_same_kind_ends_the_earlier_and_nothing_else():
    claims = [_claim("live", "in Paris", 1), _claim("work", "as a nurse", 2), _claim("live", "in Paris", 3),
              _claim("move", "to Berlin", 9), _claim("live", "in Rome", 4, subject="bob")]
    assert superseded(claims) == {0: datetime(2023, 1, 9), 2: datetime(2023, 1, 9)}
    facts = facts_of(claims, "alice")
    assert [f.turn_id for f in facts] == ["t1", "t2", "t3", "t9"]
    assert [f.valid_to for f in facts] == [datetime(2023, 1, 9), None, datetime(2023, 1, 9), None]
    assert [f.turn_id for f in facts_of(claims, "alice", as_of=datetime(2023, 1, 5))] == ["t1", "t2", "t3"]
    assert [f.turn_id for f in facts_of(claims, "alice", as_of=datetime(2023, 1, 9))] == ["t2", "t9"]


def test_the_same_value_said_again_replaces_nothing():
    assert superseded([_claim("live", "in Paris", 1), _claim("move", "to Paris", 5)]) == {}


def _pairwise(claims: list[Claim]) -> dict[int, datetime]:
    """The rule as first written, every claim against every other: what one pass must give."""
    latest: dict[tuple[str, str], tuple[int, str]] = {}
    out: dict[int, datetime] = {}
    for i in sorted(range(len(claims)), key=lambda i: (claims[i].date, i)):
        said = kind_of(claims[i])
        if said is None:
            continue
        key = (claims[i].subject, said[0])
        earlier = latest.get(key)
        if earlier is not None and earlier[1] != said[1]:
            for j, c in enumerate(claims):
                if j not in out and c.subject == key[0] and c.date <= claims[i].date and j != i:
                    other = kind_of(c)
                    if other is not None and other[0] == said[0] and other[1] != said[1]:
                        out[j] = claims[i].date
        latest[key] = (i, said[1])
    return out


SAID = [("live", "in Paris"), ("live", "in Rome"), ("move", "to Berlin"), ("work", "as a nurse"), ("be", "a teacher"),
        ("work", "at Google"), ("drive", "a red Volvo"), ("drive", "a blue Fiat"), ("date", "Sam"), ("love", "Paris")]


def _random_claims(rng: random.Random, n: int) -> list[Claim]:
    """Claims of two people on a few days (many said the same day), of kinds and of none, some negated."""
    return [_claim(*rng.choice(SAID), rng.randint(1, 6), subject=rng.choice(("alice", "bob")),
                   negated=rng.random() < 0.1) for _ in range(n)]


def test_one_pass_ends_what_the_pairwise_rule_ends():
    """Same-day claims end each other both ways, a value said again ends nothing, and every person
    and kind keeps its own order: on random claims the one pass gives the pairwise rule's ends."""
    rng = random.Random(7)
    for n in [*range(12), *[40] * 200]:
        claims = _random_claims(rng, n)
        want = _pairwise(claims)
        assert superseded(claims) == want, claims
        assert superseded(claims, [kind_of(c) for c in claims]) == want


def test_claims_told_once_give_what_plain_claims_give():
    """A store's claims with their kinds and facts made once (``Told``, kept between calls) give the
    facts and the turns that hold that the same claims give read afresh, in any order, joined or not."""
    rng = random.Random(11)
    for _ in range(100):
        claims = _random_claims(rng, 30)
        told = Told.joined([Told.of(claims[:10]), Told.of(claims[10:]), Told.of([])])
        assert list(told) == claims and len(told) == 30 and told[3] == claims[3]
        for who in ("alice", "bob", "cy"):
            for as_of in (None, datetime(2023, 1, 3), datetime(2023, 1, 9)):
                assert facts_of(told, who, as_of) == facts_of(claims, who, as_of)
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
    assert "until 2023-06-02" in listed.output and "[m1]" in listed.output and "[m3]" in listed.output
    then = runner.invoke(main, ["facts", "Alice", "--data", str(turns), "--as-of", "2023-03-01", "--json"])
    rows = [json.loads(line) for line in then.output.splitlines()]
    assert then.exit_code == 0 and [r["turn_id"] for r in rows] == ["m1"] and rows[0]["valid_to"] is None  # the move not said yet
    nobody = runner.invoke(main, ["facts", "Zed", "--data", str(turns)])
    assert nobody.exit_code == 0 and "nothing held about Zed" in nobody.output
    bad = runner.invoke(main, ["facts", "Alice", "--data", str(turns), "--as-of", "someday"])
    assert bad.exit_code == 1 and len(bad.output.strip().splitlines()) == 1
