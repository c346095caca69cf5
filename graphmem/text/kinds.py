"""Does a question swap in a thing of the same kind as one the turn found names?

LongMemEval builds its ``_abs`` questions by changing one detail of an answerable one: football for
the baseball the user played, cows for the goats kept, vintage films for the vintage cameras
collected, table tennis for tennis. Word coverage and one cosine per sentence both count what the
question shares with the turn found, and a swapped detail leaves nearly all of that in place
(docs/longmemeval.md). What tells the swap is knowledge of kinds: football and baseball are both
field games, cows and goats both livestock, which WordNet's noun hierarchy holds. (Not every swap:
films and cameras meet only in a second sense of "film", and places such as Korea and Japan only high
in the hierarchy; both are missed with the settings below.)

A question is flagged when one of its nouns is missing from the turn (by Porter stem) and is a
*cohyponym* of a noun the turn holds: the two share a hypernym at most ``hops`` levels above each of
their first ``senses`` noun senses, that hypernym is specific (its least depth from the root is at
least ``depth``: "entity" (depth 0) or "organism" (5) would make nearly every pair cohyponyms;
"animal" is 6, so a pet and a dog count as two kinds of animal), and neither word is a kind
of the other or a synonym of it (a dog asked about after a poodle was told is not a swap). Only words
that are mainly nouns count (by WordNet's sense-tagged lemma counts), so "visit" or "selling" does not.

The WordNet reader is passed in (:func:`wordnet`: NLTK's reader, whose database is data no wheel
ships: ``scripts/wordnet-local`` installs it offline), so the rule can be tested on a hand-made
hierarchy. The memory's ``confidence="meaning"`` uses it (:mod:`graphmem.memory.meaning`).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

from graphmem.errors import GraphmemError
from graphmem.text.terms import stem

WORD = re.compile(r"[A-Za-z][A-Za-z'-]+")

INSTALL = "python -m nltk.downloader wordnet, or offline from Debian's packages: bash scripts/wordnet-local"
"""How to get WordNet's database where NLTK reads it."""


def wordnet() -> Any:
    """NLTK's WordNet reader, its database read now: a missing database is one line saying how
    to install it, not a LookupError at the first question."""
    from nltk.corpus import wordnet as reader  # lazy: nltk's __init__ is slow to import, only the meaning confidence needs it

    try:
        reader.ensure_loaded()
    except LookupError:
        raise GraphmemError(f"WordNet is not in NLTK's data: {INSTALL}") from None
    return reader


def content_words(text: str) -> list[str]:
    """The words of ``text`` a swap may replace or bring in, as written: three letters or more, not
    stop words (``bench/longmemeval_confidence.py`` makes its synthetic swaps from the same words)."""
    return [w for w in WORD.findall(text) if len(w) >= 3 and w.lower() not in ENGLISH_STOP_WORDS]


def words(text: str) -> list[str]:
    """:func:`content_words`, lower-cased: the form the test compares."""
    return [w.lower() for w in content_words(text)]


class Cohyponyms:
    """The swap test over one WordNet reader, with its three settings (chosen on LongMemEval's
    development half, the only development data with such swaps: docs/longmemeval.md)."""

    def __init__(self, wordnet: Any, senses: int = 1, hops: int = 2, depth: int = 6,
                 compounds: bool = False) -> None:
        """The settings are explicit (``bench/longmemeval_confidence.py`` passes its options in), so a
        grid over them is a loop of calls, never a patched constant."""
        self.wn, self.senses, self.hops, self.depth = wordnet, senses, hops, depth
        self.compounds = compounds
        self.kinds = lru_cache(maxsize=None)(self._kinds)
        self.ancestry = lru_cache(maxsize=None)(self._ancestry)
        self.nouny = lru_cache(maxsize=None)(self._nouny)
        self.noun_senses = lru_cache(maxsize=None)(self._noun_senses)  # read for every word pair compared

    def _noun_senses(self, word: str) -> list[Any]:
        """The noun senses of the word's base form, most frequent first (WordNet's order)."""
        base = self.wn.morphy(word, self.wn.NOUN) or word
        return self.wn.synsets(base, self.wn.NOUN)

    def _tagged(self, word: str, pos: str) -> tuple[int, int]:
        """How often the word's ``pos`` senses are tagged in WordNet's sense-tagged corpus, and how
        many such senses there are (its base form by ``morphy``: "selling" is the verb "sell")."""
        base = self.wn.morphy(word, pos)
        lemmas = self.wn.lemmas(base, pos) if base else []
        return sum(lemma.count() for lemma in lemmas), len(lemmas)

    def _nouny(self, word: str) -> bool:
        """Mainly a noun: its noun senses are tagged more often than all its other senses together
        (by how many senses there are when none is tagged)."""
        noun_count, nouns = self._tagged(word, self.wn.NOUN)
        other = [self._tagged(word, pos) for pos in (self.wn.VERB, self.wn.ADJ, self.wn.ADV)]
        other_count, others = sum(c for c, _ in other), sum(n for _, n in other)
        if not nouns:
            return False
        if noun_count or other_count:
            return noun_count > other_count
        return nouns > others

    def _kinds(self, word: str) -> frozenset[Any]:
        """The specific hypernyms at most ``hops`` above the word's first ``senses`` noun senses."""
        found: set[Any] = set()
        for sense in self.noun_senses(word)[: self.senses]:
            level = {sense}
            for _ in range(self.hops):
                level = {h for s in level for h in s.hypernyms() + s.instance_hypernyms()}
                found |= {h for h in level if h.min_depth() >= self.depth}
        return frozenset(found)

    def _ancestry(self, word: str) -> frozenset[Any]:
        """Every noun sense of the word and every hypernym above any of them: a word whose senses
        meet another's ancestry is that word's kind, or a synonym, not a swap."""
        found: set[Any] = set()
        for sense in self.noun_senses(word):
            found.add(sense)
            found.update(sense.closure(lambda s: s.hypernyms() + s.instance_hypernyms()))
        return frozenset(found)

    def related(self, asked: str, told: str) -> bool:
        """``asked`` and ``told`` are two kinds of one thing, neither a kind of the other."""
        if not self.kinds(asked) & self.kinds(told):
            return False
        mine, theirs = set(self.noun_senses(asked)), set(self.noun_senses(told))
        return not (mine & self.ancestry(told) or theirs & self.ancestry(asked))

    def terms(self, text: str, parts: bool) -> list[str]:
        """The text's content words; with ``compounds``, two adjacent ones read as one where WordNet
        knows the pair as a noun ("table tennis" is ``table_tennis``, not a table and tennis), and
        with ``parts`` the pair's words kept as well (a turn about table tennis also names tennis).
        Measured on LongMemEval, the compounds flag more answerable questions than ``_abs`` ones
        ("running shoes" asked after "sneakers" were told), so they are off by default."""
        if not self.compounds:
            return list(dict.fromkeys(words(text)))
        tokens = [w.lower() for w in WORD.findall(text)]
        content = set(words(text))
        found, skip = [], False
        for a, b in zip(tokens, tokens[1:] + [""]):
            if skip:
                skip = False
                if not parts:
                    continue
            if a not in content:
                continue
            pair = f"{a}_{b}"
            if b in content and self.noun_senses(pair):
                found += [pair, a] if parts else [pair]
                skip = True
            else:
                found.append(a)
        return list(dict.fromkeys(found))

    @staticmethod
    def key(term: str) -> str:
        """A term's stems, so that a plural or another form of it counts as the same term."""
        return "_".join(stem(part) for part in term.split("_"))

    def swapped_in(self, question: str, turn: str) -> str | None:
        """The question's noun that is missing from ``turn`` and a cohyponym of one of its nouns,
        as ``"asked/told"``; None when there is none."""
        told = self.terms(turn, parts=True)
        keys = {self.key(t) for t in told}
        nouns = sorted(t for t in told if self.nouny(t))
        for asked in self.terms(question, parts=False):
            if self.key(asked) in keys or not self.nouny(asked):
                continue
            for noun in nouns:
                if self.related(asked, noun):
                    return f"{asked}/{noun}"
        return None
