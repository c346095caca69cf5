"""Sweeps, matched silence, plots and the stats command, end to end on the real dataset."""

import json

import pytest
from click.testing import CliRunner

from graphmem.bench.locomo import run as b
from graphmem.bench.locomo import sweep as sw
from graphmem.cli import main
from graphmem.answer.reader import ReaderSettings


@pytest.fixture(scope="module")
def prep(dataset):
    return b.prepare(dataset, ["vector", "oracle"])


def test_floor_sweep_reuses_replies_and_quiet_rises_with_the_floor(prep):
    result = sw.run(prep, "floor", 5, 0.3, ReaderSettings())
    assert list(result) == sw.POINTS["floor"]
    for arm in ("vector", "oracle"):
        quiet = [result[v][arm].quiet for v in result]
        assert quiet == sorted(quiet) and quiet[-1] > quiet[0]
        adv = [result[v][arm].adversarial for v in result]
        assert adv == sorted(adv)  # declining more can only help on adversarial questions
    # the sweep point at the default floor is the default table
    found = b.retrieve(prep, 5)
    table = b.score(prep, b.answer(prep, found, ReaderSettings()), 0.3).table(prep.arms)
    assert result[0.3]["vector"].answerable == pytest.approx(table["answerable"]["vector"].f1)
    text = sw.render("floor", prep.arms, result)
    assert "     1-4    adv    all quiet" in text and text.count("\n") == len(result) + 1


def test_matched_silence_pairs_floors_of_equal_quiet(prep):
    result = sw.run(prep, "floor", 5, 0.3, ReaderSettings())
    rows = sw.matched(result, "vector", "oracle")
    assert rows
    for _, _, pa, pb in rows:
        assert abs(pa.quiet - pb.quiet) <= 0.04


def test_unknown_sweep_is_refused(prep):
    with pytest.raises(Exception, match="cannot sweep"):
        sw.run(prep, "temperature", 5, 0.3, ReaderSettings())


def test_sweep_plot_and_reach_plot_write_pngs(locomo_path, tmp_path):
    png = tmp_path / "trade.png"
    result = CliRunner().invoke(main, ["bench", "--data", str(locomo_path), "--arms", "vector,oracle", "--sweep", "floor", "--plot", str(png)])
    assert result.exit_code == 0, result.output
    assert "at matched silence" in result.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000
    reach = tmp_path / "reach.png"
    result = CliRunner().invoke(main, ["bench", "--data", str(locomo_path), "--arms", "vector", "-k", "2000", "--floor", "0", "--plot", str(reach)])
    assert result.exit_code == 0, result.output
    assert "category         n    vector" in result.output  # the reach table
    assert "single hop     841" in result.output
    assert reach.read_bytes()[:4] == b"\x89PNG" and reach.stat().st_size > 5_000


def test_stats_command_reads_bench_predictions(locomo_path, tmp_path):
    out = tmp_path / "answers.json"
    runner = CliRunner()
    assert runner.invoke(main, ["bench", "--data", str(locomo_path), "--arms", "vector,oracle", "--out", str(out)]).exit_code == 0
    result = runner.invoke(main, ["stats", str(out), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["constant_abstention"]["overall"] == pytest.approx(0.228, abs=5e-4)
    assert set(report["auc"]) == {"vector", "oracle"}
    halves = {(p["a"], p["b"], p["half"]) for p in report["pairs"]}
    assert halves == {("vector", "oracle", "answerable"), ("vector", "oracle", "adversarial")}
    for p in report["pairs"]:
        assert p["lo"] <= p["diff"] <= p["hi"]
    text = runner.invoke(main, ["stats", str(out)])
    assert text.exit_code == 0 and "AUC" in text.output.upper()
    bad = runner.invoke(main, ["stats", str(tmp_path / "missing.json")])
    assert bad.exit_code != 0 and "Traceback" not in bad.output
