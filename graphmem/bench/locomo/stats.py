"""What the table cannot show, read back off a predictions file.

``graphmem bench --out`` writes its replies in the official LoCoMo layout: a JSON list
of samples ``{"sample_id", "qa": [...]}`` whose questions carry, for every arm,
``<arm>_prediction`` (the reply), ``<arm>_prediction_context`` (the dialogue ids the
memory returned) and ``<arm>_confidence`` (the number abstention thresholds). Arm
names may contain ``+`` (``graph+edge``); they are discovered from the keys ending in
``_prediction``, in the order they first appear in the file.

This module reports three things an aggregate table hides:

* :func:`constant_abstention`: what replying "No information available" to every
  question scores. A quarter of LoCoMo is adversarial and the metric rewards declining
  those, so the overall score of doing nothing (0.228) is the floor to read a table
  against, and the answerable and adversarial halves must be read apart.
* :func:`auc`: how well each arm's confidence separates answerable questions
  (label 1) from adversarial ones (label 0): ROC AUC, 0.5 is chance. That is a
  property of the memory, independent of where an abstention threshold is put.
* :func:`bootstrap_pairs`: the difference in mean F1 between every pair of arms on
  each half, with an exact percentile-bootstrap interval over conversations.

The bootstrap resamples *conversations* with replacement, because the questions of
one conversation share one memory and are not independent. With n conversations a
resample is a multiset of size n drawn from n, with multinomial probability
``n! / prod(c_i!) / n**n`` for counts ``c``; there are ``C(2n-1, n)`` of them
(92,378 for LoCoMo's ten), so every one is enumerated and the interval is exact, not
a Monte Carlo estimate. A resample's statistic is the mean over its pooled questions,
``(c @ (F1 sums of a - F1 sums of b)) / (c @ question counts)``, per conversation.
Resamples in which the half has no question at all (possible only when some
conversation has none of that half) have no mean; they are dropped and the
remaining probabilities renormalised, i.e. the bootstrap is conditioned on the
resample containing at least one question of the half.

Interval definition, for ``level`` L and ``alpha = (1 - L) / 2``: sort the resampled
values ascending, accumulate their probabilities; ``lo`` is the smallest value whose
cumulative probability is >= ``alpha`` and ``hi`` the smallest whose cumulative
probability is >= ``1 - alpha`` (both compared with a 1e-12 tolerance for float
rounding in the cumulative sum). Both are therefore values the statistic actually
takes on some resample.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import chain, combinations, combinations_with_replacement
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.metrics import roc_auc_score

from graphmem.bench.locomo import metric
from graphmem.data.files import read_text
from graphmem.data.jsontext import parse
from graphmem.data.locomo import ADVERSARIAL, CATEGORIES, Question
from graphmem.errors import DataError, GraphmemError

__all__ = [
    "HALVES",
    "MAX_CONVERSATIONS",
    "QA",
    "Predictions",
    "load_predictions",
    "constant_abstention",
    "auc",
    "conversation_resamples",
    "bootstrap_pairs",
    "groups",
    "report",
    "as_json",
    "mean_f1",
    "summary",
]

HALVES = ("answerable", "adversarial")
MAX_CONVERSATIONS = 12
"""Exact enumeration limit: C(23, 12) = 1,352,078 resamples; 13 would be 5.2 million."""

_PREDICTION = "_prediction"
_CONTEXT = "_prediction_context"
_CONFIDENCE = "_confidence"
_TOLERANCE = 1e-12


@dataclass(frozen=True, kw_only=True)
class QA(Question):
    """One question of a predictions file: the dataset's question record, as the file gives
    it, with every arm's reply, context and confidence.

    ``index`` is its position in the sample's ``"qa"`` list, ``answer`` is ``""`` for an
    adversarial question without one, ``evidence`` is the file's list as written.
    """

    sample_id: str
    replies: dict[str, str]
    contexts: dict[str, tuple[str, ...]]  # only the arms whose context the file has
    confidences: dict[str, float]  # only the arms whose confidence the file has


@dataclass(frozen=True)
class Predictions:
    """A predictions file: its arms in file order, its conversations, its questions."""

    path: str
    arms: tuple[str, ...]
    samples: tuple[str, ...]
    questions: tuple[QA, ...]
    _scores: dict[str, np.ndarray] = field(default_factory=dict, init=False, repr=False, compare=False)

    def scores(self, arm: str) -> np.ndarray:
        """Per-question official score (metric.grade) of ``arm``, in question order."""
        if arm not in self.arms:
            raise GraphmemError(f"{self.path}: no arm {arm!r} (arms: {', '.join(self.arms)})")
        if arm not in self._scores:
            values = np.fromiter(
                (metric.grade(q.category, q.replies[arm], q.answer) for q in self.questions),
                dtype=np.float64,
                count=len(self.questions),
            )
            values.setflags(write=False)
            self._scores[arm] = values
        return self._scores[arm]

    def conversation_index(self) -> np.ndarray:
        """For every question, the position of its conversation in ``samples``."""
        position = {s: i for i, s in enumerate(self.samples)}
        return np.fromiter((position[q.sample_id] for q in self.questions), dtype=np.intp,
                           count=len(self.questions))

    def answerable_mask(self) -> np.ndarray:
        return np.fromiter((q.answerable for q in self.questions), dtype=bool, count=len(self.questions))


# ---------------------------------------------------------------------------- loading


def load_predictions(path: str | Path) -> Predictions:
    """Read and validate a predictions file; a :class:`DataError` names the file and the place."""
    path = Path(path)
    text = read_text(path, "predictions file")
    data = parse(text, str(path))
    if not isinstance(data, list) or not data:
        raise DataError(f"{path}: expected a non-empty JSON list of samples, got {_kind(data)}")

    # Arms, in order of first appearance.
    arms: dict[str, None] = {}
    for sample in data:
        if isinstance(sample, dict) and isinstance(sample.get("qa"), list):
            for qa in sample["qa"]:
                if isinstance(qa, dict):
                    for key in qa:
                        if isinstance(key, str) and key.endswith(_PREDICTION) and len(key) > len(_PREDICTION):
                            arms.setdefault(key[: -len(_PREDICTION)], None)
    if not arms:
        raise DataError(f"{path}: no '<arm>_prediction' keys in any question: not a predictions file")
    arm_names = tuple(arms)

    samples: list[str] = []
    questions: list[QA] = []
    for s, sample in enumerate(data):
        where = f"{path}: sample {s}"
        if not isinstance(sample, dict):
            raise DataError(f"{where}: expected an object, got {_kind(sample)}")
        sample_id = sample.get("sample_id")
        if isinstance(sample_id, bool) or not isinstance(sample_id, (str, int)):
            raise DataError(f"{where}: missing or invalid 'sample_id'")
        sample_id = str(sample_id)
        where = f"{path}: sample {s} ({sample_id})"
        if sample_id in samples:
            raise DataError(f"{where}: duplicate sample_id")
        qas = sample.get("qa")
        if not isinstance(qas, list):
            raise DataError(f"{where}: missing or invalid 'qa' list")
        samples.append(sample_id)
        for i, qa in enumerate(qas):
            questions.append(_load_qa(qa, sample_id, i, f"{where} question {i}", arm_names))
    if not questions:
        raise DataError(f"{path}: no questions")
    return Predictions(path=str(path), arms=arm_names, samples=tuple(samples), questions=tuple(questions))


def _load_qa(qa: Any, sample_id: str, index: int, where: str, arms: tuple[str, ...]) -> QA:
    if not isinstance(qa, dict):
        raise DataError(f"{where}: expected an object, got {_kind(qa)}")
    category = qa.get("category")
    if isinstance(category, bool) or not isinstance(category, int) or not 1 <= category <= 5:
        raise DataError(f"{where}: 'category' must be an integer 1-5, got {category!r}")
    question = qa.get("question", "")
    if not isinstance(question, str):
        raise DataError(f"{where}: 'question' must be a string")
    if "answer" in qa:
        answer = qa["answer"]
        if isinstance(answer, bool) or not isinstance(answer, (str, int, float)):
            raise DataError(f"{where}: 'answer' must be a string or a number, got {_kind(answer)}")
        answer = str(answer)
    elif category == ADVERSARIAL:
        answer = ""
    else:
        raise DataError(f"{where}: missing 'answer' (category {category})")
    evidence = qa.get("evidence", [])
    if not isinstance(evidence, list) or not all(isinstance(e, str) for e in evidence):
        raise DataError(f"{where}: 'evidence' must be a list of strings")

    replies: dict[str, str] = {}
    contexts: dict[str, tuple[str, ...]] = {}
    confidences: dict[str, float] = {}
    for arm in arms:
        key = arm + _PREDICTION
        if key not in qa:
            raise DataError(f"{where}: missing '{key}' (every question needs every arm's reply)")
        if not isinstance(qa[key], str):
            raise DataError(f"{where}: '{key}' must be a string, got {_kind(qa[key])}")
        replies[arm] = qa[key]
        key = arm + _CONTEXT
        if key in qa:
            ctx = qa[key]
            if not isinstance(ctx, list) or not all(isinstance(c, str) for c in ctx):
                raise DataError(f"{where}: '{key}' must be a list of dialogue ids (strings)")
            contexts[arm] = tuple(ctx)
        key = arm + _CONFIDENCE
        if key in qa:
            value = qa[key]
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise DataError(f"{where}: '{key}' must be a finite number, got {value!r}")
            confidences[arm] = float(value)
    return QA(sample_id=sample_id, index=index, text=question, category=category, answer=answer,
              evidence=tuple(evidence), replies=replies, contexts=contexts, confidences=confidences)


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", type(None): "null"}.get(type(value), type(value).__name__)


# ---------------------------------------------------------------------------- statistics


def _mean(values: np.ndarray) -> float | None:
    return float(values.mean()) if values.size else None


def constant_abstention(preds: Predictions) -> dict[str, float | None]:
    """Mean official score of replying exactly ``metric.ABSTAIN`` to every question.

    Keys ``overall``, ``answerable``, ``adversarial``; a half with no question is None.
    On LoCoMo: 0.228 overall, 0.004 answerable, 1.000 adversarial.
    """
    values = np.array([metric.grade(q.category, metric.ABSTAIN, q.answer) for q in preds.questions])
    mask = preds.answerable_mask()
    return {"overall": _mean(values), "answerable": _mean(values[mask]), "adversarial": _mean(values[~mask])}


def auc(preds: Predictions) -> dict[str, float | None]:
    """ROC AUC of each arm's confidence for answerable (1) against adversarial (0) questions.

    None for an arm when the file has no confidence for it, or when one of the two
    classes is empty. An arm with confidence on only some questions is a DataError.
    """
    labels = preds.answerable_mask().astype(int)
    both = 0 < labels.sum() < labels.size
    out: dict[str, float | None] = {}
    for arm in preds.arms:
        have = sum(arm in q.confidences for q in preds.questions)
        if have == 0:
            out[arm] = None
            continue
        if have < len(preds.questions):
            missing = next(q for q in preds.questions if arm not in q.confidences)
            raise DataError(f"{preds.path}: sample {missing.sample_id} question {missing.index}: "
                            f"missing '{arm}{_CONFIDENCE}' (other questions have it)")
        conf = np.array([q.confidences[arm] for q in preds.questions])
        out[arm] = float(roc_auc_score(labels, conf)) if both else None
    return out


@lru_cache(maxsize=4)
def conversation_resamples(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Every bootstrap resample of ``n`` conversations, as counts, with its probability.

    Returns ``(counts, probs)``: ``counts`` is an (M, n) integer matrix, one row per
    multiset of size n drawn from n (M = C(2n-1, n)), ``counts[r, i]`` how often
    conversation i is drawn; ``probs[r] = n! / prod(counts[r]!) / n**n``, summing to 1.
    The arrays are read-only and cached.
    """
    if not 1 <= n <= MAX_CONVERSATIONS:
        raise GraphmemError(
            f"the exact conversation bootstrap enumerates C(2n-1, n) resamples and supports "
            f"1 to {MAX_CONVERSATIONS} conversations; got {n}"
        )
    m = math.comb(2 * n - 1, n)
    draws = np.fromiter(chain.from_iterable(combinations_with_replacement(range(n), n)),
                        dtype=np.intp, count=m * n).reshape(m, n)
    flat = (draws + (np.arange(m, dtype=np.intp) * n)[:, None]).ravel()
    counts = np.bincount(flat, minlength=m * n).reshape(m, n).astype(np.int16)
    factorial = np.array([math.factorial(k) for k in range(n + 1)], dtype=np.int64)
    ways = factorial[n] // np.prod(factorial[counts], axis=1)  # exact multinomial coefficients
    probs = ways.astype(np.float64) / float(n ** n)
    counts.setflags(write=False)
    probs.setflags(write=False)
    return counts, probs


def _weighted_interval(values: np.ndarray, weights: np.ndarray, alpha: float) -> tuple[float, float]:
    """Smallest values whose cumulative weight (values ascending) is >= alpha and >= 1 - alpha.

    Both comparisons allow 1e-12 for rounding in the cumulative sum, so a cumulative
    probability that is exactly alpha in exact arithmetic counts as reaching it.
    """
    order = np.argsort(values)  # ties need no stable order: only the value found matters
    cum = np.cumsum(weights[order])
    i = np.searchsorted(cum, [alpha - _TOLERANCE, 1 - alpha - _TOLERANCE], side="left")
    i = np.minimum(i, len(order) - 1)
    return float(values[order[i[0]]]), float(values[order[i[1]]])


def groups(preds: Predictions, by_category: bool = False) -> list[tuple[str, np.ndarray]]:
    """The question groups differences are reported over: the two halves, then (with
    ``by_category``) each answerable category on its own, as masks over the questions."""
    answerable = preds.answerable_mask()
    out = [("answerable", answerable), ("adversarial", ~answerable)]
    if by_category:
        category = np.fromiter((q.category for q in preds.questions), dtype=np.intp, count=len(preds.questions))
        out += [(name, category == c) for c, name in CATEGORIES.items() if c != ADVERSARIAL]
    return out


def bootstrap_pairs(preds: Predictions, level: float = 0.95, by_category: bool = False) -> list[dict[str, Any]]:
    """Mean-F1 difference of every pair of arms on each half, with its exact bootstrap interval.

    One dict per (pair, half): ``a``, ``b`` (a before b in file order), ``half``
    ("answerable" or "adversarial", and with ``by_category`` also "single hop", "multi
    hop", "temporal", "open domain"), ``diff`` (mean score of a minus b over the half's
    questions), ``lo`` and ``hi`` (the ``level`` percentile interval over every
    resample of conversations; see the module docstring for the exact definition).
    All three numbers are None when the file has no question of that half.
    """
    if not 0 < level < 1:
        raise GraphmemError(f"bootstrap level must be between 0 and 1, got {level}")
    alpha = (1 - level) / 2
    pairs = list(combinations(preds.arms, 2))
    if not pairs:
        return []
    n = len(preds.samples)
    counts, probs = conversation_resamples(n)
    conv = preds.conversation_index()
    scores = {arm: preds.scores(arm) for arm in preds.arms}
    halves = groups(preds, by_category)

    per_half: dict[str, list[tuple[float | None, float | None, float | None]]] = {}
    for half, mask in halves:
        sizes = np.bincount(conv[mask], minlength=n).astype(np.float64)  # questions per conversation
        if sizes.sum() == 0:
            per_half[half] = [(None, None, None)] * len(pairs)
            continue
        sums = {arm: np.bincount(conv[mask], weights=scores[arm][mask], minlength=n) for arm in preds.arms}
        deltas = np.column_stack([sums[a] - sums[b] for a, b in pairs])  # (n, P)
        countsf = counts.astype(np.float64)
        den = countsf @ sizes  # (M,)
        num = countsf @ deltas  # (M, P)
        valid = den > 0
        weights = probs[valid] / probs[valid].sum()
        resampled = np.ascontiguousarray((num[valid] / den[valid, None]).T)  # (P, M'), one row a pair
        rows = []
        for p in range(len(pairs)):
            diff = float(deltas[:, p].sum() / sizes.sum())
            rows.append((diff, *_weighted_interval(resampled[p], weights, alpha)))
        per_half[half] = rows

    out = []
    for p, (a, b) in enumerate(pairs):
        for half, _ in halves:
            diff, lo, hi = per_half[half][p]
            out.append({"a": a, "b": b, "half": half, "diff": diff, "lo": lo, "hi": hi})
    return out


# ---------------------------------------------------------------------------- output


def summary(preds: Predictions) -> dict[str, Any]:
    """What the file holds: its path, how many conversations and questions (by half), the arms."""
    mask = preds.answerable_mask()
    return {"file": str(preds.path), "conversations": len(preds.samples),
            "questions": {"all": len(mask), "answerable": int(mask.sum()), "adversarial": int((~mask).sum())},
            "arms": list(preds.arms)}


def mean_f1(preds: Predictions) -> dict[str, dict[str, float | None]]:
    """Per arm, the mean official score over the answerable half, the adversarial half and all
    (None for a half with no question): the table's F1 column, read back off the file."""
    mask = preds.answerable_mask()
    out = {}
    for arm in preds.arms:
        s = preds.scores(arm)
        out[arm] = {"answerable": _mean(s[mask]), "adversarial": _mean(s[~mask]), "overall": _mean(s)}
    return out


def as_json(preds: Predictions, by_category: bool = False) -> dict[str, Any]:
    """What :func:`report` prints, as one object: ``summary``'s keys (file, conversations,
    questions, arms), ``constant_abstention``, ``mean_f1`` (arm: halves), ``auc`` (arm: value),
    ``resamples`` (how many the bootstrap enumerates) and ``pairs`` ([{a, b, half, diff, lo,
    hi}]); undefined numbers are None (JSON null). One source for both, so they cannot drift."""
    return {
        **summary(preds),
        "constant_abstention": constant_abstention(preds),
        "mean_f1": mean_f1(preds),
        "auc": auc(preds),
        "resamples": math.comb(2 * len(preds.samples) - 1, len(preds.samples)),
        "pairs": bootstrap_pairs(preds, by_category=by_category),
    }


def _num(value: float | None, signed: bool = False) -> str:
    if value is None:
        return "n/a"
    return f"{value:+.3f}" if signed else f"{value:.3f}"


def report(preds: Predictions, by_category: bool = False) -> str:
    """The human-readable report of :func:`as_json`'s content: the file, constant abstention,
    mean F1 per arm, AUC per arm, the pairs table (over the halves, and with ``by_category``
    each answerable category too)."""
    out = as_json(preds, by_category)
    q = out["questions"]
    n = out["conversations"]
    lines = [
        f"{out['file']}: {n} conversation{'s' if n != 1 else ''}, {q['all']:,} questions "
        f"({q['answerable']:,} answerable, {q['adversarial']:,} adversarial), arms: {', '.join(out['arms'])}",
        "",
    ]
    const = out["constant_abstention"]
    lines.append(f'constant abstention (reply "{metric.ABSTAIN}" to every question):')
    lines.append(f"  overall {_num(const['overall'])}   answerable {_num(const['answerable'])}   "
                 f"adversarial {_num(const['adversarial'])}")
    lines.append("")

    width = max(len("arm"), *(len(a) for a in preds.arms))
    lines.append("mean F1 per arm:")
    lines.append(f"  {'arm':<{width}}  answerable  adversarial  overall")
    for arm, f1 in out["mean_f1"].items():
        lines.append(f"  {arm:<{width}}  {_num(f1['answerable']):>10}  {_num(f1['adversarial']):>11}  "
                     f"{_num(f1['overall']):>7}")
    lines.append("")

    lines.append("confidence AUC, answerable vs adversarial (0.5 = chance):")
    for arm, value in out["auc"].items():
        note = "" if value is not None else ("   (no confidence in file)"
                                             if not any(arm in q.confidences for q in preds.questions)
                                             else "   (needs both halves)")
        lines.append(f"  {arm:<{width}}  {_num(value)}{note}")
    lines.append("")

    if not out["pairs"]:
        lines.append("paired differences: only one arm, nothing to compare")
    else:
        lines.append(f"paired differences, mean F1 of a minus b, 95% percentile bootstrap over "
                     f"conversations (all {out['resamples']:,} resamples, exact):")
        lines.append(f"  {'a':<{width}}  {'b':<{width}}  {'half':<11}    diff  95% interval")
        for row in out["pairs"]:
            interval = ("n/a" if row["lo"] is None
                        else f"[{_num(row['lo'], True)}, {_num(row['hi'], True)}]")
            lines.append(f"  {row['a']:<{width}}  {row['b']:<{width}}  {row['half']:<11}  "
                         f"{_num(row['diff'], True):>6}  {interval}")
    return "\n".join(lines) + "\n"
