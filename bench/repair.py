"""What ``graphmem repair`` salvages of a memory file damaged as files are: cut at its tail, a page of the
turns table zeroed (a leaf, the root). Prints, per damage, whether opening named repair and how many of
the file's turns came back as written. Usage: ``python bench/repair.py [--turns 600]``."""

from __future__ import annotations

import argparse
import sqlite3
import tempfile
import time
from pathlib import Path

from graphmem import Memory
from graphmem.errors import GraphmemError
from graphmem.store.sqlite.repair import readable

PAGE = 16384


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=600)
    args = parser.parse_args()
    turns = [{"id": f"t{i}", "speaker": "Ann" if i % 2 else "Bob", "conversation": f"c{i % 3}",
              "text": f"Turn {i}: we talked about kayaks, the lake number {i} and a dog called Rex. " * 3,
              "date": f"2023-05-{1 + i % 28:02d}"} for i in range(args.turns)]
    with tempfile.TemporaryDirectory() as tmp:
        original = Path(tmp) / "memory.db"
        with Memory(path=original) as mem:
            mem.ingest(turns)
        data = original.read_bytes()
        db = sqlite3.connect(original)
        root = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'turns'").fetchone()[0]
        db.close()
        print(f"{len(turns)} turns, {len(data)} bytes ({len(data) // PAGE} pages of {PAGE})")
        damages = {f"cut {cut:.1%} off the tail": data[:int(len(data) * (1 - cut))]
                   for cut in (0.5, 0.4, 0.3, 0.2, 0.1, 0.08, 0.05, 0.03, 0.018)}
        for name, page in (("leaf of turn 0", data.index(b"Turn 0: we") // PAGE + 1),
                           (f"leaf of turn {len(turns) // 2}", data.index(f"Turn {len(turns) // 2}: we".encode()) // PAGE + 1),
                           ("root of the turns table", root)):
            zeroed = bytearray(data)
            zeroed[(page - 1) * PAGE:page * PAGE] = bytes(PAGE)
            damages[f"page {page} zeroed ({name})"] = bytes(zeroed)
        for name, content in damages.items():
            damaged = Path(tmp) / "damaged.db"
            damaged.write_bytes(content)
            try:
                with Memory(path=damaged, read_only=True):
                    said = "opens whole"
            except GraphmemError as e:
                said = "refused naming repair" if "graphmem repair --memory" in str(e) else f"refused: {e}"
            start = time.process_time()
            salvage = readable(damaged)
            cpu = time.process_time() - start
            print(f"{name:42} {said:22} salvaged {len(salvage.turns):4} of {len(turns)}  "
                  f"({len(salvage.lost)} named lost; {cpu:.2f} s CPU)")


if __name__ == "__main__":
    main()
