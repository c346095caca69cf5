"""``graphmem longmemeval --model --judge`` against the real local endpoint, on the tiny hand-made
file: the model reads the memory's top 5 of each question it is asked (the ``_abs`` one too when
the memory is above the floor there), the judge grades the answerable question's reply and not the
``_abs`` one's, and a second run asks nothing."""

from __future__ import annotations

import json

from click.testing import CliRunner

from graphmem.cli import main
from tests.unit.longmemeval import conftest as longmemeval_fixtures

tiny = longmemeval_fixtures.tiny  # the fixture, shared with tests/unit/longmemeval


def test_the_model_reads_the_judge_grades_and_a_second_run_asks_nothing(endpoint, model_name, tiny, tmp_path):
    cache, out = tmp_path / "cache", tmp_path / "answers.json"
    args = ["longmemeval", "--data", str(tiny), "--model", endpoint, "--judge", endpoint,
            "--model-cache", str(cache), "--out", str(out)]
    first = CliRunner().invoke(main, args)
    assert first.exit_code == 0, first.output
    head = f"answers (model {model_name} over the same top 5; judged by {model_name})"
    assert head in first.stdout, first.stdout
    rows = json.loads(out.read_text())["questions"]
    q1, q2 = rows
    assert q1["model_reply"] and q1["verdict"] in ("correct", "wrong", "declined", "unreadable")
    asked = [json.loads(p.read_text()) for p in sorted(cache.rglob("*.json"))]
    prompts = [a["prompt"] for a in asked]
    reading = [p for p in prompts if "Question: What is the name of my hamster?" in p and "Reference answer" not in p]
    assert len(reading) == 1 and "I just named my hamster Billy." in reading[0]
    assert q2["verdict"] == ""  # _abs: not judged
    verdicts = [p for p in prompts if "Reference answer: Billy" in p]
    assert len(verdicts) == (q1["verdict"] != "declined")
    second = CliRunner().invoke(main, args)
    assert second.exit_code == 0, second.output
    assert f"{len(asked) - len(verdicts)} from disk, 0 bought" in second.stdout
    assert json.loads(out.read_text())["questions"][0]["model_reply"] == q1["model_reply"]
