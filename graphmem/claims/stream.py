"""Claims read turn by turn: one conversation's reading kept up to date as its turns arrive.

The bulk reader (:func:`graphmem.claims.extract.extract`) reads a whole conversation at once,
because whom a name denotes is a property of the whole conversation: :func:`people_of` counts
how often each capitalised word is also written in lower case, meets the third parties the
speakers introduce, and maps every capitalised word to a person. A name learnt in turn 300
("my son Max") can therefore change how turn 12 reads ("Max loves the park").

:class:`ConversationClaims` keeps what that needs as running totals (the lower-case word counts
and the capitalised words add up turn by turn; each new turn is tokenised once, and only its
sentences that may introduce someone are kept) and, on each
``add``, meets the conversation's people again from them. A turn's claims are a function of the
turn, its speaker's key, whom it addresses (:meth:`graphmem.claims.people.People.addressed`), and
of what the conversation's people say of the capitalised words the turn itself contains (whom each
names, and whether that person is a speaker or a third party:
:func:`graphmem.claims.extract.read_turn`). So only the earlier turns that contain a word whose
person changed, or whose speaker's key or addressee changed, are read again -- never another conversation,
and usually none at all. The result is the bulk reading of the same turns, claim for claim
(``tests/unit/claims/test_stream.py`` checks it on all ten LoCoMo conversations fed one turn at
a time and in batches).

What ``add`` costs grows with the conversation (the people are met again over its counts and its
sentences that hold a candidate name), not with anything else a memory holds.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from sys import intern

from graphmem.claims.extract import Sentences, context, parse, read_turn, speaker_key
from graphmem.claims.people import People, candidates_of, fold, people_from, words_of
from graphmem.claims.records import Claim, Reading, said_on
from graphmem.domain import Turn
from graphmem.text.lexicon import NOT_NAMES
from graphmem.errors import DataError

__all__ = ["ClaimChange", "ConversationClaims"]


@dataclass(frozen=True)
class ClaimChange:
    """What one ``add`` changed: enough for a store to write only that."""

    claims: dict[str, tuple[Claim, ...]]
    """dia_id -> the turn's claims, for every new turn and every earlier turn whose claims changed."""
    reread: tuple[str, ...]
    """The earlier turns read again (their claims may or may not have changed), in conversation order."""


@dataclass
class _State:
    """What reading the conversation again needs, kept as running totals."""

    kept: list[list[tuple[Sequence[str], Sequence[str]]] | None]
    """Per turn, the (tokens, lower-cased tokens) of its sentences that hold a candidate third
    party, else None: meeting the people reads only those, and a word once past a candidate's
    twice never is one again, so the rest are forgotten (a turn read again is parsed again)."""
    lower: Counter[str]
    capitals: set[str]
    at: dict[str, list[int]]
    """A capitalised token -> the positions of the turns that contain it."""
    people: People | None = None
    surfaces: dict[str, str] = field(default_factory=dict)
    keys: list[str] = field(default_factory=list)
    """The key of each turn's speaker."""
    you: list[str] = field(default_factory=list)
    """The key of whom each turn addresses, unless a vocative of its own says otherwise."""
    candidates: set[str] = field(default_factory=set)
    exact: bool = False
    """Was every speaker's name known before it was looked up, when the people were last met?"""
    fresh: tuple[set[str], Counter[str]] = (set(), Counter())
    """The growth of the add under way: its new capitalised words and its lower-case word counts
    (empty between adds)."""

    def grow(self, turns: Sequence[Turn]) -> tuple[list[Sentences], Callable[[], None]]:
        """Add the totals of ``turns`` in place; return their sentences, and what takes them out again."""
        n = len(self.kept)
        parsed = [parse(t) for t in turns]
        self.kept.extend([(toks, low) for _s, toks, low, _st, _q in sents] for sents in parsed)
        lower, capitals = words_of("\n".join(t.text for t in turns))
        new_caps = capitals - self.capitals
        lower = Counter({intern(w): c for w, c in lower.items()})  # a word new to the totals is kept once
        self.lower.update(lower)
        self.capitals |= {intern(c) for c in new_caps}
        named = [{t for _s, toks, _l, _st, _q in sents for t in toks if t[0].isupper()} for sents in parsed]
        at = self.at
        for i, toks in enumerate(named, start=n):
            for tok in toks:
                held = at.get(tok)
                if held is None:
                    held = at[intern(tok)] = []  # a word new to the conversation is kept once
                held.append(i)

        def undo() -> None:
            for toks in named:
                for tok in toks:
                    self.at[tok].pop()
                    if not self.at[tok]:
                        del self.at[tok]
            del self.kept[n:]
            self.capitals -= new_caps
            for w, c in lower.items():
                self.lower[w] -= c
                if not self.lower[w]:
                    del self.lower[w]

        self.fresh = (new_caps, lower)
        return parsed, undo

    def same_people(self, turns: Sequence[Turn]) -> bool:
        """Would meeting the people again give the people already met? Yes when the new turns
        hold no candidate third party, write in lower case no capitalised word of the conversation
        for the first time nor past the candidates' limit, bring no capitalised word that could name
        anyone, and are said by a speaker whose key is a name already known (whose lookup learns
        nothing). Each condition is one way :func:`people_from` could read otherwise."""
        new_caps, lower = self.fresh
        if self.people is None or any(t in self.at and self._holds(t, len(turns)) for t in self.candidates):
            return False
        watch = {c.lower() for c in self.capitals}
        for w, c in lower.items():
            if w in watch and (self.lower[w] == c or self.lower[w] - c <= 2 < self.lower[w]) and not self._nameless(w):
                return False
        names = self.people.names()
        # a new capitalised word names nobody, and learns nothing, when it is no known name and its
        # lower case is a non-name or an ordinary word of the conversation (more than a candidate's twice)
        if any(c.lower() in names or c.lower() not in NOT_NAMES and self.lower[c.lower()] <= 2 for c in new_caps):
            return False
        return all(fold(t.speaker) in names for t in turns)

    def _nameless(self, word: str) -> bool:
        """Can it change nothing that ``word``, the lower case of capitalised words of the
        conversation, is now written in lower case (for the first time, or past a candidate's
        twice)? Yes when none of those capitalised words named anyone (every lookup of them
        found no one and learnt nothing, so a lookup that now stops early finds no one too, and
        a candidate that stops being one introduced nobody), and every speaker's name was known
        before it was looked up (so no speaker was found by a spelling this word could block)."""
        return self.exact and (word in NOT_NAMES or all(
            self.surfaces.get(c) is None for c in self.capitals if c.lower() == word))

    def prune(self, first: int, was: set[str]) -> None:
        """Forget the sentences that hold no candidate now, of the turns from ``first`` on and of
        those that held one of the candidates ``was`` before. The tokens kept are interned: a
        conversation says the same words again and again, and a memory keeps them for as long as
        it lives, so each is kept once rather than once per sentence."""
        gone = was - self.candidates
        for i in [*range(first, len(self.kept)), *sorted({i for c in gone for i in self.at.get(c, ()) if i < first})]:
            sents = self.kept[i]
            if sents is not None:
                self.kept[i] = [(tuple(map(intern, toks)), tuple(map(intern, low)))  # tuples: no spare room
                                for toks, low in sents if not self.candidates.isdisjoint(toks)] or None

    def drop(self, gone: Sequence[int], lost: Sequence[Turn], kept: Sequence[Turn]) -> tuple[Counter[str], set[str]]:
        """Take the turns at positions ``gone`` (sorted; ``lost`` are those turns) out of the totals
        in place, ``kept`` being the turns left in order; returns the lower-case words taken back and
        the capitalised words no kept turn writes. The lower-case counts add up over turns, so they
        are taken back; a capitalised word stays while a kept turn still writes it (looked up in
        their text joined, as :func:`words_of` reads it); the later turns' positions move up."""
        lower, capitals = words_of("\n".join(t.text for t in lost))
        for w, c in lower.items():
            left = self.lower[w] - c
            if left:
                self.lower[w] = left
            else:
                del self.lower[w]
        text = "\n".join(t.text for t in kept)
        # words_of's capitalised word c, bare or with its possessive, is c between word bounds
        vanished = {c for c in capitals if re.search(rf"\b{re.escape(c)}\b", text) is None}
        self.capitals -= vanished
        dead = set(gone)
        for tok in list(self.at):
            held = self.at[tok]
            at = bisect_left(held, gone[0])
            if at < len(held):
                held[at:] = [i - bisect_left(gone, i) for i in held[at:] if i not in dead]
                if not held:
                    del self.at[tok]
        for i in reversed(gone):
            del self.kept[i]
        return lower, vanished

    def unchanged(self, lost: Counter[str], vanished: set[str], speakers: Sequence[str]) -> bool:
        """Would meeting the people again, once turns that held no sentence naming a candidate are
        taken out (``lost``: their lower-case words; ``vanished``: their capitalised words no kept turn
        writes), give the people met already? Yes when every vanished word named no one and was no
        candidate, and no lower-case word that a looked-up name reads (a capitalised word's, a
        speaker's) stops being written or falls to a candidate's twice: each is one way
        :func:`people_from` could read otherwise, as :meth:`same_people` reasons for an add."""
        if any(c in self.candidates or c in self.surfaces for c in vanished):
            return False
        watch = {c.lower() for c in self.capitals} | {fold(s) for s in speakers}
        for w, c in lost.items():
            now = self.lower.get(w, 0)
            if w in watch and (now == 0 or now <= 2 < now + c):
                return False
        return True

    def unprune(self, candidates: set[str], turns: Sequence[Turn]) -> None:
        """Parse again the turns holding a word that is a candidate now and was not (forgetting took
        back its lower-case uses), whose sentences holding it were pruned: meeting the people reads
        every sentence that holds a candidate, as a fresh reading would."""
        back = candidates - self.candidates
        for i in sorted({i for c in back for i in self.at.get(c, ())}):
            self.kept[i] = [(toks, low) for _s, toks, low, _st, _q in parse(turns[i])
                            if not candidates.isdisjoint(toks)] or None

    def _holds(self, token: str, new: int) -> bool:
        """Does one of the last ``new`` turns hold ``token``?"""
        return self.at[token][-1] >= len(self.kept) - new

    def meet(self, speakers: Sequence[str], turns: Sequence[Turn]) -> tuple[People, dict[str, str], list[str], set[str]]:
        """The people met again over the totals: only the turns that hold a candidate are read."""
        candidates = candidates_of(frozenset(fold(s) for s in speakers), self.lower, self.capitals)
        holding = sorted({i for c in candidates for i in self.at.get(c, ())})
        people, surfaces = people_from(speakers, self.lower, self.capitals,
                                       (pair for i in holding for pair in self.kept[i] or ()))
        names = people.names()
        self.exact = all(fold(who) in names for who in {t.speaker for t in turns})
        keys = [speaker_key(people, t) for t in turns]
        people.freeze()
        return people, surfaces, keys, candidates


class ConversationClaims:
    """The claims of one conversation, read as its turns arrive (see the module docstring).

    ``speakers`` are the conversation's speakers, as the bulk reader takes them; with None they
    are whoever speaks, in the order they first speak, as :func:`graphmem.data.dialogue.conversations`
    takes them. One speaker is enough (notes, a monologue, an agent that stores only the user's turns):
    their turns are read as they come, ``you`` naming no one until someone else speaks, and the turns
    whose addressee a second speaker changes are read again then.
    """

    def __init__(self, speakers: Sequence[str] | None = None, *, captions: bool = False, you_mentions: bool = False):
        self._given = speakers
        self._speakers: tuple[str, ...] = tuple(speakers) if speakers is not None else ()
        self._captions = captions
        self._you = you_mentions
        self._turns: list[Turn] = []
        self._claims: list[tuple[Claim, ...]] = []
        self._state: _State | None = _State([], Counter(), set(), {})

    @classmethod
    def restore(cls, speakers: Sequence[str] | None, turns: Sequence[Turn], claims: Sequence[Sequence[Claim]],
                **rules: bool) -> ConversationClaims:
        """A conversation as saved: its turns and the claims read of each, nothing read again.

        What reading on needs (the tokens, the counts, the people) is rebuilt from the turns only
        when the next turn is added, or the reading is asked for."""
        if len(turns) != len(claims):
            raise DataError(f"{len(turns)} turns but claims for {len(claims)}")
        out = cls(speakers, **rules)
        out._speakers = out._who(turns)
        out._turns = list(turns)
        out._claims = [tuple(c) for c in claims]
        out._state = None
        return out

    def __len__(self) -> int:
        return len(self._turns)

    @property
    def claims(self) -> list[Claim]:
        """Every claim, in conversation order."""
        return [c for turn in self._claims for c in turn]

    @property
    def reading(self) -> Reading:
        """What the bulk reader makes of the turns added so far."""
        state = self._ready()
        people = state.people or People(self._speakers)
        ids = tuple(t.id for t in self._turns)
        return Reading(people, self.claims, ids, dict(zip(ids, state.keys)), {t.id: said_on(t) for t in self._turns})

    def add(self, turns: Sequence[Turn]) -> ClaimChange:
        """Read ``turns``, the conversation's next ones in order; read again the earlier turns they
        change. Nothing is kept when it raises."""
        if not turns:
            return ClaimChange({}, ())
        speakers = self._who(turns)
        joined = len(speakers) != len(self._speakers)  # a new speaker: not a third party, and addressed by name
        state = self._ready()
        n = len(self._turns)
        parsed, undo = state.grow(turns)
        try:
            every = self._turns + list(turns)
            if not joined and state.same_people(turns):
                people, surfaces, candidates = state.people, state.surfaces, state.candidates
                assert people is not None  # same_people is False before the people are met
                keys = state.keys + [speaker_key(people, t) for t in turns]
                you = people.addressed(keys)
                again: list[int] = []
            else:
                people, surfaces, keys, candidates = state.meet(speakers, every)
                you = people.addressed(keys)
                again = self._again(state, people, surfaces, keys, you, n)
            assert people is not None
            ctx = context(people, surfaces, self._you)
            claims = self._claims + [()] * len(turns)
            changed: dict[str, tuple[Claim, ...]] = {}
            for i in [*again, *range(n, len(every))]:
                sents = parsed[i - n] if i >= n else parse(every[i])  # an earlier turn is parsed again
                read = tuple(read_turn(ctx, every[i], keys[i], you[i], sents, self._captions))
                if i >= n or read != claims[i]:
                    changed[every[i].id] = read
                claims[i] = read
        except BaseException:
            undo()
            raise
        finally:
            state.fresh = (set(), Counter())  # this add's alone: kept, a bulk add's would be a second copy of the totals
        was, first = state.candidates, n if state.people is not None else 0  # turns that waited were never pruned
        state.people, state.surfaces, state.keys, state.you, state.candidates = people, surfaces, keys, you, candidates
        state.prune(first, was)
        self._speakers, self._turns, self._claims = speakers, every, claims
        return ClaimChange(changed, tuple(every[i].id for i in again))

    def forget(self, ids: Collection[str]) -> ClaimChange:
        """Take the turns ``ids`` out, leaving the reading of a conversation that never had them; the
        kept turns that reading changes are read again, and their claims reported when they changed.

        Why not read the kept turns afresh: a turn's claims are a function of the turn, its speaker's
        key, whom it addresses and what the people say of the words it holds (the module docstring),
        so after the totals are taken back and the people met again (unless nothing they are met from
        changed: :meth:`_State.unchanged`) only the turns where one of those moved are read, as
        :meth:`add` reads the earlier turns a new one changes. Losing a speaker (or
        the order they first spoke in) changes every turn's context: then the kept turns are read
        afresh. Nothing is kept when it raises."""
        gone = [i for i, t in enumerate(self._turns) if t.id in ids]
        if not gone:
            return ClaimChange({}, ())
        dead = set(gone)
        kept = [t for i, t in enumerate(self._turns) if i not in dead]
        was = [c for i, c in enumerate(self._claims) if i not in dead]
        speakers = self._speakers if self._given is not None else tuple(dict.fromkeys(t.speaker for t in kept))
        state = self._ready()
        if state.people is None or not speakers or speakers != self._speakers:
            return self._afresh(kept, was)
        before = (state.people, state.surfaces, [k for i, k in enumerate(state.keys) if i not in dead],
                  [y for i, y in enumerate(state.you) if i not in dead])
        try:
            quiet = all(state.kept[i] is None for i in gone)  # no sentence of theirs names a candidate
            lost, vanished = state.drop(gone, [self._turns[i] for i in gone], kept)
            if quiet and state.unchanged(lost, vanished, speakers):
                people, surfaces, keys, candidates = state.people, state.surfaces, before[2], state.candidates
            else:
                state.unprune(candidates_of(frozenset(fold(s) for s in speakers), state.lower, state.capitals), kept)
                people, surfaces, keys, candidates = state.meet(speakers, kept)
            you = people.addressed(keys)
            again = _moved(state.at, before, people, surfaces, keys, you)
            ctx = context(people, surfaces, self._you)
            changed: dict[str, tuple[Claim, ...]] = {}
            for j in again:
                read = tuple(read_turn(ctx, kept[j], keys[j], you[j], parse(kept[j]), self._captions))
                if read != was[j]:
                    changed[kept[j].id] = read
                was[j] = read
        except BaseException:
            self._state = None  # rebuilt from the turns, which are as they were, when next needed
            raise
        prior = state.candidates
        state.people, state.surfaces, state.keys, state.you, state.candidates = people, surfaces, keys, you, candidates
        state.prune(len(kept), prior)
        self._turns, self._claims = kept, was
        return ClaimChange(changed, tuple(kept[j].id for j in again))

    def _afresh(self, kept: list[Turn], was: list[tuple[Claim, ...]]) -> ClaimChange:
        """Become the reading of ``kept`` read from the start; report every kept turn as read again."""
        fresh = ConversationClaims(self._given, captions=self._captions, you_mentions=self._you)
        fresh.add(kept)
        self._speakers, self._turns, self._claims, self._state = (fresh._speakers, fresh._turns, fresh._claims,
                                                                  fresh._state)
        changed = {t.id: c for t, c, w in zip(kept, self._claims, was, strict=True) if c != w}
        return ClaimChange(changed, tuple(t.id for t in kept))

    @staticmethod
    def _again(old: _State, people: People, surfaces: dict[str, str], keys: list[str], you: list[str],
               n: int) -> list[int]:
        """The earlier turns (before ``n``) whose reading the new people may change: those that
        contain a word whose person, or that person's standing as a third party, changed, and
        those whose speaker's key, or whom they address, changed. All of them when there were no
        people before."""
        if old.people is None:
            return list(range(n))
        was, now = frozenset(old.people.third_parties), frozenset(people.third_parties)
        moved = [t for t in old.surfaces.keys() | surfaces.keys()
                 if (k := old.surfaces.get(t), k in was) != (m := surfaces.get(t), m in now)]
        out = {i for t in moved for i in old.at.get(t, ()) if i < n}
        out.update(i for i in range(n) if keys[i] != old.keys[i] or you[i] != old.you[i])
        return sorted(out)

    def _who(self, turns: Sequence[Turn]) -> tuple[str, ...]:
        """The speakers once ``turns`` are added: those given, else whoever speaks, in the order they first speak."""
        if self._given is not None:
            return self._speakers
        return tuple(dict.fromkeys([*self._speakers, *(t.speaker for t in turns)]))

    def _ready(self) -> _State:
        """The running totals, rebuilt from the turns (not their claims) if the conversation was restored."""
        if self._state is None:
            state = _State([], Counter(), set(), {})
            state.grow(self._turns)
            state.fresh = (set(), Counter())  # no add asks what this growth brought
            if self._speakers:
                state.people, state.surfaces, state.keys, state.candidates = state.meet(self._speakers, self._turns)
                state.you = state.people.addressed(state.keys)
                state.prune(0, set())
            self._state = state
        return self._state


def _moved(at: dict[str, list[int]], before: tuple[People, dict[str, str], list[str], list[str]], people: People,
           surfaces: dict[str, str], keys: list[str], you: list[str]) -> list[int]:
    """The turns (positions as ``at`` holds them) whose reading the people met now may change against
    ``before`` (the people, surfaces, keys and addressees they were read with): those holding a word
    whose person, or that person's standing as a third party, changed, and those whose speaker's key,
    or whom they address, changed."""
    old, was_surfaces, old_keys, old_you = before
    was, now = frozenset(old.third_parties), frozenset(people.third_parties)
    moved = [t for t in was_surfaces.keys() | surfaces.keys()
             if (k := was_surfaces.get(t), k in was) != (m := surfaces.get(t), m in now)]
    out = {i for t in moved for i in at.get(t, ())}
    out.update(i for i in range(len(keys)) if keys[i] != old_keys[i] or you[i] != old_you[i])
    return sorted(out)
