"""The commands find the shared data where the tests do (graphmem/data/shared.py), offline: the
dataset's variable, then $GRAPHMEM_SHARED, then shared/data beside a directory above the current
one or above the checkout, and only then LoCoMo's cache and download."""

from __future__ import annotations

import json
import shutil

import pytest
from click.testing import CliRunner

from graphmem.cli import main
from graphmem.data import locomo, shared
from graphmem.errors import DataError
from tests.conftest import one_session

DEAD = "http://127.0.0.1:9/locomo10.json"  # the discard port: a download here fails at once


@pytest.fixture
def tree(tmp_path, monkeypatch, no_shared):
    """A folder ``team/`` with ``shared/data/locomo10.json`` (one tiny conversation) and a
    checkout ``team/repo/deep/er`` as the current directory; nothing else searched."""
    team = tmp_path / "team"
    data = team / "shared" / "data"
    data.mkdir(parents=True)
    tiny = one_session(tmp_path, [("Ann", "I adopted a dog called Rex yesterday!"), ("Bob", "Congrats!")],
                       [{"question": "Who adopted a dog?", "answer": "Ann", "category": 4, "evidence": ["D1:1"]}])
    shutil.copy(tiny, data / "locomo10.json")
    here = team / "repo" / "deep" / "er"
    here.mkdir(parents=True)
    monkeypatch.chdir(here)
    monkeypatch.setattr(shared, "beside", lambda: [d / "shared" / "data" for d in (here, *here.parents)])
    monkeypatch.setenv("GRAPHMEM_CACHE", str(tmp_path / "cache"))
    return data


def test_shared_data_is_found_beside_a_directory_above_offline(tree):
    assert shared.find("locomo10.json") == tree / "locomo10.json"
    ds = locomo.load_dataset(url=DEAD, timeout=1)
    assert ds.path == tree / "locomo10.json" and ds.conversations[0].id == "tiny"
    assert not (tree.parents[1] / "cache").exists()  # no download tried, nothing cached


def test_the_order_is_variable_then_shared_then_beside(tree, tmp_path, monkeypatch):
    other = tmp_path / "other"
    other.mkdir()
    shutil.copy(tree / "locomo10.json", other / "locomo10.json")
    monkeypatch.setenv("GRAPHMEM_SHARED", str(other))
    assert shared.find("locomo10.json", "GRAPHMEM_LOCOMO") == other / "locomo10.json"
    monkeypatch.setenv("GRAPHMEM_SHARED", str(tmp_path / "empty"))  # not there: looked for beside
    assert shared.find("locomo10.json", "GRAPHMEM_LOCOMO") == tree / "locomo10.json"
    mine = tmp_path / "mine.json"
    shutil.copy(tree / "locomo10.json", mine)
    monkeypatch.setenv("GRAPHMEM_LOCOMO", str(mine))
    assert shared.find("locomo10.json", "GRAPHMEM_LOCOMO") == mine
    monkeypatch.setenv("GRAPHMEM_LOCOMO", str(tmp_path / "gone.json"))
    with pytest.raises(DataError, match=r"gone\.json: no such file \(from \$GRAPHMEM_LOCOMO\)"):
        shared.find("locomo10.json", "GRAPHMEM_LOCOMO")


def test_the_checkout_holding_the_package_is_looked_above_too(tmp_path, monkeypatch):
    for env in ("GRAPHMEM_SHARED", "GRAPHMEM_LOCOMO"):
        monkeypatch.delenv(env, raising=False)
    team = tmp_path / "team"
    (team / "shared" / "data").mkdir(parents=True)
    (team / "shared" / "data" / "x.json").write_text("[]")
    monkeypatch.setattr(shared, "_PACKAGE", team / "checkout" / "graphmem")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert shared.find("x.json") == team / "shared" / "data" / "x.json"
    assert shared.bases()[0] == elsewhere / "shared" / "data"  # the current directory's side first


def test_no_data_anywhere_is_still_the_download_and_its_message(tmp_path, monkeypatch, no_shared):
    monkeypatch.setenv("GRAPHMEM_CACHE", str(tmp_path / "cache"))
    with pytest.raises(DataError, match="no LoCoMo data: .*pass --data PATH or set GRAPHMEM_LOCOMO"):
        locomo.load_dataset(url=DEAD, timeout=1)


def test_the_commands_find_the_shared_copy_without_data(tree):
    result = CliRunner().invoke(main, ["search", "adopted a dog", "--conversation", "tiny", "-k", "1"])
    assert result.exit_code == 0, result.output
    assert "tiny/D1:1  Ann" in result.output
    result = CliRunner().invoke(main, ["ask", "Who adopted a dog?", "--conversation", "tiny"])
    assert result.exit_code == 0 and "cited:\n  tiny/D1:1" in result.output
    result = CliRunner().invoke(main, ["bench", "--arms", "vector,oracle"])
    assert result.exit_code == 0, result.output
    assert "overall" in result.output


def test_bench6_and_longmemeval_find_theirs_beside_a_directory_above(tree):
    from graphmem.bench.bench6.files import resolve_dir
    from graphmem.bench.longmemeval.load import locate

    bench6 = tree / "bench6"
    bench6.mkdir()
    for name in ("pool.jsonl", "questions.jsonl"):
        (bench6 / name).write_text(json.dumps({}) + "\n")
    assert resolve_dir(None) == bench6
    (tree / "longmemeval").mkdir()
    (tree / "longmemeval" / "longmemeval_oracle_dev.json.gz").write_bytes(b"")
    assert locate(None, "oracle") == tree / "longmemeval" / "longmemeval_oracle_dev.json.gz"
    with pytest.raises(DataError, match="no LongMemEval data"):
        locate(None, "s")
