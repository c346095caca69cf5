"""A query, parsed once: the structured groups of its words, its dates, the answer type it asks
for, whether it speaks of its asker, the names it holds.

Why one object: every store ranks by the same specification (BM25F over a turn and the turn it
replies to, structured query groups, date and answer-type terms, the named person first), and
each used to parse the query again in its own way. :meth:`Query.parse` reads the text once; a
store only asks which of the query's stems it holds (:meth:`Query.groups`).

The query is *structured* (Pirkola 1998; Darwish & Oard's probabilistic structured queries): a
list of groups, one per source word, each a set of alternative stems standing for that word:

- a Chinese word's group holds the content words of its CC-CEDICT glosses
  (:func:`graphmem.text.zh.to_english_terms`) that occur in the memory's own vocabulary: the
  memory knows which translations are possible in it, and a gloss no turn contains can only add
  noise;
- an English word's group is its stem plus the stems of its irregular forms (``drawing`` also
  matches ``drew``; Porter stemming handles the regular ones).

A group is scored as one term: its term frequency in a turn is the sum over its alternatives,
its document frequency the number of turns holding any of them, so a Chinese word with five
glosses weighs what one English word weighs. A date the query names, or (given the moment it is
asked) a relative date it speaks of, is one more term; so is the type of answer it asks for
(when, how long). The scoring itself is BM25F (:mod:`graphmem.index.bm25f`, which the postings
call and ``cypher/search_bm25f.cypher`` implements in Neo4j); the figures behind each choice are in docs/memory.md.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, time
from functools import lru_cache

from graphmem.index.askers import asks_of_self
from graphmem.text import zh as lingo
from graphmem.text.dates import answer_type, days_asked_about
from graphmem.text.lemma import IRREGULAR
from graphmem.text.lemma import lemma as lemma_of
from graphmem.text.spelling import american
from graphmem.text.terms import content, hebrew_bare, stem, words

__all__ = ["Query", "family_sets", "query_groups", "said_until", "variants"]


def said_until(moment: datetime | None) -> datetime | None:
    """The last moment a turn may have been said to count as of ``moment``: the end of its day.

    Why the day: "as of a date" names a day, and a memory's dates are days more often than moments
    (a LoCoMo session's, a record dated "2023-03-01"), so what was said on the day asked is known
    that day, whatever its hour; LongMemEval dates its questions to the minute, and in 20 of the
    development half's questions evidence was said later the same day (docs/what_holds.md).
    Nothing said on a later day counts, in any store's search, in ``ask`` or in ``facts``."""
    return None if moment is None else datetime.combine(moment.date(), time.max)


@lru_cache(maxsize=1)
def _families() -> dict[str, frozenset[str]]:
    """Lemma -> stems of all its irregular forms (went, gone -> go), from the reader's table."""
    fam: dict[str, set[str]] = {}
    for form, lemma in IRREGULAR.items():
        if form.isalpha() and content(form) and content(lemma):
            fam.setdefault(lemma, {stem(lemma)}).add(stem(form))
    return {k: frozenset(v) for k, v in fam.items()}


@lru_cache(maxsize=1)
def family_sets() -> dict[str, tuple[frozenset[str], ...]]:
    """Stem -> the stem sets of the irregular families it belongs to: each set is what
    :func:`variants` gives for a word of that family (its lemma's stem and its forms'), so a
    store that counts turns holding any stem of a set has that query group's document frequency."""
    out: dict[str, list[frozenset[str]]] = {}
    for lemma, fam in _families().items():
        group = fam | {stem(lemma)}
        for s in group:
            out.setdefault(s, []).append(group)
    return {s: tuple(dict.fromkeys(v)) for s, v in out.items()}


@lru_cache(maxsize=None)
def variants(word: str) -> tuple[str, ...]:
    """The stems one lower-case English word stands for: its own stem first, then those of
    its irregular inflections (``drawing`` -> draw, drew, drawn); a British spelling as the American
    (:func:`graphmem.text.spelling.american`), as the turns' terms are. A word of another script is its own
    term, as the index keeps it (a Hebrew one without its prefix letters: :func:`hebrew_bare`)."""
    if not word.isascii():
        return (hebrew_bare(word),)
    word = american(word)
    own = stem(word)
    lemma = lemma_of(word)
    fam = _families().get(lemma, frozenset())
    extra = sorted((fam | {stem(lemma)}) - {own}) if fam else []
    return (own, *extra)


def alternatives_of(text: str, alternatives: Callable[[str], tuple[str, ...]] = variants) -> list[list[str]]:
    """Per source word of ``text``, the stems that may stand for it: a Chinese query's words
    through their glosses, an English word through :func:`variants` (or ``alternatives``)."""
    if not lingo.has_cjk(text):
        return [list(alternatives(w)) for w in words(text) if content(w)]
    raw: list[list[str]] = []
    for phrases in lingo.to_english_terms(text):
        alts: list[str] = []
        for phrase in phrases:
            for w in words(phrase):
                if content(w):
                    alts.extend(alternatives(w))
        raw.append(alts)
    return raw


def grouped(raw: list[list[str]], known: Callable[[str], bool]) -> list[tuple[str, ...]]:
    """The structured query against a store that can say which stems it holds: each word's known
    alternatives, in query order; a group no known stem is dropped (it cannot match), and a
    repeated group (the same word twice, two Chinese words glossed alike) is kept once."""
    out: list[tuple[str, ...]] = []
    seen: set[frozenset[str]] = set()
    for alts in raw:
        group = tuple(dict.fromkeys(a for a in alts if known(a)))
        key = frozenset(group)
        if group and key not in seen:
            seen.add(key)
            out.append(group)
    return out


def query_groups(text: str, known: Callable[[str], bool],
                 alternatives: Callable[[str], tuple[str, ...]] = variants) -> list[tuple[str, ...]]:
    """:func:`grouped` of :func:`alternatives_of`: the structured query of a text in one call."""
    return grouped(alternatives_of(text, alternatives), known)


@dataclass(frozen=True)
class Query:
    """What a search asks, read once off its text and the moment it is asked."""

    text: str
    english: str
    """The text in the memory's language: a Chinese query glossed offline, English as it is."""
    words: frozenset[str]
    """Its lower-case words: the names a person scope looks for among the speakers."""
    alternatives: tuple[tuple[str, ...], ...]
    """Per source word, the stems that may stand for it (before a store keeps the ones it holds)."""
    dates: tuple[tuple[date, date], ...]
    """The runs of days it asks about: the dates it names and, given ``asked_on``, its relative ones."""
    kind: str | None
    """The type of answer it asks for (``when``, ``how long``), or None."""
    of_asker: bool
    """Whether it speaks of its asker in the first person ("What book am I reading?")."""
    asked_on: datetime | None = None

    @property
    def until(self) -> datetime | None:
        """The last moment a turn found may have been said (:func:`said_until` of ``asked_on``)."""
        return said_until(self.asked_on)

    @classmethod
    def parse(cls, text: str, asked_on: datetime | None = None) -> Query:
        english = lingo.to_english(text) if lingo.has_cjk(text) else text
        return cls(text, english, frozenset(words(text)), tuple(map(tuple, alternatives_of(text))),
                   tuple(days_asked_about(text, asked_on)), answer_type(text), asks_of_self(text), asked_on)

    def groups(self, known: Callable[[str], bool]) -> list[tuple[str, ...]]:
        """The structured query against a store's vocabulary (:func:`grouped`)."""
        return grouped([list(g) for g in self.alternatives], known)

    @property
    def empty(self) -> bool:
        """Whether it holds nothing a lexical search can match: no word, no date, no answer type."""
        return not self.alternatives and not self.dates and self.kind is None
