"""The model reader against the real local endpoint, on a handful of LoCoMo questions.

What is held here, each against a real server: the prompt the bench sends (the cited turns'
dates, speakers and words; the question; the answer shape), the tidy step on real replies, the
disk cache (a second run asks nothing: it runs against a dead port), the failure count when the
server is stopped mid-run, the one-line errors, and the judge's mechanics.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from graphmem.bench.model.reader import SHAPE, tidy, when
from graphmem.bench.model.cache import AnswerCache
from graphmem.bench.model.client import ModelClient, ModelReader, ModelSettings
from graphmem.answer.reader import ABSTAIN
from graphmem.bench.locomo.sample import stratified
from graphmem.cli import main
from graphmem.errors import ModelUnavailable
from tests.model.conftest import REPO, served

SAMPLE = ["--sample", "6", "--seed", "1", "--arms", "oracle"]


def _cached(cache: Path) -> list[dict]:
    return [json.loads(p.read_text()) for p in sorted(cache.rglob("*.json"))]


@pytest.fixture(scope="module")
def run(endpoint, locomo_path, tmp_path_factory):
    """One real bench run with the model: its output, predictions file and cache directory."""
    tmp = tmp_path_factory.mktemp("model-run")
    cache, out = tmp / "cache", tmp / "answers.json"
    result = CliRunner().invoke(main, ["bench", "--data", str(locomo_path), *SAMPLE, "--model", endpoint,
                                       "--model-cache", str(cache), "--out", str(out)])
    assert result.exit_code == 0, result.output
    return result.stdout, out, cache


def test_the_bench_prints_model_columns_and_the_run_line(run, model_name, endpoint):
    output, out, cache = run
    assert "oracle+model" in output and "closed" in output
    line = next(ln for ln in output.splitlines() if ln.startswith("model "))
    assert line.startswith(f"model {model_name} at {endpoint}/chat/completions: ")
    asked = len(_cached(cache))
    assert f"{asked} asked, 0 from disk, {asked} bought, 0 failed" in line
    assert any(ln.startswith("model cost: ") and "questions/s" in ln and "prompt tokens" in ln for ln in output.splitlines())


def test_the_prompt_holds_the_cited_turns_and_the_question(run, dataset, model_name):
    _, out, cache = run
    kept = {r["prompt"]: r for r in _cached(cache)}
    assert all(r["model"] == model_name and r["max_tokens"] == 32 for r in kept.values())
    sampled = stratified(dataset, 6, 1)
    rows = {q["question"]: q for s in json.loads(out.read_text()) for q in s["qa"]}
    asked_with_evidence = 0
    for conv in sampled.conversations:
        for q in conv.questions:
            row = rows[q.text]
            assert any(q.text.strip() in p for p in kept)  # closed asks every question
            mine = [p for p in kept if f"Question: {q.text.strip()}\n" in p and "turns from a conversation" in p]
            if row["oracle_confidence"] < 0.30 or not q.evidence:
                assert not mine  # below the floor no model is asked
                assert row["oracle+model_prediction"] == ABSTAIN
                continue
            asked_with_evidence += 1
            (prompt,) = mine
            assert SHAPE in prompt
            for dia in q.evidence[:5]:
                t = conv.turn_by_id[dia]
                assert f"[{when(t.date)}] {t.speaker}: {' '.join(t.text.split())}" in prompt
    assert asked_with_evidence > 0


def test_replies_are_the_tidied_raw_replies(run):
    _, out, cache = run
    kept = _cached(cache)
    tidied = {tidy(r["reply"]) or ABSTAIN for r in kept}
    rows = [q for s in json.loads(out.read_text()) for q in s["qa"]]
    for q in rows:
        for arm in ("oracle+model", "closed"):
            assert q[f"{arm}_prediction"] in tidied | {ABSTAIN}
    assert all(r["prompt_tokens"] > 0 for r in kept)


def test_a_second_run_is_answered_from_disk_without_any_request(run, locomo_path, model_name, tmp_path):
    _, out, cache = run
    again = tmp_path / "again.json"
    # port 9 has nothing listening: any request would fail the run
    result = CliRunner().invoke(main, ["bench", "--data", str(locomo_path), *SAMPLE, "--model", "http://127.0.0.1:9/v1",
                                       "--model-name", model_name, "--model-cache", str(cache), "--out", str(again)])
    assert result.exit_code == 0, result.output
    asked = len(_cached(cache))
    assert f"{asked} asked, {asked} from disk, 0 bought, 0 failed" in result.output
    assert again.read_bytes() == out.read_bytes()


def test_stopping_the_server_mid_run_counts_failures(locomo_path, tmp_path):
    port = "8097"
    env = {**os.environ, "GRAPHMEM_MODEL_PORT": port, "GRAPHMEM_MODEL_LOCAL_DIR": str(tmp_path / "srv")}
    script = str(REPO / "scripts" / "model-local")
    subprocess.run(["bash", script, "start"], env=env, check=True, capture_output=True, timeout=180)
    url = f"http://127.0.0.1:{port}/v1"
    try:
        reader = ModelReader(ModelSettings(url, retries=1, backoff=0.1, give_up=3), AnswerCache(tmp_path / "c"))

        def stop_after_two(done: int, total: int) -> None:
            if done == 2:
                subprocess.run(["bash", script, "stop"], env=env, check=True, capture_output=True, timeout=60)

        prompts = [f"Name a colour. Reply with one word. ({i})" for i in range(8)]
        replies, tally = reader.replies(prompts, stop_after_two)
    finally:
        subprocess.run(["bash", script, "stop"], env=env, capture_output=True, timeout=60)
    assert tally.bought >= 2 and tally.failed >= 1
    assert tally.bought + tally.failed == tally.asked == 8
    assert replies.count(None) == tally.failed
    assert f"{tally.failed} failed (counted as declines; last error: model endpoint {url}/chat/completions" in tally.line()
    assert served(url) is None


def test_errors_are_one_line_naming_the_url(endpoint, locomo_path, tmp_path):
    root = endpoint.rsplit("/v1", 1)[0]
    wrong = root + "/nowhere"
    result = CliRunner().invoke(main, ["bench", "--data", str(locomo_path), *SAMPLE, "--model", wrong,
                                       "--model-name", "m", "--model-cache", str(tmp_path)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    last = result.output.strip().splitlines()[-1]
    assert last.startswith(f"Error: model endpoint {wrong}/v1/chat/completions: HTTP 404")
    # an error body: a prompt longer than the server's context
    with pytest.raises(ModelUnavailable) as err:
        ModelClient(ModelSettings(endpoint, retries=0)).chat("word " * 5000, "m")
    assert str(err.value).startswith(f"model endpoint {endpoint}/chat/completions: ") and "\n" not in str(err.value)


def test_the_judge_grades_names_itself_and_keeps_verdicts(run, endpoint, model_name, tmp_path):
    _, out, _ = run
    args = ["stats", str(out), "--judge", endpoint, "--judge-arms", "oracle+model,oracle",
            "--model-cache", str(tmp_path)]
    first = CliRunner().invoke(main, args)
    assert first.exit_code == 0, first.output
    assert f"LLM judge J, answerable questions, judge {model_name} at {endpoint}/chat/completions" in first.output
    assert "what the evidence adds over the closed book" in first.output
    rows = [q for s in json.loads(out.read_text()) for q in s["qa"] if q["category"] != 5]
    asking = {(q["question"], q[f"{a}_prediction"]) for q in rows for a in ("oracle+model", "oracle")
              if "no information available" not in q[f"{a}_prediction"].lower() and q[f"{a}_prediction"].strip()}
    verdicts = _cached(tmp_path)
    assert 0 < len(verdicts) <= len(asking)
    assert all("Reference answer: " in v["prompt"] and "CORRECT or WRONG" in v["prompt"] for v in verdicts)
    line = next(ln for ln in first.stdout.splitlines() if ln.startswith("judge: "))
    assert f"{len(verdicts)} bought, 0 failed" in line
    section = first.stdout.split("LLM judge J", 1)[1].splitlines()
    for arm in ("oracle+model", "oracle"):
        cells = next(ln for ln in section if ln.strip().startswith(arm + " ")).split()
        j, n, correct, declined, unreadable, failed = float(cells[1]), *map(int, cells[2:])
        assert n == len(rows) and correct + declined + unreadable + failed <= n and j == pytest.approx(correct / n, abs=5e-4)
    second = CliRunner().invoke(main, args)
    assert f"{len(verdicts)} from disk, 0 bought" in second.stdout
    strip = lambda text: [ln for ln in text.splitlines() if not ln.startswith("judge: ")]  # noqa: E731
    assert strip(second.stdout) == strip(first.stdout)
