"""The reader on LongMemEval: a phrase of one sentence against a sentence's rarest words.

    python bench/longmemeval_reader.py [--data FILE] [--variant s|oracle] [--limit N]

Per question a fresh shipped memory over its haystack (ingested once); the first five turns its
search returns are read by both readers (``ReaderSettings.phrase`` True and False, the shipped
floor applied to the shipped confidence, so both are quiet on the same questions), and the token
F1 of each against the gold answer is printed by question type, with the questions each wins.
The memory's own choice (``MemoryOptions.phrase = "assistant"``) is the phrase reader here:
every haystack is person-assistant chat.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from graphmem.answer.reader import ABSTAIN, Hit, Reader, ReaderSettings  # noqa: E402
from graphmem.answer.sure import sure  # noqa: E402
from graphmem.bench.longmemeval import load as loader  # noqa: E402
from graphmem.bench.longmemeval.metrics import token_f1  # noqa: E402
from graphmem.memory.api import FLOOR, Memory  # noqa: E402


def replies(mem: Memory, question: str) -> dict[str, str]:
    """Both readers' replies over the memory's first five turns (as ``Memory.answer_from`` reads them)."""
    found = mem.records_for(question, k=5)
    if not found:
        return {"phrase": ABSTAIN, "rare words": ABSTAIN}
    index = mem.store.index  # the memory's own vocabulary and query reading, as answer_from uses them
    asked = index.english(question)
    if sure(index.vocab, asked, found[0].text) < FLOOR:
        return {"phrase": ABSTAIN, "rare words": ABSTAIN}
    hits = [Hit(r.id, r.text, r.date or datetime.now()) for r in found]
    return {name: Reader(index.vocab, ReaderSettings(phrase=flag)).read(asked, hits)
            for name, flag in (("phrase", True), ("rare words", False))}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=None)
    ap.add_argument("--variant", default="s", choices=["s", "oracle"])
    ap.add_argument("--limit", type=int, default=None)
    args = ap.parse_args()
    f1: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for q in loader.load(args.data, args.variant, args.limit):
        if q.abstention:
            continue
        mem = Memory()
        mem.ingest(q.records())
        for name, reply in replies(mem, q.question).items():
            score = token_f1(reply, q.answer)
            f1[q.type][name].append(score)
            f1["all"][name].append(score)
    print(f"token F1 of the answerable questions ({args.variant}), phrase against rare words")
    print(f"  {'type':<26} {'n':>4}  {'phrase':>7}  {'rare':>7}  won / lost by the phrase")
    for qtype in sorted(f1, key=lambda t: (t == "all", t)):
        a, b = f1[qtype]["phrase"], f1[qtype]["rare words"]
        won, lost = sum(x > y for x, y in zip(a, b)), sum(x < y for x, y in zip(a, b))
        print(f"  {qtype:<26} {len(a):>4}  {sum(a) / len(a):7.3f}  {sum(b) / len(b):7.3f}  {won} / {lost}")


if __name__ == "__main__":
    main()
