"""The cohyponym swap test (graphmem/text/kinds.py) on LoCoMo: the second development set.

    python bench/cohyponyms_locomo.py [--data PATH] [--senses 1 --hops 2 --depth 6] [--compounds] [--dense]

LongMemEval's ``_abs`` questions swap a detail; LoCoMo's adversarial ones (category 5) mostly ask
one speaker about what the other said. Whatever the test does for the first, on LoCoMo it must not
silence answerable questions. All ten conversations go into one shipped
:class:`graphmem.memory.api.Memory`, as ``bench/memory_locomo.py`` builds it; every question is asked
once (``records_for(question, 5)`` then ``answer_from``, which is ``ask``), and the first turn found is
tested. Printed per category: how many questions are flagged, then the ROC AUC (scikit-learn) of
answerable (1-4) against adversarial (5) for the shipped confidence and for the same with the
flagged questions put below every other, and the share of each kind kept quiet at the shipped floor.
Needs WordNet in NLTK's data (``scripts/wordnet-local``).

``--dense`` (the dense extra) also reads the memory's meaning confidence (:class:`graphmem.memory.meaning.Meaning`:
the best e5 cosine over the first ten turns found) for every question, as if LoCoMo were an exchange with an
assistant, alone and with the flag (0.0 when flagged, as the memory says): whether two-party dialogue
should keep the coverage. Quiet shares are then at ``MEANING_FLOOR``.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import numpy as np
from sklearn.metrics import roc_auc_score

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from longmemeval_confidence import put_below  # noqa: E402
from memory_locomo import DEFAULT_DATA, _memory  # noqa: E402
from graphmem.data import locomo  # noqa: E402
from graphmem.memory import api as memory  # noqa: E402
from graphmem.memory.meaning import MEANING_FLOOR, Meaning  # noqa: E402
from graphmem.index.options import MemoryOptions  # noqa: E402
from graphmem.text.kinds import Cohyponyms, wordnet  # noqa: E402


def measure(dataset: locomo.Dataset, kinds: Cohyponyms,
            meaning: Meaning | None = None) -> tuple[list[int], list[float], list[str | None], list[float]]:
    """(category, shipped confidence, swap found or None, ``meaning``'s cosine or nothing) per question."""
    mem = _memory(dataset, False)
    categories, confidence, swaps, cosines = [], [], [], []
    for c in dataset.conversations:
        for q in c.questions:
            found = mem.records_for(q.text, 10)
            categories.append(q.category)
            confidence.append(mem.answer_from(q.text, found, cite=5).confidence)
            swaps.append(kinds.swapped_in(q.text, found[0].text) if found else None)
            if meaning is not None:
                cosines.append(meaning(q.text, found))
    return categories, confidence, swaps, cosines


def report(categories: list[int], confidence: list[float], swaps: list[str | None], cosines: list[float]) -> None:
    """Flags per category, then AUC and quiet shares with and without the flag."""
    total, flagged = Counter(categories), Counter(c for c, s in zip(categories, swaps) if s is not None)
    for category in sorted(total):
        some = [s for c, s in zip(categories, swaps) if c == category and s is not None][:6]
        print(f"category {category}: {flagged[category]:>3} of {total[category]:>4} flagged  {', '.join(some)}")
    truth = np.array([c != 5 for c in categories])
    sure = np.asarray(confidence)
    kind = np.array([put_below(c, s) for c, s in zip(confidence, swaps)])
    rows = [("confidence", sure, memory.FLOOR), ("+kind", kind, memory.FLOOR)]
    if cosines:
        rows += [("meaning", np.asarray(cosines), MEANING_FLOOR),
                 ("meaning+kind", np.array([0.0 if s else c for c, s in zip(cosines, swaps)]), MEANING_FLOOR)]
    for name, values, floor in rows:
        quiet = values < floor
        print(f"{name:<12} AUC {roc_auc_score(truth, values):.3f}  quiet at the floor {floor:.3f}:"
              f" answerable {quiet[truth].mean():.3f}, adversarial {quiet[~truth].mean():.3f}")


def main() -> None:
    """The same settings as ``bench/longmemeval_confidence.py --wordnet``, so one rule is measured on both sets."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=str(DEFAULT_DATA))
    ap.add_argument("--senses", type=int, default=1)
    ap.add_argument("--hops", type=int, default=2)
    ap.add_argument("--depth", type=int, default=6)
    ap.add_argument("--compounds", action="store_true")
    ap.add_argument("--dense", action="store_true", help="also the meaning confidence, as if every question were asked of an assistant")
    args = ap.parse_args()
    kinds = Cohyponyms(wordnet(), args.senses, args.hops, args.depth, args.compounds)
    meaning = Meaning(MemoryOptions(meaning_kinds=False)) if args.dense else None
    report(*measure(locomo.load_dataset(args.data), kinds, meaning))


if __name__ == "__main__":
    main()
