"""The cohyponym swap test (graphmem/text/kinds.py) on LoCoMo: the second development set.

    python bench/cohyponyms_locomo.py [--data PATH] [--senses 1 --hops 2 --depth 6] [--compounds]

LongMemEval's ``_abs`` questions swap a detail; LoCoMo's adversarial ones (category 5) mostly ask
one speaker about what the other said. Whatever the test does for the first, on LoCoMo it must not
silence answerable questions. All ten conversations go into one shipped
:class:`graphmem.memory.api.Memory`, as ``bench/memory_locomo.py`` builds it; every question is asked
once (``records_for(question, 5)`` then ``answer_from``, which is ``ask``), and the first turn found is
tested. Printed per category: how many questions are flagged, then the ROC AUC (scikit-learn) of
answerable (1-4) against adversarial (5) for the shipped confidence and for the same with the
flagged questions put below every other, and the share of each kind kept quiet at the shipped floor.
Needs WordNet in NLTK's data (``scripts/wordnet-local``).
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
from graphmem.text.kinds import Cohyponyms, wordnet  # noqa: E402


def measure(dataset: locomo.Dataset, kinds: Cohyponyms) -> tuple[list[int], list[float], list[str | None]]:
    """(category, shipped confidence, swap found or None) per question."""
    mem = _memory(dataset, False)
    categories, confidence, swaps = [], [], []
    for c in dataset.conversations:
        for q in c.questions:
            found = mem.records_for(q.text, 5)
            categories.append(q.category)
            confidence.append(mem.answer_from(q.text, found).confidence)
            swaps.append(kinds.swapped_in(q.text, found[0].text) if found else None)
    return categories, confidence, swaps


def report(categories: list[int], confidence: list[float], swaps: list[str | None]) -> None:
    """Flags per category, then AUC and quiet shares with and without the flag."""
    total, flagged = Counter(categories), Counter(c for c, s in zip(categories, swaps) if s is not None)
    for category in sorted(total):
        some = [s for c, s in zip(categories, swaps) if c == category and s is not None][:6]
        print(f"category {category}: {flagged[category]:>3} of {total[category]:>4} flagged  {', '.join(some)}")
    truth = np.array([c != 5 for c in categories])
    sure = np.asarray(confidence)
    kind = np.array([put_below(c, s) for c, s in zip(confidence, swaps)])
    for name, values in (("confidence", sure), ("+kind", kind)):
        quiet = values < memory.FLOOR
        print(f"{name:<11} AUC {roc_auc_score(truth, values):.3f}  quiet at the floor {memory.FLOOR:.2f}:"
              f" answerable {quiet[truth].mean():.3f}, adversarial {quiet[~truth].mean():.3f}")


def main() -> None:
    """The same settings as ``bench/longmemeval_confidence.py --wordnet``, so one rule is measured on both sets."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=str(DEFAULT_DATA))
    ap.add_argument("--senses", type=int, default=1)
    ap.add_argument("--hops", type=int, default=2)
    ap.add_argument("--depth", type=int, default=6)
    ap.add_argument("--compounds", action="store_true")
    args = ap.parse_args()
    kinds = Cohyponyms(wordnet(), args.senses, args.hops, args.depth, args.compounds)
    report(*measure(locomo.load_dataset(args.data), kinds))


if __name__ == "__main__":
    main()
