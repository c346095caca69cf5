"""Claim extraction from dialogue: who a sentence is about, and what it claims.

The subject of a sentence is settled by who is speaking, and ``you`` by whom they speak to.
:func:`extract` splits each turn into sentences (:func:`graphmem.text.sentences.sentences`), each sentence into
clauses (at ``;``, ``:``, dashes, ", and I ...", ", you ..."), and reads every clause for
a subject, a verb group and an object. The rules:

* **A question asserts nothing.** A sentence whose closing punctuation holds a ``?``
  produces no claim, so "How's it going with yoga?" never makes the asker someone who
  does yoga.
* **Vocatives are taken out.** "Thanks, Caroline!", "Hey Mel,", "Wow, John that's
  great" and "..., Jon." name the person spoken *to*; the name is removed before the
  subject is looked for and is not a mention.
* **You is the person addressed.** In two-party dialogue, the other speaker. With more
  speakers, the one a vocative names ("Thanks, Jo!", "Jo, did you ...?": from that sentence
  to the end of the turn), else the last speaker before the turn who is not its speaker
  (:meth:`graphmem.claims.people.People.addressed`).
* **Discourse is skipped**: interjections ("yeah", "wow", "thanks", "so"), leading
  adverbs and time phrases ("Yesterday,", "Last week"), "by the way", and a leading
  subordinate or prepositional clause up to its comma ("If you need anything, I'm
  here" is the speaker's). A clause that is nothing but these ("Thanks!", "So cool!")
  claims nothing.
* **The subject noun phrase decides.** ``I/me/we/us/let's/my/our`` is the speaker,
  ``you/your`` the person addressed, a known name is that person ("Caroline's painting",
  "Max loves the park"; "Caroline and I" is both; in "My son Max loves ..." the
  apposition wins), and a subject that names nobody ("It was great", "The kids loved
  it", "She gave it to me", a verb whose subject was dropped: "Gonna continue my edu")
  is the speaker's.
* **Formulas are not claims about the other**: "you know", "you're right", "you'll
  see", "you won't believe ...", and content-free encouragement as a whole clause
  ("Keep it up, you're doing great!", "You got this") produce nothing.
* **A reply is read as a reply.** What a speaker says of the other's news is not a claim
  about the speaker. A reaction whose subject points at what the other shared ("That
  charity race sounds great", "The design looks so fancy", "That bowl is gorgeous",
  "Sounds amazing!") says nothing anyone did and claims nothing. Formulas of congratulation,
  sympathy and good wishes ("Congrats on the store", "Sorry 'bout the accident", "Great
  job organizing it", "Keep it up!", "Take care", "I hope you're okay", "Glad you had
  fun", "I'm so proud of you"), inferences with "must" ("Must have been scary"),
  evaluations of the other ("You're so inspiring", "Your blog is awesome"), remarks that
  address the other ("Running can really boost your mood") and a generic remark right
  after any of these in the same turn ("... Making a difference is so rewarding") claim
  nothing. "Your words give me strength to pursue my new hobby" is the speaker's. "Thank
  goodness" is discourse: "Thank goodness your son's okay" is about the other's son.
* **A negation is kept** on the predicate (``not``, ``n't``, ``never``, ``no longer``
  in the verb group): "I don't eat dairy" is (speaker, eat, 'dairy', negated=True).
* **Third parties become named parties.** "my friend Jenna", "my son Max", "Oscar, my guinea
  pig", "a puppy named Pixie", "her name is Coco", "I named him Buddy", "this is
  Susie!", "meet Toby", "Anthony and I" introduce a party of their own (a person or not:
  :func:`graphmem.claims.naming.persons`), keyed like the
  speakers (see :meth:`graphmem.claims.people.People.key` for how spellings fold). Each introduction is also
  read as a *naming claim* of its owner (:mod:`graphmem.claims.naming`): (speaker, 'call',
  'Max', topic='my son') -- "my son is called Max" -- which :func:`graphmem.claims.graph.reason` reads.

Predicates are the lower-case head verb, lemmatised crudely: an irregular-verb table
and a list of common verbs settle most forms; anything else loses ``-s``, ``-ed`` or
``-ing`` (restoring an ``e`` where the stem's shape says one was dropped: "amazing" ->
amaze, "visiting" -> visit). "I'm keen", "It's so rewarding", "It was amazing" have
predicate ``be``; "I'm painting" has ``paint``. A clause with no verb ("Such a cute
pup!") is the speaker's remark with the copula elided: predicate ``be``, the fragment as
object. The object is the rest of the clause as written; the grammatical subject, when
it is not the person ("The support group has made me feel accepted"), is
``Claim.topic``.

Two readings were measured with ``bench/reach.py --compare`` over all ten conversations
and are off by default (the figures: docs/locomo.md, "Figures behind the code"):

* **captions** (``captions=True``: each image caption as the speaker's ('share',
  caption) claim) barely move piece reach -- all but one captioned evidence turn
  already has a piece about its speaker -- so they would mostly grow the index with
  text nobody said;
* **you as a mention** (``you_mentions=True``: a ``you``/``your`` outside the subject
  links the claim to the other speaker) raises one-hop reach far more on adversarial
  questions than on answerable ones: the wrong trade.

Reading is cheap (its CPU time: docs/locomo.md, "How it is put together"): sentences are
tokenised once with one C-level regex pass, and the cyclic garbage collector is paused
while the (acyclic) tokens and claims are built.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from graphmem.claims import replies
from graphmem.claims.clauses import asked
from graphmem.claims.gcpause import paused_gc
from graphmem.claims.naming import naming
from graphmem.claims.people import People, fold, people_of
from graphmem.claims.records import Claim, Reading, said_on
from graphmem.domain import Conversation, Turn
from graphmem.text.lemma import VERBS, finite, verbish
from graphmem.text.lexicon import (
    ADVERBS, BE, CLOSED, CONDITIONAL, DET, DO, FRAGMENT_ADJ, HAVE, INTERJ, MODAL, OTHER_POSS,
    OTHER_PRON, PREP, PREP_START, PUNCT, RELATIONS, SPEAKER_POSS, SPEAKER_PRON, SUBORD, THIRD_PRON,
    TIME_ADV, TIME_DET, TIME_NOUNS, wordset,
)
from graphmem.text.phrases import gerund, np_end, verb_group
from graphmem.text.sentences import Offsets, sentences, tokens

__all__ = ["Sentences", "context", "extract", "parse", "read_turn", "speaker_key"]

# Clause boundaries: a new subject after a comma or a conjunction, or a hard stop.
_SUBJ = wordset("i we you he she they it")
_SUBJ_WIDE = _SUBJ | wordset("there that this my our your his her their")
_AUXISH = BE | HAVE | DO | MODAL | wordset("really just also still never always 't")
_CONJ = wordset("and but so or plus then")
_BOUNDS = frozenset(";—–-:,") | wordset("and but")
# Contraction suffixes: after a noun phrase one of them is its verb ("your son's okay").
_CONTRACTED = wordset("'s 're 've 'll 'd 'm")
# What is trimmed from the end of an object (what may close a question: graphmem.claims.clauses.asked).
_TRAIL = " ,.!?;:-–—\"'…"


def extract(conv: Conversation, captions: bool = False, you_mentions: bool = False) -> Reading:
    """Extract the claims of every turn of ``conv`` (see the module docstring for the rules).

    ``captions`` also reads each image caption as the speaker's ('share', caption) claim;
    ``you_mentions`` counts a ``you``/``your`` outside the subject as a mention of the other
    speaker. Both are off by default, for the reasons the module docstring gives.
    """
    with paused_gc():
        return _extract(conv, captions, you_mentions)


# A turn's sentences, each tokenised once: (text, tokens, lower-cased tokens, offsets, a question?).
Sentences = list[tuple[str, list[str], list[str], list[int], bool]]


def _extract(conv: Conversation, captions: bool, you_mentions: bool) -> Reading:
    """Tokenise every sentence once, meet the people, then read each turn's statements in order."""
    turns = conv.turns
    parsed = [parse(turn) for turn in turns]
    people, surfaces = people_of(conv.speakers, "\n".join(t.text for t in turns),
                                  ((toks, low) for sents in parsed for _s, toks, low, _st, _q in sents))
    ctx = context(people, surfaces, you_mentions)
    keys = [speaker_key(people, turn) for turn in turns]  # reading a turn asks the people nothing
    claims = [c for turn, spk, you, sents in zip(turns, keys, people.addressed(keys), parsed)
              for c in read_turn(ctx, turn, spk, you, sents, captions)]
    people.freeze()
    ids = tuple(t.id for t in turns)
    return Reading(people, claims, ids, dict(zip(ids, keys)), {t.id: said_on(t) for t in turns})


def parse(turn: Turn) -> Sentences:
    """The turn's sentences, tokenised: what every later reading of the turn starts from."""
    chat = turn.speaker.strip().lower() == "user"  # a chat's user glues questions to statements (clauses.asked)
    split = [(part, question, *tokens(part)) for s in sentences(turn.text) for part, question in asked(s, chat)]
    return [(s, toks, low, starts, question) for s, question, toks, low, starts in split if toks]


def speaker_key(people: People, turn: Turn) -> str:
    """The key of the person who said ``turn``."""
    return people.key(turn.speaker) or fold(turn.speaker)


def context(people: People, surfaces: dict[str, str], you_mentions: bool = False) -> _Ctx:
    """What reading a turn needs of its conversation: its people and the surfaces that name them."""
    return _Ctx(people, "", "", surfaces, frozenset(people.speakers), frozenset(people.third_parties), None, you_mentions)


def read_turn(ctx: _Ctx, turn: Turn, speaker: str, you: str, sents: Sentences, captions: bool = False) -> list[Claim]:
    """The claims of one turn said by ``speaker`` to ``you`` unless a vocative says otherwise
    (keys): a function of the turn and of what ``ctx`` says of the names its tokens spell, and
    of nothing else the conversation says."""
    out: list[Claim] = []
    ctx.speaker, ctx.other, ctx.turn = speaker, you, turn
    ctx.reacting = None
    for s, toks, low, starts, question in sents:
        if not question:  # a question asserts nothing
            _read_sentence(s, toks, low, starts, ctx, out)
        elif len(ctx.speakers) > 2:  # but whom it is asked of is addressed from here on: "Jo, did you ...?"
            _vocatives(low, [ctx.surfaces.get(t) for t in toks], ctx)
    if captions and turn.caption:
        cap = turn.caption.strip()
        out.append(Claim(speaker, "share", cap, False, cap, turn.id, said_on(turn), (), "", speaker))
    return out


@dataclass
class _Ctx:
    """What the rules of a clause need of the conversation, and of the turn being read."""

    people: People
    speaker: str
    other: str
    surfaces: dict[str, str]
    speakers: frozenset[str]
    third: frozenset[str]
    turn: Turn | None
    you_mentions: bool
    reacting: str | None = None
    """The rule that read the turn's last clause as a reaction to the other's share, if one did."""

    def reading(self) -> Turn:
        """The turn being read: :func:`read_turn` sets it before it reads any of its sentences."""
        assert self.turn is not None, "a sentence is read outside read_turn"
        return self.turn


def _read_sentence(
    text: str, toks: list[str], low: list[str], starts: list[int], ctx: _Ctx, out: list[Claim]
) -> None:
    """Read one sentence: its vocatives marked, its naming claims, then each of its clauses."""
    n = len(toks)
    sget = ctx.surfaces.get
    names = [sget(t) for t in toks]
    has_names = any(names)
    drop = _vocatives(low, names, ctx) if has_names else [False] * n
    offs = Offsets(text, toks, starts)

    if has_names:
        # naming claims: "my son Max" -> (speaker, call, Max, topic 'my son')
        if ctx.third:
            last: Claim | None = None
            for i, k in enumerate(names):
                if k is not None and k in ctx.third:
                    c = naming(text, toks, low, i, k, ctx.speaker, ctx.other, ctx.reading())
                    if c is None and last is not None and i >= 2 and low[i - 1] in ("and", ",") and (
                        names[i - 2] == last.mentions[0]
                    ):  # a list carried on: "Pepper, Precious and Panda"
                        c = replace(last, object=toks[i], mentions=(k,))
                    if c is not None:
                        out.append(c)
                    last = c

    # clauses: split at ; : dashes, ", and I ...", ", you ...", "... and we were ..."
    start = 0
    for j in [j for j, w in enumerate(low) if w in _BOUNDS]:
        if j < start:
            continue
        w = low[j]
        cut = 0
        if w == ",":
            if j + 2 < n:
                if low[j + 1] in _CONJ and low[j + 2] in _SUBJ_WIDE:
                    cut = 2
                elif low[j + 1] in _SUBJ and (low[j + 2] in _AUXISH or low[j + 2] in VERBS):
                    cut = 1
        elif w == "and" or w == "but":
            if j - start >= 3 and j + 2 < n and low[j + 1] in _SUBJ and (
                low[j + 2] in _AUXISH or low[j + 2] in VERBS or finite(low[j + 2])
            ):
                cut = 1
        elif w == ":":
            cut = 0 if j and low[j - 1].isdigit() else 1
        else:
            cut = 1
        if cut:
            if j > start:
                _read_clause(text, toks, low, start, j, names, drop, ctx, out, offs)
            start = j + cut
    if start < n:
        _read_clause(text, toks, low, start, n, names, drop, ctx, out, offs)


def _vocatives(low: list[str], names: list, ctx: _Ctx) -> list[bool]:
    """The sentence's vocatives, marked (see :func:`graphmem.claims.replies.mark_vocatives`). With
    more than two speakers, the first that names another speaker is who ``you`` is from here on."""
    drop = [False] * len(low)
    replies.mark_vocatives(low, [k is not None and k in ctx.speakers for k in names], drop)
    if len(ctx.speakers) > 2:
        ctx.other = next((k for k, d in zip(names, drop) if d and k is not None and k != ctx.speaker), ctx.other)
    return drop


def _read_clause(
    text: str, toks: list[str], low: list[str], a: int, b: int,
    names: list, drop: list, ctx: _Ctx, out: list[Claim], offs: Offsets,
) -> None:
    """Read one clause, tokens ``a`` to ``b``, into claims: its discourse skipped, then its
    subject, verb group and object, unless a rule of conversation or of reply says it claims nothing."""
    i = _past_discourse(low, a, b, names, drop)
    if i is None or i >= b:
        return
    if replies.formula(low, i, b):
        return  # "you know", "you're right", "you're doing great!": a formula, not a claim
    start = i
    speaker, other = ctx.speaker, ctx.other
    subjects, kind, topic, i = _subject(low, i, b, names, drop, offs, speaker, other)
    predicate, negated, obj_start = verb_group(low, i, b)
    addressed = replies.reply(low, start, i, b, kind, subjects, speaker, other, predicate, obj_start, ctx.reacting)
    if addressed is not None:
        ctx.reacting = addressed
    elif kind != "np" and speaker in subjects:
        ctx.reacting = None  # the speaker turns to their own news
    if addressed is not None:
        filed = replies.filed(addressed, subjects, speaker, other)
        if filed is None:
            return
        subjects = filed
    said = _object(text, toks, low, start, b, drop, predicate, obj_start, topic, offs)
    if said is None:
        return
    predicate, obj = said
    mentions = _mentions(low, start, i, b, names, drop, subjects, other, ctx.you_mentions)
    turn = ctx.reading()
    seen = set()
    for subj in subjects:
        if subj in seen or not subj:  # "": ``you`` in a conversation of one speaker names no one
            continue
        seen.add(subj)
        ment = tuple(m for m in mentions if m != subj) + tuple(
            x for x in subjects if x != subj and x not in mentions
        )
        out.append(Claim(subj, predicate, obj, negated, text, turn.id, said_on(turn), ment, topic, speaker))


def _past_discourse(low: list[str], a: int, b: int, names: list, drop: list) -> int | None:
    """Where the clause from ``a`` starts once its discourse is skipped: leading interjections,
    punctuation, vocatives, "you know", "by the way", time phrases, a leading subordinate or
    prepositional clause up to its comma. None when the clause is a condition, which asserts nothing."""
    i = a
    while i < b:
        w = low[i]
        if drop[i] or w in INTERJ or w in PUNCT:
            i += 1
            continue
        if (w == "you" or w == "i") and i + 1 < b and low[i + 1] in ("know", "see", "mean") and (
            i + 2 >= b or low[i + 2] in (",", "!", ".", "…")
        ):
            i += 2
            continue
        if w == "by" and i + 2 < b and low[i + 1] == "the" and low[i + 2] == "way":
            i += 3
            continue
        if w in TIME_ADV or w in ADVERBS and w not in CLOSED:  # "Yesterday, I ..."
            i += 1
            continue
        if w in TIME_DET and i + 1 < b and low[i + 1] in TIME_NOUNS:  # "Last week I ..."
            i += 2
            continue
        if w == "thank" and i + 1 < b and low[i + 1] == "you" and (i + 2 >= b or low[i + 2] in (",", "!", ".")):
            i += 2
            continue
        if w == "thank" and i + 1 < b and low[i + 1] in ("goodness", "god", "heavens"):
            i += 2  # "Thank goodness your son's okay": read what follows
            continue
        if (w in SUBORD or w in PREP_START) and i + 1 < b:
            # "If you need anything, I'm here": the main clause follows the comma
            for j in range(i + 1, min(b, i + 14)):
                if low[j] == ",":
                    if j + 1 < b and (low[j + 1] in _SUBJ_WIDE or low[j + 1] in SPEAKER_PRON or names[j + 1] is not None):
                        i = j + 1
                    break
            else:
                if w in CONDITIONAL:
                    return None  # "If you ever need anything": a condition asserts nothing
                if w in SUBORD:
                    i += 1  # "Because I love it": read what follows
                    continue
        break
    return i


def _subject(
    low: list[str], i: int, b: int, names: list, drop: list, offs: Offsets, speaker: str, other: str
) -> tuple[list[str], str, str, int]:
    """The subject noun phrase from ``i``: (whom it names, its kind, its topic, where it ends).

    The kind is "np" for a noun phrase naming nobody, "drop" for no subject, "frag" for
    "Glad ...", and "" for a subject that names a person.
    """
    w = low[i]
    if w == "let" and i + 1 < b and low[i + 1] == "'s":
        return [speaker], "", "", i + 2
    if w in SPEAKER_PRON or w in OTHER_PRON or (names[i] is not None and not drop[i]):
        return _persons(low, i, b, names, drop, offs, speaker, other)
    if w in FRAGMENT_ADJ:  # "Glad you enjoyed it": the speaker's remark
        return [speaker], "frag", "", b
    if (
        w in SPEAKER_POSS or w in OTHER_POSS or w in DET or w in THIRD_PRON or not verbish(w)
        or w.endswith("ing") and gerund(low, i, b)  # "Being in nature helps ..."
    ):
        return _noun_phrase(low, i, b, names, drop, offs, speaker, other)
    return [speaker], "drop", "", i  # a verb whose subject was dropped: "Gonna continue my edu"


def _persons(
    low: list[str], i: int, b: int, names: list, drop: list, offs: Offsets, speaker: str, other: str
) -> tuple[list[str], str, str, int]:
    """A subject of pronouns and names, coordinated or not: "Caroline and I", "me and my husband"."""
    subjects: list[str] = []
    topic = ""
    j = i
    while j < b:
        lw = low[j]
        if lw in SPEAKER_PRON:
            subjects.append(speaker)
        elif lw in OTHER_PRON:
            subjects.append(other)
        elif names[j] is not None and not drop[j]:
            subjects.append(names[j])
            if j + 1 < b and low[j + 1] == "'s":  # "Caroline's painting is ..."
                end = np_end(low, j + 2, b)
                if end > j + 2:
                    topic = offs.span(j, end)
                j = end
                break
        elif lw in SPEAKER_POSS or lw in DET:  # "me and my husband": a companion
            if lw in SPEAKER_POSS and not subjects:
                subjects.append(speaker)
            j = np_end(low, j + 1, b)
            break
        else:
            break
        j += 1
        if j + 1 < b and low[j] in ("and", "&", ",") and (
            low[j + 1] in SPEAKER_PRON or low[j + 1] in OTHER_PRON
            or names[j + 1] is not None or low[j + 1] in SPEAKER_POSS
        ):
            j += 1
            continue
        break
    return subjects, "", topic, j


def _noun_phrase(
    low: list[str], i: int, b: int, names: list, drop: list, offs: Offsets, speaker: str, other: str
) -> tuple[list[str], str, str, int]:
    """A noun phrase subject: the first person-ish word in it says whose it is."""
    w = low[i]
    end = np_end(low, i, b)
    if end > i and (end < b and (low[end][:1].isalnum() or low[end] in _CONTRACTED) or w in THIRD_PRON):
        who = None
        for j in range(i, end):
            lw = low[j]
            if names[j] is not None and not drop[j] and low[j - 1] in RELATIONS:
                who = names[j]  # "My son Max loves ...": the apposition names him
                break
            if who is not None:
                continue
            if lw in SPEAKER_POSS:
                who = speaker
            elif lw in OTHER_POSS:
                who = other
            elif names[j] is not None and not drop[j]:
                who = names[j]
        return [who or speaker], ("np" if who is None else ""), offs.span(i, end), end
    # a fragment
    return [speaker], ("drop" if w == "must" else ""), "", i  # "Must've been scary"


def _object(
    text: str, toks: list[str], low: list[str], start: int, b: int, drop: list,
    predicate: str | None, obj_start: int, topic: str, offs: Offsets,
) -> tuple[str, str] | None:
    """The clause's (predicate, object): the rest of the clause as written, trimmed of
    punctuation and vocatives. None when the clause asserts nothing of its own."""
    if predicate is None:  # a fragment: the speaker's remark, with the copula elided
        if (low[start] in PREP or low[start] in SUBORD) and not (
                low[start] in ("at", "in", "with") and start and low[start - 1] in ("still", "now", "currently")
                and start + 1 < b and toks[start + 1][:1].isupper()):
            return None  # "For me", "When I was young": no assertion of its own ("Still at Google" is one)
        predicate, obj_start = "be", start
    while obj_start < b and (drop[obj_start] or low[obj_start] in PUNCT):
        obj_start += 1
    end = b
    while end > obj_start and (drop[end - 1] or low[end - 1] in PUNCT or low[end - 1] in "?;:-"):
        end -= 1
    if end <= obj_start and predicate == "be" and not topic:
        return None  # nothing left but an interjection
    if end <= obj_start:
        obj = ""
    elif end == b and b == len(toks):  # the common case: the object runs to the sentence's end
        obj = text[offs(obj_start) :].rstrip(_TRAIL)
    else:
        obj = offs.span(obj_start, end)
    return predicate, obj


def _mentions(
    low: list[str], start: int, i: int, b: int, names: list, drop: list,
    subjects: list[str], other: str, you_mentions: bool,
) -> list[str]:
    """Every person the clause names (outside the vocatives), and with ``you_mentions`` the
    other speaker when a "you"/"your" follows the subject."""
    mentions: list[str] = []
    if you_mentions:
        for j in range(i, b):
            if low[j] in OTHER_PRON or low[j] in OTHER_POSS:
                if other not in subjects:
                    mentions.append(other)
                break
    for j in range(start, b):
        k = names[j]
        if k is not None and not drop[j] and k not in mentions:
            mentions.append(k)
    return mentions
