"""The model's answers section of ``graphmem longmemeval``: scored by hand-set replies and
verdicts (the endpoint itself is tests/model's), and --judge refused without --model."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from graphmem.answer.reader import ABSTAIN
from graphmem.cli import main
from graphmem.errors import GraphmemError
from graphmem.bench.longmemeval import model
from graphmem.bench.longmemeval.report import _cell, _of, _types
from graphmem.bench.longmemeval.run import Result


def _results() -> list[Result]:
    out = [Result("q1", "single-session-user", False, "What is my hamster's name?", "Billy"),
           Result("q2", "single-session-user", False, "Where does my sister live?", "Lisbon"),
           Result("q3", "multi-session", False, "How many pets?", "two"),
           Result("q4_abs", "single-session-user", True, "What is my cat's name?", "no cat")]
    for r, reply, grade, f1 in zip(out, ["Billy", "in Porto", ABSTAIN, ABSTAIN], ["correct", "wrong", "declined", ""],
                                   [1.0, 0.0, 0.0, 0.0]):
        r.model_reply, r.verdict, r.model_f1 = reply, grade, f1
    return out


def test_the_section_counts_quiet_f1_and_j_by_type():
    results = _results()
    s = model.summary({qtype: _of(results, qtype) for qtype in _types(results)})
    user, every = s["single-session-user"], s["all"]
    assert (user["n"], user["abstention"], user["quiet_answerable"], user["quiet_abstention"]) == (3, 1, 0.0, 1.0)
    assert user["f1"] == 0.5 and user["j"] == 0.5
    assert every["j"] == 1 / 3 and every["quiet_answerable"] == 1 / 3  # the decline is graded, and wrong
    assert every["grades"] == {"correct": 1, "wrong": 1, "declined": 1, "unreadable": 0, "failed": 0}
    lines = model.render({"model": s, "model_run": {"model": "m", "judge": "j", "model_cost": "3 asked",
                                                    "judge_cost": "2 asked"}}, _cell)
    assert lines[0] == "answers (model m over the same top 5; judged by j)"
    assert any(line.startswith("  all") and line.rstrip().endswith("0.333") for line in lines), lines
    assert "  verdicts: correct 1, wrong 1, declined 1, unreadable 0, failed 0" in lines


def test_judge_without_a_model_is_one_line(tiny):
    for judge in (["--judge", "http://127.0.0.1:9/v1"], ["--judge"]):  # alone: no $GRAPHMEM_JUDGE_URL either
        result = CliRunner().invoke(main, ["longmemeval", "--data", str(tiny), *judge], env={"GRAPHMEM_JUDGE_URL": ""})
        assert result.exit_code == 1 and "Traceback" not in result.output
        assert result.output.strip() == "Error: --judge grades the model's replies: give --model too", result.output
    from graphmem.bench.longmemeval.command import longmemeval
    with pytest.raises(GraphmemError, match="give --model too"):  # the API refuses it too
        longmemeval(tiny, judge=object())
