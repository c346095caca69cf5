"""The bench's model columns without a model: the sample, the columns' names and order, the default output."""

from __future__ import annotations

from collections import Counter

import pytest
from click.testing import CliRunner

from graphmem.bench.locomo.model_columns import CLOSED, model_columns
from graphmem.bench.locomo.sample import allocate, describe, stratified
from graphmem.cli import main
from graphmem.errors import GraphmemError


def test_allocate_is_proportional_and_sums_to_n():
    sizes = {4: 841, 1: 282, 2: 321, 3: 96, 5: 446}
    got = allocate(sizes, 300)
    assert sum(got.values()) == 300
    for cat, size in sizes.items():
        assert abs(got[cat] - 300 * size / 1986) < 1
    assert allocate({1: 1, 2: 1}, 1) == {1: 1, 2: 0} or allocate({1: 1, 2: 1}, 1) == {1: 0, 2: 1}
    with pytest.raises(GraphmemError, match="choose 1 to 3"):
        allocate({1: 2, 2: 1}, 4)


def test_stratified_sample_is_seeded_stratified_and_renumbered(dataset):
    a = stratified(dataset, 300, seed=7)
    assert a.questions == 300
    assert stratified(dataset, 300, seed=7) == a
    assert stratified(dataset, 300, seed=8) != a
    counts = Counter(q.category for c in a.conversations for q in c.questions)
    assert counts == Counter(allocate({cat: n for cat, n in Counter(
        q.category for c in dataset.conversations for q in c.questions).items()}, 300))
    full = {c.id: c for c in dataset.conversations}
    for conv in a.conversations:
        assert [q.index for q in conv.questions] == list(range(len(conv.questions)))
        rest = iter((q.text, q.answer, q.category) for q in full[conv.id].questions)
        assert all((q.text, q.answer, q.category) in rest for q in conv.questions)  # a subsequence: order kept
        assert conv.turn_by_id is full[conv.id].turn_by_id
    line = describe(a, dataset, 7)
    assert line.startswith("sample: 300 of 1986 questions, stratified by category (seed 7): single hop 127,")


def test_model_columns_follow_their_memory_and_closed_comes_last():
    assert model_columns(["graph", "graph+set", "vector", "oracle"]) == [
        "graph", "graph+set", "graph+model", "vector", "vector+model", "oracle", "oracle+model", CLOSED]
    assert model_columns(["path+set", "graph", "path"]) == [
        "path+set", "graph", "graph+model", "path", "path+model", CLOSED]


def test_bench_sample_option_prints_the_seed(locomo_path):
    result = CliRunner().invoke(main, ["bench", "--data", str(locomo_path), "--arms", "vector", "--sample", "40",
                                       "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert "sample: 40 of 1986 questions, stratified by category (seed 3)" in result.output
    assert "overall           40" in result.output
    assert "model" not in result.output


def test_model_without_a_url_is_one_line_naming_the_variable(locomo_path, monkeypatch):
    monkeypatch.delenv("GRAPHMEM_MODEL_URL", raising=False)
    result = CliRunner().invoke(main, ["bench", "--data", str(locomo_path), "--model"])
    assert result.exit_code == 1
    assert result.output == "Error: no model URL: give one, or set $GRAPHMEM_MODEL_URL (e.g. http://127.0.0.1:8088/v1)\n"


def test_an_unreachable_model_is_one_line(locomo_path, tmp_path):
    result = CliRunner().invoke(main, ["bench", "--data", str(locomo_path), "--arms", "vector", "--sample", "5",
                                       "--model", "http://127.0.0.1:9/v1", "--model-name", "m",
                                       "--model-cache", str(tmp_path)])
    assert result.exit_code == 1
    assert result.output.strip().splitlines()[-1] == (
        "Error: model endpoint http://127.0.0.1:9/v1/chat/completions: connection refused: is the endpoint running?")
    assert "Traceback" not in result.output
