"""Words in any script: which characters make a word, and the form a word is indexed by.

:func:`graphmem.text.terms.words` splits an ASCII text by a byte table; a text with any other
character comes here, so that a memory told "Ольга живёт в Москве" or "Ich war in Zürich" can
find it again. The rules follow Unicode rather than a list of languages:

- the text is NFKC-normalised and case-folded, so that full-width ``ｃａｆｅ``, a ligature
  ``ﬁ`` or a decomposed ``é`` are the letters a reader sees, and ``Straße``/``STRASSE`` or a
  Greek final ``ς``/``σ`` are one word;
- a word is a run of letters, digits and the combining marks written on them, in any script:
  everything else (punctuation, symbols, emoji, spaces, and every apostrophe, as in English)
  separates words;
- a Han ideograph or a kana is a word on its own: Chinese and Japanese write no spaces, so a
  run of them is a phrase or a sentence, not a word, and one character per term still lets a
  turn be found by the characters a query shares with it (Korean writes spaces: Hangul runs
  stay words);
- diacritics are folded: the accents of Latin, Greek and Cyrillic letters and the optional
  vowel points of Hebrew and Arabic are dropped, Latin letters with a stroke become their base
  letter, decimal digits of any script become ASCII digits. So "Zurich" finds "Zürich" and
  "cafe" finds "café" (the conflation Lucene's ICU and ASCII folding filters make), because
  people often type without the accents their language has. Marks that are letters in their
  own right (Indic vowel signs, a virama) are kept.

The words come out folded, not only their index keys, because every reader of a query (the
ranker's structured query, the Neo4j search) takes :func:`graphmem.text.terms.words` and stems
it: a folded word is then one key on both sides. A word that folds to ASCII is an ASCII word
like any other and is stemmed like one.
"""

from __future__ import annotations

import codecs
import re
import unicodedata

__all__ = ["is_cjk", "unicode_words"]

_CJK_RANGES = (
    (0x3005, 0x3007),    # 々 〆 〇: the iteration mark, the closing mark, the ideographic zero
    (0x3040, 0x30FF),    # hiragana, katakana (with its prolonged sound mark ー)
    (0x31F0, 0x31FF),    # katakana phonetic extensions
    (0x3400, 0x4DBF),    # CJK unified ideographs, extension A
    (0x4E00, 0x9FFF),    # CJK unified ideographs
    (0xF900, 0xFAFF),    # CJK compatibility ideographs (the few NFKC leaves)
    (0x20000, 0x3134F),  # extensions B to G and the compatibility supplement
)
"""The characters that are each a word of their own (see the module docstring)."""

_CJK_CHAR = re.compile("[" + "".join(f"{chr(lo)}-{chr(hi)}" for lo, hi in _CJK_RANGES) + "]")

_OPTIONAL_MARKS = (
    (0x0300, 0x036F),  # combining diacritical marks: the accents NFD takes off Latin, Greek, Cyrillic
    (0x1AB0, 0x1AFF),  # their extended block
    (0x1DC0, 0x1DFF),  # and supplement
    (0x0591, 0x05C7),  # Hebrew cantillation and vowel points (niqqud), dagesh, shin and sin dots (not the maqaf)
    (0x0610, 0x061A),  # Arabic honorific signs
    (0x064B, 0x065F),  # Arabic harakat: short vowels, tanwin, shadda, sukun
    (0x0670, 0x0670),  # Arabic superscript alef
)
"""Where the combining marks (category Mn) are that a writer may leave out without writing another word."""

_LETTERS = {"ø": "o", "đ": "d", "ð": "d", "ł": "l", "ħ": "h", "ı": "i", "ŧ": "t", "ŋ": "n", "ĸ": "k",
            "æ": "ae", "œ": "oe", "þ": "th"}
"""Latin letters that are a base letter with a stroke, or a ligature, which NFD does not take
apart (ø is not o plus a mark): folded as the ASCII folding filters fold them, so "Kobenhavn"
finds "København"."""


def is_cjk(char: str) -> bool:
    """Whether one character is a Han ideograph or a kana, each of which is a word on its own."""
    return _in(char, _CJK_RANGES)


def _in(char: str, ranges: tuple[tuple[int, int], ...]) -> bool:
    """Whether one character's code point is in one of the (first, last) ranges."""
    code = ord(char)
    return any(lo <= code <= hi for lo, hi in ranges)


class _Table(dict):
    """``str.translate``'s table from a case-folded, decomposed text to its folded words
    separated by spaces.

    Each code point is classified the first time it is met (:func:`_classify`) and then kept,
    so a text costs one dictionary lookup per character, in C. The ASCII entries are those of
    :data:`graphmem.text.terms._NOT_WORD` (a letter or digit stays, anything else is a space),
    so an ASCII word reads the same in any text. A CJK character stays too: it is set apart
    once the text is composed again, as a kana's voicing mark, decomposed here, belongs to it.
    """

    def __missing__(self, code: int) -> str:
        self[code] = out = _classify(chr(code))
        return out


def _classify(char: str) -> str:
    """What one character of a case-folded NFD text becomes (see the module docstring)."""
    if char.isascii():
        return char if char.isalnum() else " "
    if char in _LETTERS:
        return _LETTERS[char]
    kind = unicodedata.category(char)
    if char == "\u00ad" or (kind == "Mn" and _in(char, _OPTIONAL_MARKS)):  # a soft hyphen: in a word, unseen
        return ""
    if kind == "Nd":
        return str(unicodedata.decimal(char))
    if kind[0] in "LN" or (kind in ("Mn", "Mc") and not _selector(char)):
        return char
    return " "


def _selector(char: str) -> bool:
    """Whether a mark is a variation selector: emoji presentation, not a part of a word."""
    return _in(char, ((0xFE00, 0xFE0F), (0xE0100, 0xE01EF)))


_TABLE = _Table()

_ASCII_WORD = bytes(c if c in b"0123456789abcdefghijklmnopqrstuvwxyz" else 32 for c in range(256))
"""The bytes of an ASCII text that make words (:data:`graphmem.text.terms._NOT_WORD`'s table)."""


class _NotAscii(Exception):
    """A run of characters whose words are not ASCII once folded (a Cyrillic word, a kanji)."""


def _fold_run(err: UnicodeError) -> tuple[str, int]:
    """The ``ascii`` codec's error handler ``graphmem.words``: a run of non-ASCII characters
    folded by :data:`_TABLE`, when that leaves it ASCII (curly quotes, dashes, emoji, accents)."""
    if not isinstance(err, UnicodeEncodeError):
        raise err
    out = err.object[err.start:err.end].translate(_TABLE)
    if not out.isascii():
        raise _NotAscii
    return out, err.end


codecs.register_error("graphmem.words", _fold_run)


def unicode_words(text: str) -> list[str]:
    """The folded, case-folded words of a text in any script, in order (see the module docstring).

    Most non-ASCII text met in English conversation is ASCII but for a few quotes, dashes,
    emoji or accents: it is encoded to ASCII with only those runs looked up in the table
    (a table lookup per character costs as much as the whole byte path), then split as an
    ASCII text is. A text with a word that stays non-ASCII is translated whole."""
    decomposed = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", text).casefold())
    try:
        return decomposed.encode("ascii", "graphmem.words").translate(_ASCII_WORD).decode("ascii").split()
    except _NotAscii:
        folded = unicodedata.normalize("NFC", decomposed.translate(_TABLE))
    return _CJK_CHAR.sub(r" \g<0> ", folded).split()
