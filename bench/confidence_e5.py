"""e5's cosines over the turns a calibrated ``ask`` reads, as signals for the calibrated confidence; cached.

    python bench/confidence_e5.py [--lme FILE] [--locomo FILE] [--limit N]

For each row of ``bench/confidence_rows.py`` (the question and the first ten turns found), the
question (e5's ``query:``) against multilingual-e5-small run by graphmem's int8 graph
(:class:`graphmem.search.e5.Engine`, one thread), read two ways:

- **sentences** (:data:`SENTENCES`): every sentence of a turn as ``"speaker: sentence"``
  (:func:`graphmem.search.dense.passages`, as the dense search reads it), a turn scoring its best
  sentence: ``e5_1``, ``e5_3``, ``e5_5``, ``e5_10`` the best over the first 1, 3, 5, 10 turns (``e5_10``
  is the meaning confidence's cosine, docs/longmemeval.md), ``e5_top3`` the mean of the three best
  sentences of the ten, ``e5_spread`` how far the best turn leads the ten turns' mean (a question's
  cosines sit higher or lower as a whole). It costs an encode per sentence: about 70 ms of CPU a LongMemEval turn.
- **one vector a turn** (:data:`TURNS`): ``"speaker: text"`` cut to its first 64 pieces, what an ingest
  could afford once a turn (``bench/dense_cost.py``): ``e5c_1``, ``e5c_5``, ``e5c_10``.

Vectors are cached in ``~/.cache/graphmem/confidence/e5.sqlite`` by engine, cut and text, so a second
run reads them; the signals per row in ``e5-<rows' key>-<what they read>.json`` beside the rows.
``bench/fit_confidence.py --e5`` reads them.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from types import SimpleNamespace

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import confidence_rows  # noqa: E402
from graphmem.memory import sense  # noqa: E402
from graphmem.search import dense, e5  # noqa: E402

SENTENCES = ("e5_1", "e5_3", "e5_5", "e5_10", "e5_top3", "e5_spread")  # e5_3, e5_10: sense.E5, the shipped
TURNS = ("e5c_1", "e5c_5", "e5c_10")
E5 = SENTENCES + TURNS
"""The signals, in the order a model keeps them."""
CUT = 64
"""The pieces one vector a turn reads (``<s>`` and ``</s>`` included)."""


class Vectors:
    """e5 vectors of texts, each cut to ``cut`` pieces (None: the engine's 512), cached by text."""

    def __init__(self, engine: e5.Engine, cut: int | None, path: Path):
        self.engine, self.cut = engine, cut
        self.cache = dense._Cache(path, f"e5-int8/cut{cut or 512}")

    def tokens(self, text: str, query: bool) -> list[int]:
        ids = self.engine._tokens(text, query)
        return ids if self.cut is None or len(ids) <= self.cut else ids[: self.cut - 1] + ids[-1:]

    def __call__(self, texts: Sequence[str], query: bool = False) -> np.ndarray:
        texts = [t if t.strip() else " " for t in texts]
        known = self.cache.get(texts, query)
        todo = [i for i, v in enumerate(known) if v is None]
        out = np.zeros((len(texts), self.engine.dim), dtype=np.float32)
        for i, v in enumerate(known):
            if v is not None:
                out[i] = v
        if todo:
            fresh = self.engine.encode_ids([self.tokens(texts[i], query) for i in todo])
            out[todo] = fresh
            self.cache.put([texts[i] for i in todo], query, fresh)
        return out


def signals(question: str, found: Sequence[Sequence[str]], whole: Vectors, cut: Vectors) -> dict[str, float]:
    """The e5 signals of one question over the turns found, ``(id, speaker, text)`` best first; the
    sentences' as the product reads them (:func:`graphmem.memory.sense.e5`, over cached vectors)."""
    if not found:
        return dict.fromkeys(E5, 0.0)
    turns = [SimpleNamespace(speaker=s, text=t) for _, s, t in found]
    turn = sense.turn_cosines(question, turns, whole)
    _, pieces = dense.passages([(s, t) for _, s, t in found])
    sims = whole(pieces) @ whole([question], query=True)[0]
    per = cut([f"{s}: {t}" for _, s, t in found]) @ cut([question], query=True)[0]
    best = np.maximum.accumulate(turn)
    at = lambda k: float(best[min(k, len(found)) - 1])  # noqa: E731
    return sense.e5(question, turns, whole) | {
        "e5_1": at(1), "e5_5": at(5), "e5_top3": float(np.sort(sims)[-3:].mean()),
        "e5_spread": float(turn.max() - turn.mean()),
        "e5c_1": float(per[0]), "e5c_5": float(per[:5].max()), "e5c_10": float(per.max())}


def e5_rows(rows: list[dict], name: str) -> list[dict[str, float]]:
    """The e5 signals of every row, cached in a file named for the rows' (``name``)."""
    out = confidence_rows.CACHE / f"e5-{name}.json"
    if out.exists():
        return json.loads(out.read_text())
    engine = e5.Engine()
    vectors = confidence_rows.CACHE / "e5.sqlite"
    whole, cut = Vectors(engine, None, vectors), Vectors(engine, CUT, vectors)
    start = time.process_time()
    got = []
    for i, r in enumerate(rows):
        got.append(signals(r["question"], r["found"], whole, cut))
        if i % 200 == 0:
            print(f"{i} rows, {time.process_time() - start:.1f} s CPU", file=sys.stderr, flush=True)
    tmp = out.with_suffix(".tmp")
    tmp.write_text(json.dumps(got))
    tmp.replace(out)
    print(f"e5: {len(got)} rows in {time.process_time() - start:.1f} s CPU -> {out}", file=sys.stderr)
    return got


def with_e5(rows: list[dict], name: str) -> list[dict]:
    """``rows`` with the e5 signals added to each row's signals (cached under the rows' ``name`` and
    what they read: the questions and the turns found, which ``confidence_rows.py --fresh`` may change)."""
    read = json.dumps([[r["question"], [f[0] for f in r["found"]]] for r in rows])
    name = f"{name}-{hashlib.sha256(read.encode()).hexdigest()[:12]}"
    for r, s in zip(rows, e5_rows(rows, name), strict=True):
        r["signals"] |= s
    return rows


if __name__ == "__main__":
    a = confidence_rows.arguments(argparse.ArgumentParser(description=__doc__.split("\n")[0])).parse_args()
    got = confidence_rows.rows(a.lme, a.locomo, a.limit, a.fresh)
    with_e5(got, confidence_rows.name(a.lme, a.locomo, a.limit))
    print(f"{len(got)} rows with e5's signals")
