"""A claim cut into the clauses it holds, each with its verb, its object trimmed, and its negation.

Why: the claim reader (:mod:`graphmem.claims.extract`) splits a sentence at the clause bounds it
knows (", and I ...", ";", dashes), and leaves the rest in one object: "sold the Civic and now I
drive a Tesla", "to Porto last week, so Porto is home now", "in Paris and my favourite colour is
blue". A fact is one clause. This module cuts a claim's object again at a coordinated clause (a
subject, or a past-tense verb after "and": "left Google and joined Microsoft") and reads each piece
with the claim reader's own verb group (:func:`graphmem.text.phrases.verb_group`), so each clause
gives its own fact; and it trims an object of what says when rather than what ("last month",
"now", "these days", "since 2019"), so "move from Paris to Berlin last month" holds Berlin.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from graphmem.domain import Claim
from graphmem.text.lemma import IRREGULAR
from graphmem.text.lexicon import BE, HAVE, MODAL, SPEAKER_POSS, SPEAKER_PRON
from graphmem.text.phrases import np_end, verb_group
from graphmem.text.sentences import tokens

__all__ = ["Clause", "asked", "clauses", "trim"]


@dataclass(frozen=True, slots=True)
class Clause:
    """One clause of a claim: its grammatical subject when not the person (``topic``), its verb's
    lemma, whether it is negated, and its object as written (time words trimmed)."""

    topic: str
    predicate: str
    negated: bool
    object: str
    said: str = ""
    """The object as said, before trimming (a frequency is a time phrase: "every Sunday")."""
    person: bool = True
    """Is its subject the person, said as such ("I", "we", their name), rather than dropped ("Take a
    look"), a pronoun of something else ("It really mattered", "They're beautiful") or a noun phrase?"""
    under: bool = False
    """Is it a clause under another ("since I was a kid", "when I face challenges")? Its attribute may be
    true ("since I moved to Porto"), but it is no statement to be read alone."""
    other: bool = False
    we: bool = False
    """Is its subject "we" (the person and others: "We have a strong bond", "We all have our paths")?"""
    """Is its subject said as someone or something else ("It's like having ...", "Being a role model
    is ..."), or is it a clause under another ("since I was a kid")? Then it says nothing of the person."""


_CUT = re.compile(
    r"\s*[;:]\s*|\s+[-–—]+\s+|,\s*(?:and\s+|but\s+|so\s+)?(?=(?:now\s+|then\s+)?(?:i|we|i'm|we're|i've|my|our)\b)"
    r"|,?\s+(?:and|but|so|because|since)\s+(?:now\s+|then\s+|also\s+|finally\s+)?(?=(?:i|we|my|our)\b)"
    r"|,\s*so\s+(?=[A-Z])"
    r"|,\s+(?=(?:leaving|quitting|calling|naming|living|working|moving|switching|starting|eating|doing)\b)"
    r"|,?\s+(?:and|but)\s+(?=(?:the|a|an|this|that|its|his|her|their|[A-Z]\w*)(?:\s+[\w'-]+){0,4}\s+(?:is|are|was|were)\b)"
    r"|\s+(?=(?:i'm|i've|we're|we've)\s)"
    r"|,\s+(?=[\w'.-]+(?:\s+[\w'.-]+){0,2}\s+(?:is|are)\s+(?:now\s+)?(?:my|our)\b)",
    re.I)
_AND_VERB = re.compile(r"(?:\s+(?:and|but)|,)\s+(?:then\s+|now\s+|also\s+|finally\s+)?(?=(\w+)\b)", re.I)
_PAST_IRREGULAR = frozenset(w for w, base in IRREGULAR.items() if w != base and w.isalpha() and not w.endswith("ing")
                            and w not in BE and w not in HAVE and w not in ("does", "goes"))

_TIME_TAIL = re.compile(
    r"(?:,\s*|\s+)(?:(?:right\s+)?now|anymore|any\s+more|these\s+days|nowadays|again|too|as\s+well|recently|lately"
    r"|today|yesterday|tonight|at\s+the\s+moment|for\s+good|for\s+now|finally|already|full[- ]time|part[- ]time"
    r"|(?:last|this|next|every|that)\s+(?:week|weekend|month|year|spring|summer|fall|autumn|winter|semester|season"
    r"|morning|evening|night|time|monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
    r"|(?:(?:about|around|over|almost|nearly|roughly|like)\s+)?(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d+"
    r"|several|a\s+few|a\s+couple\s+(?:of\s+)?)\s+(?:days?|weeks?|months?|years?)\s+ago"
    r"|(?:on|last|this|next)\s+(?:mon|tues?|wed|thurs?|fri|sat|sun)(?:day|nesday|rsday|urday)?"
    r"|not\s+(?:too|that|so)\s+long\s+ago|(?:a\s+)?(?:while|long\s+time)\s+ago|(?:the\s+)?other\s+day|lately"
    r"|atm|rn|at\s+the\s+minute|the\s+day\s+after(?:\s+tomorrow)?(?:\s+\w+)?|before|ever\s+since|since\s+then|ever|more\s+than\s+ever|later|soon|lol|haha|lmao|(?:ya|you)\s+know|after\s+all"
    r"|over\s+the\s+(?:summer|winter|weekend|holidays|break)|(?:for|in)\s+(?:ages|years|a\s+while)"
    r"|(?:a|one|two|three|four|a\s+few|several|\d+)\s+(?:days|weeks|weekends|months|years)|at\s+(?:long\s+)?last|for\s+real|instead|in\s+the\s+end|on\s+top\s+of\s+that|as\s+of\s+\w+"
    r"|(?:from|starting|as\s+of)\s+(?:today|tomorrow|now|then|(?:mon|tues|wednes|thurs|fri|satur|sun)day)"
    r"|(?:since|in|on|from|until|back\s+in)\s+(?:\d{4}|january|february|march|april|may|june|july|august|september"
    r"|october|november|december)\b.*"
    r"|for\s+(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|twenty|several|many|a\s+few|\d+)\s+"
    r"(?:days?|weeks?|months?|years?)"
    r"|(?:a\s+)?(?:few|couple\s+of)\s+(?:days|weeks|months|years)\s+ago)[\s.,!]*$", re.I)
_TRAIL_CLAUSE = re.compile(r"(?:,\s*|\s+)(?:which|who|because|since|so\s+that|but|although|though|when|while|where"
                           r"|(?:after|before|until)\s+(?:i|we)\b"
                           r"|and\s+(?:honestly\s+|now\s+|so\s+|yet\s+|really\s+)?(?:it|it's|that|i|we|i'm)\b).*$", re.I)


_ASIDE = re.compile(r",\s+(?!(?:and|or)\b)(?!(?:an?|the)\s+[A-Z])(?=[a-z]).*$")
"""A comma and what follows it in lower case: an aside ("now, very happy"), not an apposition ("a Triumph")."""


_TIME_INSIDE = re.compile(r"\s+(?:the\s+other\s+day|(?:last|next|this)\s+(?:night|week|weekend|month|year|summer|spring|fall"
                          r"|autumn|winter|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|yesterday|tomorrow)\s+\w.*$"
                          r"|\s+for\s+the\s+(?:last|past)\s+.*$|,\s+[A-Z][\w'-]*\s+(?:is|was|are|were)\b.*$", re.I)
"""A time word inside an object, with what follows it ("a classic movie the other day that was awesome")."""
_AND_TAIL = re.compile(r"\s+and\s+(?:[a-z]+ing|wow|oh|even|had|got|made|put|was|were|it|have)\b.*$", re.I)
"""A second verb after "and" that starts another clause ("streamed a game and wow", "positive and looking ahead")."""


def trim(obj: str) -> str:
    """The object with what says when taken off its end ("to Berlin last month" -> "to Berlin"),
    and any trailing clause ("..., which I love", "and hoping it helps"); punctuation off both ends."""
    out = _TRAIL_CLAUSE.sub("", obj.strip())
    out = _AND_TAIL.sub("", _TIME_INSIDE.sub("", out))
    out = _ASIDE.sub("", out)
    while True:
        cut = _TIME_TAIL.sub("", " " + out).strip(" ,.!;:-–—\"'…")  # (an object of a time word alone is empty)
        if cut == out:
            return cut
        out = cut


def clauses(c: Claim) -> list[Clause]:
    """The clauses a claim holds, its own first (see the module docstring)."""
    pieces = _pieces(c.object)
    under, other, we = _under(c)
    out = [Clause(c.topic, c.predicate, c.negated, trim(pieces[0]), pieces[0], not c.topic and _said_by(c),
                  under, not c.topic and other, we)]
    if re.match(r"^(?:so|and|but|then)\s+(?:i|we)\b", pieces[0], re.I) and (read := _read(pieces[0])) is not None:
        out.append(read)  # "The lease ended so we went for a Skoda": the clause after "so" is the person's
    for piece in pieces[1:]:
        read = _read(piece)
        if read is not None:
            out.append(read)
    return out


_SUBJECTS = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|im|ive|we|we're|we've|we'd|we'll|me\s+and|and\s+i)\b", re.I)
_OTHERS = re.compile(r"\b(?:it|it's|its|they|they're|that|that's|this|there|there's|he|she|he's|she's|you|you're"
                     r"|these|those|what|which|who)\b", re.I)
_MODAL = re.compile(r"\b(?:can|could|should|would|might|may|will|shall|must|gonna|hopefully|maybe|let's|if)\b|'ll\b|'d\b",
                    re.I)
"""A plan, a wish, a guess or a suggestion ("we can plan a trip", "I'll reach out"): not a statement of fact."""
_BOUND = re.compile(r"[,;:!?.]|\s[-–—]\s|\b(?:and|but|so|because|when|while|if)\b", re.I)


def _said_by(c: Claim) -> bool:
    """Does the claim's clause name its person as its subject? The words of the sentence before the
    object, back to the clause's start, hold "I"/"we" or the person's name, and no other subject."""
    at = c.sentence.find(c.object) if c.object else -1
    if at < 0:
        return False
    before = _BOUND.split(c.sentence[:at])[-1]
    if _OTHERS.search(before) or _MODAL.search(before):
        return False
    return bool(_SUBJECTS.search(before) or re.search(rf"\b{re.escape(c.subject)}\b", before, re.I))


_UNDER = re.compile(r"\b(?:since|when|whenever|while|because|as|though|although|until|till|before|after|once|where)\s+"
                    r"(?:i|we)(?:'m|'ve|'re|'d|’m|’ve|’re)?\s+(?:[\w'’]+\s+){0,2}$", re.I)
"""A clause under another ("since I was ...", "when I face ...")."""
_IF = re.compile(r"\b(?:if|unless|whether)\s+(?:i|we)\s+(?:[\w']+\s+){0,2}$|^\s*(?:having|being)\s+$"
                 r"|\bif\s+(?:i|we)\s+(?:could|can|had|were)\b", re.I)
"""A clause that is a guess ("if I had ..."), or a gerund said as the subject ("Being a role model is ...")."""


def _under(c: Claim) -> tuple[bool, bool, bool]:
    """Is the claim's clause under another, is it said of something else, is its subject "we" (see
    :class:`Clause`)?"""
    at = c.sentence.find(c.object) if c.object else -1
    if at < 0:
        return False, False, False
    before = c.sentence[:at]
    said = c.sentence[at:at + len(c.object)]
    last = _BOUND.split(before)[-1]
    return (bool(_UNDER.search(before)),
            bool(_OTHERS.search(last) or _MODAL.search(last) or _IF.search(before) or _IF.search(said)
                 or re.search(r"\bwe\s+all\b|\bgoing\s+to\b|^\s*\w+ing\b.*\b(?:is|are|was)\s*$", last, re.I)),
            bool(re.search(r"\bwe(?:'ve|'re|'d|’ve|’re)?\b", last, re.I) and not re.search(r"\bi\b", last, re.I)))


def _pieces(obj: str) -> list[str]:
    """The object cut at each coordinated clause: a new subject, or "and" before a past-tense verb."""
    parts = [p for p in _CUT.split(obj) if p and p.strip()]
    out: list[str] = []
    for part in parts or [obj]:
        at = 0
        for m in _AND_VERB.finditer(part):
            word = m.group(1).lower()
            if word.endswith("ed") and len(word) > 4 or word in _PAST_IRREGULAR:
                out.append(part[at:m.start()])
                at = m.end()
        out.append(part[at:])
    return [p for p in out if p.strip()] or [obj]


def _read(piece: str) -> Clause | None:
    """A piece after the first read as a clause: its subject (the speaker's pronoun, a possessive
    noun phrase or a name: the topic), then the verb group; a piece with no verb is no clause."""
    toks, low, starts = tokens(piece)
    n = len(toks)
    i = 0
    while i < n and low[i] in ("now", "then", "also", "finally", "so", "and", "but", "just", "recently"):
        i += 1
    topic, person = "", False
    if i < n and low[i] in ("it", "it's", "they", "they're", "he", "she", "this", "that", "that's", "there"):
        return None  # a clause about something else
    if i < n and low[i] in SPEAKER_PRON:
        i, person = i + 1, not _MODAL.search(" ".join(low[i + 1:i + 4]))
    elif i < n and low[i] in SPEAKER_POSS:
        end = np_end(low, i + 1, n)
        topic, i = piece[starts[i]:starts[end - 1] + len(toks[end - 1])] if end > i else "", end
    elif (j := next((j for j in range(i + 1, min(i + 7, n)) if low[j] in ("is", "are")), 0)) and not any(
            w in SPEAKER_PRON or w in MODAL for w in low[i:j]):  # "green is my favourite colour now"
        topic, i = piece[starts[i]:starts[j - 1] + len(toks[j - 1])], j
    elif i < n and toks[i][:1].isupper() and low[i] not in MODAL:
        j = i
        while j < n and toks[j][:1].isupper():
            j += 1
        topic, i = piece[starts[i]:starts[j - 1] + len(toks[j - 1])], j
    predicate, negated, obj_start = verb_group(low, i, n)
    if predicate is None:
        return None
    obj = piece[starts[obj_start]:] if obj_start < n else ""
    return Clause(topic, predicate, negated, trim(obj), obj, person)


_QMARK_TAIL = " \"')]!.…"
"""What may close a question after its \"?\" (as the claim reader reads it)."""

# Where a question written as chat is written glues a statement to it: "i'm learning piano, 3 months in. how do
# I get better?" (a full stop before a word in lower case does not end a sentence), "my favourite colour is
# blue, can you suggest a palette?" (a statement in lower case, then the question after a comma).
_STOP_LOWER = re.compile(r"(?<=[^.][.!])\s+(?=[a-z])")
_THEN_ASKED = re.compile(r",\s+(?=(?:can|could|would|will)\s+you\b|what\b|how\b|any\b|which\b|do\s+you\b"
                         r"|should\s+i\b|is\s+there\b)", re.I)


_CHAT_ASKED = re.compile(r"(?:,|\s+[-–—]+)\s+(?=(?:(?:so|and|but)\s+)?(?:(?:can|could|would|will)\s+you\b|what\b|what's\b|how\b"
                         r"|any\b|which\b|where\b|who\b|when\b|do\s+you\b|should\s+i\b|is\s+there\b|are\s+there\b|ideas\b"
                         r"|tips\b|thoughts\b|suggestions\b|advice\b|recommend|help\b|please\b|is\s+it\b|does\b))", re.I)


_SHORT = {"im": "i'm", "ive": "i've", "id": "i'd", "ill": "i'll", "dont": "don't", "didnt": "didn't", "cant": "can't",
          "wont": "won't", "isnt": "isn't", "doesnt": "doesn't", "wasnt": "wasn't", "havent": "haven't"}
_CHAT_SHORT = re.compile(r"\b(?:im|ive|id|dont|didnt|cant|wont|isnt|doesnt|wasnt|havent)\b", re.I)


def asked(sentence: str, chat: bool = False) -> list[tuple[str, bool]]:
    """A sentence and whether it asks, the statements a chat question glues before it told apart
    (each a statement of its own: a question asserts nothing, the statement before it does). None of
    LoCoMo's questions is written so: its sentences are read as before. ``chat``: said by a chat's
    user (the speaker ``user``), who glues a question to a statement whatever its case ("I'm based in
    Toronto and looking for hikes, ideas?", "We moved to Austin - what's the best time to run?")."""
    if chat:  # "im a nurse", "ive moved": the apostrophes a chat leaves out
        sentence = _CHAT_SHORT.sub(lambda m: _SHORT[m.group(0).lower()], sentence)
    if not sentence.rstrip(_QMARK_TAIL).endswith("?"):  # a chat's lower-case sentences after a full stop are their own
        return [(part, False) for part in _STOP_LOWER.split(sentence)] if chat else [(sentence, False)]
    parts = _STOP_LOWER.split(sentence)
    last = parts.pop()
    if chat and len(said := re.split(r"\s+[-–—]+\s+(?=[^-–—]*$)", last, maxsplit=1)) == 2:  # "I'm in Glasgow - best jacket?"
        parts.append(said[0])
        last = said[1]
    if (chat or sentence[:1].islower()) and len(said := (_CHAT_ASKED if chat else _THEN_ASKED).split(last, maxsplit=1)) == 2:
        parts.append(said[0])
        last = said[1]
    return [*((p, False) for p in parts), (last, True)]
