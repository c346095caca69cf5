"""Variants that were measured and not kept: run ``python bench/tried.py [--data PATH]``.

Each variant changes one thing and prints graph, oracle, oracle+set, path, path+set and
vector side by side (F1 / quiet per row) with each arm's ROC AUC of answerable against
adversarial, so the numbers the README quotes for them can be checked (k=5, floor 0.30,
the specification's Sure unless ``--floor`` says otherwise):

``baseline``
    the shipped arms, as ``graphmem bench --arms walk`` runs them.
``unowned``
    path without its ownership test (``PathArm(owned=False)``): the walk as the
    specification describes it. The variants below were measured against this one.
``sentence-owner``
    the ownership test made by single sentences: the question is someone else's when the
    one assertion matching it best, over every person, is about someone it does not name.
``claim-text``
    the unowned path ranking each assertion by the cosine of the question to its claim
    (predicate and object phrase) instead of to the sentence it was read from.
``best-returned``
    the unowned path, and every arm's confidence the best coverage of any turn the memory
    returned, not of the first one ("the best turn a memory returned" read the other way).

``--floor`` changes the floor for every variant (to compare at matched silence).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import numpy as np
from sklearn.metrics import roc_auc_score

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from graphmem.bench.locomo import run as bench  # noqa: E402
from graphmem.data import locomo  # noqa: E402
from graphmem.bench.arms import path  # noqa: E402
from graphmem.bench.arms import registry  # noqa: E402
from graphmem.bench.arms.base import turn_text  # noqa: E402
from graphmem.claims.hops import named  # noqa: E402
from graphmem.data.locomo import ADVERSARIAL  # noqa: E402
from graphmem.answer.reader import ReaderSettings  # noqa: E402
from graphmem.answer.sure import sure  # noqa: E402

DEFAULT_DATA = Path(__file__).resolve().parents[1].parent / "shared/data/locomo10.json"
ARMS = ["graph", "oracle", "oracle+set", "path", "path+set", "vector"]
VARIANTS = ("baseline", "unowned", "sentence-owner", "claim-text", "best-returned")


class SentenceOwnerArm(path.PathArm):
    """path whose ownership test compares single best-matching sentences, not neighbourhoods."""

    def _one(self, question, qvec, k):
        people = named(self.ctx.reading.people, question.text)
        if people:
            edges = self.graph.assertions(self.graph.people())
            scores = self._scores(edges, qvec)
            if len(scores):
                theirs = max((float(s) for e, s in zip(edges, scores) if e.subject in people), default=0.0)
                if theirs < float(scores.max()):
                    return []
        return super()._one(question, qvec, k)


class ClaimPathArm(path.PathArm):
    """path ranking each assertion by its claim (predicate + object), not its sentence."""

    def _scores(self, edges, qvec) -> np.ndarray:
        if not edges:
            return np.zeros(0)
        nodes = self.ctx.graph.nodes
        texts = [f"{nodes[('assertion', int(e.assertion))]['predicate']} {nodes[('assertion', int(e.assertion))]['object']}"
                 for e in edges]
        return (self.ctx.vocab.vectors(texts) @ qvec.T).toarray().ravel()


def best_returned(prep: bench.Prepared, found: bench.Retrieval, answers: bench.Answers) -> None:
    """Replace each confidence by the best coverage over every turn the arm returned."""
    for arm in prep.arms:
        for c, ctx in enumerate(prep.contexts):
            rows = answers[arm][c]
            for i, (q, hits) in enumerate(zip(ctx.conv.questions, found[registry.base(arm)][c])):
                if hits:
                    best = max(sure(ctx.vocab, q.text, turn_text(ctx.conv.turn_by_id[h.dia_id])) for h in hits)
                    rows[i] = bench.ArmAnswer(rows[i].reply, rows[i].context, best)


def run(dataset, variant: str, floor: float) -> str:
    prep = bench.prepare(dataset, ARMS)
    swap = {"unowned": lambda ctx: path.PathArm(ctx, owned=False),
            "best-returned": lambda ctx: path.PathArm(ctx, owned=False),
            "sentence-owner": lambda ctx: SentenceOwnerArm(ctx, owned=False),
            "claim-text": lambda ctx: ClaimPathArm(ctx, owned=False)}.get(variant)
    if swap is not None:
        for ctx, arms in zip(prep.contexts, prep.built):
            arms["path"] = swap(ctx)
    found = bench.retrieve(prep, 5)
    answers = bench.answer(prep, found, ReaderSettings())
    if variant == "best-returned":
        best_returned(prep, found, answers)
    scored = bench.score(prep, answers, floor)
    table = scored.table(ARMS)
    truth = [q.category != ADVERSARIAL for q in scored.questions]
    lines = [f"{variant} (k=5 floor={floor:.2f})", "category".ljust(14) + "".join(a.rjust(16) for a in ARMS)]
    for row in ("single hop", "multi hop", "adversarial", "answerable"):
        lines.append(row.ljust(14) + "".join(f"{table[row][a].f1:9.3f} {table[row][a].quiet:4.0%}".rjust(16) for a in ARMS))
    aucs = [roc_auc_score(truth, [x.confidence for conv in answers[a] for x in conv]) for a in ARMS]
    lines.append("ROC AUC".ljust(14) + "".join(f"{v:.3f}".rjust(16) for v in aucs))
    answered, own = whose_turn(prep, found, answers, "path", floor)
    lines.append(f"path answers {answered} adversarial questions; for {own} the first turn it cites was said by "
                 "a person the question names")
    return "\n".join(lines)


def whose_turn(prep: bench.Prepared, found: bench.Retrieval, answers: bench.Answers, arm: str,
               floor: float) -> tuple[int, int]:
    """Adversarial questions an arm answers (confidence at or above the floor), and how many
    of those cite first a turn said by someone the question names: the named person's own
    nearest saying, which is why an unowned walk answers questions that are someone else's."""
    answered = own = 0
    for c, ctx in enumerate(prep.contexts):
        people = ctx.reading.people
        for q, hits, a in zip(ctx.conv.questions, found[registry.base(arm)][c], answers[arm][c]):
            if q.category != ADVERSARIAL or not hits or a.confidence < floor:
                continue
            answered += 1
            own += people.key(ctx.conv.turn_by_id[hits[0].dia_id].speaker) in named(people, q.text)
    return answered, own


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=os.environ.get("GRAPHMEM_LOCOMO") or str(DEFAULT_DATA))
    ap.add_argument("--floor", type=float, default=0.30)
    ap.add_argument("--variant", choices=VARIANTS, action="append", help="default: all")
    args = ap.parse_args()
    dataset = locomo.load_dataset(args.data)
    for variant in args.variant or VARIANTS:
        print(run(dataset, variant, args.floor), end="\n\n")


if __name__ == "__main__":
    main()
