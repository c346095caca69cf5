"""Every arm behind the one interface, the blind control, and the named arm sets."""

import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from graphmem.bench.arms.base import Context
from graphmem.bench.arms.path import PathArm
from graphmem.bench.arms.registry import parse_arms
from graphmem.bench.arms.scope import subject
from graphmem.bench.locomo import run as b
from graphmem.claims.records import pieces as pieces_of
from graphmem.cli import main
from graphmem.data.locomo import Dataset, load_file
from graphmem.answer.reader import Hit

from tests.conftest import one_session

ALL_ARMS = ["vector", "oracle", "graph", "graph+edge", "scoped", "span", "path", "path2", "path3", "walk2", "walk3"]


@pytest.fixture(scope="module")
def two(dataset):
    """The first two conversations: enough to exercise every arm, fast."""
    return Dataset(dataset.path, dataset.conversations[:2], dataset.report)


@pytest.fixture(scope="module")
def two_file(dataset, locomo_path, tmp_path_factory):
    raw = json.loads(locomo_path.read_text())
    path = tmp_path_factory.mktemp("data") / "two.json"
    path.write_text(json.dumps(raw[:2]))
    return path


@pytest.fixture(scope="module")
def prepared(two):
    return b.prepare(two, ALL_ARMS)


def test_every_arm_returns_at_most_k_hits_citing_real_turns(prepared):
    found = b.retrieve(prepared, 3)
    for name in ALL_ARMS:
        for ctx, rows in zip(prepared.contexts, found[name]):
            assert len(rows) == len(ctx.conv.questions)
            for hits in rows:
                assert len(hits) <= 3
                assert all(isinstance(h, Hit) and h.dia_id in ctx.conv.turn_by_id for h in hits)
                assert len({h.dia_id for h in hits}) == len(hits)  # a turn is cited once


def test_graph_reaches_only_the_named_persons_pieces(prepared):
    ctx = prepared.contexts[0]
    pieces = {(p.dia_id, p.person) for p in pieces_of(ctx.reading)}
    found = prepared.built[0]["graph"].cite(ctx.conv.questions, 5)
    checked = 0
    for q, hits in zip(ctx.conv.questions, found):
        who = subject(ctx, q)
        if who is None:
            continue
        for h in hits:
            assert (h.dia_id, who) in pieces
            checked += 1
    assert checked > 100


def test_oracle_cites_the_annotated_evidence(prepared):
    ctx = prepared.contexts[0]
    found = prepared.built[0]["oracle"].cite(ctx.conv.questions, 5)
    for q, hits in zip(ctx.conv.questions, found):
        assert [h.dia_id for h in hits] == list(q.evidence[:5])


def test_graph_edge_shares_graphs_retrieval_but_quotes_objects(prepared):
    ctx = prepared.contexts[0]
    g = prepared.built[0]["graph"].cite(ctx.conv.questions, 5)
    e = prepared.built[0]["graph+edge"].cite(ctx.conv.questions, 5)
    assert [[h.dia_id for h in hs] for hs in g] == [[h.dia_id for h in hs] for hs in e]
    assert any(hg.text != he.text for hs, es in zip(g, e) for hg, he in zip(hs, es))


def test_arm_sets_name_the_specification_columns():
    assert parse_arms("default") == ["graph", "graph+edge", "oracle", "vector"]
    assert parse_arms("factor") == ["graph", "scoped", "span", "vector"]
    assert parse_arms("walk") == ["graph", "oracle", "oracle+set", "path", "path+set", "vector", "vector+set"]
    assert parse_arms("read") == ["oracle", "oracle+set", "graph", "graph+set", "path", "path+set", "vector", "vector+set"]
    assert parse_arms("vector, path+set") == ["vector", "path+set"]


@pytest.mark.parametrize("confidence", ["turn", "relative"])
def test_blind_silences_path_and_changes_nothing_else(two_file, tmp_path, confidence):
    runner = CliRunner()
    seen, blind = tmp_path / "seen.json", tmp_path / "blind.json"
    for out, extra in ((seen, []), (blind, ["--blind"])):
        result = runner.invoke(main, ["bench", "--data", str(two_file), "--arms", "walk", "--out", str(out),
                                      "--confidence", confidence, *extra])
        assert result.exit_code == 0, result.output
    a, z = json.loads(seen.read_text()), json.loads(blind.read_text())
    answered = 0
    for sa, sz in zip(a, z):
        for qa, qz in zip(sa["qa"], sz["qa"]):
            for key in qa:
                if key.startswith("path"):
                    continue
                assert qa[key] == qz[key], key  # every other column byte-identical
            for arm in ("path", "path+set"):
                assert qz[f"{arm}_prediction"] == "No information available"
                assert qz[f"{arm}_prediction_context"] == []
            answered += qa["path_prediction"] != "No information available"
    assert answered > 100  # with the graph, path does answer
    other = {k: v for k, v in json.loads(seen.read_text())[0]["qa"][0].items() if not k.startswith("path")}
    assert other == {k: v for k, v in json.loads(blind.read_text())[0]["qa"][0].items() if not k.startswith("path")}


def test_blind_table_shows_path_quiet_with_zero_recall(two_file):
    result = CliRunner().invoke(main, ["bench", "--data", str(two_file), "--arms", "path,vector", "--blind"])
    assert result.exit_code == 0, result.output
    overall = next(line for line in result.output.splitlines() if line.startswith("overall"))
    cells = overall.split()
    assert cells[3:5] == ["0.000", "100%"]  # path: recall 0.000, quiet 100%


def test_build_prints_the_census(two_file):
    result = CliRunner().invoke(main, ["bench", "--data", str(two_file), "--arms", "graph", "--build"])
    assert result.exit_code == 0, result.output
    assert "conv-26" in result.output and "claims" in result.output and "derived" in result.output


def test_an_arms_answers_do_not_depend_on_the_other_arms_run(two_file, tmp_path):
    """Columns differ in one thing only if no arm leaks state into another (e.g. name resolution)."""
    runner = CliRunner()
    alone, together = tmp_path / "alone.json", tmp_path / "together.json"
    assert runner.invoke(main, ["bench", "--data", str(two_file), "--arms", "path", "--out", str(alone)]).exit_code == 0
    assert runner.invoke(main, ["bench", "--data", str(two_file), "--arms", "graph,path,vector", "--out", str(together)]).exit_code == 0
    a, t = json.loads(alone.read_text()), json.loads(together.read_text())
    for sa, st in zip(a, t):
        for qa, qt in zip(sa["qa"], st["qa"]):
            assert {k: v for k, v in qa.items()} == {k: v for k, v in qt.items() if not k.startswith(("graph", "vector"))}


def _tiny(tmp_path):
    """Ann and Bob; Bob ran the charity race, Ann adopted a dog."""
    return one_session(tmp_path, [
        ("Ann", "I adopted a dog last week. I love the race of life."),
        ("Bob", "I ran a charity race for mental health last Saturday."),
        ("Ann", "That is so rewarding! I baked bread with my grandma."),
    ], [
        {"question": "What did Ann realize after her charity race?", "adversarial_answer": "x", "evidence": ["D1:2"], "category": 5},
        {"question": "What did Ann adopt last week?", "answer": "a dog", "evidence": ["D1:1"], "category": 4},
        {"question": "What did Bob run for mental health?", "answer": "charity race", "evidence": ["D1:2"], "category": 4},
    ])


def test_path_falls_silent_when_the_question_is_someone_elses(tmp_path):
    prep = b.prepare(load_file(_tiny(tmp_path)), ["path"])
    ctx = prep.contexts[0]
    owned = PathArm(ctx).cite(ctx.conv.questions, 5)
    walk = PathArm(ctx, owned=False).cite(ctx.conv.questions, 5)
    assert walk[0] and walk[0][0].dia_id == "D1:1"  # one hop from Ann finds Ann's nearest saying...
    assert owned[0] == []  # ...but the charity race is asserted about Bob, whom the question does not name
    assert owned[1] == walk[1] and owned[1][0].dia_id == "D1:1"  # Ann's own adoption: answered
    assert owned[2] == walk[2] and owned[2][0].dia_id == "D1:2"  # Bob's race, asked of Bob: answered


def test_ownership_ignores_who_is_addressed(tmp_path):
    """A name is not content: Bob saying "Ann" to Ann does not make a question about Ann his."""
    prep = b.prepare(load_file(_tiny(tmp_path)), ["path"])
    arm = prep.built[0]["path"]
    assert arm._owns(["ann"], "What did Ann adopt, Bob?")
    assert not arm._owns(["ann"], "Why did Ann run a charity race?")
    assert arm._owns(["bob"], "Why did Bob run a charity race?")


def test_predictions_do_not_depend_on_the_process_string_hash(locomo_path, tmp_path):
    """Sums over a question's term weights once followed set order, i.e. the per-process
    string hash, and ties went either way from run to run (under PYTHONHASHSEED 1 and 2,
    path's answer to one question of conv-48 differed)."""
    outs = []
    for seed in ("1", "2"):
        out = tmp_path / f"seed{seed}.json"
        env = {**os.environ, "PYTHONHASHSEED": seed}
        subprocess.run([sys.executable, "-m", "graphmem.cli", "bench", "--data", str(locomo_path), "--arms", "path",
                        "--out", str(out)], check=True, env=env, capture_output=True)
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]


def test_term_weights_come_in_order_of_first_use(dataset):
    vocab = Context.of(dataset.conversations[0]).vocab
    terms = ["support", "group", "support", "paint", "zzzunseen", "group"]
    assert list(vocab.weights(terms)) == ["support", "group", "paint"]
