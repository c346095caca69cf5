"""One vocabulary: how text becomes weighted, stemmed terms, computed once and shared by everything.

Every arm, the confidence (``Sure``) and the reader weigh words the same way, so that
two columns of the table differ only in what they index, never in how they count.
Stems come from nltk's PorterStemmer in NLTK mode, the stemmer the official metric
runs; weights are inverse document frequency over the turns of one conversation,
fitted once by scikit-learn's ``TfidfVectorizer`` and reused for every unit an arm
indexes (turns, pieces, claims) and for every question.

Text in other languages and scripts is split and keyed by :mod:`graphmem.text.scripts`:
its words are found again, accented or not; the Porter stemmer, an English one, is only
given words that are ASCII once their diacritics are folded.
"""

from __future__ import annotations

import importlib.util
import re
import sys
import types
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any, Protocol

import numpy as np
from scipy import sparse

from graphmem.text.scripts import is_cjk, unicode_words
from graphmem.text.spelling import american


def _porter_class() -> type[Any]:
    """nltk's PorterStemmer class, without executing the rest of nltk.

    ``import nltk`` runs its ``__init__``, which pulls in scipy.stats and every corpus
    reader: a large share of a whole-benchmark budget of 3 s (docs/locomo.md, "Measured
    speed"), and the stemmer needs none of it. So ``nltk.stem.porter`` (and the two small
    modules it imports) is executed under placeholder ``nltk`` / ``nltk.stem`` packages,
    which are removed again at once: a later ``import nltk`` elsewhere gets the real
    package. The class and its code are nltk's own, unchanged.
    """
    if "nltk.stem.porter" in sys.modules:
        return sys.modules["nltk.stem.porter"].PorterStemmer
    spec = importlib.util.find_spec("nltk")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("nltk is not installed")
    root = list(spec.submodule_search_locations)[0]
    names = ("nltk", "nltk.stem", "nltk.stem.porter", "nltk.stem.api", "nltk.stem.util")
    for name, path in (("nltk", root), ("nltk.stem", f"{root}/stem")):
        placeholder = types.ModuleType(name)
        placeholder.__path__ = [path]
        sys.modules[name] = placeholder
    try:
        import nltk.stem.porter as porter  # here, under the placeholder packages: see the docstring
    finally:
        for name in names:
            sys.modules.pop(name, None)
    return porter.PorterStemmer


PorterStemmer = _porter_class()
_WORD = re.compile(r"[a-z0-9]+")
_STEMMER = PorterStemmer(mode=PorterStemmer.NLTK_EXTENSIONS)
STOP = frozenset(
    """a an the and or but nor so yet if then than because as of at by for from in into on onto to
    with without about above after before over under up down out off through between among
    i me my mine myself we us our ours ourselves you your yours yourself yourselves he him his
    himself she her hers herself it its itself they them their theirs themselves one
    this that these those there here who whom whose which what when where why how
    am is are was were be been being do does did doing done have has had having
    will would shall should can could may might must ought
    not no don didn doesn isn wasn aren weren haven hasn hadn won wouldn couldn shouldn can cannot
    s t m ll re ve d o y
    all any both each either neither some such other another own same more most
    very too also just only even ever quite rather really
    oh hey hi hello yeah yes ok okay wow""".split()
)
"""Function words carry no topic. Deliberately short: scikit-learn's 318-word list also
drops words that do carry topic in conversation ("fire", "find", "move", "name", "show",
"first", "last"), and on LoCoMo it costs the vector arm evidence recall (docs/locomo.md, "Figures
behind the code")."""


@lru_cache(maxsize=None)
def stem(word: str) -> str:
    """The official metric's stem of one lower-case word, cached: words repeat a lot."""
    return _STEMMER.stem(word)


def words(text: str) -> list[str]:
    """Lower-case words, in order, stop words included. An ASCII text's words are the runs of
    :data:`_WORD` (a curly apostrophe, as a straight one, splits two words), taken by a byte table
    and a split, cheaper than the pattern's scan (every turn ingested is split; docs/memory.md,
    "Figures behind the code"). Any other text is split by Unicode's rules
    (:func:`graphmem.text.scripts.unicode_words`): words in every script, case-folded, their
    diacritics folded ("zürich" is "zurich"), each Han ideograph or kana a word, and the same ASCII
    words."""
    low = text.lower()
    if low.isascii():  # every byte but [a-z0-9] made a space: the runs are what split() leaves
        return low.encode("ascii").translate(_NOT_WORD).decode("ascii").split()
    return unicode_words(text)


_NOT_WORD = bytes(c if c in b"0123456789abcdefghijklmnopqrstuvwxyz" else 32 for c in range(256))
"""A byte table that keeps :data:`_WORD`'s characters and turns every other byte into a space."""


MAX_WORD = 100
"""The longest word that carries topic, in characters. No language's words are longer; a longer run
(a hash, an encoded blob, a key held down) is nothing a question asks by, and as a term it would be
a key no index takes (Neo4j's range index refuses a key over 8 kB, its Term nodes' stems included)
and a token Lucene splits (at 255 characters), so every store leaves it out alike."""


def content(word: str) -> bool:
    """Whether a lower-case word carries topic (not a stop word, not a lone letter, not longer than
    :data:`MAX_WORD`). A lone Han ideograph or kana is a word (:func:`graphmem.text.scripts.is_cjk`),
    not a letter."""
    return (word not in STOP and len(word) <= MAX_WORD
            and (len(word) > 1 or word.isdigit() or (not word.isascii() and is_cjk(word))))


def analyse(text: str) -> list[str]:
    """The terms of a text: content words, stemmed. Repeats are kept (they are term frequency)."""
    return terms_of(words(text))


def terms_of(ws: list[str]) -> list[str]:
    """:func:`analyse` of a text whose :func:`words` are ``ws`` (a caller that needs the words too
    splits the text once)."""
    try:
        return [t for t in map(_TERMS.__getitem__, ws) if t is not None]
    except KeyError:  # a word not met before: each new one read once, then the words again
        _TERMS.update((w, _term(w)) for w in ws if w not in _TERMS)
        return terms_of(ws)


_TERMS: dict[str, str | None] = {}
"""Each lower-case word met so far and its term (:func:`_term`), kept as :func:`stem` keeps its
stems: every turn ingested is analysed and words repeat, so a word met before costs one lookup in
this map, which makes an ingest's analysis cheaper than a cached call per word does (docs/memory.md,
"Figures behind the code")."""


def _term(word: str) -> str | None:
    """A lower-case word's term, or None when it carries no topic.

    :func:`words` gives a word of another script with its diacritics folded: one that is then ASCII
    ("zürich" as "zurich") is stemmed like any English word, so that it meets the word typed without
    accents; any other is its own term, unstemmed (Porter's rules are English suffixes, which leave
    it as it is when the query side stems it, as the ranker's structured query does). A British
    spelling is stemmed as the American one (:func:`graphmem.text.spelling.american`), so either
    finds both."""
    if not content(word):
        return None
    return stem(american(word)) if word.isascii() else hebrew_bare(word)


HEBREW_PREFIXES = frozenset("בהוכלמש")
"""The letters Hebrew writes before a word as part of it: in, the, and, as, to, from, that (בגיטרה, "on
the guitar", is ב + גיטרה)."""

_HEBREW = re.compile(r"[\u05d0-\u05ea]+")


def hebrew_bare(word: str) -> str:
    """A Hebrew word without the prefix letters written onto it (at most two, ובגיטרה -> גיטרה), each only
    while three letters or more remain: so "guitar" finds "on the guitar". Index and query read a word
    alike, so a word whose first letter only looks like a prefix (שלום, peace) still meets itself; a
    word of three letters or fewer is left whole. Any other word is returned as it is."""
    if len(word) < 4 or word[0] not in HEBREW_PREFIXES or not _HEBREW.fullmatch(word):
        return word
    for _ in range(2):
        if word[0] in HEBREW_PREFIXES and len(word) > 3:
            word = word[1:]
    return word


class TermWeights(Protocol):
    """How rare each stemmed term is (idf), which is all the reader and the confidence ask of a
    vocabulary: :class:`Vocabulary` fitted at once, the live index's
    :class:`graphmem.index.vocabulary.LiveVocabulary`, or a Neo4j store's counts."""

    @property
    def unseen(self) -> float:
        """The weight of a term no turn holds (the largest there is)."""
        ...

    def weight(self, term: str) -> float: ...

    def weights(self, terms: Iterable[str]) -> dict[str, float]: ...


class Vocabulary:
    """Term weights fitted once over a set of turns, and the vectors they give any text.

    ``vectors`` are L2-normalised tf-idf rows, so a dot product is a cosine. ``weight``
    is the idf of a stemmed term; a term no turn contains gets the largest idf there is,
    because a question about something never said should look unanswerable, not neutral.
    """

    def __init__(self, documents: Sequence[str]):
        from sklearn.feature_extraction.text import TfidfVectorizer  # lazy: scikit-learn is slow to import, and the live and Neo4j memories never fit a vocabulary

        self._tfidf = TfidfVectorizer(analyzer=analyse, norm="l2", sublinear_tf=True, dtype=np.float64)
        self._tfidf.fit(documents if documents else [""])
        self.index: dict[str, int] = self._tfidf.vocabulary_
        self.idf: np.ndarray = self._tfidf.idf_
        self.unseen = float(self.idf.max()) if len(self.idf) else 1.0

    def __len__(self) -> int:
        return len(self.index)

    def vectors(self, texts: Iterable[str]) -> sparse.csr_matrix:
        """L2-normalised tf-idf rows, one per text, in this vocabulary's columns."""
        return self._tfidf.transform(list(texts)).tocsr()

    def weight(self, term: str) -> float:
        """How rare a stemmed term is (idf); unseen terms weigh the most."""
        i = self.index.get(term)
        return float(self.idf[i]) if i is not None else self.unseen

    def weights(self, terms: Iterable[str]) -> dict[str, float]:
        """Distinct known terms with their weights (a question's or a sentence's term set).

        Terms no turn contains are left out: their rarity is undefined over these turns,
        and counting them would make every memory equally unsure of every question that
        uses a new word, which tells answerable and adversarial questions apart no better.
        In order of first use, not set order: sums over these weights are then the same in
        every process (a set's order follows the per-process string hash, and a float sum's
        last bit follows its order, which decided ties at the floor differently from run to run).
        """
        return {t: float(self.idf[i]) for t in dict.fromkeys(terms) if (i := self.index.get(t)) is not None}
