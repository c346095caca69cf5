"""The metric definitions on cases computed by hand."""

from __future__ import annotations

import math

import pytest

from graphmem.bench.longmemeval.metrics import ndcg, recall_all, recall_any, scores, sessions_of, token_f1


RANKING = ["x", "e1", "y", "e2", "z"]
EVIDENCE = {"e1", "e2"}


def test_recall_any_and_all():
    assert recall_any(RANKING, EVIDENCE, 1) == 0.0
    assert recall_any(RANKING, EVIDENCE, 2) == 1.0
    assert recall_all(RANKING, EVIDENCE, 3) == 0.0
    assert recall_all(RANKING, EVIDENCE, 4) == 1.0
    assert recall_all(["e1"], EVIDENCE, 10) == 0.0  # a ranking that stops short never holds what it lacks


def test_ndcg_by_hand():
    # hits at ranks 2 and 4: (1/log2 3 + 1/log2 5) / (1 + 1/log2 3)
    expected = (1 / math.log2(3) + 1 / math.log2(5)) / (1 + 1 / math.log2(3))
    assert ndcg(RANKING, EVIDENCE, 5) == pytest.approx(expected)
    assert ndcg(RANKING, EVIDENCE, 1) == 0.0
    # at k=2 the ideal holds two hits, the ranking one at rank 2
    assert ndcg(RANKING, EVIDENCE, 2) == pytest.approx((1 / math.log2(3)) / (1 + 1 / math.log2(3)))
    assert ndcg(["e1", "e2"], EVIDENCE, 10) == pytest.approx(1.0)
    # one evidence id: the ideal DCG is 1 whatever k is
    assert ndcg(["a", "b", "e"], {"e"}, 10) == pytest.approx(0.5)
    with pytest.raises(ValueError):
        ndcg(RANKING, set(), 5)


def test_scores_keys_and_sessions_from_turns():
    got = scores(RANKING, EVIDENCE)
    assert set(got) == {f"{m}@{k}" for m in ("recall_any", "recall_all", "ndcg") for k in (1, 5, 10)}
    assert got["recall_all@5"] == 1.0 and got["recall_any@1"] == 0.0
    session_of = {"a/0": "a", "a/1": "a", "b/0": "b", "c/3": "c"}
    assert sessions_of(["b/0", "a/1", "a/0", "c/3"], session_of) == ["b", "a", "c"]


def test_token_f1_by_hand():
    assert token_f1("Billy", "Billy") == 1.0
    assert token_f1("the hamster Billy", "Billy") == pytest.approx(2 * 0.5 * 1 / 1.5)  # articles go: 2 tokens, 1 common
    assert token_f1("No information available", "Billy") == 0.0
    assert token_f1("", "Billy") == 0.0
