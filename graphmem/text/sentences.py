"""Sentences and tokens: the units every reader of dialogue cuts a turn into.

The claim reader, the answer reader, the dense index and the bench scripts all split turns
here, so a sentence is the same span of text wherever it is counted.
"""

from __future__ import annotations

import re

from graphmem.text.lexicon import wordset

__all__ = ["Offsets", "QUOTES", "joined", "sentences", "straight", "token_words", "tokens"]

# Abbreviations after which a full stop does not end a sentence.
_ABBREV = wordset("mr mrs ms dr prof sr jr st vs etc e.g i.e eg ie approx dept est fig no vol mt ft")
_SPLIT = re.compile(r"(?<=[.!?…])\s+|(?<=[.!?…][\"')\]])\s+")
_LINES = re.compile(r"\s*\n\s*")
# Curly quotes and backticks made straight, so that every rule compares one kind of quote.
QUOTES = str.maketrans({"’": "'", "‘": "'", "`": "'", "“": '"', "”": '"'})


def sentences(text: str) -> list[str]:
    """Split ``text`` into sentences, by rule.

    A sentence ends at a line break, or at ``.``, ``!``, ``?`` or ``…`` (and any closing
    quote or bracket) followed by white space -- unless the next word starts in lower case
    ("so... anyway") or the full stop closes an abbreviation ("Mr.", "Dr.", "e.g.",
    "a.m.") or an initial ("C. S. Lewis"). Curly quotes are made straight.
    """
    out: list[str] = []
    flat = straight(text).strip()
    for line in _LINES.split(flat) if "\n" in flat else (flat,):  # (the split of a single line is itself)
        buf = ""
        for part in _SPLIT.split(line):
            if not part:
                continue
            if buf and (part[0].islower() or buf[-1] == "." and _abbreviated(buf)):
                buf = f"{buf} {part}"
                continue
            if buf:
                out.append(buf)
            buf = part
        if buf:
            out.append(buf)
    return out


_BREAKS = re.compile(f"{_LINES.pattern}|{_SPLIT.pattern}")
"""Every run of white space :func:`sentences` may cut at: across a line break, or after a sentence's end."""


def joined(text: str) -> str:
    """``" ".join(sentences(text))`` (``text`` itself when it has none), in one pass: wherever
    :func:`sentences` may cut, it cuts at white space, and cut or joined again the run of white
    space becomes one space; so no rule of where a sentence ends need be asked."""
    flat = straight(text).strip()
    if not flat:
        return text
    if flat.isprintable() and "  " not in flat:  # every run of white space is one plain space: nothing to join
        return flat  # (each white space character but the plain space is unprintable)
    return _BREAKS.sub(" ", flat)


def straight(text: str) -> str:
    """``text.translate(QUOTES)``: its quotes made straight. Most turns hold only ASCII and no
    backtick, and then are their own translation; asking that is many times cheaper than the
    translation's lookup of each character."""
    return text if text.isascii() and "`" not in text else text.translate(QUOTES)


def _abbreviated(chunk: str) -> bool:
    """Does ``chunk`` end in an abbreviation or an initial rather than a sentence?"""
    word = chunk.rsplit(None, 1)[-1].lstrip("(\"'")[:-1].lower()
    return word in _ABBREV or (len(word) == 1 and word.isalpha()) or ("." in word and len(word) <= 4)


# Words (hyphenated ones whole), contraction suffixes ('s 'm 're 've 'd 'll 't) and single
# punctuation marks. "don't" -> don 't, "Mel's" -> Mel 's. The same pattern over the
# lower-cased sentence yields the same tokens, lower-cased: both lists align.
_TOKEN = re.compile(r"\w+(?:-\w+)*|'(?:[smdt]|re|ve|ll)\b|[^\w\s]", re.IGNORECASE)


def token_words(sentence: str) -> tuple[list[str], list[str]]:
    """:func:`tokens` without where each starts (a reader that only drops tokens needs no offsets),
    in one scan that builds no match objects."""
    toks = _TOKEN.findall(sentence)
    return toks, [t.lower() for t in toks]


def tokens(sentence: str) -> tuple[list[str], list[str], list[int]]:
    """The tokens of a sentence, lower-cased copies, and where each starts."""
    ms = list(_TOKEN.finditer(sentence))
    toks = [m.group() for m in ms]
    return toks, [t.lower() for t in toks], [m.start() for m in ms]


class Offsets:
    """The text between tokens, as written."""

    __slots__ = ("text", "toks", "starts")

    def __init__(self, text: str, toks: list[str], starts: list[int]) -> None:
        self.text, self.toks, self.starts = text, toks, starts

    def __call__(self, k: int) -> int:
        return self.starts[k]

    def span(self, a: int, b: int) -> str:
        """The text from token ``a`` to the end of token ``b - 1``, as written."""
        return self.text[self.starts[a] : self.starts[b - 1] + len(self.toks[b - 1])]
