"""Which clauses may become facts at all: small talk gives none, and an open-ended fact (one no
attribute rule reads) only a plain statement of the person's own.

Why apart from the attribute rules (:mod:`graphmem.claims.attributes`): what a reader accepts as a fact
about a person ("john be a big fan of sci-fi", not "caroline be Good to see you", "we have a strong
bond", "I'm staying positive") is its own question, measured on its own (``bench/facts_precision.py``):
a greeting, a passing feeling, a clause under another ("since I was a kid"), a guess, something said of
a group or of something else, or an object that points elsewhere ("it", "something") is not one.
"""

from __future__ import annotations

import re

from graphmem.claims.clauses import Clause

__all__ = ["ORG_CUES", "POINTING", "PRONOUNS", "TALK", "plain", "small_talk", "works"]

_SMALL_TALK = re.compile(
    r"^(?:so\s+|really\s+|very\s+|super\s+|too\s+)*(?:good|great|nice|lovely|glad|happy|awesome|fun|cool|amazing)"
    r"\s+(?:to\s+(?:see|hear|meet|talk|chat|catch|have)|seeing|hearing|talking|chatting)\b"
    r"|^(?:thanks|thank\s+you|hi|hey|hello|bye|goodbye|good\s+(?:morning|night|evening|luck)|congrat|sorry)\b"
    r"|\byou\b[\s!.]*$|^(?:big|great|good|exciting|some|amazing)\s+news$|^news$"
    r"|^(?:so|really|very|super|totally|pretty|too|such)?\s*(?:a\s+)?(?:excited|thrilled|happy|glad|sad|sorry|grateful"
    r"|thankful|great|good|fine|okay|ok|well|awesome|amazing|cool|fun|lucky|stoked|pumped|bummed|blessed|proud"
    r"|tired|busy|crazy|wild|nuts|sure|right|true|it|that|this|here|there|back|same|on it|much|so much|lot|a lot)$", re.I)


def small_talk(clause: Clause) -> bool:
    """A clause that says nothing of anyone: a greeting, thanks, a reaction ("Good to see you",
    "Big news", "so excited"), or what "be" leaves of one."""
    obj = clause.object.strip(" !.?,")
    if clause.predicate in ("be", "sound", "look", "seem", "feel") and (not obj or _SMALL_TALK.search(obj)):
        return True
    return clause.predicate in ("thank", "congratulate", "miss", "love") and obj.lower().startswith("you")


_FEELING = re.compile(r"^(?:so\s+|really\s+|very\s+|super\s+|totally\s+|pretty\s+|a\s+bit\s+|kinda\s+|just\s+)*"
                      r"(?:excited|thrilled|glad|happy|sad|sorry|grateful|thankful|proud|keen|stoked|pumped|nervous"
                      r"|worried|scared|inspired|motivated|impressed|amazed|lucky|blessed|tired|exhausted|relieved"
                      r"|curious|eager|ready|determined|down|here|there|in|on|up|feeling|not\s+sure|sure|afraid|off|hopeful|stuck"
                      r"|over\s+the\s+moon|filled|crazy|as\s+well|a\s+mix|so\s+glad"
                      r"|looking\s+forward|hoping|trying|able|going|gonna|about|like|just|still|also|always|mesmeri[sz]ed|overwhelmed"
    r"|convinced|blown\s+away|touched|moved|speechless|hooked|comforted|out|hyped|upset|frustrated|real\s+busy"
    r"|a\s+bit)\b", re.I)
TALK = frozenset("""think guess bet hope wish know mean agree appreciate love like feel want need wonder remember forget
    imagine believe say tell let try see look hear sound seem make keep take give get go find check wait thank
    matter manage help do can last talk chat crave chug rock come grow long die figure understand sort miss
    wanna gonna intend""".split())
PRONOUNS = frozenset("it they this that these those he she there which who what".split())
_STATE = re.compile(r"^(?:stay|remain|keep|be)\s+(?:so\s+|really\s+|very\s+)?(?:positive|hopeful|focused|busy|strong|motivated"
                    r"|calm|sane|safe|healthy|grounded|humble|optimistic|active|patient|careful|extra\s+careful|on\s+track)\b"
                    r"|^have\s+(?:an?\s+|the\s+|such\s+an?\s+|quite\s+the\s+)?(?:good|great|special|fun|ton|laugh|faith|patience"
                    r"|similar|blast|adventure|week|day|night|experience|chance|time|feeling|idea|lot|ball|hard|tough|rough"
                    r"|amazing|awesome|wonderful|fantastic|busy|crazy|wild|lovely|nice|bad)\b"
                    r"|^(?:work|try)\s+(?:really\s+)?hard\b|^experience\s+|^hit\s+a\b|^put\s+in\b"
                    r"|^have\s+to\s+(?:go|run|leave|head|bounce|dash)\b|^have\s+(?:no|a\s+few|a\s+couple\s+of|some|more|a\s+few\s+more"
                    r"|any)\s+(?:\w+\s+)?(?:plans|news|recommendations|events|ideas|questions|thoughts|tips|offers)\b"
                    r"|^have\s+an?\s+(?:\w+\s+)?(?:photo|picture|pic)\b"
                    r"|^\w+\s+(?:on\s+)?an?\s+(?:\w+\s+)?(?:project|challenge|adventure|plan|idea|thing)$"
                    r"|^\w+\s+(?:an?\s+)?bit\s+of\b|^have\s+(?:come|been|gone|done|got)\b|^\w+\s+(?:myself|ourselves)\b"
                    r"|^\w+\s+an?\s+(?:certain\s+)?(?:game|method|way)$", re.I)
"""A passing state or a moment, not a fact about the person ("staying positive", "had a good laugh")."""
POINTING = frozenset("it them one ones her him this that these those there here something someone more".split())
_FILLER = frozenset("""together through up away out off on in hard well usual as a an the ton lot lots people fun blast
    positive busy again too all so really still just""".split())
_GOOD_TIME = re.compile(r"^(?:a|an|such\s+a|the\s+best|so\s+much|tons\s+of|lots\s+of)?\s*(?:great|good|fun|blast|wonderful"
                        r"|amazing|awesome|lovely|nice|fantastic|super\s+fun|really\s+\w+|incredible)?\s*"
                        r"(?:time|blast|fun|day|weekend|night|feeling)\b(?!\s+(?:at|in|on|with|playing|doing|\w+ing))", re.I)
_DANGLING = frozenset("the a an in of to with my our for on at by from and or but that this last about than few around "
                      "some amount".split())
_DEICTIC = re.compile(r"^(?:it|that|this|them|these|those|you|your|me|so|to|too|what|how|why|there|here|one|some|any"
                      r"|more|much|many|all|something|anything|everything|nothing|a\s+lot|lots)\b", re.I)


def plain(clause: Clause) -> bool:
    """May a clause no attribute rule reads be an open-ended fact? Only a plain statement of the
    person's own: its subject the person, said as such ("I", "we", a name: not "It really mattered",
    not "Take a look"), not a passing feeling ("so excited to ...", "here for you"), not a verb of
    talk or of reaction ("think", "hope", "love to", "give it a go"), and an object that names
    something rather than pointing at it ("it", "that", "you") or addressing the listener."""
    obj = clause.object
    bare = re.sub(r"^(?:on|in|at|with|about|for|into|to|from|of|through)\s+", "", obj, flags=re.I)
    if not clause.person or not obj or _DEICTIC.match(bare) or re.search(r"\byou(?:r|'re|'ll)?\b", obj, re.I):
        return False
    if clause.we and clause.predicate in ("have", "be", "come", "put", "go", "click", "laugh", "combine", "mess", "play"):
        return False  # "We have a strong bond", "We've come so far": of a group, not the person
    if clause.under or clause.negated and clause.predicate != "be" or obj.count('"') % 2 or re.search(r"(?:^|\s)'\w[^']*$", obj):
        return False  # "since I was a kid"; "haven't talked in a few days"; "an album called 'Sleep": cut short
    if re.search(r"\b(?:something|somewhere|someone|somebody|anything|everything|stuff|things)\b", obj, re.I) \
            or _STATE.match(f"{clause.predicate} {obj}") or re.search(r"\b(?:is|are|was|were)\s+(?:so|really|very|such|the|an?)\b", obj):
        return False  # "work on something I've wanted", "drive somewhere fun", "stay positive", "have a good laugh"
    words = obj.lower().split()
    if words[-1] in _DANGLING or re.match(r"^(?:chatted|talked|spoke|met)\b", obj):
        return False  # "met the", "haven't talked in a", "since we last chatted": a fragment
    if words[-1] in POINTING or re.search(r"\b(?:this|these|those|that)\s+(?!is\b|was\b)\w+", obj, re.I) \
            or re.search(r"\b(?:him|her|them|his|their|its|they|she|he|it)\b", obj, re.I):
        return False  # "working on it", "these values", "visited her old house": what it points at is elsewhere
    if all(w in _FILLER for w in words) or clause.predicate == "have" and _GOOD_TIME.match(obj):
        return False  # "pull together", "work hard", "have a blast", "have a great time"
    if clause.predicate == "be":  # "be a fan", "be 17 or so": one noun, a number: too little to be read alone
        content = [w for w in words if w not in ("a", "an", "the", "so", "or")]
        return not _FEELING.match(obj) and len(content) >= 2 and not obj[:1].isupper() and not obj[:1].isdigit()
    return clause.predicate not in TALK


ORG_CUES = re.compile(r"\b(?:start(?:ed|ing|s)?\s+(?:on|at|in|monday|tuesday|wednesday|thursday|friday|next|last|this)"
                      r"|first\s+day|job|role|team|office|boss|hired|contract|offer|company|colleagues|onboarding"
                      r"|manager|salary|payroll|position)\b", re.I)
"""Words of work in a sentence: "I'm with Stripe now, started Monday" names an employer, not a partner."""


def works(sentence: str) -> bool:
    """Does the sentence speak of work (an employer is meant by "with X", not a partner)?"""
    return bool(ORG_CUES.search(sentence))
