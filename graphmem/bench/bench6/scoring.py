"""bench6's scoring, exactly as its METRICS.md says.

In our words: the result is cut to its first ``k`` ids; ``rank`` is the 1-based position of
the first id in that cut list that is one of the question's evidence ids (any one counts),
or 0 when none is (an empty result, unknown ids, or an empty evidence list). hit@1 = share
of rank 1; hit@k = share of 1 <= rank <= k; MRR = mean of 1/rank with misses as 0 (so
MRR@k). Every question is in the denominator. Duplicate ids are not removed. By qtype: the
same, within each qtype.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from graphmem.bench.bench6.files import QTYPES, Bench6Question


@dataclass(frozen=True)
class Summary:
    n: int
    hit1: float
    hitk: float
    mrr: float


def rank_of(result: Sequence[str] | None, evidence: Iterable[str], k: int) -> int:
    """1-based position of the first evidence id among the first ``k`` results, 0 if none."""
    wanted = set(evidence)
    for pos, rid in enumerate(list(result or [])[: max(k, 0)], 1):
        if rid in wanted:
            return pos
    return 0


def score(ranks: Sequence[int], k: int = 5) -> Summary:
    """hit@1, hit@k and MRR over per-question ranks (0 = miss); every rank is in the denominator."""
    n = len(ranks)
    if n == 0:
        return Summary(0, 0.0, 0.0, 0.0)
    return Summary(
        n,
        sum(1 for r in ranks if r == 1) / n,
        sum(1 for r in ranks if 1 <= r <= k) / n,
        sum(1.0 / r for r in ranks if r > 0) / n,
    )


def by_qtype(questions: Sequence[Bench6Question], ranks: Sequence[int], k: int = 5) -> dict[str, Summary]:
    """The same summary within each qtype (known qtypes in the bench's order, then others)."""
    groups: dict[str, list[int]] = {}
    for q, r in zip(questions, ranks, strict=True):
        groups.setdefault(q.qtype, []).append(r)
    order = [t for t in QTYPES if t in groups] + sorted(t for t in groups if t not in QTYPES)
    return {t: score(groups[t], k) for t in order}
