"""bench/longmemeval_confidence.py --swaps: the synthetic detail swaps and the learned confidence.

The learned row is only honest if it never sees an ``_abs`` label and scores the answerable
questions out of fold, and the swaps are only a stand-in for ``_abs`` questions if they change
one detail the found turn holds into a word the haystack holds. These tests pin both.
"""

from __future__ import annotations

import importlib.util
import random

import numpy as np

from graphmem.domain import Turn
from tests.conftest import REPO

SPEC = importlib.util.spec_from_file_location("longmemeval_confidence", REPO / "bench" / "longmemeval_confidence.py")
confidence = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(confidence)


def turn(text: str) -> Turn:
    return Turn(id="t1", speaker="user", text=text, date=None, conversation="s1", number=0)


def test_a_swap_replaces_a_word_the_turn_holds_by_one_the_haystack_holds() -> None:
    question = "How long have I been collecting vintage cameras?"
    first = turn("I started collecting vintage cameras three years ago.")
    haystack = {"films", "cameras", "vintage", "collecting", "started", "korea"}
    pool = ["films", "korea", "tennis", "cameras"]
    for seed in range(20):
        copy = confidence.swapped(question, first, haystack, pool, random.Random(seed))
        before, after = question.rstrip("?").split(), copy.rstrip("?").split()
        changed = [(a, b) for a, b in zip(before, after) if a != b]
        assert len(before) == len(after) and len(changed) == 1
        old, new = changed[0]
        assert old in {"collecting", "vintage", "cameras"}  # held by the turn, not a stop word
        assert new in {"films", "korea"}  # in the haystack, not already asked, not "tennis"


def test_no_swap_when_the_haystack_holds_no_other_word() -> None:
    assert confidence.swapped("Where is Japan?", turn("Japan is nice"), {"japan"}, ["japan", "korea"],
                              random.Random(0)) is None


def test_learned_never_trains_on_abs_and_scores_every_real_question() -> None:
    rng = np.random.default_rng(0)
    rows, labels, groups, real = [], [], [], []

    def add(row: dict[str, float], label: int, group: str, is_real: bool) -> None:
        rows.append(row)
        labels.append(label)
        groups.append(group)
        real.append(is_real)

    for g in range(40):  # answerable originals high on "a", their swapped copies low; "b" is noise
        add({"a": 1 + rng.normal(0, 0.3), "b": rng.normal()}, 1, f"q{g}", True)
        add({"a": rng.normal(0, 0.3), "b": rng.normal()}, 0, f"q{g}", False)
    for g in range(5):  # _abs rows that look answerable on "a" and stand apart on "b"
        add({"a": 1.0, "b": 4.0}, 0, f"abs{g}", True)
    scores, truth, synthetic = confidence.learned(rows, labels, groups, real, ("a", "b"))
    assert len(scores) == len(truth) == 45 and truth.count(0) == 5
    assert synthetic["a"] > 0.9 and synthetic["learned"] > 0.9 and synthetic["b"] < 0.7
    # Trained on the _abs labels, the model would learn "b" and score them lowest; trained on the
    # swaps alone it sees nothing in "b", so they score as the answerable questions do.
    answerable, absent = np.array(scores[:40]), np.array(scores[40:])
    assert absent.min() > np.quantile(answerable, 0.25)
