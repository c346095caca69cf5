"""The people of one conversation: who its names denote, and which third parties it introduces.

A name is only worth something as a key: "Mel", "Melanie", "Melanie's" and a typo "Mell" are
one person, and a question about her must land on the claims read from all of them. The
speakers are known from the data; third parties are introduced by their context ("my friend
Jenna", "a puppy named Pixie") and become people of their own.

The memory finds whom a query names by the second rule here (:func:`speakers_named`), and the
two stay apart because they read different text. This module reads dialogue, where
only a capitalised word is a name ("Will", "May", "Mark" are ordinary words in lower case), and
folds spellings within one conversation, guarded by how often that conversation writes the word
in lower case (so "Mel" is Melanie, but "Time" is never Tim); :func:`resolve` keeps the one
longest name. The memory reads queries a user types, often in lower case, across many
conversations with no such guard: a speaker's name counts there as a whole word in any case,
exactly as written, every speaker named. Measured: the capitalised, exact reading would
agree with the memory's on every LoCoMo question and bench6 query, but not on a query typed in
lower case; with this module's folding, some LoCoMo questions ("Mel and her kids") would scope
differently (docs/locomo.md, "Figures behind the code").
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence

from graphmem.text.lexicon import NAMING_VERBS, NOT_NAMES, OWNERS, RELATIONS, wordset
from graphmem.text.sentences import QUOTES

__all__ = ["People", "candidates_of", "fold", "people_from", "people_of", "resolve", "speakers_named", "words_of"]

class People:
    """The people of one conversation: its speakers and the third parties they introduce."""

    def __init__(self, speakers: Sequence[str], third: Iterable[str] = (), words: Iterable[str] = ()):
        self._display: dict[str, str] = {}
        self._names: dict[str, str] = {}
        keys = []
        for s in speakers:
            k = fold(s)
            self._display.setdefault(k, s.strip())
            self._names[k] = k
            keys.append(k)
        self.speakers: tuple[str, ...] = tuple(keys)
        self._common = frozenset(words)
        self._cache: dict[str, str | None] = {}
        self._frozen = False
        for t in third:
            self.add(t)

    def add(self, name: str) -> str | None:
        """Make ``name`` a person of its own (a third party); return its key."""
        k = fold(name)
        if not k or k in NOT_NAMES:
            return None
        if k in self._names:
            return self._names[k]
        if self._fuzzy(k) is not None:  # a spelling of someone already known
            return None
        self._display[k] = name.strip()
        self._names[k] = k
        self._cache.clear()
        return k

    @property
    def keys(self) -> tuple[str, ...]:
        """Every person's key: the speakers, then the third parties in the order introduced."""
        return tuple(self._display)

    @property
    def third_parties(self) -> tuple[str, ...]:
        """The keys of the people the speakers introduced."""
        return tuple(k for k in self._display if k not in self.speakers)

    def addressed(self, keys: Sequence[str]) -> list[str]:
        """Whom ``you`` means in each turn, said by the speakers ``keys`` in order, when no
        vocative names someone: the last speaker before the turn who is not its speaker, else
        (no one else has spoken yet) the first of the conversation's speakers who is not, else no one
        ("": a conversation of one speaker, whose ``you`` names nobody, so a clause about it claims nothing).

        Why the turn before: in dialogue of more than two a turn answers the one before it, so
        that one's speaker is addressed. In two-party dialogue this is always the other speaker."""
        out = []
        last = other = None  # the last speaker, and the last one before who is not them
        for key in keys:
            if last is not None and last != key:
                out.append(last)
            elif other is not None:
                out.append(other)
            else:
                out.append(next((k for k in self.speakers if k != key), ""))
            if key != last:
                last, other = key, last
        return out

    def display(self, key: str) -> str:
        """The name to show for ``key``, as it was first written."""
        return self._display.get(key, key)

    def names(self) -> dict[str, str]:
        """Every known surface name, lower-cased, and the key it folds to."""
        return dict(self._names)

    def key(self, name: str) -> str | None:
        """The key of the person ``name`` denotes, however it is written, else None.

        Case and a possessive ``'s`` are ignored; a nickname that is the prefix of exactly
        one person's name ("Mel" for Melanie, "Caro" for Caroline), or one letter longer or
        shorter than exactly one known name ("Mell", "Debs", "John" for Jon, "Tims's"),
        folds to that person -- unless the conversation uses it as an ordinary lower-case
        word (so "Time" never folds to Tim, nor "Car" to Caroline).
        """
        found = self._cache.get(name, "")
        if found != "":
            return found
        k = fold(name)
        found = self._names.get(k)
        if found is None and k.isalpha() and k not in NOT_NAMES and k not in self._common:
            found = self._fuzzy(k)
            if found is not None and not self._frozen:
                self._names[k] = found  # a spelling the dialogue uses becomes a name ("Mel", then "Mell")
        self._cache[name] = found
        return found

    def freeze(self) -> None:
        """Stop learning spellings: after reading, a question's spelling must not change
        how the next question resolves, whichever arm or order asks."""
        self._frozen = True

    def _fuzzy(self, k: str) -> str | None:
        """The one person whose name ``k`` shortens or misspells by a letter, else None."""
        hits = set()
        if len(k) >= 2:
            for full, key in self._names.items():
                if len(full) > len(k) and full.startswith(k):
                    hits.add(key)
        if not hits and len(k) >= 3:
            for full, key in self._names.items():
                if len(full) >= 3 and abs(len(full) - len(k)) == 1 and _one_apart(full, k):
                    hits.add(key)
        return hits.pop() if len(hits) == 1 else None

    def named(self, text: str) -> list[str]:
        """Every person a text names, in the order first named (capitalised words only)."""
        found: dict[str, None] = {}
        for m in _CAP_TOKEN.finditer(text.translate(QUOTES)):
            k = self.key(m.group())
            if k is not None:
                found.setdefault(k, None)
        return list(found)

    def unnamed(self, text: str) -> str:
        """The text with every word that names a known person blanked: what it says, not of whom."""
        return _CAP_TOKEN.sub(lambda m: " " if self.key(m.group()) is not None else m.group(), text.translate(QUOTES))

    def resolve(self, text: str) -> str | None:
        """The person a question names, by :func:`resolve` over this conversation's people."""
        return resolve(text, self.key)


# A capitalised word, with its possessive: the only words read as names.
_CAP_TOKEN = re.compile(r"\b[A-Z][a-z]+(?:'s)?\b")


def resolve(text: str, key: Callable[[str], str | None]) -> str | None:
    """The person a question names: the longest known name it contains, else None.

    Ties go to the name said first. Only capitalised words are read as names. ``key`` says
    whom a capitalised word names, or None: :meth:`People.key` for one conversation's people,
    or a lookup in a plain table of known names (``lambda w: table.get(fold(w))``) for a
    caller who has names but no conversation.
    """
    best: tuple[int, int, str] | None = None
    for m in _CAP_TOKEN.finditer(text.translate(QUOTES)):
        tok = m.group()
        k = key(tok)
        if k is None:
            continue
        cand = (-len(tok[:-2] if tok.endswith("'s") else tok), m.start(), k)
        if best is None or cand < best:
            best = cand
    return best[2] if best else None


_WORD = re.compile(r"[a-z0-9]+")


def speakers_named(query: str, speakers: Iterable[str]) -> set[str]:
    """The speakers (lower-case names) a user's query names: whole words, in any case.

    The memory's rule for scoping a search to the person asked about (see the module
    docstring for why it is not :func:`resolve`'s)."""
    words = set(_WORD.findall(query.lower()))
    return {who for who in speakers if who in words}


def fold(name: str) -> str:
    """The key a written name folds to: lower case, straight quotes, no possessive or punctuation."""
    n = name.strip().translate(QUOTES).lower()
    if n.endswith("'s"):
        n = n[:-2]
    elif n.endswith("'"):
        n = n[:-1]
    return n.strip(" .,!?;:\"'()")


def _one_apart(a: str, b: str) -> bool:
    """True when the longer string is the shorter with one letter inserted."""
    if len(a) < len(b):
        a, b = b, a
    return any(a[:i] + a[i + 1 :] == b for i in range(len(a)))


# What ends the noun phrase after "Oscar, my guinea pig": the relation noun must close it.
_END_NP = frozenset(",.!;:-–—)\"'") | wordset("and who which that")


def _introduced(toks: Sequence[str], low: Sequence[str], i: int, named: set[int]) -> bool:
    """Is the capitalised token at ``i`` introduced as a person or a pet by its context?"""
    n = len(toks)
    p1 = low[i - 1] if i >= 1 else ""
    p2 = low[i - 2] if i >= 2 else ""
    p3 = low[i - 3] if i >= 3 else ""
    n1 = low[i + 1] if i + 1 < n else ""
    n2 = low[i + 2] if i + 2 < n else ""
    # a list carried on: "my friends Josh and Mark", "Pepper, Precious and Panda"
    if p1 in ("and", ",") and (i - 2) in named:
        return True
    # my friend Jenna / my second snake Seraphim / the new pup Ned / this amazing woman, Jean
    j = i - 2 if p1 == "," else i - 1
    if j >= 1 and low[j] in RELATIONS and not (p1 == "," and n1 in ("and", ",")):
        for k in range(j - 1, max(-1, j - 4), -1):
            if low[k] in OWNERS or low[k] == "'s":
                return True
            if not low[k].isalpha() or low[k] in NOT_NAMES:
                break
    # someone named David / a cat named Bailey / I named her Tilly
    if p1 in NAMING_VERBS and (p2 in RELATIONS or p2 in OWNERS):
        return True
    if p1 in ("him", "her", "it", "them") and p2 in NAMING_VERBS:
        return True
    # his name is Kyle / her name's Coco / their names are Pepper, ...
    if p1 in ("is", "are", "was", "'s") and p2 in ("name", "names") and p3 in ("his", "her", "their", "its"):
        return True
    # meet Toby / this is Max! / she is Samantha. (not "this is New York")
    if p1 == "meet" and not (i + 1 < n and toks[i + 1][:1].isupper()):
        return True
    if p1 == "is" and p2 in ("this", "she", "he") and n1 in ("", "!", ".", ",", "-", "–"):
        return True
    # Oscar, my guinea pig. / Max is my mother's cat.
    if n1 in (",", "is", "was") and n2 in ("my", "our", "his", "her", "their"):
        for k in range(i + 3, min(n, i + 7)):
            if low[k] in RELATIONS:
                if k + 1 < n and low[k + 1] == "'s":  # "my mother's cat": the cat is named
                    continue
                return k + 1 >= n or low[k + 1] in _END_NP
    # Anthony and I
    if n1 == "and" and n2 == "i" and toks[i + 2] == "I":
        return True
    return False


# A lower-case word: how often the conversation writes a capitalised word in lower case.
_LOWER_WORD = re.compile(r"\b[a-z]+\b")


def people_of(
    speakers: Sequence[str], text: str, sentences: Iterable[tuple[list[str], list[str]]]
) -> tuple[People, dict[str, str]]:
    """The people of one conversation, and every capitalised word of it that names someone, and whom.

    ``text`` is the whole conversation, ``sentences`` the tokens and lower-cased tokens of each
    of its sentences in order. A capitalised word the conversation seldom writes in lower case
    becomes a third party where its context introduces it (:func:`_introduced`).
    """
    lower_words, capitals = words_of(text)
    return people_from(speakers, lower_words, capitals, sentences)


def words_of(text: str) -> tuple[Counter[str], set[str]]:
    """What :func:`people_of` counts in a conversation's text: its lower-case words, and its
    capitalised words without their possessive. Both add up over pieces of the text (the
    turns), so a conversation read turn by turn keeps them as running totals."""
    return Counter(_LOWER_WORD.findall(text)), {m[:-2] if m.endswith("'s") else m for m in _CAP_TOKEN.findall(text)}


def candidates_of(speakers: frozenset[str], lower_words: Counter[str], capitals: set[str]) -> set[str]:
    """The capitalised words that may be third parties: not a speaker's key, not a known
    non-name, and seldom (at most twice) written in lower case. Only the sentences holding one
    can introduce anybody, so a caller may pass :func:`people_from` just those."""
    return {
        c for c in capitals
        if c.lower() not in NOT_NAMES and c.lower() not in speakers and lower_words.get(c.lower(), 0) <= 2
    }


def people_from(
    speakers: Sequence[str], lower_words: Counter[str], capitals: set[str],
    sentences: Iterable[tuple[Sequence[str], Sequence[str]]],
) -> tuple[People, dict[str, str]]:
    """:func:`people_of` from the counts :func:`words_of` takes of the conversation's text
    (``sentences`` may leave out those holding no :func:`candidates_of` word: they are skipped)."""
    people = People(speakers, (), lower_words)
    keys = frozenset(people.speakers)

    # pass 1: third parties, introduced by their context
    candidates = candidates_of(keys, lower_words, capitals)
    for toks, low in sentences:
        if candidates.isdisjoint(toks):
            continue
        hits = [i for i, t in enumerate(toks) if t in candidates]
        named: set[int] = set()
        for i in hits:
            if people.key(toks[i]) not in keys and _introduced(toks, low, i, named):
                named.add(i)
                people.add(toks[i])

    # every capitalised word of the conversation that names someone, and whom
    surfaces: dict[str, str] = {}
    known = people._names
    for c in sorted(capitals):  # sorted: which spellings are learnt must not hang on set order
        low = c.lower()
        if low not in NOT_NAMES and (low in known or low not in lower_words):  # else: no one, and nothing learnt
            k = people.key(c)
            if k is not None:
                surfaces[c] = k
    return people, surfaces
