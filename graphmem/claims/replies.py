"""A reply is read as a reply: the rules that keep what a speaker says of the other's news
from becoming a claim about the speaker, and the vocatives that name whom a turn is said to.

What a speaker says in answer to the other's share -- "That charity race sounds great",
"Congrats on the store", "Keep it up!", "You're so inspiring", "Must have been scary" --
asserts nothing anyone did. The claim extractor asks these rules of every clause and files
a clause one of them reads under no one (see :func:`filed`). :func:`unaddressed` gives a
search index a turn without the names it is said *to*.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from graphmem.text.lexicon import (
    FRAGMENT_ADJ, GREET, ING_ADJ, INTERJ, OTHER_POSS, OTHER_PRON, PUNCT, SPEAKER_POSS, SPEAKER_PRON,
    wordset,
)
from graphmem.text.sentences import joined, sentences, token_words

__all__ = ["filed", "formula", "mark_vocatives", "reply", "unaddressed"]


def mark_vocatives(low: list[str], speaker: list[bool], drop: list[bool]) -> None:
    """Mark in ``drop`` every vocative: a speaker's name (``speaker[i]``) beside a greeting,
    a comma or the sentence edge ("Thanks, Caroline!", "Hey Mel", "..., Jon."), with the
    comma and closing mark around it. It names who is spoken *to*, not who is spoken of."""
    n = len(low)
    for i, is_speaker in enumerate(speaker):
        if not is_speaker:
            continue
        before = low[i - 1] if i else ""
        after = low[i + 1] if i + 1 < n else ""
        if (
            (i == 0 or before in PUNCT or before in INTERJ) and after in (",", "!", ".", "", "…", "-")
            or before in GREET
            or before == "," and after in ("!", ".", ",", "", "?", "…")
            or before == "," and i >= 2 and (low[i - 2] in INTERJ or low[i - 2] in GREET)
        ):
            drop[i] = True
            if before == ",":
                drop[i - 1] = True
            if after in (",", "!", "."):
                drop[i + 1] = True


def unaddressed(text: str, speakers: Iterable[str]) -> str:
    """``text`` without its vocatives (see :func:`mark_vocatives`): what a turn says, not
    whom it is said to. ``speakers`` are the conversation's speakers' names, matched as
    whole words in any case, or by a capitalised short form of three letters or more
    ("Cal" for Calvin). A search index uses it so that a question naming Caroline
    is not drawn to the turns that say "Thanks, Caroline!" to her."""
    return _vocatives(frozenset(speakers))(text)


class _Vocatives:
    """:func:`unaddressed` for one set of speakers, its tests made once: most turns of a
    conversation are read against the same two or three names."""

    def __init__(self, speakers: frozenset[str]):
        self.names = {s.strip().lower() for s in speakers if s.strip()}
        self.short = {n[:k] for n in self.names for k in range(3, len(n) + 1)}  # a name's first 3+ letters
        self.may_name = _MayName(frozenset(self.names))

    def __call__(self, text: str) -> str:
        may_name = self.may_name
        if not self.names or may_name.whole and not may_name(text.lower()):  # no word can name a speaker
            return joined(text)  # " ".join(sentences(text) or [text]), without cutting it
        out = []
        for sentence in sentences(text) or [text]:
            if not may_name(sentence.lower()):
                out.append(sentence)  # no token can name a speaker: nothing to drop
                continue
            toks, low = token_words(sentence)
            # a token names a speaker: "Caroline", or a short form written capitalised ("Cal"), the short
            # forms every name's first three letters or more (lower-casing never shortens a word)
            names, short = self.names, self.short
            speaker = [w in names or (w in short and len(t) >= 3 and t[0].isupper()) for t, w in zip(toks, low)]
            if any(speaker):
                drop = [False] * len(toks)
                mark_vocatives(low, speaker, drop)
                sentence = " ".join(t for t, d in zip(toks, drop) if not d) if any(drop) else sentence
            out.append(sentence)
        return " ".join(out)


class _MayName:
    """Could a lower-case text hold a token :func:`unaddressed` reads as a speaker? Most hold none,
    and this is asked before a sentence is tokenised. ``whole``: the test is for a whole word, a
    name or its first three letters or more, so a text without one has none in any sentence. Else
    (a name not ASCII, or not bounded by letters or digits: Python lower-cases a Greek capital sigma
    by its context, and a name of punctuation is no word) it is the three letters anywhere."""

    def __init__(self, names: frozenset[str]):
        self.whole = all(n.isascii() and n[:1].isalnum() and n[-1:].isalnum() for n in names)
        forms = names | {n[:k] for n in names for k in range(3, len(n) + 1)}
        self._word = re.compile(r"(?<!\w)(?:" + "|".join(sorted(map(re.escape, forms), key=len, reverse=True)) + r")(?!\w)")
        self._stems = {n[:3] for n in names}  # every name or short form of one holds its first three letters

    def __call__(self, folded: str) -> bool:
        if not any(map(folded.__contains__, self._stems)):  # a few substring tests spare most texts the scan
            return False
        # "user" and "assistant" share three letters with "because" and "class": a whole word is rarer
        return not self.whole or self._word.search(folded) is not None


@lru_cache(maxsize=256)
def _vocatives(speakers: frozenset[str]) -> _Vocatives:
    """The vocative reader for the speakers ``names``, made once per set of speakers."""
    return _Vocatives(speakers)


# Clauses with "you" that are formulas of conversation, not claims about the other person.
_FORMULAS = (
    "you know", "you see", "you 'll see", "you bet", "you never know", "you 're right",
    "you are right", "you 're so right", "you 're totally right", "you 're absolutely right",
    "you 're welcome", "you are welcome", "you got this", "you got it", "you 've got this", "you name it",
    "you 're not gonna believe", "you won 't believe",
    "you wouldn 't believe", "you 're not going to believe", "you can say that",
)
# Encouragement with no content, as a whole clause: says nothing of what the other does.
_ENCOURAGEMENT = frozenset((
    "you 're doing great", "you 're doing amazing", "you 're doing awesome", "you 're doing well",
    "you 're doing so well", "you 're doing so great", "you 're doing an amazing job",
    "you 're doing a great job", "you 're doing an awesome job", "you did great", "you 've got this",
    "you can do it", "you can do this", "you rock", "you deserve it", "you deserve this",
    "you 're the best", "you 'll do great", "you 'll do amazing", "you 'll be fine",
))


def formula(low: list[str], i: int, b: int) -> bool:
    """Is the clause from ``i`` a formula of conversation with "you" in it, not a claim about the other?

    "you know", "you're right", "you'll see" open one; "you're doing great!" is one as a
    whole clause: encouragement, not a claim.
    """
    if low[i] not in OTHER_PRON:
        return False
    if " ".join(low[i : i + 5]).startswith(_FORMULAS):
        return True
    end = b
    while end > i and low[end - 1] in PUNCT:
        end -= 1
    return end - i <= 7 and " ".join(low[i:end]) in _ENCOURAGEMENT


# Whom a clause read by one of the rules below is filed under. The speaker's experience of the
# other's words is the speaker's ("Your words give me strength"). Everything else -- a
# reaction to the other's share, a formula of congratulation, sympathy or good wishes, an
# inference with "must", a generic remark carried on from a reaction, an evaluation of the
# other -- asserts nothing anyone did and is filed under no one. Filing reactions under the
# other speaker instead ({"react": "other"}) was measured (docs/locomo.md, "What was tried, and
# what was not kept"): graph's adversarial F1 rises, but its answerable F1 and evidence recall
# fall and its adversarial piece reach rises: the short reaction pieces outrank the other's own
# turns and the arm falls silent on both halves, which is a trade made by silence, not by reading.
_TARGET = {"react": "none", "yourme": "self"}

# Evaluative words: what a reaction says of the thing the other shared ("That bowl is gorgeous").
_EVAL = ING_ADJ | FRAGMENT_ADJ | wordset(
    """great awesome amazing cool nice lovely gorgeous beautiful stunning fancy fun delicious yummy
    yum tasty incredible fantastic wonderful serious impressive interesting exciting special sweet
    cute adorable perfect inspiring fascinating breathtaking sick rad neat tough hard scary intense
    rough awful terrible brilliant excellent superb marvelous fabulous unique good wise smart clever
    huge epic legit dope funny hilarious crazy insane wild peaceful serene cozy comfy stylish
    classy elegant vibrant colorful colourful detailed pretty magical majestic spectacular wicked
    fab phenomenal remarkable admirable courageous brave bold heavy dangerous exhausting
    worth delightful charming idyllic picturesque dreamy"""
)
_DISTAL = wordset("that those")
_DEICTIC = wordset("that those this these the it")
_REACT_VERBS = wordset("sound look seem")
_SKIP_TO_ADJ = wordset("so such a an really very super pretty quite absolutely totally truly just like")
_GOOD = wordset("great good awesome nice amazing excellent fantastic brilliant wonderful fab smart")
_JOB = wordset("job work pick choice idea call move effort")
_FOR_YOU = wordset("you your you're")
# Wishes and bids addressed to the other: they say nothing of what the speaker did.
_WISHES = (
    "keep it up", "keep up the", "keep going", "keep doing", "keep at it", "keep pushing", "keep shining",
    "keep me posted", "keep me updated", "keep rocking", "take care", "enjoy your", "enjoy the", "enjoy it",
    "enjoy !", "have fun", "have a great", "have a good", "have a nice", "have a blast", "have an amazing",
    "have a wonderful", "have a fantastic", "hang in there", "stay safe", "stay strong", "stay positive",
    "stay tuned", "don 't give up", "don 't worry", "get well", "feel better", "rest up", "go for it",
    "break a leg", "fingers crossed", "best of luck", "all the best", "good luck", "you got this",
    "talk soon", "talk to you", "see you", "catch you", "bye", "cheers to",
)


def _addressed(low: list[str], i: int, b: int) -> str | None:
    """Is the clause from ``i`` a formula addressed to the other speaker? Its rule's name, else None.

    ``congrats``: "Congrats on the new job", "Sorry 'bout the accident", "Way to go", "Good
    luck with the move", "Great job organizing ..."; ``wish``: "Keep it up!", "Take care",
    "Enjoy your day!", "Have a great time at the workshop!", "I hope you're okay";
    ``glad``: "Glad you had fun", "Proud of you". The speaker says something of what the
    other did or went through, and nothing of their own.
    """
    w = low[i]
    n1 = low[i + 1] if i + 1 < b else ""
    n2 = low[i + 2] if i + 2 < b else ""
    if n1 == "'" and n2 == "bout":  # sorry 'bout
        n1, n2 = "about", low[i + 3] if i + 3 < b else ""
    if w in _JOB and i and low[i - 1] in _GOOD:  # "Great job organizing it" ("great" was skipped)
        return "congrats"
    words = " ".join(low[i : min(b, i + 5)])
    if words.startswith(_WISHES) or (w == "i" and n1 == "hope" or w == "hope") and (
        "you" in low[i : i + 4] or "your" in low[i : i + 4] or "all" in low[i : i + 4]
    ):
        return "wish"
    if w in ("congrats", "congratulations", "kudos"):
        return "congrats"
    if w == "sorry" and (n1 in ("about", "'bout", "bout", "for", "to") or n1 in _FOR_YOU or n1 == "that" and n2 in _FOR_YOU):
        return "congrats"
    if (w, n1, n2) == ("way", "to", "go") or (w, n1) in (("good", "luck"), ("well", "done"), ("hats", "off")):
        return "congrats"
    if w in _GOOD and n1 in _JOB:
        return "congrats"
    if w in FRAGMENT_ADJ and (n1 in _FOR_YOU or n1 in ("for", "of", "that") and n2 in _FOR_YOU):
        return "glad"
    return None


def _compliment(low: list[str], start: int, i: int, b: int, predicate: str | None, obj_start: int) -> str | None:
    """Is a clause about the other speaker only the speaker's evaluation of them, or its effect on the speaker?

    "Your camping trip sounds awesome", "You're so inspiring", "Your blog is awesome" evaluate;
    "Your passion inspires me", "Your words give me strength to pursue my new hobby" say what
    the other's words or deeds do to the speaker.
    """
    if predicate in _REACT_VERBS or predicate == "be":
        k = obj_start
        while k < b and low[k] in _SKIP_TO_ADJ:
            k += 1
        if k < b and low[k] in _EVAL and (k + 1 >= b or not low[k + 1][:1].isalnum()):
            return "youeval"
    if low[start] == "your" and any(low[k] in ("me", "my", "us", "our") for k in range(obj_start, b)):
        return "yourme"
    return None


def _reaction(low: list[str], start: int, i: int, b: int, kind: str, predicate: str | None, obj_start: int) -> str | None:
    """Is a clause whose subject names nobody a reaction to what the other speaker shared?

    * ``react``: a deictic or definite subject with a verb of seeming ("That charity race
      sounds great", "The design looks so fancy", "That sign looks serious"), a distal one
      with an evaluation ("That bowl is gorgeous", "Those lessons are great", "That's
      awesome"), any subject with "sound" ("Thanksgiving dinner sounds great", "They sound
      amazing"), or none at all ("Sounds great!", "Looks amazing");
    * ``must``: an inference ("Must have been scary", "That must have been tough", "Being a
      pro player must be quite a journey");
    * ``generic``: a remark that addresses the other ("Running can really boost your mood").

    None of them when the clause holds the speaker's own I/my/we/our ("It sounds like I'll
    be busy"). Imperatives were tried and are not read this way: "Make sure you watch other
    people's videos first" is the speaker's advice, and advice is asked about.
    """
    w = low[start]
    speaker_own = any(low[k] in SPEAKER_PRON or low[k] in SPEAKER_POSS for k in range(start, b))
    if kind == "drop" or w == "must":
        if w == "must":
            return "must"
        return "react" if w in ("sounds", "looks", "seems") else None
    if kind != "np":
        return None
    if any(low[k] == "must" for k in range(i, obj_start)):
        return "must"  # "Being a pro player must be quite a journey", "They must have had fun"
    if w not in _DEICTIC:
        if predicate == "sound" and not speaker_own:
            return "react"  # "Thanksgiving dinner with family sounds great!", "They sound amazing"
        if not speaker_own and any(
            low[k] in OTHER_PRON or low[k] in OTHER_POSS for k in range(obj_start, b)
        ):
            return "generic"  # "Running can really boost your mood"
        return None
    if predicate in _REACT_VERBS and not speaker_own:
        return "react"
    if predicate == "be" and w in _DISTAL:
        k = obj_start
        while k < b and low[k] in _SKIP_TO_ADJ:
            k += 1
        if k < b and low[k] in _EVAL:
            return "react"
    return None


def reply(
    low: list[str], start: int, i: int, b: int, kind: str, subjects: list[str],
    speaker: str, other: str, predicate: str | None, obj_start: int, reacting: str | None,
) -> str | None:
    """The reply rule that reads the clause from ``start``, or None when it is no reply.

    ``i`` is where its subject ends, ``kind`` how the subject was read ("np": a noun phrase
    naming nobody, "drop": no subject, "frag": "Glad ...", "" a person), ``subjects`` whom
    it names, ``predicate`` and ``obj_start`` its verb group, and ``reacting`` the rule that
    read the turn's clause before (a generic remark right after a reaction carries it on:
    "That race sounds great! Raising awareness is so rewarding.").
    """
    rule = _addressed(low, start, b)  # a formula addressed to the other: "Congrats on ...", "Keep it up"
    if rule is not None:
        return rule
    if kind:
        rule = _reaction(low, start, i, b, kind, predicate, obj_start)
        if rule is None and reacting and kind == "np" and not any(
            low[k] in SPEAKER_PRON or low[k] in SPEAKER_POSS for k in range(start, b)
        ):
            rule = "carry"  # "That race sounds great! Raising awareness is so rewarding."
        return rule
    if subjects == [other] and low[start] in ("you", "your", "yours"):
        return _compliment(low, start, i, b, predicate, obj_start)
    if subjects == [speaker] and low[start] == "i" and predicate == "be" and _glad(low, obj_start, b):
        return "glad"
    return None


def _glad(low: list[str], k: int, b: int) -> bool:
    """Does the object from ``k`` of "I'm ..." say the speaker's feeling for the other?

    "I'm so proud of you", "I'm happy for you", "I'm sorry to hear that".
    """
    while k < b and low[k] in _SKIP_TO_ADJ:
        k += 1
    return k + 1 < b and low[k] in FRAGMENT_ADJ and (
        low[k + 1] in _FOR_YOU or low[k + 1] in ("of", "for") and k + 2 < b and low[k + 2] in _FOR_YOU
        or low[k + 1] == "to" and k + 2 < b and low[k + 2] == "hear"
    )


def filed(rule: str, subjects: list[str], speaker: str, other: str) -> list[str] | None:
    """Whom a clause a reply ``rule`` read is filed under (see :data:`_TARGET`); None for no one."""
    target = _TARGET.get(rule, "none")
    if target == "none":
        return None
    if target == "other":
        return [other]
    if target == "self":
        return [speaker]
    return subjects
