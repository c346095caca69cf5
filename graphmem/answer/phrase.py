"""A reply as a phrase: the words of one sentence that stand where the question's words do not.

``Reader.trim`` keeps the rarest few words of a sentence in order, which reads well on
LoCoMo's short turns ("rich creamy") but on a long user-assistant turn strings rare words
from across a sentence into no phrase at all ("mostly liturgy legal retain, skeleton Billy
Marrows Gravity"). The phrase reader quotes instead: within the one sentence the reader chose,
the densest stretch of at most ``span`` content words the question did not already say, as it
stands in the sentence (its function words included), so a reply is always a substring of what
was said.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from graphmem.text.spelling import american
from graphmem.text.terms import content, stem

_WORD = re.compile(r"[A-Za-z0-9]+(?:'[A-Za-z]+)?")


def phrase(sentence: str, asked: Mapping[str, float], weight: Callable[[str], float], span: int) -> str:
    """The best stretch of at most ``span`` content words of ``sentence``, quoted as written.

    A content word the question does not hold scores its rarity (``weight`` of its stem) less
    the mean rarity of such words in the sentence; a word the question holds scores minus that
    mean (the question already said it). The stretch with the highest sum is the densest run of
    rare new words, not the longest: a common word between two rare ones joins them, a run of
    common ones does not. Ties go to the earliest; "" when the sentence adds nothing.
    """
    words = []  # (start, end, rarity or None for a word of the question), content words in order
    for m in _WORD.finditer(sentence.replace("\u2019", "'")):
        low = m.group().lower().split("'")[0]
        if content(low):
            s = stem(american(low))
            words.append((m.start(), m.end(), None if s in asked else weight(s)))
    new = [w for _, _, w in words if w is not None]
    if not new:
        return ""
    mean = sum(new) / len(new)
    gain = [w - mean if w is not None else -mean for _, _, w in words]
    best, where = float("-inf"), None
    for i in range(len(words)):
        if words[i][2] is None:
            continue
        total = 0.0
        for j in range(i, min(i + span, len(words))):
            total += gain[j]
            if words[j][2] is not None and total > best:
                best, where = total, (words[i][0], words[j][1])
    return sentence[where[0]:where[1]] if where else ""
