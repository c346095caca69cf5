"""``graphmem longmemeval`` through click's CliRunner: a tiny file end to end, and one-line errors."""

from __future__ import annotations

import json

from click.testing import CliRunner

from graphmem.cli import main
from tests.conftest import need_meaning


def _one_line_error(result, *needles):
    assert result.exit_code != 0
    assert "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1, result.output
    for needle in needles:
        assert needle in result.output, result.output


def test_tiny_file_end_to_end(tiny, tmp_path):
    out = tmp_path / "answers.json"
    result = CliRunner().invoke(main, ["longmemeval", "--data", str(tiny), "--out", str(out)])
    assert result.exit_code == 0, result.output
    text = result.output
    assert "2 questions" in text
    assert "retrieval, turn level, all turns" in text and "retrieval, session level, official view (user turns)" in text
    assert "bm25-sessions" in text and "index build:" in text
    rows = json.loads(out.read_text())["questions"]
    q1, q2 = rows
    assert q2["abstention"] and "all/turn/memory" not in q2["retrieval"]  # _abs: nothing to find
    assert set(q1["retrieval"]["all/turn/memory"]) >= {"recall_any@1", "recall_all@10", "ndcg@5"}
    assert q1["retrieval"]["all/session/memory"]["recall_any@1"] == 1.0  # the hamster session comes first
    assert q1["top"]["all/memory"][0].startswith("e1/")


def test_json_summary(tiny):
    result = CliRunner().invoke(main, ["longmemeval", "--data", str(tiny), "--json", "--limit", "1"])
    assert result.exit_code == 0, result.output
    s = json.loads(result.output)
    assert s["questions"] == 1
    assert s["retrieval"]["all/turn"]["all"]["memory"]["n"] == 1
    assert s["answers"]["all"]["answerable"] == 1


def test_the_meaning_confidence_judges_a_chat_with_an_assistant(tiny, tmp_path):
    """--confidence meaning: every question's answer judged by its cosine, the header says so."""
    need_meaning()
    out = tmp_path / "answers.json"
    result = CliRunner().invoke(main, ["longmemeval", "--data", str(tiny), "--confidence", "meaning",
                                       "--meaning-floor", "0.5", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "2 questions, meaning confidence (floor 0.50) on 2" in result.output.splitlines()[0]
    rows = json.loads(out.read_text())
    assert rows["summary"]["confidence"] == "meaning" and rows["summary"]["measures"] == {"meaning": 2}
    q1 = rows["questions"][0]
    assert q1["measure"] == "meaning" and 0.5 < q1["confidence"] <= 1.0 and not q1["quiet"]


def test_missing_file_is_one_line(tmp_path):
    missing = tmp_path / "nope.json"
    result = CliRunner().invoke(main, ["longmemeval", "--data", str(missing)])
    _one_line_error(result, str(missing), "no such file", "longmemeval_s_cleaned.json")


def test_no_data_anywhere_says_where_to_get_it(tmp_path, monkeypatch, no_shared):
    monkeypatch.delenv("GRAPHMEM_LONGMEMEVAL", raising=False)
    monkeypatch.setenv("GRAPHMEM_SHARED", str(tmp_path))
    result = CliRunner().invoke(main, ["longmemeval"])
    _one_line_error(result, "no LongMemEval data", "xiaowu0162/longmemeval-cleaned")


def test_malformed_files_are_one_line(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("[{not json")
    _one_line_error(CliRunner().invoke(main, ["longmemeval", "--data", str(bad)]), str(bad), "not JSON")
    bad.write_text(json.dumps([{"question_id": "q9"}]))
    _one_line_error(CliRunner().invoke(main, ["longmemeval", "--data", str(bad)]), str(bad),
                    "question 0 (id 'q9'): missing 'question_type'")
    gz = tmp_path / "bad.json.gz"
    gz.write_bytes(b"\x1f\x8b\x08\x00garbage")
    _one_line_error(CliRunner().invoke(main, ["longmemeval", "--data", str(gz)]), str(gz))


def test_without_the_extra_it_stops_at_once_with_the_pip_command(tiny, monkeypatch):
    """Before, the missing bm25s was met after every question's memory had been built (a minute of work)."""
    import importlib.util

    from graphmem.bench.longmemeval import command

    found = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "bm25s" else found(name, *a))
    monkeypatch.setattr(command, "longmemeval", lambda *a, **k: (_ for _ in ()).throw(AssertionError("ran")))
    result = CliRunner().invoke(main, ["longmemeval", "--data", str(tiny)])
    _one_line_error(result, "graphmem longmemeval needs bm25s for its BM25 baseline: pip install 'graphmem[longmemeval]'")


def test_progress_is_drawn_on_a_terminal_only(tiny, monkeypatch):
    from graphmem import progress

    piped = CliRunner().invoke(main, ["longmemeval", "--data", str(tiny), "--json"])
    assert piped.exit_code == 0, piped.output
    assert piped.stderr == ""  # CliRunner's stderr is no terminal: nothing but the report
    monkeypatch.setattr(progress, "shown", lambda quiet=False, stream=None: not quiet)
    shown = CliRunner().invoke(main, ["longmemeval", "--data", str(tiny), "--json"])
    assert "questions" in shown.stderr and "/2" in shown.stderr
    untimed = lambda out: {k: v for k, v in json.loads(out).items() if "cpu" not in k and "seconds" not in k}  # noqa: E731
    assert untimed(shown.stdout) == untimed(piped.stdout)  # the report is the same; only stderr gained the bar
    quiet = CliRunner().invoke(main, ["longmemeval", "--data", str(tiny), "--json", "--quiet"])
    assert quiet.stderr == ""
