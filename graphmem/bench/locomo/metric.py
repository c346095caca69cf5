"""The official LoCoMo scorer, ported.

This is ``eval_question_answering`` from snap-research/LoCoMo, ``task_eval/evaluation.py``,
question by question, so that a score printed by graphmem is the score the paper's
code would print for the same reply. ``tests/unit/bench/test_metric.py`` holds :func:`grade`
against the official score of 3,972 replies, and ``bench/official_check.py`` runs
the official file itself over a whole predictions file.

What the official scorer does, and so what this module does:

* :func:`normalize_answer`: drop ``,``; lower-case; delete every character of
  ``string.punctuation``; replace the words ``a``, ``an``, ``the`` and ``and`` by a
  space; collapse whitespace.
* :func:`f1_score`: token F1 between the Porter stems (NLTK, default
  ``NLTK_EXTENSIONS`` mode) of the normalised tokens; 0 when nothing overlaps.
* :func:`grade` by category:

  - 1 (multi hop): both sides split on ``,``; each reference part gets the best
    F1 over the reply parts; the mean over reference parts (:func:`f1_multi`).
  - 2 (temporal), 4 (single hop): :func:`f1_score` on the whole strings.
  - 3 (open domain): :func:`f1_score` against the reference cut at its first ``;``.
  - 5 (adversarial): 1 if the reply contains "no information available" or
    "not mentioned" (case-insensitive), else 0. The reference is not consulted.

* :func:`recall`: the share of the evidence ids found in the returned context.

One deliberate difference, in :func:`recall` only: the official code reads
``context[0]`` and so crashes on an empty context (and awards 1.0 when the context
key is absent). Here an empty context scores 0, with or without evidence: a memory
that returned nothing found none of the evidence, and a question without evidence
(LoCoMo has five) gives no credit for silence either.

Speed: the bench grades a few thousand replies per arm, so Porter stems are cached
(:func:`_stem`, an ``lru_cache`` around one module-level stemmer), each string's
stem bag is cached, and the regular expression is compiled once.
"""

from __future__ import annotations

import re
import string
from collections import Counter
from functools import lru_cache
from typing import Any, Sequence

from graphmem.errors import GraphmemError
from graphmem.text.terms import stem as _stem  # nltk's PorterStemmer, NLTK mode: the official code's stemmer

__all__ = ["ABSTAIN", "normalize_answer", "f1_score", "f1_multi", "grade", "recall"]

ABSTAIN = "No information available"
"""The reply that declines a question; category 5 rewards it, every other category scores it ~0."""

_ABSTAIN_PHRASES = ("no information available", "not mentioned")

_PUNCT = str.maketrans("", "", string.punctuation)  # string.punctuation includes ','
_ARTICLES = re.compile(r"\b(a|an|the|and)\b")


def normalize_answer(s: str) -> str:
    """The official ``normalize_answer``: no commas, lower case, no punctuation, no articles/'and'."""
    s = s.replace(",", "").lower().translate(_PUNCT)
    return " ".join(_ARTICLES.sub(" ", s).split())


@lru_cache(maxsize=1 << 15)
def _bag(text: str) -> tuple[Counter, int]:
    """The stem multiset of ``text`` after normalisation, and its token count."""
    tokens = list(map(_stem, normalize_answer(text).split()))
    return Counter(tokens), len(tokens)


def f1_score(prediction: Any, ground_truth: Any) -> float:
    """Token F1 of the stemmed, normalised tokens (the official ``f1_score``)."""
    pred, n_pred = _bag(prediction if isinstance(prediction, str) else str(prediction))
    gold, n_gold = _bag(ground_truth if isinstance(ground_truth, str) else str(ground_truth))
    if len(pred) > len(gold):  # walk the smaller bag: same as sum((pred & gold).values())
        small, large = gold, pred
    else:
        small, large = pred, gold
    num_same = 0
    for stem, count in small.items():
        other = large.get(stem)
        if other:
            num_same += count if count < other else other
    if num_same == 0:
        return 0.0
    # The same operations in the same order as the official code, for bit-equal floats.
    precision = 1.0 * num_same / n_pred
    rec = 1.0 * num_same / n_gold
    return (2 * precision * rec) / (precision + rec)


def f1_multi(prediction: Any, ground_truth: Any) -> float:
    """The official multi-hop ``f1``: mean over reference parts of the best reply part's F1."""
    prediction = prediction if isinstance(prediction, str) else str(prediction)
    ground_truth = ground_truth if isinstance(ground_truth, str) else str(ground_truth)
    preds = [p.strip() for p in prediction.split(",")]
    golds = [g.strip() for g in ground_truth.split(",")]
    best = [max(f1_score(p, g) for p in preds) for g in golds]
    return sum(best) / len(best)


def grade(category: int, prediction: str, answer: Any) -> float:
    """The official score of one reply to a question of LoCoMo ``category`` (1-5).

    ``answer`` may be an int (six LoCoMo answers are) and is read as ``str(answer)``;
    for category 5 it is ignored.
    """
    if not isinstance(prediction, str):
        prediction = str(prediction)
    if category == 5:
        low = prediction.lower()
        return 1.0 if any(p in low for p in _ABSTAIN_PHRASES) else 0.0
    answer = answer if isinstance(answer, str) else str(answer)
    if category == 1:
        return f1_multi(prediction, answer)
    if category == 3:
        return f1_score(prediction, answer.split(";")[0].strip())
    if category in (2, 4):
        return f1_score(prediction, answer)
    raise GraphmemError(f"unknown LoCoMo question category {category!r} (expected 1-5)")


def recall(context: Sequence[str], evidence: Sequence[str]) -> float:
    """Share of ``evidence`` ids contained in the returned ``context``.

    As the official code: no evidence scores 1; when ``context[0]`` starts with 'S'
    the context is read as session ids (``S3``) and an evidence id ``D3:7`` counts
    if its session number is among them; otherwise ids are matched exactly.
    Unlike the official code, an empty context scores 0, and it does so first, even
    for a question without evidence: a memory that returned nothing found nothing
    (the official code crashes on it, or awards 1 when there is no evidence), so a
    silenced arm reads exactly 0.000.
    """
    if len(context) == 0:
        return 0.0
    if len(evidence) == 0:
        return 1.0
    if context[0].startswith("S"):
        sessions = {c[1:] for c in context}
        hits = sum(ev.split(":")[0][1:] in sessions for ev in evidence)
    else:
        returned = set(context)
        hits = sum(ev in returned for ev in evidence)
    return float(hits) / len(evidence)
