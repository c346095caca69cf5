"""bench/what_holds.py and its helper bench/holds_score.py: the matcher, one tiny scenario scored
through a real Memory, and the development set's file checked whole."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, REPO / "bench" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


hs = _load("holds_score")
wh = _load("what_holds")


@pytest.mark.parametrize("text, value", [
    ("My favourite colour is GREEN now.", "favorite color"),
    ("my favorite color is green", "favourite colour"),
    ("I have 3 kids", "three kids"),
    ("three kids", "3"),
    ("She moved to São Paulo.", "sao paulo"),
    ("works for the N.H.S.", "n h s"),
    ("I drive a Tesla!", "tesla"),
    ("an old Honda Civic", "the honda civic"),
    ("I don't eat meat anymore", "don't eat meat"),
    ("Fontaines D.C. are my favourite band", "fontaines"),
    ("grey", "gray"),
])
def test_contains_folds_case_punctuation_articles_spelling_numbers(text, value):
    assert hs.contains(text, value)


@pytest.mark.parametrize("text, value", [
    ("category", "cat"),
    ("cats and dogs", "cat"),      # no plural folding: values list both when both are right
    ("Porto", "lisbon"),
    ("Paris Berlin", "berlin paris"),  # order matters
    ("anything", ""),
    ("anything", "the"),            # only an article: no words, never matches
])
def test_contains_refuses_partial_words_order_and_empty_values(text, value):
    assert not hs.contains(text, value)


def scenario(**over):
    row = {"id": "s1", "attribute": "residence", "shape": "dialogue",
           "turns": [{"id": "t1", "speaker": "Ann", "text": "I live in Paris.", "date": "2023-01-10"},
                     {"id": "t2", "speaker": "Bob", "text": "Paris is lovely, Ann!", "date": "2023-01-10"},
                     {"id": "t3", "speaker": "Ann", "text": "I moved from Paris to Berlin.", "date": "2023-06-02"}],
           "questions": [{"question": "Where does Ann live?", "asked_on": "2023-07-01", "expect": "now",
                          "answers": ["berlin"], "stale": ["paris"]}],
           "facts": [{"person": "Ann", "as_of": "2023-03-01", "holds": ["paris"], "ended": ["berlin"]}]}
    row.update(over)
    return row


class Reply:
    def __init__(self, reply, source="", cited=()):
        self.reply, self.source, self.cited = reply, source, cited


class Fact:
    def __init__(self, predicate, obj, start, end=None, negated=False):
        from datetime import datetime
        self.predicate, self.object, self.negated = predicate, obj, negated
        self.valid_from = datetime.fromisoformat(start)
        self.valid_to = datetime.fromisoformat(end) if end else None


class Fake:
    """A memory that answers with set replies and facts: the judging, apart from any version of graphmem."""
    def __init__(self, reply, facts=()):
        self._reply, self._facts = reply, list(facts)

    def ingest(self, records):
        return len(list(records))

    def ask(self, question, asked_on=None, user=None):
        return self._reply

    def facts(self, person, as_of=None, user=None, history=False):
        """Its facts as given (what holds and the history alike: the judging reads their dates)."""
        return self._facts


def test_judging_right_stale_mixed_abstained_and_leaks():
    s = hs.check(scenario(), "here")
    q = s.questions[0]
    assert hs.ask_one(Fake(Reply("to Berlin", "t3")), s, q, None).right
    stale = hs.ask_one(Fake(Reply("in Paris", "t1")), s, q, None)
    assert stale.stale and not stale.right
    mixed = hs.ask_one(Fake(Reply("from Paris to Berlin", "t3")), s, q, None)
    assert not mixed.right and not mixed.stale
    abst = hs.ask_one(Fake(Reply(hs.ABSTAIN, "", ("t3",))), s, q, None)
    assert abst.abstained and not abst.right and not abst.leak
    early = dict(q, asked_on="2023-03-01", expect="as_of", answers=["paris"], stale=["berlin"])
    assert hs.ask_one(Fake(Reply("to Berlin", "", ("default/t3",))), s, early, None).leak
    assert not hs.ask_one(Fake(Reply("in Paris", "t1")), s, early, None).leak


def test_facts_right_needs_every_held_value_and_no_ended_one():
    check = {"person": "Ann", "as_of": "2023-03-01", "holds": ["paris"], "ended": ["berlin"]}
    ended_later = Fact("live", "in Paris", "2023-01-10", "2023-06-02")
    assert hs.fact_right(Fake(None, [ended_later]), check, None)
    assert not hs.fact_right(Fake(None, [ended_later, Fact("move", "to Berlin", "2023-01-10")]), check, None)
    assert not hs.fact_right(Fake(None, [Fact("live", "in Paris", "2023-01-10", "2023-02-01")]), check, None)
    assert not hs.fact_right(Fake(None, [Fact("live", "in Paris", "2023-01-10", negated=True)]), check, None)
    assert not hs.fact_right(Fake(None, []), check, None)
    end_only = dict(check, holds=[], ended=["paris"], as_of="2023-07-01")
    assert hs.fact_right(Fake(None, [ended_later]), end_only, None)
    assert not hs.fact_right(Fake(None, []), end_only, None)  # never read: no end to check


def test_a_real_memory_scores_and_tallies():
    from graphmem import Memory
    s = hs.check(scenario(), "here")
    results, facts = hs.score(Memory, s)
    assert len(results) == 1 and len(facts) == 1
    figures = wh.tally([(s, results, facts)])
    assert figures["n"] == 1 and figures["q"] == 1 and figures["now_n"] == 1 and figures["as_of"] is None


@pytest.mark.parametrize("change, message", [
    ({"shape": "four"}, "unknown attribute"),
    ({"questions": []}, "needs turns and questions"),
    ({"turns": [{"id": "t1", "speaker": "A", "text": "x", "date": "2023-02-01"},
                {"id": "t2", "speaker": "A", "text": "y", "date": "2023-01-01"}]}, "out of date order"),
    ({"facts": [{"person": "Ann", "as_of": "2023-03-01", "holds": [], "ended": []}]}, "names a value"),
    ({"questions": [{"question": "q", "asked_on": "soon", "expect": "now", "answers": ["a"], "stale": []}]},
     "not an ISO date"),
])
def test_check_refuses_a_wrong_scenario_naming_it(change, message):
    with pytest.raises(ValueError, match=message):
        hs.check(scenario(**change), "f.jsonl:3")


def test_load_names_file_and_line(tmp_path):
    path = tmp_path / "x.jsonl"
    path.write_text(json.dumps(scenario()) + "\n{oops\n")
    with pytest.raises(ValueError, match=r"x.jsonl:2: not JSON"):
        hs.load(path)


def test_the_development_set_is_whole():
    scenarios = hs.load(REPO / "bench" / "data" / "what_holds" / "dev.jsonl")
    assert len(scenarios) >= 70
    assert {s.attribute for s in scenarios} == set(hs.ATTRIBUTES)
    assert {s.shape for s in scenarios} == set(hs.SHAPES)
    expects = [q["expect"] for s in scenarios for q in s.questions]
    assert {"now", "as_of", "earlier"} <= set(expects)
    for s in scenarios:
        speakers = {t["speaker"] for t in s.turns}
        assert {f["person"] for f in s.facts} <= speakers, s.id
        last = max(t["date"] for t in s.turns)
        for q in s.questions:
            if q["expect"] == "as_of":  # between the changes: some turn said after it
                assert q["asked_on"] < last, s.id


@pytest.mark.parametrize("split, least", [("dev", 70), ("dev_facts", 20), ("test", 30)])
def test_every_value_was_said(split, least):
    """Each question has a right value said by the day it is asked, each stale value is said in the
    scenario, each facts value by that person: a scenario no memory could answer is a typo. For the
    held-out split only that, and its size: its contents are for scoring, not for reading."""
    scenarios = hs.load_split(REPO / "bench" / "data" / "what_holds", split)  # dev: dev.jsonl and dev_ask.jsonl
    assert len(scenarios) >= least
    for s in scenarios:
        for q in s.questions:
            said = [t["text"] for t in s.turns if t["date"] <= q["asked_on"]]
            assert any(hs.contains(t, a) for t in said for a in q["answers"]), (s.id, q["question"])
            assert all(any(hs.contains(t["text"], v) for t in s.turns) for v in q["stale"]), (s.id, q["question"])
        for f in s.facts:
            own = [t["text"] for t in s.turns if t["speaker"] == f["person"]]
            assert all(any(hs.contains(t, v) for t in own) for v in f["holds"] + f["ended"]), (s.id, f)


def test_a_wrong_file_stops_with_one_line_naming_it(tmp_path, capsys):
    (tmp_path / "dev.jsonl").write_text(json.dumps(scenario()) + "\n" + json.dumps(scenario(shape="four")) + "\n")
    with pytest.raises(SystemExit) as stop:
        wh.main(["--split", "dev", "--data", str(tmp_path)])
    assert "dev.jsonl:2 (s1): unknown attribute" in str(stop.value.code)


def test_a_split_reads_every_file_of_its_name_and_refuses_an_id_twice(tmp_path):
    (tmp_path / "dev.jsonl").write_text(json.dumps(scenario()) + "\n")
    (tmp_path / "dev_more.jsonl").write_text(json.dumps(scenario(id="s2")) + "\n")
    assert [s.id for s in hs.load_split(tmp_path, "dev")] == ["s1", "s2"]
    assert [s.id for s in hs.load_split(tmp_path, "dev_more")] == ["s2"]
    (tmp_path / "dev_again.jsonl").write_text(json.dumps(scenario()) + "\n")
    with pytest.raises(ValueError, match="dev_again.jsonl: scenario id 's1' repeats one of dev.jsonl"):
        hs.load_split(tmp_path, "dev")
    with pytest.raises(ValueError, match="no test\\*.jsonl"):
        hs.load_split(tmp_path, "test")


def test_the_table_prints_every_figure(tmp_path, capsys):
    (tmp_path / "dev.jsonl").write_text(json.dumps(scenario()) + "\n")
    wh.main(["--split", "dev", "--data", str(tmp_path), "--show", "1"])
    out = capsys.readouterr().out
    assert "dev: 1 scenarios, 1 questions" in out and "residence" in out and "leaks: 0 of 0" in out


def test_every_dev_file_is_read_and_each_gets_its_row(tmp_path, capsys):
    (tmp_path / "dev.jsonl").write_text(json.dumps(scenario()) + "\n")
    (tmp_path / "dev_more.jsonl").write_text(json.dumps(scenario(id="s2")) + "\n")
    wh.main(["--split", "dev", "--data", str(tmp_path), "--show-facts", "2"])
    out = capsys.readouterr().out
    assert "dev: 2 scenarios, 2 questions" in out
    assert "\ndev    " in out and "\ndev_more " in out
