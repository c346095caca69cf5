"""Every bench6 question graphmem does not answer first, and why it might be so.

    python bench/bench6_misses.py [--data DIR] [--locomo PATH] [--dense] [--lang zh|en|both] [-k 5]

For each question whose evidence is not at rank 1 it prints the rank (0: not in the top
``k``), the query, the evidence turns and the turn graphmem put first. bench6's questions
are LoCoMo's (qid ``scene_K_q_N`` is question N of conversation K), so it also prints
LoCoMo's answer and how many of its content words (stemmed) the best evidence turn holds
and the best turn of the whole pool holds: a short answer ("Phuket") that no pool turn
holds, asked of evidence that does not hold it either, marks an annotation no retriever
that reads the question can be expected to find.
This reads the results; nothing here feeds back into the memory.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from graphmem.bench import bench6  # noqa: E402
from graphmem.bench.bench6.adapter import question_of  # noqa: E402
from graphmem.bench.bench6.scoring import rank_of  # noqa: E402
from graphmem.data import locomo  # noqa: E402
from graphmem.text.terms import analyse  # noqa: E402

ROOT = Path(__file__).resolve().parents[1].parent / "shared/data"


def answer_of(dataset: locomo.Dataset | None, qid: str) -> str | None:
    """LoCoMo's answer to bench6 question ``qid``, when the dataset is at hand."""
    where = question_of(qid)
    if dataset is None or where is None:
        return None
    conv, n = where
    if conv >= len(dataset.conversations):
        return None
    found = [q for q in dataset.conversations[conv].questions if q.index == n]
    return str(found[0].answer) if found else None


def held(texts: list[str], answer: str) -> str:
    """How many of the answer's content words (stemmed) the text holding most of them
    holds, as ``"held/all"``."""
    want = set(analyse(answer))
    best = max((len(want & set(analyse(t))) for t in texts), default=0)
    return f"{best}/{len(want)}"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--data", default=str(ROOT / "bench6"))
    p.add_argument("--locomo", default=str(ROOT / "locomo10.json"))
    p.add_argument("--dense", action="store_true")
    p.add_argument("--lang", choices=["zh", "en", "both"], default="both")
    p.add_argument("-k", type=int, default=5)
    a = p.parse_args()
    bench = bench6.load_bench(a.data)
    dataset = locomo.load_dataset(a.locomo) if Path(a.locomo).is_file() else None
    text = {r["id"]: r["text"] for r in bench.pool}
    adapter = bench6.Adapter(dense=a.dense)
    adapter.load()
    adapter.ingest(bench.pool)
    for lang in (("zh", "en") if a.lang == "both" else (a.lang,)):
        misses = 0
        for q in bench.questions:
            found = adapter.search(q.text[lang], a.k)
            r = rank_of(found, q.evidence, a.k)
            if r == 1:
                continue
            misses += 1
            print(f"[{lang}] rank {r}  {q.qid} ({q.qtype}): {q.text[lang]}")
            answer = answer_of(dataset, q.qid)
            if answer:  # adversarial questions have none
                gold = [text[e] for e in q.evidence if e in text]
                print(f"    answer {answer!r}: words in evidence {held(gold, answer)}, "
                      f"in the pool's best turn {held(list(text.values()), answer)}")
            for e in q.evidence:
                print(f"    evidence {e}: {text.get(e, '(not in pool)')[:160]}")
            if found:
                print(f"    first    {found[0]}: {text[found[0]][:160]}")
        print(f"[{lang}] {misses} of {len(bench.questions)} not first (k={a.k})\n")


if __name__ == "__main__":
    main()
