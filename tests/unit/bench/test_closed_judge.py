"""The stats command's model sections on hand-made predictions: the closed-book difference and the judge's
bookkeeping (the judge's calls against a real endpoint: tests/model)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from graphmem.bench.model.client import Tally
from graphmem.bench.locomo import closed, judge, stats
from graphmem.bench.locomo.metric import ABSTAIN
from graphmem.cli import main
from graphmem.errors import GraphmemError
from tests.unit.bench.test_stats import q, write


@pytest.fixture
def preds_path(tmp_path):
    # graph+model beats closed by +1 on A's answerable question, 0 on B's; adversarial: +1 on A, 0 on B
    return write(tmp_path, [
        {"sample_id": "A", "qa": [q(graph="Tokyo", **{"graph+model": "Paris", "closed": "Tokyo"}),
                                  q(category=5, answer=None, graph=ABSTAIN, **{"graph+model": ABSTAIN, "closed": "Rome"})]},
        {"sample_id": "B", "qa": [q(graph="Paris", **{"graph+model": "Paris", "closed": "Paris"}),
                                  q(category=5, answer=None, graph=ABSTAIN, **{"graph+model": "Rome", "closed": "Rome"})]},
    ])


def test_closed_book_rows_are_the_pairs_of_each_model_column_with_closed(preds_path):
    preds = stats.load_predictions(preds_path)
    rows = closed.closed_book(preds)
    assert [(r["a"], r["half"]) for r in rows] == [("graph+model", "answerable"), ("graph+model", "adversarial")]
    full = {(r["a"], r["b"], r["half"]): r for r in stats.bootstrap_pairs(preds)}
    for r in rows:
        same = full[(r["a"], "closed", r["half"])]
        assert (r["diff"], r["lo"], r["hi"]) == (same["diff"], same["lo"], same["hi"])
    assert rows[0]["diff"] == pytest.approx(0.5) and (rows[0]["lo"], rows[0]["hi"]) == (0.0, 1.0)
    text = closed.render(preds)
    assert text.startswith("what the evidence adds over the closed book, mean F1 of a minus closed")
    assert "graph+model  answerable   +0.500  [+0.000, +1.000]" in text


def test_without_closed_nothing_is_added(tmp_path):
    path = write(tmp_path, [{"sample_id": "A", "qa": [q(x="Paris", y="Tokyo")]}])
    preds = stats.load_predictions(path)
    assert closed.closed_book(preds) == [] and closed.render(preds) == "" and closed.as_json(preds) == {}
    out = CliRunner().invoke(main, ["stats", str(path)])
    assert out.output == stats.report(preds) + "\n"


def test_stats_prints_and_writes_the_closed_book_section(preds_path):
    out = CliRunner().invoke(main, ["stats", str(preds_path)])
    assert out.exit_code == 0 and "what the evidence adds over the closed book" in out.output
    payload = json.loads(CliRunner().invoke(main, ["stats", str(preds_path), "--json"]).output)
    assert [r["half"] for r in payload["closed_book"]] == ["answerable", "adversarial"]


@pytest.mark.parametrize("reply, grade", [
    ("CORRECT", True), ("correct.", True), ("Wrong", False), ("INCORRECT", False),
    ("The reply is correct", True), ("wrong, not correct", False), ("yes", None), (None, None),
])
def test_verdict_is_the_first_verdict_word(reply, grade):
    assert judge.verdict(reply) is grade


def test_judge_prompt_holds_question_reference_and_reply():
    p = judge.judge_prompt(" When? ", "8 May, 2023", " 7 May ")
    assert "Question: When?\nReference answer: 8 May, 2023\nReply: 7 May\n" in p
    assert p.endswith("CORRECT or WRONG.")


def test_judged_arms_default_to_the_model_columns(preds_path):
    preds = stats.load_predictions(preds_path)
    assert judge.judged_arms(preds, None) == ["graph+model", "closed"]
    assert judge.judged_arms(preds, "graph, closed") == ["graph", "closed"]
    with pytest.raises(GraphmemError, match="no arm nope to judge"):
        judge.judged_arms(preds, "nope")


class _Reader:
    """Stands in for the model reader: grades by whether the reply is the reference, records prompts."""

    name = "stub-judge"

    class client:  # noqa: N801
        chat_url = "http://stub/v1/chat/completions"

    def __init__(self):
        self.asked: list[str] = []

    def replies(self, prompts, progress=None):
        self.asked += prompts
        return ["CORRECT" if "Reference answer: Paris\nReply: Paris\n" in p else "hmm" if "Tokyo" in p else "WRONG"
                for p in prompts], Tally(asked=len(set(prompts)), bought=len(set(prompts)))


def test_judge_asks_only_answerable_non_declining_replies_and_counts_openly(tmp_path):
    path = write(tmp_path, [{"sample_id": "A", "qa": [
        q(x="Paris"), q(x="Tokyo"), q(x=ABSTAIN), q(x=""), q(x="Rome"), q(category=5, answer=None, x="Paris")]}])
    reader = _Reader()
    result = judge.judge(stats.load_predictions(path), ["x"], reader)
    assert len(reader.asked) == 3  # Paris, Tokyo, Rome: not the declines, not the adversarial question
    c = result.arms["x"]
    assert (c.n, c.correct, c.declined, c.unreadable, c.failed) == (5, 1, 2, 1, 0) and c.j == pytest.approx(0.2)
    text = judge.render(result)
    assert "judge stub-judge at http://stub/v1/chat/completions" in text and "reported apart from F1" in text
    assert judge.as_json(result)["judge"]["arms"]["x"]["j"] == pytest.approx(0.2)
