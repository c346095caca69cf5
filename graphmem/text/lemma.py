"""The crude lemmatiser: a verb form's lemma, and whether a word looks like a verb at all.

Predicates are compared and indexed by lemma ("went", "gone", "goes" are all ``go``); the
claim reader also needs to tell "looks"/"loves"/"helps" from a plural noun without a tagger.
An irregular-verb table and a list of common verbs settle most forms; anything else loses
``-s``, ``-ed`` or ``-ing``, restoring an ``e`` where the stem's shape says one was dropped.
The memory's ranker reads :data:`IRREGULAR` to give a word the stems of all its forms.
"""

from __future__ import annotations

import re
from functools import lru_cache

from graphmem.text.lexicon import BE, DO, HAVE, ING_NOUNS, MODAL, wordset

__all__ = ["IRREGULAR", "VERBS", "finite", "lemma", "verbish"]

# Irregular forms, contractions and spoken forms, and the lemma each stands for.
IRREGULAR = {
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
VERBS = wordset(
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


# A stem that lost its final e to -ing/-ed: "amaz", "creat", "danc", "chang", "hik", "shar".
_LOST_E = re.compile(r"(?:[vzc]|dg|[ae]ng|[^aeiou]at|ur|[^aeiou][aeiou][^aeiouwxy])$")
# ... but not these, whose stems end that way themselves: "visit", "open", "travel", "offer".
_KEEPS = re.compile(r"(?:it|en|el|er|on|om|et|ed|ad|ol|ic|ain|oat|eat)$")


@lru_cache(maxsize=None)
def lemma(word: str) -> str:
    """The crude lemma of a verb form: irregular table, known verbs, then suffix stripping."""
    w = word.lower()
    if w in IRREGULAR:
        return IRREGULAR[w]
    if w in VERBS:
        return w
    for suffix in ("ing", "ed", "es", "s"):
        if w.endswith(suffix) and len(w) > len(suffix) + 1:
            stem = w[: -len(suffix)]
            cand: tuple[str, ...]
            if suffix == "es" and stem.endswith("i"):
                cand = (stem[:-1] + "y",)
            elif suffix == "ed" and stem.endswith("i"):
                cand = (stem[:-1] + "y",)
            else:
                cand = (stem, stem + "e")
                if len(stem) > 2 and stem[-1] == stem[-2] and stem[-1] not in "ls":
                    cand = (stem[:-1],) + cand
            for c in cand:
                if c in VERBS:
                    return c
            if suffix in ("ing", "ed"):
                if len(stem) > 2 and stem[-1] == stem[-2] and stem[-1] not in "lsz":
                    return stem[:-1]
                return stem + "e" if _LOST_E.search(stem) and not _KEEPS.search(stem) else stem
            if suffix == "s" and not w.endswith("ss"):
                return stem
    return w


def verbish(w: str) -> bool:
    """Does the lower-case token look like a verb form by itself?"""
    if w in VERBS or w in IRREGULAR:
        return True
    if w.endswith("ing") and len(w) > 4 and w not in ING_NOUNS:
        return True
    if w.endswith("ed") and len(w) > 3:
        return True
    if w.endswith("s") and len(w) > 3 and lemma(w) in VERBS and not w.endswith("ss"):
        return True
    return False


def finite(w: str) -> bool:
    """A finite verb form that can follow a noun subject: loves, looked, went, love."""
    if w in BE or w in HAVE or w in DO or w in MODAL:
        return True
    if w in IRREGULAR and not w.endswith("ing"):
        return True
    if w.endswith("ed") and len(w) > 3:
        return True
    if w.endswith("s") and not w.endswith("ss") and len(w) > 3 and w[:-1] in VERBS or (
        w.endswith("es") and w[:-2] in VERBS
    ):
        return True
    return False
