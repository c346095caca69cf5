"""The arms that scope retrieval by person: graph, graph+edge, scoped and span.

They are the 2x2 of the specification's factor table: the unit indexed (a whole turn,
or a *piece*: what one person said in one turn) crossed with the candidates (all of
them, or only those of the person the question names). All four are the same
``Store`` ranked by the same cosine; the person is a metadata filter, not a second
store. None of them reads the graph's structure, which is why emptying the graph
(``--blind``) leaves them byte-identical.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence

from graphmem.bench.arms.base import Context, turn_text
from graphmem.claims import records
from graphmem.data.locomo import Question
from graphmem.answer.reader import Hit
from graphmem.bench.arms.vectors import ALL, Filter, Store

PERSON = "person"


def subject(ctx: Context, question: Question) -> str | None:
    """The person a question names: the longest known name it contains, if any."""
    return ctx.reading.people.resolve(question.text)


def resolution(contexts: Sequence[Context]) -> tuple[int, int, int, int]:
    """(questions, naming a speaker as written, resolved to someone known, falling back to everything)."""
    total = speaker = resolved = 0
    for ctx in contexts:
        names = [re.compile(rf"\b{re.escape(s.lower())}\b") for s in ctx.conv.speakers]
        for q in ctx.conv.questions:
            total += 1
            low = q.text.lower()
            speaker += any(n.search(low) for n in names)
            resolved += subject(ctx, q) is not None
    return total, speaker, resolved, total - resolved


class ScopedStore:
    """Units of text, each filed under one person, searched with or without that person's filter."""

    def __init__(self, ctx: Context, units: list[tuple[str, str, str]]):
        """``units`` are (dia_id, person, text to index and quote)."""
        self.ctx = ctx
        self.units = units
        self.store = Store(ctx.vocab.vectors(u[2] for u in units), {PERSON: [u[1] for u in units]})
        per_turn = defaultdict(int)
        for dia_id, _, _ in units:
            per_turn[dia_id] += 1
        self.widest = max(per_turn.values(), default=1)

    def cite(self, questions: Sequence[Question], k: int, scoped: bool,
             quote: dict[tuple[str, str], str] | None = None) -> list[list[Hit]]:
        """Top-k units per question, one hit per turn (a turn's best unit stands for it)."""
        where = []
        for q in questions:
            who = subject(self.ctx, q) if scoped else None
            where.append(Filter.eq(PERSON, who) if who else ALL)
        found = self.store.search(self.ctx.vocab.vectors(q.text for q in questions), k * self.widest, where)
        out = []
        for row in found:
            hits: list[Hit] = []
            seen: set[str] = set()
            for i, _ in row:
                dia_id, person, text = self.units[i]
                if dia_id in seen:
                    continue
                seen.add(dia_id)
                shown = quote.get((dia_id, person), text) if quote is not None else text
                hits.append(self.ctx.hit(dia_id, shown))
                if len(hits) == k:
                    break
            out.append(hits)
        return out


def pieces_index(ctx: Context) -> ScopedStore:
    """The conversation's pieces, indexed once and shared by graph, graph+edge and span."""
    index = ctx.extra.get("pieces_index")
    if index is None:
        units = [(p.dia_id, p.person, p.text) for p in records.pieces(ctx.reading)]
        index = ctx.extra["pieces_index"] = ScopedStore(ctx, units)
    return index


def turns_index(ctx: Context) -> ScopedStore:
    """Whole turns, filed under every person each was read as being about."""
    about = records.about(ctx.reading)
    return ScopedStore(ctx, [(t.id, who, turn_text(t)) for t in ctx.conv.turns for who in about.get(t.id, ())])


def object_quotes(ctx: Context) -> dict[tuple[str, str], str]:
    """Per (turn, person), the object phrases of the claims read there, one per "sentence",
    so the reader picks the claim covering most of the question."""
    objects: dict[tuple[str, str], list[str]] = defaultdict(list)
    for claim in ctx.reading.claims:
        phrase = claim.object.strip()
        if phrase and phrase not in objects[(claim.turn_id, claim.subject)]:
            objects[(claim.turn_id, claim.subject)].append(phrase)
    return {key: ". ".join(phrases) for key, phrases in objects.items()}


class ScopeArm:
    """One cell of the factor table: an index, with or without the question's person as a filter."""

    def __init__(self, name: str, index: ScopedStore, scoped: bool, quote: dict[tuple[str, str], str] | None = None):
        self.name = name
        self.index = index
        self.scoped = scoped
        self.quote = quote

    def cite(self, questions: Sequence[Question], k: int) -> list[list[Hit]]:
        return self.index.cite(questions, k, self.scoped, self.quote)


ARMS = {
    # pieces, filtered to the person the question names
    "graph": (lambda ctx: ScopeArm("graph", pieces_index(ctx), scoped=True), True),
    # the graph's retrieval, answered off the matched claims' object phrases instead of the sentences
    "graph+edge": (lambda ctx: ScopeArm("graph+edge", pieces_index(ctx), scoped=True, quote=object_quotes(ctx)), True),
    # whole turns, filed under every person they were read as being about, filtered
    "scoped": (lambda ctx: ScopeArm("scoped", turns_index(ctx), scoped=True), True),
    # the graph's own pieces with the person filter taken off
    "span": (lambda ctx: ScopeArm("span", pieces_index(ctx), scoped=False), True),
}
