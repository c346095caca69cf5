"""Neo4j: reads beside a forget of the same user's turns (issue #47, finding 3).

Why: Neo4j reads at read-committed, so a turn another transaction deletes between a search's match
and its return comes back with every property null; the memory must then answer as if the turn were
gone (it is) or raise one clear error of its own, never a raw ``AttributeError`` from deep in the
reader. Here one thread forgets and re-ingests turns of one user's conversation over and over (a
turn at a time, a few at a time, the conversation whole), while ``--readers`` threads, each with a
memory (a connection) of its own, search and ask that user's memory; every read's outcome is
counted: right (every turn returned whole, of the user's), a ``GraphmemError``, or raw (any other
exception: the defect).

    NEO4J_URI=bolt://localhost:7687 python bench/neo4j_race.py --calls 5000 [--readers 3] [--seconds 600]

It writes only the conversation ``race-<pid>`` of user ``race``, deleted before and after. The
figures: docs/lifecycle.md ("Forget"). Exits 1 when any raw error was seen.
"""

from __future__ import annotations

import argparse
import collections
import os
import sys
import threading
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from graphmem import Memory  # noqa: E402
from graphmem.errors import GraphmemError  # noqa: E402

USER = "race"
QUESTIONS = ["What did Ann say about the kayak?", "Where is the lake?", "When did Bob buy the paddle?",
             "Who went fishing?", "kayak lake paddle"]
WORDS = ["kayak", "lake", "paddle", "fishing", "cabin", "storm"]


def turns(conversation: str, n: int) -> list[dict]:
    """The race's turns: two speakers, every turn holding words the questions ask for."""
    return [{"id": f"r{i}", "speaker": ("Ann", "Bob")[i % 2], "conversation": conversation, "user": USER,
             "date": "2023-05-08", "text": f"I took the {WORDS[i % 6]} to the {WORDS[(i + 1) % 6]} on day {i}."}
            for i in range(n)]


def forgetter(mem: Memory, held: list[dict], conversation: str, stop: threading.Event, errors: list) -> None:
    """Forget and ingest again, round after round: one turn, three turns, then the conversation whole."""
    step = 0
    try:
        while not stop.is_set():
            if step % 3 == 2:
                mem.forget(conversation=conversation, user=USER)
            else:
                mem.forget(ids=[t["id"] for t in held[step % 7: step % 7 + 1 + 2 * (step % 3)]], user=USER)
            mem.ingest(held)
            step += 1
    except Exception:  # noqa: BLE001 (the writer's own failure ends the race and is reported)
        errors.append(traceback.format_exc())
        stop.set()


def reader(mem: Memory, conversation: str, calls: list[int], counts: collections.Counter, raws: list,
           lock: threading.Lock, stop: threading.Event) -> None:
    """Search and ask by turns until ``calls`` are made (shared among the readers)."""
    i = 0
    while not stop.is_set():
        with lock:
            if calls[0] <= 0:
                return
            calls[0] -= 1
        q = QUESTIONS[i % len(QUESTIONS)]
        try:
            if i % 2:
                found = mem.records_for(q, k=5, user=USER)
                ok = all(t.text and t.speaker and t.conversation == conversation for t in found)
            else:
                answer = mem.ask(q, user=USER)
                ok = isinstance(answer.reply, str)
            outcome = "right" if ok else "wrong"
        except GraphmemError as e:
            outcome = f"clear: {type(e).__name__}"
        except Exception:  # noqa: BLE001 (what this script counts)
            outcome = "raw"
            raws.append(traceback.format_exc())
        with lock:
            counts[outcome] += 1
        i += 1


def race(calls: int, readers: int, seconds: float, size: int = 12) -> tuple[collections.Counter, list[str], list[str]]:
    """``calls`` reads beside the forgetter (or until ``seconds``): the outcomes counted, the raw
    errors' tracebacks, and the forgetter's own failure if it had one."""
    conversation = f"race-{os.getpid()}"
    held = turns(conversation, size)
    writer = Memory(backend="neo4j")
    mems = [Memory(backend="neo4j") for _ in range(readers)]
    writer.forget(conversation=conversation, user=USER)
    writer.ingest(held)
    counts: collections.Counter = collections.Counter()
    raws: list[str] = []
    errors: list[str] = []
    stop, lock, left = threading.Event(), threading.Lock(), [calls]
    threads = [threading.Thread(target=reader, args=(m, conversation, left, counts, raws, lock, stop)) for m in mems]
    forget = threading.Thread(target=forgetter, args=(writer, held, conversation, stop, errors))
    forget.start()
    for t in threads:
        t.start()
    deadline = time.monotonic() + seconds
    while any(t.is_alive() for t in threads) and time.monotonic() < deadline:
        time.sleep(0.2)
    stop.set()
    for t in [*threads, forget]:
        t.join()
    try:
        writer.forget(conversation=conversation, user=USER)
    finally:
        for m in [writer, *mems]:
            m.close()
    return counts, raws, errors


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--calls", type=int, default=5000, help="searches and asks, in all (default 5000)")
    ap.add_argument("--readers", type=int, default=3, help="reading threads, each with its own connection")
    ap.add_argument("--seconds", type=float, default=900, help="stop after this long, whatever is left")
    args = ap.parse_args()
    start = time.perf_counter()
    counts, raws, errors = race(args.calls, args.readers, args.seconds)
    made = sum(counts.values())
    print(f"{made} reads beside a forgetter in {time.perf_counter() - start:.0f} s: "
          + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    print(f"raw errors: {counts['raw']}")
    for tb in raws[:3]:
        print(tb)
    for tb in errors:
        print("the forgetter failed:\n" + tb)
    sys.exit(1 if counts["raw"] or counts["wrong"] or errors or made < args.calls else 0)


if __name__ == "__main__":
    main()
