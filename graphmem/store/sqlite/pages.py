"""The rows of an SQLite file read straight off its pages, for salvage when its B-tree cannot be walked.

Why by hand: when a table's root or an interior page is damaged, SQLite cannot reach the leaves below
it, though they are whole; and the stdlib's ``sqlite3`` has no ``.recover``. The file format is public
and small (https://www.sqlite.org/fileformat2.html): every table leaf page (type 13) lists its cells,
each a row id and a record. This module reads those cells, following overflow chains, from every page
that is not on the file's free list, and trusts nothing it reads: the caller keeps a row only when its
own checksum agrees and a live index names it (:mod:`graphmem.store.sqlite.repair`).
"""

from __future__ import annotations

import mmap
import struct
from collections.abc import Iterator

__all__ = ["leaf_rows"]

_LEAF = 13


def leaf_rows(data: bytes | mmap.mmap) -> Iterator[tuple[int, list[object]]]:
    """Every (row id, values) of every table leaf page not on the free list; damaged cells are skipped."""
    if len(data) < 100 or data[:16] != b"SQLite format 3\x00" or data[56:60] != b"\x00\x00\x00\x01":
        return  # not SQLite, or text not in UTF-8 (graphmem's files always are)
    size = struct.unpack(">H", data[16:18])[0]
    size = 65536 if size == 1 else size
    usable = size - data[20]
    free = _free_pages(data, size)
    for page in range(1, len(data) // size + 1):
        if page in free:
            continue
        base = (page - 1) * size
        head = base + (100 if page == 1 else 0)
        if data[head] != _LEAF:
            continue
        cells = struct.unpack(">H", data[head + 3:head + 5])[0]
        for i in range(cells):
            try:
                at = base + struct.unpack(">H", data[head + 8 + 2 * i:head + 10 + 2 * i])[0]
                yield _cell(data, at, size, usable)
            except (IndexError, ValueError, struct.error, UnicodeDecodeError):
                continue


def _free_pages(data: bytes | mmap.mmap, size: int) -> set[int]:
    """The pages on the free list (trunk and leaves), as far as its chain can be read: a free page keeps
    the rows it held before it was freed, forgotten ones among them."""
    free: set[int] = set()
    trunk = struct.unpack(">I", data[32:36])[0]
    while trunk and trunk not in free and trunk * size <= len(data):
        free.add(trunk)
        base = (trunk - 1) * size
        following, count = struct.unpack(">II", data[base:base + 8])
        count = min(count, (size - 8) // 4)
        free.update(struct.unpack(f">{count}I", data[base + 8:base + 8 + 4 * count]))
        trunk = following
    return free


def _cell(data: bytes | mmap.mmap, at: int, size: int, usable: int) -> tuple[int, list[object]]:
    """One table leaf cell: its row id and its record's values."""
    length, at = _varint(data, at)
    rowid, at = _varint(data, at)
    rowid = rowid - (1 << 64) if rowid >= 1 << 63 else rowid
    room = usable - 35
    if length <= room:
        payload = data[at:at + length]
    else:
        least = (usable - 12) * 32 // 255 - 23
        local = least + (length - least) % (usable - 4)
        local = local if local <= room else least
        parts, page = [data[at:at + local]], struct.unpack(">I", data[at + local:at + local + 4])[0]
        got, seen = local, set()
        while got < length and page and page not in seen and page * size <= len(data):
            seen.add(page)
            base = (page - 1) * size
            piece = data[base + 4:base + min(usable, 4 + length - got)]
            parts.append(piece)
            got += len(piece)
            page = struct.unpack(">I", data[base:base + 4])[0]
        payload = b"".join(parts)
    if len(payload) != length:
        raise ValueError("a cell cut short")
    return rowid, _record(payload)


def _record(payload: bytes) -> list[object]:
    """A record's values (NULL, integers, floats, text, blobs)."""
    header, at = _varint(payload, 0)
    kinds, body = [], header
    while at < header:
        kind, at = _varint(payload, at)
        kinds.append(kind)
    values: list[object] = []
    for kind in kinds:
        if kind in (0, 8, 9):
            values.append(None if kind == 0 else kind - 8)
        elif kind <= 6:
            width = (1, 2, 3, 4, 6, 8)[kind - 1]
            values.append(int.from_bytes(payload[body:body + width], "big", signed=True))
            body += width
        elif kind == 7:
            values.append(struct.unpack(">d", payload[body:body + 8])[0])
            body += 8
        elif kind >= 12:
            width = (kind - 12) // 2
            raw = payload[body:body + width]
            values.append(raw.decode("utf-8") if kind % 2 else raw)
            body += width
        else:
            raise ValueError(f"serial type {kind}")
        if body > len(payload):
            raise ValueError("a record cut short")
    return values


def _varint(data: bytes | mmap.mmap, at: int) -> tuple[int, int]:
    """SQLite's big-endian varint (1 to 9 bytes) at ``at``, and where the next value starts."""
    value = 0
    for i in range(8):
        byte = data[at + i]
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            return value, at + i + 1
    return (value << 8) | data[at + 8], at + 9
