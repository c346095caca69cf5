"""Retrieval and answer metrics for LongMemEval, written from the benchmark's definitions.

Retrieval is scored on a ranking (ids best first; it may stop before the corpus does, as a
lexical index returns only what matched) against a non-empty evidence set:

- ``recall_any@k``: 1 when any evidence id is in the first k;
- ``recall_all@k``: 1 when every evidence id is in the first k;
- ``NDCG@k``: binary gain, DCG = sum over ranks i <= k of rel_i / log2(i + 1), divided by the
  DCG of an ideal ranking (min(|evidence|, k) hits first).

A session ranking is read off a turn ranking: each session at the rank of its best turn, so a
memory that ranks turns is scored on sessions without a second index.

Two views (:data:`VIEWS`), and where they differ:

- ``all``: every turn is indexed; evidence turns are the turns marked ``has_answer``, of either
  role; evidence sessions are the question's ``answer_session_ids``.
- ``official``: LongMemEval's own: only user turns are indexed; evidence turns are user turns
  marked ``has_answer``. A question whose evidence is only in assistant turns (most of
  single-session-assistant) has no evidence here and is left out of this view, as it would be
  from the official scores; the all-turns view keeps it. Sessions are ranked over the same
  user-only index.

Knowledge updates (:func:`update_rates`): where a question's evidence spans an older and a
newer session, whether the newest is found first, and whether the top turn is the stale value.

Abstention questions (``_abs``) have no answer to find and are left out of retrieval in both views.
"""

from __future__ import annotations

import math
import re
import string
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

KS = (1, 5, 10)
VIEWS = ("all", "official")
METRICS = ("recall_any", "recall_all", "ndcg")


def recall_any(ranking: Sequence[str], evidence: Iterable[str], k: int) -> float:
    """1.0 when any evidence id is among the first ``k``."""
    top = set(ranking[:k])
    return float(any(e in top for e in evidence))


def recall_all(ranking: Sequence[str], evidence: Iterable[str], k: int) -> float:
    """1.0 when every evidence id is among the first ``k``."""
    top = set(ranking[:k])
    return float(all(e in top for e in evidence))


def ndcg(ranking: Sequence[str], evidence: Iterable[str], k: int) -> float:
    """Binary-gain NDCG@k: hits discounted by log2(rank + 1), over the ideal ranking's DCG."""
    wanted = set(evidence)
    if not wanted:
        raise ValueError("NDCG needs at least one evidence id")
    dcg = sum(1.0 / math.log2(i + 2) for i, doc in enumerate(ranking[:k]) if doc in wanted)
    ideal = sum(1.0 / math.log2(i + 2) for i in range(min(len(wanted), k)))
    return dcg / ideal


SCORERS = {"recall_any": recall_any, "recall_all": recall_all, "ndcg": ndcg}


def scores(ranking: Sequence[str], evidence: Iterable[str], ks: Sequence[int] = KS) -> dict[str, float]:
    """Every metric at every k, keyed ``recall_any@5``."""
    wanted = frozenset(evidence)
    return {f"{name}@{k}": SCORERS[name](ranking, wanted, k) for name in METRICS for k in ks}


def sessions_of(turn_ranking: Sequence[str], session_of: dict[str, str]) -> list[str]:
    """Sessions in the order of their best turn (first appearance)."""
    return list(dict.fromkeys(session_of[t] for t in turn_ranking))


UPDATES_K = 10
"""How deep the knowledge-update rates look (the issue's top 10)."""


def update_rates(ranking: Sequence[str], evidence: Iterable[str], session_of: Mapping[str, str],
                 dated: Mapping[str, object], k: int = UPDATES_K) -> dict[str, float] | None:
    """For a question whose evidence spans an older and a newer session (a knowledge update):
    ``newest_first``, 1 when the first evidence turn in the top ``k`` comes from the newest
    evidence session; ``stale_top``, 1 when the top turn is evidence from an older one. None
    when the evidence is all in one session (nothing was updated)."""
    wanted = set(evidence)
    sessions = {session_of[t] for t in wanted}
    if len(sessions) < 2:
        return None
    newest = max(sessions, key=lambda s: (dated[s], s))
    first = next((t for t in ranking[:k] if t in wanted), None)
    top = ranking[0] if ranking else None
    return {"newest_first": float(first is not None and session_of[first] == newest),
            "stale_top": float(top in wanted and session_of[top] != newest)}


_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCT = str.maketrans("", "", string.punctuation)


def tokens(text: str) -> list[str]:
    """SQuAD's answer normalisation: lower case, no punctuation, no articles, words."""
    return _ARTICLES.sub(" ", str(text).lower().translate(_PUNCT)).split()


def token_f1(reply: str, gold: str) -> float:
    """Token F1 between a reply and the gold answer (SQuAD's, unstemmed; LongMemEval itself
    scores with a model judge, so this is the extractive reader's own yardstick)."""
    a, b = tokens(reply), tokens(gold)
    common = sum((Counter(a) & Counter(b)).values())
    if not common:
        return 0.0
    p, r = common / len(a), common / len(b)
    return 2 * p * r / (p + r)
