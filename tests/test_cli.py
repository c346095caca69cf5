"""The command line, through click's CliRunner."""

import json

from click.testing import CliRunner

from graphmem.cli import main


def test_bench_prints_settings_table_and_timing(locomo_path, tmp_path):
    out = tmp_path / "answers.json"
    result = CliRunner().invoke(main, ["bench", "--data", str(locomo_path), "--arms", "vector,oracle", "--out", str(out), "--show", "1"])
    assert result.exit_code == 0, result.output
    text = result.output
    assert "k=5 floor=0.30 span=4 band=0.90 parts=2" in text
    for row in ["single hop       841", "multi hop        282", "temporal         321", "open domain       96",
                "adversarial      446", "answerable      1540", "overall         1986"]:
        assert row in text
    assert "F1 recall  quiet" in text
    assert "evidence: 5 ids repaired, 4 dropped" in text
    assert "cpu " in text and "wall " in text
    assert "[adversarial]" in text  # --show prints a question per category
    samples = json.loads(out.read_text())
    assert [s["sample_id"] for s in samples][:2] == ["conv-26", "conv-30"]
    qa = samples[0]["qa"][0]
    assert {"question", "answer", "evidence", "category", "vector_prediction", "vector_prediction_context",
            "vector_confidence", "oracle_prediction"} <= set(qa)
    assert isinstance(qa["vector_prediction"], str) and isinstance(qa["vector_confidence"], float)
    assert sum(len(s["qa"]) for s in samples) == 1986


def test_bench_bad_data_is_one_line_and_non_zero(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    result = CliRunner().invoke(main, ["bench", "--data", str(bad), "--arms", "vector"])
    assert result.exit_code != 0
    assert "Traceback" not in result.output
    assert str(bad) in result.output and "not JSON" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_unknown_arm_is_refused(locomo_path):
    result = CliRunner().invoke(main, ["bench", "--data", str(locomo_path), "--arms", "vector,telepathy"])
    assert result.exit_code != 0
    assert "unknown arm 'telepathy'" in result.output


def test_missing_file_is_one_line(tmp_path):
    result = CliRunner().invoke(main, ["bench", "--data", str(tmp_path / "nope.json"), "--arms", "vector"])
    assert result.exit_code != 0 and "nope.json" in result.output and "Traceback" not in result.output


def test_bench_over_an_unreachable_neo4j_is_one_line(locomo_path):
    result = CliRunner().invoke(main, ["bench", "--data", str(locomo_path), "--arms", "path",
                                       "--backend", "neo4j", "--uri", "bolt://127.0.0.1:1", "--password", "s3cret-pw"])
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert "cannot reach Neo4j at bolt://127.0.0.1:1" in result.output and "s3cret-pw" not in result.output
    assert len(result.output.strip().splitlines()) == 1
