"""A saved memory's postings and document frequencies, kept in its file when it closes.

Why: reopening rebuilds the postings from every turn's saved stems (one sort of every occurrence), a
large share of what a reopen costs (docs/memory.md, "Figures behind the code"); a database keeps
its index on disk rather than build it again at every start. The snapshot is a cache, never the
record. It is written when the memory closes, stamped with the file's generation (a count every
ingest's transaction moves on, :class:`graphmem.store.sqlite.store.MemoryFile`), and read only while that
stamp, the number of turns, every setting of the memory's options and the postings' layout
(:data:`LAYOUT`) all still match, and every part is there, whole (a CRC-32 each, the head's too) and
fits the rest. Only plain settings are compared, all of them, whether or not they shape the
postings: another one costs a rebuild, never a wrong index. Otherwise (a process killed before it
closed, a file written since, other settings, a damaged file) the postings are rebuilt from the
turns, as they always could be.

Each array is kept as the raw bytes of one fixed type per name, and the terms as JSON: no pickle,
so opening a file runs no code from it.
"""

from __future__ import annotations

import dataclasses
import json
import math
import zlib
from collections.abc import Mapping

import numpy as np

from graphmem.index.live import LiveIndex
from graphmem.index.options import MemoryOptions
from graphmem.index.postings import DOC, LAYOUT, Postings
from graphmem.index.vocabulary import LiveVocabulary
from graphmem.store.users import scoped, unscoped, user_of

__all__ = ["SCHEMA", "VERSION", "kept", "part", "rows"]

SCHEMA = "CREATE TABLE IF NOT EXISTS snapshot (name TEXT PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID"
VERSION = 1
"""The snapshot's own layout: one of another layout is not read (the postings are rebuilt)."""

_TYPES: dict[str, type] = {
    "sizes": np.int64, "docs": DOC, "tfs": np.float64, "wide": np.bool_, "sorted": np.bool_, "df": np.int64,
    "length": np.float64, "vocab": np.int64,
}
"""Each array's type: the bytes are read back as exactly this."""


def _settings(options: MemoryOptions) -> dict:
    """Every plain setting of ``options`` (none is a function for a saved memory): a snapshot made
    under other settings is not read, whichever of them shaped the postings."""
    plain = {f.name: getattr(options, f.name) for f in dataclasses.fields(options)}
    return json.loads(json.dumps({k: v for k, v in plain.items() if not callable(v)}, default=str))


def _names(values: object) -> bool:
    """A list of distinct strings (terms numbered by their place)."""
    return isinstance(values, list) and all(isinstance(v, str) for v in values) and len(set(values)) == len(values)


def rows(index: LiveIndex, generation: int, user: str | None = None) -> list[tuple[str, bytes | memoryview]]:
    """The snapshot of ``index`` (``user``'s: each user's index is its own, its rows named under the
    user's scoped key, :func:`graphmem.store.users.scoped`) at the file's ``generation``, as rows of
    the table ``snapshot`` (each array handed to SQLite as a view of its bytes, not a copy)."""
    terms, flat, total = index.postings.arrays()
    n, vocab_terms, vocab_df = index.vocab.counts()
    arrays = {name: np.ascontiguousarray({**flat, "vocab": vocab_df}[name], dtype=kind) for name, kind in _TYPES.items()}
    blobs = {name: memoryview(a).cast("B") for name, a in arrays.items()}
    head = {"version": VERSION, "layout": LAYOUT, "generation": generation, "turns": len(index), "total": total,
            "settings": _settings(index.options), "vocab_n": n, "terms": terms, "vocab_terms": vocab_terms,
            "crc": {name: zlib.crc32(blob) for name, blob in blobs.items()}}
    text = json.dumps(head).encode()
    parts = [("head", b"%08x" % zlib.crc32(text) + text), *blobs.items()]  # the head's own CRC-32 first
    return [(scoped(name, user), value) for name, value in parts]


def part(saved: Mapping[str, bytes], user: str | None) -> dict[str, bytes]:
    """The rows of ``user``'s snapshot among every user's, under their plain names."""
    return {unscoped(name): value for name, value in saved.items() if user_of(name) == user}


def kept(saved: Mapping[str, bytes], generation: int, turns: int,
         options: MemoryOptions) -> tuple[Postings, LiveVocabulary] | None:
    """The postings and vocabulary a snapshot holds, when it is the file's as it stands (the same
    generation, as many turns, the same settings and layout, every part whole and its size); else
    None, whatever is wrong with it (a snapshot is never worth a memory that does not open)."""
    try:
        return _kept(saved, generation, turns, options)
    except Exception:  # noqa: BLE001 (a damaged head or part, whatever the damage: the turns rebuild it)
        return None


def _kept(saved: Mapping[str, bytes], generation: int, turns: int,
          options: MemoryOptions) -> tuple[Postings, LiveVocabulary] | None:
    if "head" not in saved or any(name not in saved for name in _TYPES):
        return None
    crc, text = saved["head"][:8], saved["head"][8:]
    if crc != b"%08x" % zlib.crc32(text):
        return None
    head = json.loads(text)
    if (head["version"], head["layout"], head["generation"], head["turns"]) != (VERSION, LAYOUT, generation, turns):
        return None
    if head["settings"] != _settings(options):
        return None
    if any(zlib.crc32(saved[name]) != head["crc"][name] for name in _TYPES):
        return None
    # bytearray: arrays of their own, writable (a posting read again is changed in place)
    flat = {name: np.frombuffer(bytearray(saved[name]), dtype=kind) for name, kind in _TYPES.items()}
    terms, vocab_terms, total = head["terms"], head["vocab_terms"], head["total"]
    if not (_names(terms) and _names(vocab_terms) and isinstance(total, float) and math.isfinite(total)):
        return None
    m, docs = len(terms), flat["docs"]
    if not (len(flat["sizes"]) == len(flat["wide"]) == len(flat["sorted"]) == len(flat["df"]) == m
            and bool((flat["sizes"] >= 0).all()) and int(flat["sizes"].sum()) == len(docs) == len(flat["tfs"])
            and (not len(docs) or 0 <= int(docs.min()) and int(docs.max()) < turns)
            and len(flat["length"]) == turns == head["vocab_n"] and len(flat["vocab"]) == len(vocab_terms)):
        return None
    postings = Postings.of_arrays(options.k1, options.b, terms, flat, head["total"])
    return postings, LiveVocabulary.of_counts(head["vocab_n"], vocab_terms, flat["vocab"])
