"""Reading dialogue: who a sentence is about, and what it claims.

In a two-party conversation the subject of a sentence is settled by who is speaking.
:func:`read` splits each turn into sentences (:func:`sentences`), each sentence into
clauses (at ``;``, ``:``, dashes, ", and I ...", ", you ..."), and reads every clause for
a subject, a verb group and an object. The rules:

* **A question asserts nothing.** A sentence whose closing punctuation holds a ``?``
  produces no claim, so "How's it going with yoga?" never makes the asker someone who
  does yoga.
* **Vocatives are taken out.** "Thanks, Caroline!", "Hey Mel,", "Wow, John that's
  great" and "..., Jon." name the person spoken *to*; the name is removed before the
  subject is looked for and is not a mention.
* **Discourse is skipped**: interjections ("yeah", "wow", "thanks", "so"), leading
  adverbs and time phrases ("Yesterday,", "Last week"), "by the way", and a leading
  subordinate or prepositional clause up to its comma ("If you need anything, I'm
  here" is the speaker's). A clause that is nothing but these ("Thanks!", "So cool!")
  claims nothing.
* **The subject noun phrase decides.** ``I/me/we/us/let's/my/our`` is the speaker,
  ``you/your`` the other speaker, a known name is that person ("Caroline's painting",
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
* **Third parties become people.** "my friend Jenna", "my son Max", "Oscar, my guinea
  pig", "a puppy named Pixie", "her name is Coco", "I named him Buddy", "this is
  Susie!", "meet Toby", "Anthony and I" introduce a person of their own, keyed like the
  speakers (see :meth:`People.key` for how spellings fold). Each introduction is also
  read as a *naming claim* of its owner: (speaker, 'call', 'Max', topic='my son') --
  "my son is called Max" -- which :func:`graphmem.claims.graph.reason` reads.

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
and are off by default:

* **captions** (``captions=True``: each image caption as the speaker's ('share',
  caption) claim) move piece reach by +0.001 on single-hop and answerable questions and
  not at all on adversarial ones -- all but one captioned evidence turn already has a
  piece about its speaker -- so they would mostly grow the index with text nobody said;
* **you as a mention** (``you_mentions=True``: a ``you``/``your`` outside the subject
  links the claim to the other speaker) raises one-hop reach by 0.019 on answerable
  questions and by 0.072 on adversarial ones: the wrong trade.

Reading all ten conversations takes well under a second of CPU: sentences are
tokenised once with one C-level regex pass, and the cyclic garbage collector is paused
while the (acyclic) tokens and claims are built.
"""

from __future__ import annotations

import gc
import re
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import lru_cache
from typing import Iterable

from graphmem.data.locomo import Conversation, Turn

__all__ = [
    "Claim",
    "People",
    "Piece",
    "Reading",
    "about",
    "lemma",
    "pieces",
    "read",
    "sentences",
]


# --------------------------------------------------------------------------- records


@dataclass(frozen=True)
class Claim:
    """One assertion read from one clause: who it is about and what it says."""

    subject: str
    predicate: str
    object: str
    negated: bool
    sentence: str
    dia_id: str
    date: datetime
    mentions: tuple[str, ...] = ()
    topic: str = ""
    """The grammatical subject when it is not the person ("the kids", "my painting")."""
    speaker: str = ""
    """The key of the person who said it."""


@dataclass(frozen=True)
class Piece:
    """What one turn says about one person: the sentences that produced claims about them."""

    dia_id: str
    person: str
    text: str


@dataclass
class Reading:
    """What :func:`read` made of one conversation."""

    people: "People"
    claims: list[Claim]
    turns: tuple[str, ...] = ()
    """Every dia_id read, in conversation order (turns that produced no claim included)."""
    speakers: dict[str, str] = field(default_factory=dict)
    """dia_id -> the key of the person who said the turn."""
    dates: dict[str, datetime] = field(default_factory=dict)
    """dia_id -> the date of the turn's session."""


# --------------------------------------------------------------------------- lexicon

_WORDS = lambda s: frozenset(s.split())  # noqa: E731

# Words that are never a name, however capitalised (sentence-initial words, days, ...).
_NOT_NAMES = _WORDS(
    """a an the i me my we us our you your he she it they them his her its their this that
    these those there here what when where who why how which yes no not yeah yep yup nope ok okay
    oh ah aw aww wow hey hi hello thanks thank congrats sure well so and but or if then also just
    really haha lol omg btw by way great good nice cool awesome amazing love sounds looks
    monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun
    january february march april may june july august september october november december
    jan feb mar apr jun jul aug sep sept oct nov dec christmas easter thanksgiving halloween
    mr mrs ms dr god lord mom dad mum ma pa grandma grandpa uncle aunt sir madam
    one two three four five six seven eight nine ten first last next new old big little
    let lets did do does can will would could should might must shall have has had
    is are was were be been am as at by for from in into of on to up with about after before
    all any both each every some many much more most other such only own same than too very
    ca wo sha gonna wanna gotta don didn doesn isn wasn aren weren haven hasn hadn couldn
    wouldn shouldn mustn ain won"""
)

_SPEAKER_PRON = _WORDS("i me we us myself ourselves")
_OTHER_PRON = _WORDS("you ya u yourself yourselves")
_SPEAKER_POSS = _WORDS("my our mine ours")
_OTHER_POSS = _WORDS("your yours")
_THIRD_PRON = _WORDS(
    "he she it they this that these those there here him her them his its their everyone "
    "everybody someone somebody something everything nothing anyone anybody anything"
)

# Auxiliaries, with the stems contractions leave behind ("don't" -> don 't).
_BE = _WORDS("am 'm is 's are 're was were be been being isn wasn aren weren ain")
_HAVE = _WORDS("have 've has had having haven hasn hadn")
_DO = _WORDS("do does did don doesn didn")
_MODAL = _WORDS(
    "will 'll would 'd can ca could should may might must shall wo sha gonna wanna gotta ought "
    "couldn wouldn shouldn mustn"
)
_NEG = _WORDS("not 't never")
_ADVERBS = _WORDS(
    """really also just still always usually often sometimes actually finally recently definitely
    totally absolutely already even ever only probably kinda sorta truly honestly seriously literally
    currently now then soon again too lately once mostly almost nearly basically generally certainly
    surely simply all both each constantly especially gradually slowly quickly def prob totes so
    very quite pretty super maybe perhaps rarely hardly barely mainly personally officially"""
)
_NOT_LY = _WORDS(
    "family only fly reply supply july italy belly bully ally jelly rally holy silly lovely friendly "
    "lonely ugly early daily weekly monthly yearly likely"
)
_SUBORD = _WORDS("since when whenever if because although though while as once until unless after before whereas")
_CONDITIONAL = _WORDS("if unless whether")
_PREP_START = _WORDS("at in on during for from with by through over last next")
_INTERJ = _WORDS(
    """yeah yes yep yup yea ya nope no wow woah whoa oh ooh ah aw aww awww hey hi hello hiya
    well so and but also anyway anyways haha hahaha lol ok okay omg oops hmm hm um uh
    absolutely totally definitely sure true right exactly indeed alright cool great awesome
    man dude gosh geez whew phew yay hooray welp plus besides btw honestly thanks thx ty
    nice sweet fair agreed"""
)
# After these a name is a vocative even without a comma ("Hey Mel", "Thanks Caroline").
_GREET = _WORDS("hey hi hello hiya thanks thank congrats congratulations bye morning evening yo dear wow oh")

_DET = _WORDS(
    """a an the this that these those my your our his her its their some any no every each
    another such what which whose all both half either neither many much more most few several"""
)
_PREP = _WORDS(
    """about above across after against along among around at before behind below beneath beside
    between beyond by down during except for from in inside into like near of off on onto out
    outside over past since through throughout to toward towards under until up upon with within
    without"""
)
_PRONOUNS = _SPEAKER_PRON | _OTHER_PRON | _THIRD_PRON | _WORDS("yourself himself herself itself themselves")
_CLOSED = _DET | _PREP | _PRONOUNS | _WORDS("so very too really quite pretty such as than not and or but")

# Degree adverbs: after them an -ing word is an adjective ("it's so rewarding").
_DEGREE = _WORDS("so very too pretty quite super extremely incredibly")
# -ing words that are adjectives after "be" ("it was amazing").
_ING_ADJ = _WORDS(
    """amazing interesting exciting inspiring rewarding challenging relaxing refreshing fascinating
    boring annoying surprising touching heartwarming encouraging overwhelming satisfying calming
    soothing thrilling motivating uplifting exhausting frustrating disappointing terrifying
    charming stunning breathtaking promising fulfilling humbling amusing astonishing comforting
    confusing convincing daunting depressing devastating embarrassing empowering enlightening
    entertaining freeing grounding healing intimidating inviting nerve-wracking outstanding
    pleasing puzzling reassuring shocking striking tempting thought-provoking tiring
    welcoming worrying eye-opening life-changing mind-blowing awe-inspiring"""
)
# Adjectives that open a subjectless remark: "Glad you enjoyed it", "Sorry to hear that".
_FRAGMENT_ADJ = _WORDS(
    """glad happy sorry great nice cool awesome sad proud thrilled excited good lovely amazing
    wonderful fantastic interesting funny crazy weird tough hard impressive beautiful gorgeous
    fun exciting incredible brilliant perfect sweet bummer shame pity wow congratulations"""
)
# -ing words that are nouns ("I'm doing nothing", "it's a wedding").
_ING_NOUNS = _WORDS(
    """thing something nothing anything everything morning evening wedding building ceiling king
    ring spring string sibling darling pudding during awning clothing"""
)

_IRREGULAR = {
    "am": "be", "is": "be", "are": "be", "was": "be", "were": "be", "been": "be", "being": "be",
    "'m": "be", "'re": "be", "'s": "be", "has": "have", "had": "have", "having": "have", "'ve": "have",
    "does": "do", "did": "do", "done": "do", "doing": "do", "went": "go", "gone": "go", "goes": "go",
    "got": "get", "gotten": "get", "made": "make", "took": "take", "taken": "take", "saw": "see",
    "seen": "see", "came": "come", "gave": "give", "given": "give", "found": "find", "knew": "know",
    "known": "know", "thought": "think", "told": "tell", "felt": "feel", "left": "leave", "met": "meet",
    "brought": "bring", "bought": "buy", "taught": "teach", "caught": "catch", "fought": "fight",
    "kept": "keep", "slept": "sleep", "spent": "spend", "sent": "send", "built": "build", "lent": "lend",
    "lost": "lose", "won": "win", "ran": "run", "began": "begin", "begun": "begin", "sang": "sing",
    "sung": "sing", "swam": "swim", "swum": "swim", "drank": "drink", "drunk": "drink", "rode": "ride",
    "ridden": "ride", "wrote": "write", "written": "write", "drove": "drive", "driven": "drive",
    "ate": "eat", "eaten": "eat", "fell": "fall", "fallen": "fall", "forgot": "forget",
    "forgotten": "forget", "grew": "grow", "grown": "grow", "threw": "throw", "thrown": "throw",
    "drew": "draw", "drawn": "draw", "flew": "fly", "flown": "fly", "wore": "wear", "worn": "wear",
    "tore": "tear", "torn": "tear", "spoke": "speak", "spoken": "speak", "broke": "break",
    "broken": "break", "chose": "choose", "chosen": "choose", "woke": "wake", "woken": "wake",
    "froze": "freeze", "frozen": "freeze", "stole": "steal", "stolen": "steal", "hid": "hide",
    "hidden": "hide", "bit": "bite", "bitten": "bite", "held": "hold", "stood": "stand",
    "understood": "understand", "sat": "sit", "led": "lead", "fed": "feed", "said": "say",
    "paid": "pay", "laid": "lay", "heard": "hear", "meant": "mean", "sold": "sell", "shot": "shoot",
    "lit": "light", "slid": "slide", "stuck": "stick", "struck": "strike", "hung": "hang", "dug": "dig",
    "spun": "spin", "swung": "swing", "sank": "sink", "sunk": "sink", "rang": "ring", "rung": "ring",
    "bore": "bear", "born": "bear", "became": "become", "overcame": "overcome", "underwent": "undergo",
    "beaten": "beat", "bent": "bend", "bound": "bind", "bled": "bleed", "blew": "blow", "blown": "blow",
    "bred": "breed", "dealt": "deal", "dreamt": "dream", "fled": "flee", "forgave": "forgive",
    "forgiven": "forgive", "knelt": "kneel", "leapt": "leap", "learnt": "learn", "mistook": "mistake",
    "sought": "seek", "shook": "shake", "shaken": "shake", "shone": "shine", "shown": "show",
    "spelt": "spell", "spilt": "spill", "strove": "strive", "swore": "swear", "sworn": "swear",
    "wove": "weave", "woven": "weave", "wept": "weep", "withdrew": "withdraw", "arose": "arise",
    "arisen": "arise", "awoke": "awake", "rose": "rise", "risen": "rise", "lay": "lie", "lain": "lie",
    "ca": "can", "wo": "will", "'ll": "will", "'d": "would", "sha": "shall", "gonna": "go",
    "wanna": "want", "gotta": "get", "thanks": "thank", "congrats": "congratulate",
    "put": "put", "set": "set", "cut": "cut", "hit": "hit", "let": "let", "hurt": "hurt",
    "quit": "quit", "shut": "shut", "cost": "cost", "spread": "spread", "bet": "bet",
    "burst": "burst", "cast": "cast", "split": "split", "upset": "upset", "read": "read",
    "tried": "try", "cried": "cry", "dying": "die", "lying": "lie", "tying": "tie",
    "loving": "love", "living": "live", "giving": "give", "having": "have", "making": "make",
    "taking": "take", "coming": "come", "writing": "write", "riding": "ride", "driving": "drive",
}

# Base forms of common verbs: enough to tell "looks"/"loves"/"helps" from a plural noun
# and to undo -ed/-ing correctly. Not exhaustive; unknown forms are stripped crudely.
_VERBS = _WORDS(
    """accept achieve act add adjust admire admit adopt adore advise afford agree aim allow
    appreciate apply approach argue arrange arrive ask attempt attend avoid bake balance bang
    base bathe battle be bear beat become begin believe belong bet bike bind bite blame blend
    bless blog blossom boost borrow bother bounce bow box braid breathe bring browse brush
    build bump burn bury buy calm call camp can care carry carve cast catch celebrate challenge
    change chase chat cheat check cheer chill choose clean clear climb close coach code
    collaborate collect color colour combine come comfort commit compare compete complain
    complete compose concentrate connect consider contact continue contribute control convince
    cook cope cost count cover craft crave create cross cry cuddle cure cut cycle dance dare
    date deal decide decorate dedicate defend deliver deserve design destroy develop die dig
    dine disagree discover discuss dive do donate doodle drag draw dream dress drink drive drop
    earn eat edit embrace empower encourage end endorse enjoy enroll enter escape explore
    express face fail fall feed feel fetch fight figure fill film find finish fish fit fix
    flip float flow fly focus fold follow forget forgive form foster found freak frame free
    fry gain garden gather get give glow go grab graduate greet grill grind grow guess guide
    hang happen hate have head heal hear help hike hire hit hold hope host hug hunt hurt
    imagine improve include inspire install intend introduce invest invite involve join joke
    journal judge jump keep kick kill knit know land last laugh launch lead learn leave lend
    let lie lift light like listen live look lose love maintain make manage march mark marry
    master matter mean meditate meet mend mentor mess mind miss mix move need nurture observe
    offer open order organize organise own paint participate pass pay perform pick plan plant
    play please plunge pop post pour practice practise pray prefer prepare present press
    pretend prioritize prioritise produce promise promote protect prove publish pull punch
    pursue push put quit race rain raise reach react read realize realise receive recharge
    recognize recommend record recover recycle reflect refresh relate relax release remember
    remind renovate rent repair replace rescue research reset respect respond rest restore
    retire return reveal review ride ring rise risk roast rock roll run rush save say scare
    schedule score scroll search see seek seem sell send serve set settle sew shake shape share
    shine shoot shop show shower sign sing sink sit skate ski sleep slide smell smile snap
    solve sort sound speak spend spin spot spread stand star start stay step stick stop
    stream stress stretch strike strive struggle study succeed suffer suggest suit support
    surf surprise survive swap swim switch take talk taste teach team tear tell tend test text
    thank think throw tie tour trade train transform travel treat trek trust try turn tutor
    understand unwind update upgrade urge use vary visit volunteer vote wait wake walk want
    warm wash watch wear welcome win wish wonder work worry wrap write yell"""
)


# Nouns that introduce a person or pet by name: "my friend Jenna", "a cat named Bailey".
_RELATIONS = _WORDS(
    """friend friends buddy buddies pal pals bestie bff son sons daughter daughters kid kids child
    children baby babies boy girl brother brothers sister sisters sibling siblings mom mum mother
    dad father parent parents grandma grandpa grandmother grandfather grandson granddaughter aunt
    uncle cousin cousins niece nephew husband wife partner spouse fiance fiancee boyfriend
    girlfriend bf gf colleague colleagues coworker coworkers co-worker co-workers boss manager
    mentor teacher coach student neighbor neighbors neighbour neighbours roommate roommates
    classmate classmates teammate teammates client clients therapist doctor dog dogs cat cats
    puppy puppies pup pups kitten kittens kitty pet pets snake snakes turtle turtles tortoise
    hamster hamsters rabbit rabbits bunny bird birds parrot parrots fish horse horses pony pig
    lizard lizards gecko ferret someone somebody guy man woman lady gentleman veteran veterans
    resident residents person one-year-old toddler newborn twin twins mate companion sidekick
    addition furbaby"""
)
_OWNERS = _WORDS("my our your his her their the a an this that another")
_NAMING_VERBS = _WORDS("named name call called")
HAVE_PREDICATES = frozenset({"have", "get", "adopt", "own", "buy", "rescue", "welcome", "find"})
"""What a thing's owner does with it: the predicates of owning, for the naming rule."""

# --------------------------------------------------------------------------- sentences

# Abbreviations after which a full stop does not end a sentence.
_ABBREV = _WORDS("mr mrs ms dr prof sr jr st vs etc e.g i.e eg ie approx dept est fig no vol mt ft")
_SPLIT = re.compile(r"(?<=[.!?…])\s+|(?<=[.!?…][\"')\]])\s+")
_LINES = re.compile(r"\s*\n\s*")
_QUOTES = str.maketrans({"’": "'", "‘": "'", "`": "'", "“": '"', "”": '"'})


def sentences(text: str) -> list[str]:
    """Split ``text`` into sentences, by rule.

    A sentence ends at a line break, or at ``.``, ``!``, ``?`` or ``…`` (and any closing
    quote or bracket) followed by white space -- unless the next word starts in lower case
    ("so... anyway") or the full stop closes an abbreviation ("Mr.", "Dr.", "e.g.",
    "a.m.") or an initial ("C. S. Lewis"). Curly quotes are made straight.
    """
    out: list[str] = []
    for line in _LINES.split(text.translate(_QUOTES).strip()):
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


def _abbreviated(chunk: str) -> bool:
    """Does ``chunk`` end in an abbreviation or an initial rather than a sentence?"""
    word = chunk.rsplit(None, 1)[-1].lstrip("(\"'")[:-1].lower()
    return word in _ABBREV or (len(word) == 1 and word.isalpha()) or ("." in word and len(word) <= 4)


# --------------------------------------------------------------------------- lemmas


# A stem that lost its final e to -ing/-ed: "amaz", "creat", "danc", "chang", "hik", "shar".
_LOST_E = re.compile(r"(?:[vzc]|dg|[ae]ng|[^aeiou]at|ur|[^aeiou][aeiou][^aeiouwxy])$")
# ... but not these, whose stems end that way themselves: "visit", "open", "travel", "offer".
_KEEPS = re.compile(r"(?:it|en|el|er|on|om|et|ed|ad|ol|ic|ain|oat|eat)$")


@lru_cache(maxsize=None)
def lemma(word: str) -> str:
    """The crude lemma of a verb form: irregular table, known verbs, then suffix stripping."""
    w = word.lower()
    if w in _IRREGULAR:
        return _IRREGULAR[w]
    if w in _VERBS:
        return w
    for suffix in ("ing", "ed", "es", "s"):
        if w.endswith(suffix) and len(w) > len(suffix) + 1:
            stem = w[: -len(suffix)]
            if suffix == "es" and stem.endswith("i"):
                cand = (stem[:-1] + "y",)
            elif suffix == "ed" and stem.endswith("i"):
                cand = (stem[:-1] + "y",)
            else:
                cand = (stem, stem + "e")
                if len(stem) > 2 and stem[-1] == stem[-2] and stem[-1] not in "ls":
                    cand = (stem[:-1],) + cand
            for c in cand:
                if c in _VERBS:
                    return c
            if suffix in ("ing", "ed"):
                if len(stem) > 2 and stem[-1] == stem[-2] and stem[-1] not in "lsz":
                    return stem[:-1]
                return stem + "e" if _LOST_E.search(stem) and not _KEEPS.search(stem) else stem
            if suffix == "s" and not w.endswith("ss"):
                return stem
    return w


def _verbish(w: str) -> bool:
    """Does the lower-case token look like a verb form by itself?"""
    if w in _VERBS or w in _IRREGULAR:
        return True
    if w.endswith("ing") and len(w) > 4 and w not in _ING_NOUNS:
        return True
    if w.endswith("ed") and len(w) > 3:
        return True
    if w.endswith("s") and len(w) > 3 and lemma(w) in _VERBS and not w.endswith("ss"):
        return True
    return False


def _finite(w: str) -> bool:
    """A finite verb form that can follow a noun subject: loves, looked, went, love."""
    if w in _BE or w in _HAVE or w in _DO or w in _MODAL:
        return True
    if w in _IRREGULAR and not w.endswith("ing"):
        return True
    if w.endswith("ed") and len(w) > 3:
        return True
    if w.endswith("s") and not w.endswith("ss") and len(w) > 3 and w[:-1] in _VERBS or (
        w.endswith("es") and w[:-2] in _VERBS
    ):
        return True
    return False


# --------------------------------------------------------------------------- tokens

# Words (hyphenated ones whole), contraction suffixes ('s 'm 're 've 'd 'll 't) and single
# punctuation marks. "don't" -> don 't, "Mel's" -> Mel 's. The same pattern over the
# lower-cased sentence yields the same tokens, lower-cased: both lists align.
_TOKEN = re.compile(r"\w+(?:-\w+)*|'(?:[smdt]|re|ve|ll)\b|[^\w\s]", re.IGNORECASE)


def _tokens(sentence: str) -> tuple[list[str], list[str], list[int]]:
    """The tokens of a sentence, lower-cased copies, and where each starts."""
    ms = list(_TOKEN.finditer(sentence))
    toks = [m.group() for m in ms]
    return toks, [t.lower() for t in toks], [m.start() for m in ms]


def _mark_vocatives(low: list[str], speaker: list[bool], drop: list[bool]) -> None:
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
            (i == 0 or before in _PUNCT or before in _INTERJ) and after in (",", "!", ".", "", "…", "-")
            or before in _GREET
            or before == "," and after in ("!", ".", ",", "", "?", "…")
            or before == "," and i >= 2 and (low[i - 2] in _INTERJ or low[i - 2] in _GREET)
        ):
            drop[i] = True
            if before == ",":
                drop[i - 1] = True
            if after in (",", "!", "."):
                drop[i + 1] = True


def unaddressed(text: str, speakers: Iterable[str]) -> str:
    """``text`` without its vocatives (see :func:`_mark_vocatives`): what a turn says, not
    whom it is said to. ``speakers`` are the conversation's speakers' names, matched as
    whole words in any case, or by a capitalised short form of three letters or more
    ("Cal" for Calvin). A search index uses it so that a question naming Caroline
    is not drawn to the turns that say "Thanks, Caroline!" to her."""
    names = {s.strip().lower() for s in speakers if s.strip()}

    def names_one(tok: str) -> bool:  # "Caroline", or a short form of it written capitalised ("Cal")
        low = tok.lower()
        return low in names or (len(tok) >= 3 and tok[0].isupper() and any(n.startswith(low) for n in names))

    out = []
    for sentence in sentences(text) or [text]:
        toks, low, _ = _tokens(sentence)
        drop = [False] * len(toks)
        speaker = [names_one(t) for t in toks]
        if any(speaker):
            _mark_vocatives(low, speaker, drop)
            sentence = " ".join(t for t, d in zip(toks, drop) if not d) if any(drop) else sentence
        out.append(sentence)
    return " ".join(out)


class _Offsets:
    """The text between tokens, as written."""

    __slots__ = ("text", "toks", "starts")

    def __init__(self, text: str, toks: list[str], starts: list[int]):
        self.text, self.toks, self.starts = text, toks, starts

    def __call__(self, k: int) -> int:
        return self.starts[k]

    def span(self, a: int, b: int) -> str:
        """The text from token ``a`` to the end of token ``b - 1``, as written."""
        return self.text[self.starts[a] : self.starts[b - 1] + len(self.toks[b - 1])]


# --------------------------------------------------------------------------- people


class People:
    """The people of one conversation: two speakers and the third parties they introduce."""

    def __init__(self, speakers: tuple[str, str], third: Iterable[str] = (), words: Iterable[str] = ()):
        self._display: dict[str, str] = {}
        self._names: dict[str, str] = {}
        keys = []
        for s in speakers:
            k = _fold(s)
            self._display.setdefault(k, s.strip())
            self._names[k] = k
            keys.append(k)
        self.speakers: tuple[str, str] = (keys[0], keys[1])
        self._common = frozenset(words)
        self._cache: dict[str, str | None] = {}
        self._frozen = False
        for t in third:
            self.add(t)

    def add(self, name: str) -> str | None:
        """Make ``name`` a person of its own (a third party); return its key."""
        k = _fold(name)
        if not k or k in _NOT_NAMES:
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
        return tuple(self._display)

    @property
    def third_parties(self) -> tuple[str, ...]:
        return tuple(k for k in self._display if k not in self.speakers)

    def other(self, key: str) -> str:
        """The other speaker: who ``you`` means when ``key`` speaks."""
        a, b = self.speakers
        return b if key == a else a

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
        k = _fold(name)
        found = self._names.get(k)
        if found is None and k.isalpha() and k not in _NOT_NAMES and k not in self._common:
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
        for m in _CAP_TOKEN.finditer(text.translate(_QUOTES)):
            k = self.key(m.group())
            if k is not None:
                found.setdefault(k, None)
        return list(found)

    def unnamed(self, text: str) -> str:
        """The text with every word that names a known person blanked: what it says, not of whom."""
        return _CAP_TOKEN.sub(lambda m: " " if self.key(m.group()) is not None else m.group(), text.translate(_QUOTES))

    def resolve(self, text: str) -> str | None:
        """The person a question names: the longest known name it contains, else None.

        Ties go to the name said first. Only capitalised words are read as names.
        """
        best: tuple[int, int, str] | None = None
        for m in _CAP_TOKEN.finditer(text.translate(_QUOTES)):
            tok = m.group()
            k = self.key(tok)
            if k is None:
                continue
            cand = (-len(tok[:-2] if tok.endswith("'s") else tok), m.start(), k)
            if best is None or cand < best:
                best = cand
        return best[2] if best else None


_CAP_TOKEN = re.compile(r"\b[A-Z][a-z]+(?:'s)?\b")
_LOWER_WORD = re.compile(r"\b[a-z]+\b")


def _fold(name: str) -> str:
    n = name.strip().translate(_QUOTES).lower()
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


_END_NP = frozenset(",.!;:-–—)\"'") | _WORDS("and who which that")


def _introduced(toks: list[str], low: list[str], i: int, named: set[int]) -> bool:
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
    if j >= 1 and low[j] in _RELATIONS and not (p1 == "," and n1 in ("and", ",")):
        for k in range(j - 1, max(-1, j - 4), -1):
            if low[k] in _OWNERS or low[k] == "'s":
                return True
            if not low[k].isalpha() or low[k] in _NOT_NAMES:
                break
    # someone named David / a cat named Bailey / I named her Tilly
    if p1 in _NAMING_VERBS and (p2 in _RELATIONS or p2 in _OWNERS):
        return True
    if p1 in ("him", "her", "it", "them") and p2 in _NAMING_VERBS:
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
            if low[k] in _RELATIONS:
                if k + 1 < n and low[k + 1] == "'s":  # "my mother's cat": the cat is named
                    continue
                return k + 1 >= n or low[k + 1] in _END_NP
    # Anthony and I
    if n1 == "and" and n2 == "i" and toks[i + 2] == "I":
        return True
    return False


# --------------------------------------------------------------------------- reading

_SUBJ = _WORDS("i we you he she they it")
_SUBJ_WIDE = _SUBJ | _WORDS("there that this my our your his her their")
_AUXISH = _BE | _HAVE | _DO | _MODAL | _WORDS("really just also still never always 't")
_CONJ = _WORDS("and but so or plus then")
_PUNCT = frozenset(",!.…&*~\"'()[]")
_BOUNDS = frozenset(";—–-:,") | _WORDS("and but")
_TIME_ADV = _WORDS(
    "yesterday today tonight tomorrow recently lately currently nowadays sometimes usually now "
    "earlier later finally eventually luckily thankfully fortunately unfortunately sadly honestly "
    "hopefully personally overall anyway meanwhile"
)
_TIME_DET = _WORDS("last next this every")
_TIME_NOUNS = _WORDS(
    "week weekend month year night morning evening afternoon summer winter spring fall autumn "
    "time day monday tuesday wednesday thursday friday saturday sunday semester season"
)
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
_QMARK_TAIL = " \"')]!.…"
_TRAIL = " ,.!?;:-–—\"'…"


@contextmanager
def paused_gc():
    """Pause the cyclic garbage collector while building many small acyclic objects.

    Reading allocates some 150,000 tokens per run; with the collector on, its generational
    passes cost about a third of the reading time and free nothing (no cycles are made).
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def read(conv: Conversation, captions: bool = False, you_mentions: bool = False) -> Reading:
    """Read every turn of ``conv`` into claims (see the module docstring for the rules).

    ``captions`` also reads each image caption as the speaker's ('share', caption) claim;
    ``you_mentions`` counts a ``you``/``your`` outside the subject as a mention of the other
    speaker. Both are off by default, for the reasons the module docstring gives.
    """
    with paused_gc():
        return _read(conv, captions, you_mentions)


def _read(conv: Conversation, captions: bool, you_mentions: bool) -> Reading:
    turns = conv.turns
    parsed: list[tuple[Turn, list[tuple[str, list[str], list[str], list[int], bool]]]] = []
    for turn in turns:
        sents = []
        for s in sentences(turn.text):
            toks, low, starts = _tokens(s)
            if toks:
                sents.append((s, toks, low, starts, s.rstrip(_QMARK_TAIL).endswith("?")))
        parsed.append((turn, sents))
    text = "\n".join(t.text for t in turns)
    lower_words = Counter(_LOWER_WORD.findall(text))
    people = People(conv.speakers, (), lower_words)
    speakers = frozenset(people.speakers)

    # pass 1: third parties, introduced by their context
    capitals = {m[:-2] if m.endswith("'s") else m for m in _CAP_TOKEN.findall(text)}
    candidates = {
        c for c in capitals
        if c.lower() not in _NOT_NAMES and c.lower() not in speakers and lower_words.get(c.lower(), 0) <= 2
    }
    for _, sents in parsed:
        for s, toks, low, _st, _q in sents:
            if candidates.isdisjoint(toks):
                continue
            hits = [i for i, t in enumerate(toks) if t in candidates]
            named: set[int] = set()
            for i in hits:
                if people.key(toks[i]) not in speakers and _introduced(toks, low, i, named):
                    named.add(i)
                    people.add(toks[i])

    # every capitalised word of the conversation that names someone, and whom
    surfaces: dict[str, str] = {}
    for c in sorted(capitals):  # sorted: which spellings are learnt must not hang on set order
        if c.lower() not in _NOT_NAMES:
            k = people.key(c)
            if k is not None:
                surfaces[c] = k

    claims: list[Claim] = []
    ids: list[str] = []
    said: dict[str, str] = {}
    dates: dict[str, datetime] = {}
    ctx = _Ctx(people, "", "", surfaces, speakers, frozenset(people.third_parties), turns[0] if turns else None, you_mentions)
    for turn, sents in parsed:
        ids.append(turn.dia_id)
        spk = people.key(turn.speaker) or _fold(turn.speaker)
        ctx.speaker, ctx.other, ctx.turn = spk, people.other(spk), turn
        ctx.reacting = None
        said[turn.dia_id] = spk
        dates[turn.dia_id] = turn.date
        for s, toks, low, starts, question in sents:
            if not question:  # a question asserts nothing
                _read_sentence(s, toks, low, starts, ctx, claims)
        if captions and turn.caption:
            cap = turn.caption.strip()
            claims.append(Claim(spk, "share", cap, False, cap, turn.dia_id, turn.date, (), "", spk))
    people.freeze()
    return Reading(people, claims, tuple(ids), said, dates)


@dataclass
class _Ctx:
    people: People
    speaker: str
    other: str
    surfaces: dict[str, str]
    speakers: frozenset[str]
    third: frozenset[str]
    turn: Turn
    you_mentions: bool
    reacting: str | None = None
    """The rule that read the turn's last clause as a reaction to the other's share, if one did."""


def _read_sentence(
    text: str, toks: list[str], low: list[str], starts: list[int], ctx: _Ctx, out: list[Claim]
) -> None:
    n = len(toks)
    sget = ctx.surfaces.get
    names = [sget(t) for t in toks]
    drop = [False] * n
    has_names = any(names)
    offs = _Offsets(text, toks, starts)

    if has_names:
        _mark_vocatives(low, [k is not None and k in ctx.speakers for k in names], drop)
        # naming claims: "my son Max" -> (speaker, call, Max, topic 'my son')
        if ctx.third:
            last: Claim | None = None
            for i, k in enumerate(names):
                if k is not None and k in ctx.third:
                    c = _naming(text, toks, low, i, k, ctx)
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
                elif low[j + 1] in _SUBJ and (low[j + 2] in _AUXISH or low[j + 2] in _VERBS):
                    cut = 1
        elif w == "and" or w == "but":
            if j - start >= 3 and j + 2 < n and low[j + 1] in _SUBJ and (
                low[j + 2] in _AUXISH or low[j + 2] in _VERBS or _finite(low[j + 2])
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


def _naming(text: str, toks: list[str], low: list[str], i: int, who: str, ctx: _Ctx) -> Claim | None:
    """A naming claim: the owner calls a thing by a third party's name ("my son Max")."""
    p1 = low[i - 1] if i >= 1 else ""
    p2 = low[i - 2] if i >= 2 else ""
    n = len(low)
    topic = ""
    owner = ctx.speaker
    j = i - 2 if p1 == "," else i - 1
    listed = p1 == "," and i + 1 < n and low[i + 1] in ("and", ",")  # "my gf, Toby, and I": a list
    if j >= 1 and low[j] in _RELATIONS and not listed:  # my son Max / our new puppy, Pixie
        for k in range(j - 1, max(-1, j - 4), -1):
            if low[k] in ("my", "our", "your"):
                owner = ctx.other if low[k] == "your" else ctx.speaker
                topic = " ".join(toks[k : j + 1]).replace(" '", "'")
                break
            if low[k] in _OWNERS or not low[k].isalpha():
                break
    if not topic and p1 in _NAMING_VERBS and p2 in _RELATIONS:  # a puppy named Pixie
        topic = toks[i - 2]
    if not topic and p1 in ("him", "her", "it", "them") and p2 in _NAMING_VERBS:  # named her Tilly
        topic = toks[i - 1]
    if not topic and p1 in ("is", "are", "was", "'s") and p2 in ("name", "names") and i >= 3:
        topic = f"{low[i - 3]} {p2}"  # her name is Coco
    if not topic and i + 2 < n and low[i + 1] in (",", "is", "was") and low[i + 2] in ("my", "our", "your"):
        for k in range(i + 3, min(n, i + 7)):  # Oscar, my guinea pig
            if low[k] in _RELATIONS:
                if k + 1 < n and low[k + 1] == "'s":  # "Max is my mother's cat": the cat
                    continue
                owner = ctx.other if low[i + 2] == "your" else ctx.speaker
                topic = " ".join(toks[i + 2 : k + 1]).replace(" '", "'")
                break
    if not topic:
        return None
    turn = ctx.turn
    return Claim(owner, "call", toks[i], False, text, turn.dia_id, turn.date, (who,), topic, ctx.speaker)


def _read_clause(
    text: str, toks: list[str], low: list[str], a: int, b: int,
    names: list, drop: list, ctx: _Ctx, out: list[Claim], offs: _Offsets,
) -> None:
    # discourse: leading interjections, punctuation, vocatives, "you know", "by the way"
    i = a
    while i < b:
        w = low[i]
        if drop[i] or w in _INTERJ or w in _PUNCT:
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
        if w in _TIME_ADV or w in _ADVERBS and w not in _CLOSED:  # "Yesterday, I ..."
            i += 1
            continue
        if w in _TIME_DET and i + 1 < b and low[i + 1] in _TIME_NOUNS:  # "Last week I ..."
            i += 2
            continue
        if w == "thank" and i + 1 < b and low[i + 1] == "you" and (i + 2 >= b or low[i + 2] in (",", "!", ".")):
            i += 2
            continue
        if w == "thank" and i + 1 < b and low[i + 1] in ("goodness", "god", "heavens"):
            i += 2  # "Thank goodness your son's okay": read what follows
            continue
        if (w in _SUBORD or w in _PREP_START) and i + 1 < b:
            # "If you need anything, I'm here": the main clause follows the comma
            for j in range(i + 1, min(b, i + 14)):
                if low[j] == ",":
                    if j + 1 < b and (low[j + 1] in _SUBJ_WIDE or low[j + 1] in _SPEAKER_PRON or names[j + 1] is not None):
                        i = j + 1
                    break
            else:
                if w in _CONDITIONAL:
                    return  # "If you ever need anything": a condition asserts nothing
                if w in _SUBORD:
                    i += 1  # "Because I love it": read what follows
                    continue
        break
    if i >= b:
        return
    if low[i] in _OTHER_PRON:
        if " ".join(low[i : i + 5]).startswith(_FORMULAS):
            return  # "you know", "you're right", "you'll see": a formula, not a claim
        end = b
        while end > i and low[end - 1] in _PUNCT:
            end -= 1
        if end - i <= 7 and " ".join(low[i:end]) in _ENCOURAGEMENT:
            return  # "you're doing great!": encouragement, not a claim
    start = i
    speaker, other = ctx.speaker, ctx.other
    addressed = _addressed(low, i, b)  # a formula addressed to the other: "Congrats on ...", "Keep it up"

    # the subject noun phrase
    subjects: list[str] = []
    kind = ""  # "np": a noun phrase naming nobody, "drop": no subject, "frag": "Glad ..."
    topic = ""
    w = low[i]
    if w == "let" and i + 1 < b and low[i + 1] == "'s":
        subjects, i = [speaker], i + 2
    elif w in _SPEAKER_PRON or w in _OTHER_PRON or (names[i] is not None and not drop[i]):
        # pronouns and names, coordinated or not: "Caroline and I", "me and my husband"
        j = i
        while j < b:
            lw = low[j]
            if lw in _SPEAKER_PRON:
                subjects.append(speaker)
            elif lw in _OTHER_PRON:
                subjects.append(other)
            elif names[j] is not None and not drop[j]:
                subjects.append(names[j])
                if j + 1 < b and low[j + 1] == "'s":  # "Caroline's painting is ..."
                    end = _np_end(low, j + 2, b)
                    if end > j + 2:
                        topic = offs.span(j, end)
                    j = end
                    break
            elif lw in _SPEAKER_POSS or lw in _DET:  # "me and my husband": a companion
                if lw in _SPEAKER_POSS and not subjects:
                    subjects.append(speaker)
                j = _np_end(low, j + 1, b)
                break
            else:
                break
            j += 1
            if j + 1 < b and low[j] in ("and", "&", ",") and (
                low[j + 1] in _SPEAKER_PRON or low[j + 1] in _OTHER_PRON
                or names[j + 1] is not None or low[j + 1] in _SPEAKER_POSS
            ):
                j += 1
                continue
            break
        i = j
    elif w in _FRAGMENT_ADJ:  # "Glad you enjoyed it": the speaker's remark
        subjects = [speaker]
        kind = "frag"
        i = b
    elif (
        w in _SPEAKER_POSS or w in _OTHER_POSS or w in _DET or w in _THIRD_PRON or not _verbish(w)
        or w.endswith("ing") and _gerund(low, i, b)  # "Being in nature helps ..."
    ):
        # a noun phrase: the first person-ish word in it says whose it is
        end = _np_end(low, i, b)
        if end > i and (end < b and (low[end][:1].isalnum() or low[end] in _CONTRACTED) or w in _THIRD_PRON):
            who = None
            for j in range(i, end):
                lw = low[j]
                if names[j] is not None and not drop[j] and low[j - 1] in _RELATIONS:
                    who = names[j]  # "My son Max loves ...": the apposition names him
                    break
                if who is not None:
                    continue
                if lw in _SPEAKER_POSS:
                    who = speaker
                elif lw in _OTHER_POSS:
                    who = other
                elif names[j] is not None and not drop[j]:
                    who = names[j]
            topic = offs.span(i, end)
            subjects = [who or speaker]
            if who is None:
                kind = "np"
            i = end
        else:
            subjects = [speaker]  # a fragment
            if w == "must":
                kind = "drop"  # "Must've been scary"
    else:
        subjects = [speaker]  # a verb whose subject was dropped: "Gonna continue my edu"
        kind = "drop"

    predicate, negated, obj_start = _verb_group(low, i, b)
    if addressed is None:
        if kind:
            addressed = _reaction(low, start, i, b, kind, predicate, obj_start)
            if addressed is None and ctx.reacting and kind == "np" and not any(
                low[k] in _SPEAKER_PRON or low[k] in _SPEAKER_POSS for k in range(start, b)
            ):
                addressed = "carry"  # "That race sounds great! Raising awareness is so rewarding."
        elif subjects == [other] and low[start] in ("you", "your", "yours"):
            addressed = _compliment(low, start, i, b, predicate, obj_start)
        elif subjects == [speaker] and low[start] == "i" and predicate == "be":
            k = obj_start  # "I'm so proud of you", "I'm happy for you", "I'm sorry to hear that"
            while k < b and low[k] in _SKIP_TO_ADJ:
                k += 1
            if k + 1 < b and low[k] in _FRAGMENT_ADJ and (
                low[k + 1] in _FOR_YOU or low[k + 1] in ("of", "for") and k + 2 < b and low[k + 2] in _FOR_YOU
                or low[k + 1] == "to" and k + 2 < b and low[k + 2] == "hear"
            ):
                addressed = "glad"
    if addressed is not None:
        ctx.reacting = addressed
    elif kind != "np" and speaker in subjects:
        ctx.reacting = None  # the speaker turns to their own news
    if addressed is not None:
        target = _TARGET.get(addressed, "none")
        if target == "none":
            return
        if target == "other":
            subjects = [other]
        elif target == "self":
            subjects = [speaker]
    if predicate is None:  # a fragment: the speaker's remark, with the copula elided
        if low[start] in _PREP or low[start] in _SUBORD:
            return  # "For me", "When I was young": no assertion of its own
        predicate, obj_start = "be", start
    while obj_start < b and (drop[obj_start] or low[obj_start] in _PUNCT):
        obj_start += 1
    end = b
    while end > obj_start and (drop[end - 1] or low[end - 1] in _PUNCT or low[end - 1] in "?;:-"):
        end -= 1
    if end <= obj_start and predicate == "be" and not topic:
        return  # nothing left but an interjection
    if end <= obj_start:
        obj = ""
    elif end == b and b == len(toks):  # the common case: the object runs to the sentence's end
        obj = text[offs(obj_start) :].rstrip(_TRAIL)
    else:
        obj = offs.span(obj_start, end)

    mentions: list[str] = []
    if ctx.you_mentions:
        for j in range(i, b):
            if low[j] in _OTHER_PRON or low[j] in _OTHER_POSS:
                if other not in subjects:
                    mentions.append(other)
                break
    for j in range(start, b):
        k = names[j]
        if k is not None and not drop[j] and k not in mentions:
            mentions.append(k)
    turn = ctx.turn
    seen = set()
    for subj in subjects:
        if subj in seen:
            continue
        seen.add(subj)
        ment = tuple(m for m in mentions if m != subj) + tuple(
            x for x in subjects if x != subj and x not in mentions
        )
        out.append(Claim(subj, predicate, obj, negated, text, turn.dia_id, turn.date, ment, topic, speaker))


# Whom a clause read by one of the rules below is filed under. The speaker's experience of the
# other's words is the speaker's ("Your words give me strength"). Everything else -- a
# reaction to the other's share, a formula of congratulation, sympathy or good wishes, an
# inference with "must", a generic remark carried on from a reaction, an evaluation of the
# other -- asserts nothing anyone did and is filed under no one. Filing reactions under the
# other speaker instead ({"react": "other"}) was measured: graph adversarial F1 0.513 -> 0.547,
# but answerable F1 0.195 -> 0.187, answerable evidence recall 0.526 -> 0.472 and adversarial
# piece reach 0.247 -> 0.278: the short reaction pieces outrank the other's own turns and the
# arm falls silent on both halves, which is a trade made by silence, not by reading.
_TARGET = {"react": "none", "yourme": "self"}

# Evaluative words: what a reaction says of the thing the other shared ("That bowl is gorgeous").
_EVAL = _ING_ADJ | _FRAGMENT_ADJ | _WORDS(
    """great awesome amazing cool nice lovely gorgeous beautiful stunning fancy fun delicious yummy
    yum tasty incredible fantastic wonderful serious impressive interesting exciting special sweet
    cute adorable perfect inspiring fascinating breathtaking sick rad neat tough hard scary intense
    rough awful terrible brilliant excellent superb marvelous fabulous unique good wise smart clever
    huge epic legit dope funny hilarious crazy insane wild peaceful serene cozy comfy stylish
    classy elegant vibrant colorful colourful detailed pretty magical majestic spectacular wicked
    fab phenomenal remarkable admirable courageous brave bold heavy dangerous exhausting
    worth delightful charming idyllic picturesque dreamy"""
)
_DISTAL = _WORDS("that those")
_DEICTIC = _WORDS("that those this these the it")
_REACT_VERBS = _WORDS("sound look seem")
_SKIP_TO_ADJ = _WORDS("so such a an really very super pretty quite absolutely totally truly just like")
_GOOD = _WORDS("great good awesome nice amazing excellent fantastic brilliant wonderful fab smart")
_JOB = _WORDS("job work pick choice idea call move effort")
_FOR_YOU = _WORDS("you your you're")
_CONTRACTED = _WORDS("'s 're 've 'll 'd 'm")
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
    if w in _FRAGMENT_ADJ and (n1 in _FOR_YOU or n1 in ("for", "of", "that") and n2 in _FOR_YOU):
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
    speaker_own = any(low[k] in _SPEAKER_PRON or low[k] in _SPEAKER_POSS for k in range(start, b))
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
            low[k] in _OTHER_PRON or low[k] in _OTHER_POSS for k in range(obj_start, b)
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


def _np_end(low: list[str], i: int, n: int) -> int:
    """Where a noun phrase starting at ``i`` ends: at its finite verb, a comma or the clause end."""
    j = i
    limit = min(n, i + 8)
    while j < limit:
        w = low[j]
        if w in _PUNCT or w in ("?", ";", ":"):
            return j
        if j > i and _finite(w):
            # "The art show was": a verb-looking word just before an auxiliary is a noun;
            # "those shared meals": an -ed word after a determiner is an adjective
            if j + 1 < n and (low[j + 1] in _BE or low[j + 1] in _MODAL or low[j + 1] in _HAVE) and not (
                w in _BE or w in _MODAL or w in _HAVE or w in _DO
            ) or low[j - 1] in _ARTICLES or w.endswith("ed") and low[j - 1] in _DET:
                j += 1
                continue
            return j
        if j > i and w in _VERBS and (low[j - 1] in _PLURAL_SUBJ or low[j - 1].endswith("s") and len(low[j - 1]) > 3 and not low[j - 1].endswith("ss")):
            return j  # "The kids love it", "They really make"
        if j > i and (w in _NEG or w in _ADVERBS) and j + 1 < n and _finite(low[j + 1]):
            return j
        j += 1
    return j if j >= n else n  # no verb within reach: the whole clause is the phrase


# After these the next word is a noun or an adjective, never the verb ("your hikes sound").
_ARTICLES = _WORDS("a an the my your our his her their its another every each some any no")
_PLURAL_SUBJ = _WORDS("they these those we you i really also just still always never")


def _gerund(low: list[str], i: int, b: int) -> bool:
    """Is the -ing word at ``i`` the head of a subject ("Being in nature helps us")?"""
    end = _np_end(low, i, b)
    return i < end < b and _finite(low[end])


def _verb_group(low: list[str], i: int, n: int) -> tuple[str | None, bool, int]:
    """Read auxiliaries, adverbs and negation from ``i``: (predicate, negated, object start)."""
    negated = False
    degree = False
    aux = None
    while i < n:
        w = low[i]
        if w in _NEG:
            negated = True
            i += 1
            continue
        if w == "no" and i + 1 < n and low[i + 1] == "longer":
            negated = True
            i += 2
            continue
        if w == "won" and not (i + 1 < n and low[i + 1] == "'t"):
            break  # "I won the game"
        if w in _BE or w in _HAVE or w in _DO or w in _MODAL or w == "won":
            aux = w
            i += 1
            continue
        if w in _ADVERBS or (w.endswith("ly") and len(w) > 4 and w not in _NOT_LY):
            if w in _DEGREE:
                degree = True
            i += 1
            continue
        if w == "going" and i + 2 < n and low[i + 1] == "to" and low[i + 2] not in _CLOSED:
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
        return ("be" if aux in _MODAL or aux in ("gonna", "gotta", "won") else lemma(aux)), negated, i
    w = low[i]
    if aux is None:
        if _verbish(w):
            return lemma(w), negated, i + 1
        return None, negated, i
    if aux in _MODAL or aux in ("gonna", "gotta", "won"):
        if w in _CLOSED and not _verbish(w):
            return "be", negated, i
        return lemma(w), negated, i + 1
    if aux in _DO:
        if w in _VERBS or (w in _IRREGULAR and not w.endswith(("ed", "en"))):
            return lemma(w), negated, i + 1
        return "do", negated, i
    if aux in _BE:
        if w.endswith("ing") and len(w) > 4 and w not in _ING_NOUNS and not degree and w not in _ING_ADJ:
            return lemma(w), negated, i + 1
        return "be", negated, i
    if aux in _HAVE:
        if (w.endswith("ed") and len(w) > 3) or (w in _IRREGULAR and w not in _BE and not w.endswith("ing")):
            return lemma(w), negated, i + 1
        return "have", negated, i
    return lemma(aux), negated, i


# --------------------------------------------------------------------------- views


def pieces(reading: Reading) -> list[Piece]:
    """What each turn says about each person: per (turn, person) the sentences of their claims."""
    order: dict[tuple[str, str], list[str]] = {}
    for c in reading.claims:
        sents = order.setdefault((c.dia_id, c.subject), [])
        if c.sentence not in sents:
            sents.append(c.sentence)
    return [Piece(d, p, " ".join(s)) for (d, p), s in order.items()]


def about(reading: Reading) -> dict[str, tuple[str, ...]]:
    """Every person each turn was read as being about (a turn about nobody maps to ``()``)."""
    out: dict[str, list[str]] = {d: [] for d in reading.turns}
    for c in reading.claims:
        lst = out.setdefault(c.dia_id, [])
        if c.subject not in lst:
            lst.append(c.subject)
    return {d: tuple(v) for d, v in out.items()}
