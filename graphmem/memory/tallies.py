"""Counts, favourites and frequencies read off a sentence: how many of a thing, which one is liked best,
how often the person does it.

Why: "How many kids does Kim have?" is answered by "Baby number three arrived" or "we have three kids",
and "Which writer does Noa like best?" by "He's my favourite writer now" after "Read three Ishiguro
novels". Neither value is a word of a list or a name next to a cue (:mod:`graphmem.memory.values`): a
count is a number said with the thing's noun (or one of its other names: kids and children, hens and
chickens), a favourite the phrase a sentence says is the favourite, or the name said before a pronoun.
"""

from __future__ import annotations

import re

from graphmem.memory.values import CLAUSE as _CLAUSE
from graphmem.memory.values import OPENERS as _OPENERS
from graphmem.memory.values import TOKEN as _TOKEN
from graphmem.text.lemma import verbish
from graphmem.text.lexicon import NOT_NAMES, wordset
from graphmem.text.terms import stem
from graphmem.text.things import NUMBERS, singular

__all__ = ["count", "favourite", "frequency"]

_ORDINALS = {w: str(i) for i, w in enumerate("zeroth first second third fourth fifth sixth seventh eighth ninth tenth"
                                              .split())}
_KIDS = {"kid", "child", "son", "daughter", "baby"}
_KINDS = ({"writer", "author", "novelist"}, {"film", "movie"}, {"band", "group", "artist"}, {"book", "novel", "read"},
          {"song", "track", "tune"}, {"food", "dish", "meal"}, {"show", "series"}, {"team", "club", "side"},
          {"color", "colour"}, {"singer", "artist"}, {"game", "video game"}, {"sport"}, {"drink"},
          {"chicken", "hen", "pullet"}, {"dog", "pup", "puppy"}, {"cat", "kitten"}, {"language", "tongue"})
_THING_WORDS = {"kid": _KIDS, "child": _KIDS} | {w: kind for kind in _KINDS for w in kind}


def _things(thing: str) -> set[str]:
    """The nouns a count or a favourite of ``thing`` is said with (its singular; kids and children meet)."""
    heads = {singular(w) for w in re.findall(r"[a-z]+", thing.lower())}
    return set().union(*(_THING_WORDS.get(h, {h}) for h in heads)) if heads else set()


def count(thing: str, text: str) -> str | None:
    """The number of ``thing`` a sentence states, as said with its noun ("we have three kids", "brings my
    species count to 32", "our third child": 3), or None; not an increment ("8 more postcards")."""
    nouns = _things(thing)
    got: str | None = None
    for clause in _CLAUSE.split(text):
        tokens = _TOKEN.findall(clause)
        low = [t.lower() for t in tokens]
        for i, w in enumerate(low):
            if singular(w) not in nouns:
                continue
            at = next((j for j in range(i - 1, max(0, i - 4) - 1, -1) if _number(low[j])), None)
            if at is None:
                at = next((j for j in range(i + 2, min(len(low), i + 5)) if _number(low[j])
                           and low[j - 1] in ("to", "is", "at", "now", "reached", "hit", "of")), None)
                if at is not None:
                    got = tokens[at]
                elif (n := _born(low[i + 1:]) if nouns & _KIDS else None) is not None:
                    got = n  # "Baby number three arrived last night!"
                continue
            if any(low[k] in _MORE for k in range(at + 1, i)):
                continue  # "8 more postcards": what was added, not how many there are
            got = _ORDINALS[low[at]] if low[at] in _ORDINALS else " ".join(tokens[at:i + 1])
        if nouns & _KIDS and not any(singular(w) in nouns for w in low) and (n := _born(low)) is not None:
            got = n  # "Our third arrived on Friday": the child unsaid
    return got


_BIRTH = wordset("arrived arrives arrival born here welcomed came delivered")
"""Words that tell a child's birth ("Baby number three arrived", "our third is here")."""
_IS = wordset("is was has just finally baby little one")


def _born(low: list[str]) -> str | None:
    """The count a birth said by its place tells ("number three arrived", "our third is here": 3): an ordinal
    or a number after "number", or an ordinal after "our"/"my", in a clause with a word of birth; else None."""
    if not any(w in _BIRTH for w in low):
        return None
    for j, w in enumerate(low[:-1]):
        after = low[j + 1]
        then = low[j + 2] if j + 2 < len(low) else ""
        if w == "number" and _number(after) or w in ("our", "my") and after in _ORDINALS and after != "zeroth" \
                and then in _BIRTH | _IS:
            return _ORDINALS.get(after) or (after if after.isdigit() else str(NUMBERS.get(after, after)))
    return None


_MORE = wordset("more extra additional another")


def _number(word: str) -> bool:
    """Whether a word says a number: digits, a number word, an ordinal ("third child")."""
    return word.isdigit() or word in NUMBERS or word in _ORDINALS


_FAV = r"(?:favou?rite|fave|fav)"
_VALUE = r"([^,.;!?]{1,60}?)"
_TRIM = re.compile(r"\s+(?:now|these days|at the moment|nowadays|by far|for sure|though|honestly|again|anymore"
                   r"|right now|currently|,.*)$", re.I)


def favourite(thing: str, text: str) -> str | None:
    """The favourite ``thing`` a sentence names ("my favourite band is Radiohead", "Dune is my fave
    book now", "I like Le Guin best" asked a writer, "Piranesi just replaced X as my favourite"), trimmed of
    time words; a pronoun or no value at all ("It's my all time favourite", "Still my favourite film")
    is the last name said before it ("The Secret History", "Paddington 2"); else None."""
    nouns = "|".join(re.escape(n) + "s?" for n in sorted(_things(thing))) or "xx"
    for rx in (rf"\b{_FAV}\s+(?:\w+\s+)?(?:{nouns})\b(?:\s+(?:now|these days|ever))?\s*(?:is|are|was|'s|has to be"
               rf"|:|=|would be|remains)\s+{_VALUE}(?:$|[,.;!?]|\s+(?:but|and|because|though)\b)",
               rf"(?:^|[,.;!?]\s*)(?:oh\s+|ok\s+|so\s+)?{_VALUE}(?:\s+(?:is|are)|['’]s)\s+(?:now\s+|still\s+)?(?:my|our)\s+"
               rf"(?:new\s+)?(?:all[- ]time\s+)?{_FAV}\b",
               rf"(?:^|[,.;!?]\s*)(?:ok\s+|so\s+)?{_VALUE}\s+(?:just\s+)?(?:replaced|overtook|beat|dethroned|knocked)\b[^.!?]*"
               rf"\bas\s+(?:my|our)\s+(?:new\s+)?{_FAV}",
               rf"(?:^|[,.;!?]\s*)()(?:still\s+)?(?:my|our)\s+(?:all[- ]time\s+)?{_FAV}\s+(?:{nouns})\b",
               r"\b(?:like|love|prefer|rate)\s+" + _VALUE + r"\s+(?:the\s+)?(?:best|most)\b",
               rf"(?:^|[,.;!?]\s*)(?:ok\s+|so\s+)?{_VALUE}(?:\s+(?:is|are)|['’]s)\s+(?:still\s+|now\s+)?(?:my|the)\s+"
               r"(?:absolute\s+|all[- ]time\s+|new\s+)?(?:best|top|number one|go-to)\b",
               r"\bnothing (?:beats|tops|comes close to)\s+" + _VALUE + r"(?:$|[,.;!?])"):
        found = list(re.finditer(rx, text, re.I))
        if found:
            value = _TRIM.sub("", found[-1].group(1).strip()).strip()
            if value.lower() in ("", "he", "she", "they", "he's", "she's", "they're", "it", "that", "this", "it's"):
                value = _name_before(text[:found[-1].start(1)])  # "Read Ishiguro. He's my favourite"
            value = re.sub(r"^(?:probably|definitely|easily|still|now|actually|just)\s+", "", value, flags=re.I)
            if value and value.lower() not in ("it", "that", "this", "mine"):
                return value
    return None


def _name_before(text: str) -> str:
    """The last capitalised name of ``text`` ("Paddington 2", "The Secret History" less its article), or ""."""
    names = []
    for n in re.findall(r"\b[A-Z][\w'-]*(?: (?:[A-Z][\w'-]*|\d+))*", text):
        words = n.split()
        while words and (words[0].lower() in NOT_NAMES or verbish(words[0].lower()) or words[0].lower() in _OPENERS):
            words = words[1:]  # "Rewatched Paddington 2": Paddington 2
        if words and not words[0][:1].isdigit():
            names.append(re.sub(r"['’]s$", "", " ".join(words)))
    return names[-1] if names else ""


_HOW_OFTEN = re.compile(r"\b(?:(?:once|twice|thrice|\d+|one|two|three|four|five|six|seven|eight|nine|ten|a couple of|a few)"
                        r"(?:\s+[a-z]+)?(?:\s+times)?\s+(?:a|an|per|each|every)\s+(?:day|week|month|year|fortnight)"
                        r"|every\s+(?:single\s+)?(?:day|morning|evening|night|weekend|other day|weekday)|daily|weekly|monthly|nightly)\b",
                        re.I)


def frequency(thing: str, text: str) -> str | None:
    """How often a sentence says the person does ``thing`` ("Running twice a week now", "four runs a week",
    "gym every morning"), in a clause naming it when the question names one; None when it says none."""
    stems = {stem(w) for w in re.findall(r"[a-z]+", thing.lower()) if w not in _VAGUE}
    got: str | None = None
    for clause in _CLAUSE.split(text):
        said = {stem(w) for w in re.findall(r"[a-z]+", clause.lower())}
        for m in _HOW_OFTEN.finditer(clause):
            if not stems or stems & said:
                got = m.group(0)
    return got


_VAGUE = wordset("go goes going do does doing have has get gets the a to")
