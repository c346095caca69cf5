"""US and UK spellings meet: a British spelling is read as the American one.

Why: people write "favourite colour" and ask "favorite color", or the other way round; as
different words neither finds the other. A word with a British spelling that has an American
one ("colour", "favourite", "centre", "organise", "grey", "theatre") is read as the American
word before it is stemmed, the same at indexing and at query time in every store (the terms a
store keeps are :func:`graphmem.text.terms.analyse`'s), so either spelling finds both.

The table is breame's (Apache-2.0, pure Python: 1,730 British spellings and their American
ones), not a list kept here. Only whole words are looked up, never a suffix rule ("-our" to
"-or" would make "hour" "hor" and "four" "for").
"""

from __future__ import annotations

from functools import lru_cache

from breame.spelling import get_american_spelling

__all__ = ["american"]


@lru_cache(maxsize=None)
def american(word: str) -> str:
    """A lower-case word in its American spelling (``colour``: ``color``); itself when it has none."""
    return get_american_spelling(word) if word.isascii() else word
