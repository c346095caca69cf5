"""Forgetting turns: the live index left as if it had never read them, at a cost set by them.

Why not rebuild: a memory of a hundred thousand turns would read every one again to forget one.
Here a forgotten turn keeps its number (so every other turn keeps its place, and ties still fall in
the order turns were added), but nothing of it is counted: its postings hold no frequency, the
document count, lengths and document frequencies move back, it leaves the days, answer types,
conversations, speakers and asker marks it was in, and its text is dropped. Then only what it
changed is read again, by the index's own rules:

- the turns that replied to it, and the turn after it in its conversation, take the reply the rule
  gives now (a numbered turn the latest held number before its own; another the turn before it);
- when its speaker no longer speaks in the conversation, the turns naming them read again (a
  vocative names someone of the conversation: "Thanks, Mel!" reads otherwise once Mel is gone);
- when the conversation no longer has an assistant, its people's turns are no longer the asker's.

So a memory that forgets answers as one that never ingested those turns, bit for bit (the
conformance suite compares the two).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Collection
from functools import partial

import numpy as np

from graphmem.claims.replies import unaddressed
from graphmem.domain import Turn
from graphmem.index.arrays import Grow
from graphmem.index.live import LiveIndex
from graphmem.index.people import speaker_key
from graphmem.index.shape import is_assistant
from graphmem.text.dates import months_touched

__all__ = ["forget"]


def forget(index: LiveIndex, docs: Collection[int]) -> set[str]:
    """Forget the turns numbered ``docs``; returns the conversations they were in."""
    gone = sorted(set(docs) - index.dead)
    if not gone:
        return set()
    convs = {index.records[d].conversation for d in gone}
    followers = {f for d in gone for f in index.children.get(d)}
    index.postings.drop_many([(d, index.fields(d)[0]) for d in gone])  # each read before any reply link is undone
    for d in gone:
        _drop(index, d)
    index.dead.update(gone)
    dead = set(gone)
    left: dict[str, set[str]] = {}
    of_conv: dict[str, list[int]] = {}  # each conversation's forgotten turns, in order
    for d in gone:
        of_conv.setdefault(index.records[d].conversation, []).append(d)
    for conv in convs:
        follow, left[conv] = _leave(index, conv, of_conv[conv], dead)
        followers |= follow
    for kind, held in index.types.items():
        _untype(index, kind, held.view(), gone)
    for d in sorted(followers - dead):
        _relink(index, d)
    for conv in convs:
        if left[conv]:
            _reread_vocatives(index, conv, left[conv])
        _remark_askers(index, conv, of_conv[conv])
    for d in gone:
        index.records[d] = Turn("", "", "", conversation=index.records[d].conversation)
        index.said[d], index.said_terms[d] = "", []
    return convs


def _drop(index: LiveIndex, d: int) -> None:
    """Turn d's vocabulary, reply link, days and dense vector out of the index (its postings are
    dropped with the others', :meth:`Postings.drop_many`)."""
    index.vocab.drop(set(index.indexed_terms(d)))
    j = index.replied[d]
    if j is not None:
        index.children.remove(j, d)
        index.replied[d] = None
    r = index.records[d]
    if r.date is not None:
        index.days.said.get(r.date.date().toordinal(), []).remove(d)
    for a, b in index._spans.pop(d, ()):
        for key in months_touched(a, b):
            index.days.spans[key] = [s for s in index.days.spans[key] if s[0] != d]
    if index.dense is not None:
        index.dense.forget(d)


def _untype(index: LiveIndex, kind: str, held: np.ndarray, gone: list[int]) -> None:
    """The forgotten turns out of the turns giving an answer type (``held``: in turn order, each
    once, as a search reads them). Looked up by a binary search, and the array copied only when it
    holds one of them: most turns give no answer type, and a pass over every turn that gives one
    would cost a forget what the memory holds, not what it forgets."""
    wanted = np.asarray(gone)
    at = np.searchsorted(held, wanted)
    inside = at < len(held)
    at = at[inside]
    at = at[held[at] == wanted[inside]]
    if len(at):
        index.types[kind] = Grow.of(np.delete(held, at))


def _leave(index: LiveIndex, conv: str, gone: list[int], dead: set[int]) -> tuple[set[int], set[str]]:
    """The conversation without its forgotten turns; returns the turns whose reply may change and
    the speakers who no longer speak in it. The turn after a forgotten one is looked up among the
    turns kept, not walked to past the later forgotten ones: for a conversation forgotten whole,
    that walk is quadratic in its turns."""
    kept = [d for d in index.by_conv[conv] if d not in dead]  # in turn order, as by_conv holds them
    follow = set()
    for d in gone:  # an unnumbered turn replies to the turn before it: the one after a forgotten turn may move
        at = bisect_right(kept, d)
        if at < len(kept):
            follow.add(kept[at])
        r = index.records[d]
        if r.number is not None:
            index.numbered[(conv, r.date, r.number)].remove(d)
            for n in range(1, index.settings.context_reach + 1):
                follow.update(index.numbered.get((conv, r.date, r.number + n), ()))
    index.by_conv[conv] = kept
    index.conv_turns.pop(conv, None)  # its array is made again from by_conv when next searched
    if index.by_conv[conv]:
        index.last[conv] = index.by_conv[conv][-1]
    else:
        index.last.pop(conv, None)
    speakers = {index.records[d].speaker for d in index.by_conv[conv]}
    left = index.speakers.get(conv, set()) - speakers
    for who in left:
        held_in = index.people.get(speaker_key(who))
        if held_in is not None:
            held_in.discard(conv)
            if not held_in:
                del index.people[speaker_key(who)]
    index.speakers[conv] = speakers
    return follow, left


def _relink(index: LiveIndex, d: int) -> None:
    """Turn d's reply as the rule gives it now, its fields moved if it changed."""
    r = index.records[d]
    if r.number is not None:
        j = index._numbered_reply(r)
    else:
        held = index.by_conv[r.conversation]
        at = bisect_left(held, d)
        j = held[at - 1] if at > 0 and index.records[held[at - 1]].date == r.date else None
    if j != index.replied[d]:
        index._refield(d, lambda: index._relink(d, j))


def _reread_vocatives(index: LiveIndex, conv: str, left: set[str]) -> None:
    """The conversation's turns that name a speaker who left it, read again against its speakers now."""
    if not index.settings.unaddressed:
        return
    speakers = index.speakers[conv]
    needles = [n for n in (who.strip().lower()[:3] for who in left) if n]  # as the index matches names
    for d in index.by_conv[conv]:
        text = index.records[d].text
        if not any(n in text.lower() for n in needles):
            continue
        said = unaddressed(text, speakers)
        if said != index.said[d]:
            replies = sorted(index.children.get(d))
            old = [index.fields(c)[0] for c in replies]
            old_terms = set(index.indexed_terms(d))
            index._refield(d, partial(index._resay, d, said))
            index.vocab.replace(old_terms, set(index.indexed_terms(d)))
            for c, was in zip(replies, old, strict=True):
                index.postings.replace(c, was, *index.fields(c))


def _remark_askers(index: LiveIndex, conv: str, gone: list[int]) -> None:
    """The asker's marks as the conversation's speakers now have them: its forgotten turns
    (``gone``) unmarked, and, when no assistant speaks in it any more, its people's turns too.

    Why no more: every other turn's mark is as the turn's ingest left it (a person's turn is the
    asker's while an assistant speaks in its conversation), and forgetting changes that only when
    the conversation's last assistant goes; the turns forgotten before were unmarked then. So a
    forget reads neither every turn of the conversation nor every turn the memory ever forgot."""
    askers, marks = index.askers, index.askers.mine.view()
    unmarked = [d for d in gone if marks[d]]
    if conv in askers._assisted and not any(map(is_assistant, index.speakers[conv])):
        askers._assisted.discard(conv)
        unmarked += [d for d in index.by_conv[conv] if marks[d]]
    marks[unmarked] = False
    askers.count -= len(unmarked)
