"""A saved memory's postings and document frequencies, kept in its file when it closes.

Why: reopening rebuilds the postings from every turn's saved stems (one sort of every
occurrence), about half of what a reopen costs; a database keeps its index on disk rather than
build it again at every start. The snapshot is a cache, never the record. It is written when the
memory closes, stamped with the file's generation (a count every ingest's transaction moves on,
:class:`graphmem.memory.saved.MemoryFile`), and read only while that stamp, the number of turns
and the ranking's constants all still match. Otherwise (a process killed before it closed, a file
written since) the postings are rebuilt from the turns, as they always could be.

Each array is kept as the raw bytes of one fixed type per name, and the terms as JSON: no pickle,
so opening a file runs no code from it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

import numpy as np

from graphmem.memory.live import LiveIndex
from graphmem.memory.options import MemoryOptions
from graphmem.memory.postings import DOC, Postings
from graphmem.memory.vocabulary import LiveVocabulary

__all__ = ["SCHEMA", "VERSION", "kept", "rows"]

SCHEMA = "CREATE TABLE IF NOT EXISTS snapshot (name TEXT PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID"
VERSION = 1
"""The snapshot's own layout: one of another layout is not read (the postings are rebuilt)."""

_TYPES: dict[str, type] = {
    "sizes": np.int64, "docs": DOC, "tfs": np.float64, "wide": np.bool_, "sorted": np.bool_, "df": np.int64,
    "length": np.float64, "vocab": np.int64,
}
"""Each array's type: the bytes are read back as exactly this."""


def rows(index: LiveIndex, generation: int) -> list[tuple[str, bytes]]:
    """The snapshot of ``index`` at the file's ``generation``, as rows of the table ``snapshot``."""
    terms, flat, total = index.postings.arrays()
    n, vocab_terms, vocab_df = index.vocab.counts()
    head = {"version": VERSION, "generation": generation, "turns": len(index), "total": total,
            "k1": index.postings.k1, "b": index.postings.b, "vocab_n": n, "terms": terms, "vocab_terms": vocab_terms}
    arrays = {**flat, "vocab": vocab_df}
    return [("head", json.dumps(head).encode())] + [
        (name, np.ascontiguousarray(arrays[name], dtype=kind).tobytes()) for name, kind in _TYPES.items()]


def kept(saved: Mapping[str, bytes], generation: int, turns: int,
         options: MemoryOptions) -> tuple[Postings, LiveVocabulary] | None:
    """The postings and vocabulary a snapshot holds, when it is the file's as it stands (the same
    generation, as many turns, the same constants, every array its size); else None."""
    if "head" not in saved or any(name not in saved for name in _TYPES):
        return None
    head = json.loads(saved["head"])
    if (head.get("version"), head.get("generation"), head.get("turns")) != (VERSION, generation, turns):
        return None
    if (head["k1"], head["b"]) != (options.k1, options.b):
        return None
    # bytearray: arrays of their own, writable (a posting read again is changed in place)
    flat = {name: np.frombuffer(bytearray(saved[name]), dtype=kind) for name, kind in _TYPES.items()}
    terms, vocab_terms = head["terms"], head["vocab_terms"]
    m = len(terms)
    if not (len(flat["sizes"]) == len(flat["wide"]) == len(flat["sorted"]) == len(flat["df"]) == m
            and int(flat["sizes"].sum()) == len(flat["docs"]) == len(flat["tfs"])
            and len(flat["length"]) == turns == head["vocab_n"] and len(flat["vocab"]) == len(vocab_terms)):
        return None
    postings = Postings.of_arrays(options.k1, options.b, terms, flat, head["total"])
    return postings, LiveVocabulary.of_counts(head["vocab_n"], vocab_terms, flat["vocab"])
