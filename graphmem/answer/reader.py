"""The readers, shared by every arm: turn returned evidence into a short extractive reply.

No model is called. ``Reply`` quotes the sentence covering most of the question, drops
the words the question already contained and keeps the rarest few (``span``); it states
a second piece of evidence only when that piece covers nearly as much (``band``), and at
most ``parts`` pieces. ``Gather`` (the ``+set`` reader) states every piece returned, so
the width of an answer is decided by the memory alone. For a when-question both read the
date off the session instead, resolving relative words ("yesterday", "last week", "back
in October") against it (:func:`graphmem.text.dates.resolve_date`).

The confidence is not the reader's: it is computed once outside the arms
(:mod:`graphmem.answer.sure`). The reader never sees a question's category or the arm
that produced the evidence.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache

from graphmem.answer.phrase import phrase
from graphmem.text.dates import is_when, resolve_date
from graphmem.text.sentences import sentences
from graphmem.text.spelling import american
from graphmem.text.terms import TermWeights, analyse, content, stem

ABSTAIN = "No information available"
"""The exact reply of a quiet arm; the official scorer credits it on adversarial questions."""


@dataclass(frozen=True)
class Hit:
    """One piece of returned evidence: the turn it cites and the text the reader may quote."""

    dia_id: str
    text: str
    date: datetime


@dataclass(frozen=True)
class ReaderSettings:
    """The reader's knobs (they barely matter; the specification sweeps them)."""

    span: int = 4
    band: float = 0.90
    parts: int = 2
    phrase: bool = False
    """Quote one stretch of the chosen sentence (:mod:`graphmem.answer.phrase`), one piece
    only, instead of its ``span`` rarest words in order."""


_TOKEN = re.compile(r"[A-Za-z0-9]+(?:'[A-Za-z]+)?")


@lru_cache(maxsize=65536)
def _sentences(text: str) -> tuple[str, ...]:
    """A text's sentences, split by :func:`graphmem.text.sentences.sentences` (cached: the same turns are read by every arm)."""
    return tuple(sentences(text)) or (text,)


@lru_cache(maxsize=131072)
def _tokens(sentence: str) -> tuple[tuple[str, str], ...]:
    """(surface word, stem) for each content word of a sentence, in order."""
    out = []
    for tok in _TOKEN.findall(sentence.replace("\u2019", "'")):
        low = tok.lower().split("'")[0]
        if content(low):
            out.append((tok.split("'")[0], stem(american(low))))
    return tuple(out)


def best_sentences(asked: dict[str, float], hits: Sequence[Hit]) -> list[tuple[float, str, Hit]]:
    """For each hit, its sentence covering the most question weight (ties: the first)."""
    out = []
    for hit in hits:
        best, best_sentence = -1.0, ""
        for sentence in _sentences(hit.text):
            stems = {s for _, s in _tokens(sentence)}
            cover = sum(w for t, w in asked.items() if t in stems)
            if cover > best:
                best, best_sentence = cover, sentence
        out.append((best, best_sentence, hit))
    return out


class Reader:
    """Reply (``gather=False``) or Gather (``gather=True``) over one conversation's vocabulary."""

    def __init__(self, vocab: TermWeights, settings: ReaderSettings = ReaderSettings(), gather: bool = False):
        self.vocab = vocab
        self.settings = settings
        self.gather = gather

    def read(self, question: str, hits: Sequence[Hit]) -> str:
        """The reply for a question given ranked evidence (the caller applies the floor)."""
        if not hits:
            return ABSTAIN
        asked = self.vocab.weights(analyse(question))
        scored = best_sentences(asked, hits)
        if is_when(question):
            best = max(scored, key=lambda s: s[0])
            return resolve_date(best[1], best[2].date)
        if self.gather:
            chosen = scored
        else:
            top = max(s[0] for s in scored)
            ranked = sorted(scored, key=lambda s: -s[0])
            most = 1 if self.settings.phrase else self.settings.parts
            chosen = [s for s in ranked if s[0] >= self.settings.band * top][:most]
        parts: list[str] = []
        for _, sentence, _ in chosen:
            if self.settings.phrase:
                part = phrase(sentence, asked, self.vocab.weight, self.settings.span)
            else:
                part = self.trim(sentence, asked)
            if part and part not in parts:
                parts.append(part)
        return ", ".join(parts) if parts else ABSTAIN

    def trim(self, sentence: str, asked: dict[str, float]) -> str:
        """Drop what the question already said; keep the ``span`` rarest words in order."""
        seen: set[str] = set()
        kept: list[tuple[int, str, float]] = []
        for i, (word, s) in enumerate(_tokens(sentence)):
            if s in asked or s in seen:
                continue
            seen.add(s)
            kept.append((i, word, self.vocab.weight(s)))
        rare = sorted(kept, key=lambda x: (-x[2], x[0]))[: self.settings.span]
        return " ".join(word for _, word, _ in sorted(rare))
