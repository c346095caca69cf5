"""Phrases within a clause, by rule: where a noun phrase ends, and what a verb group says.

The claim extractor reads a subject, then a verb group, then the rest as the object; these
two readers settle the boundaries between them on lower-cased tokens, with the word classes
of :mod:`graphmem.text.lexicon` and the verb forms of :mod:`graphmem.text.lemma`.
"""

from __future__ import annotations

from graphmem.text.lemma import IRREGULAR, VERBS, finite, lemma, verbish
from graphmem.text.lexicon import (
    ADVERBS, BE, CLOSED, DEGREE, DET, DO, HAVE, ING_ADJ, ING_NOUNS, MODAL, NEG, NOT_LY, PUNCT,
    wordset,
)

__all__ = ["gerund", "np_end", "verb_group"]


def np_end(low: list[str], i: int, n: int) -> int:
    """Where a noun phrase starting at ``i`` ends: at its finite verb, a comma or the clause end."""
    j = i
    limit = min(n, i + 8)
    while j < limit:
        w = low[j]
        if w in PUNCT or w in ("?", ";", ":"):
            return j
        if j > i and finite(w):
            # "The art show was": a verb-looking word just before an auxiliary is a noun;
            # "those shared meals": an -ed word after a determiner is an adjective
            if j + 1 < n and (low[j + 1] in BE or low[j + 1] in MODAL or low[j + 1] in HAVE) and not (
                w in BE or w in MODAL or w in HAVE or w in DO
            ) or low[j - 1] in _ARTICLES or w.endswith("ed") and low[j - 1] in DET:
                j += 1
                continue
            return j
        if j > i and w in VERBS and (low[j - 1] in _PLURAL_SUBJ or low[j - 1].endswith("s") and len(low[j - 1]) > 3 and not low[j - 1].endswith("ss")):
            return j  # "The kids love it", "They really make"
        if j > i and (w in NEG or w in ADVERBS) and j + 1 < n and finite(low[j + 1]):
            return j
        j += 1
    return j if j >= n else n  # no verb within reach: the whole clause is the phrase


# After these the next word is a noun or an adjective, never the verb ("your hikes sound").
_ARTICLES = wordset("a an the my your our his her their its another every each some any no")
_PLURAL_SUBJ = wordset("they these those we you i really also just still always never")


def gerund(low: list[str], i: int, b: int) -> bool:
    """Is the -ing word at ``i`` the head of a subject ("Being in nature helps us")?"""
    end = np_end(low, i, b)
    return i < end < b and finite(low[end])


def verb_group(low: list[str], i: int, n: int) -> tuple[str | None, bool, int]:
    """Read auxiliaries, adverbs and negation from ``i``: (predicate, negated, object start)."""
    negated = False
    degree = False
    aux = None
    while i < n:
        w = low[i]
        if w in NEG:
            negated = True
            i += 1
            continue
        if w == "no" and i + 1 < n and low[i + 1] == "longer":
            negated = True
            i += 2
            continue
        if w == "won" and not (i + 1 < n and low[i + 1] == "'t"):
            break  # "I won the game"
        if w in BE or w in HAVE or w in DO or w in MODAL or w == "won":
            aux = w
            i += 1
            continue
        if w in ADVERBS or (w.endswith("ly") and len(w) > 4 and w not in NOT_LY):
            if w in DEGREE:
                degree = True
            i += 1
            continue
        if w == "going" and i + 2 < n and low[i + 1] == "to" and low[i + 2] not in CLOSED:
            aux = "gonna"
            i += 2
            continue
        if (w == "got" or w == "have" or w == "has") and i + 1 < n and low[i + 1] == "to":
            aux = "gotta"
            i += 2
            continue
        break
    if i >= n or not low[i][:1].isalnum():
        if aux is None:
            return None, negated, i
        return ("be" if aux in MODAL or aux in ("gonna", "gotta", "won") else lemma(aux)), negated, i
    w = low[i]
    if aux is None:
        if verbish(w):
            return lemma(w), negated, i + 1
        return None, negated, i
    if aux in MODAL or aux in ("gonna", "gotta", "won"):
        if w in CLOSED and not verbish(w):
            return "be", negated, i
        return lemma(w), negated, i + 1
    if aux in DO:
        if w in VERBS or (w in IRREGULAR and not w.endswith(("ed", "en"))):
            return lemma(w), negated, i + 1
        return "do", negated, i
    if aux in BE:
        if w.endswith("ing") and len(w) > 4 and w not in ING_NOUNS and not degree and w not in ING_ADJ:
            return lemma(w), negated, i + 1
        return "be", negated, i
    if aux in HAVE:
        if (w.endswith("ed") and len(w) > 3) or (w in IRREGULAR and w not in BE and not w.endswith("ing")):
            return lemma(w), negated, i + 1
        return "have", negated, i
    return lemma(aux), negated, i
