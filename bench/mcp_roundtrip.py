"""What the MCP server adds to a memory call: a tool's round trip over stdio beside the same call in process.

Why: an agent calls ``search`` before it answers and ``remember`` after every turn, so the server
must add little to what the memory itself costs. Measured at 23,528 turns (LoCoMo copied 4 times,
as ``bench/memory_scale.py`` copies it: each copy with its own ids and speaker names), for a memory
in RAM and one in a file, in three columns:

* ``Memory``: the verb called directly (``records_for``; ``ingest`` of one record);
* ``tools``: the server's own layer in process (``graphmem.server.tools.Tools.call``: the
  argument checks, the stable id, the JSON result), no transport;
* ``stdio``: the SDK's ``Client`` calling ``graphmem serve`` spawned as a desktop client spawns it:
  JSON-RPC over a pipe both ways, the server's worker thread, the client's check of the result
  against the tool's output schema.

Each ``search`` asks one of LoCoMo's questions (k=5); each ``remember`` is one new turn (a new
sentence, dated, in one of the conversations), given without an id as an agent would. Wall
times, p50 and p95, after a warm-up.

    python bench/mcp_roundtrip.py [--calls 500] [--store ram,file] [--data locomo10.json]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import anyio  # noqa: E402
from memory_scale import DEFAULT_DATA, ROOT, copies  # noqa: E402
from mcp import Client, StdioServerParameters, stdio_client  # noqa: E402

from graphmem.memory.api import Memory  # noqa: E402
from graphmem.server.tools import Tools  # noqa: E402

COPIES = 4
WARM = 50


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def new_turn(n: int, base: dict[str, Any]) -> dict[str, Any]:
    """A turn no copy holds, in the conversation and on the day of ``base``."""
    return {"speaker": base["speaker"], "text": f"I told you about the {n} lanterns yesterday.", "date": base["date"]}


def timed(call: Callable[[int], Any], calls: int) -> list[float]:
    for n in range(WARM):
        call(n)
    out = []
    for n in range(WARM, WARM + calls):
        start = time.perf_counter()
        call(n)
        out.append(time.perf_counter() - start)
    return out


async def timed_async(call: Callable[[int], Awaitable[Any]], calls: int) -> list[float]:
    for n in range(WARM):
        await call(n)
    out = []
    for n in range(WARM, WARM + calls):
        start = time.perf_counter()
        await call(n)
        out.append(time.perf_counter() - start)
    return out


def in_process(mem: Memory, records: list[dict], questions: list[str], calls: int) -> dict[str, list[float]]:
    """The Memory's verbs and the tools' layer, each on its own fresh turns."""
    tools = Tools(mem)

    def ingest(n: int) -> None:
        base = records[n % len(records)]
        assert mem.ingest([{**new_turn(n, base), "id": f"direct/{n}", "conversation": base["conversation"]}]) == 1

    def remember(n: int) -> None:
        base = records[n % len(records)]
        turn = new_turn(100_000 + n, base)
        assert tools.call("remember", {"turns": [turn], "conversation": base["conversation"]})["added"] == 1

    return {"Memory search": timed(lambda n: mem.records_for(questions[n % len(questions)], 5), calls),
            "Memory remember": timed(ingest, calls),
            "tools search": timed(lambda n: tools.call("search", {"query": questions[n % len(questions)]}), calls),
            "tools remember": timed(remember, calls)}


async def over_stdio(args: list[str], records: list[dict], questions: list[str], calls: int,
                     load: bool) -> tuple[dict[str, list[float]], float]:
    """The same calls through a spawned ``graphmem serve``; ``load``: fill its (RAM) memory first
    through ``remember``, 1,000 turns a call, and say how long that took."""
    params = StdioServerParameters(command=sys.executable, args=["-m", "graphmem.cli", "serve", *args],
                                   env={"PYTHONPATH": str(ROOT), "OPENBLAS_NUM_THREADS": "1"}, cwd=str(ROOT))
    loaded = 0.0
    with open(os.devnull, "w") as quiet:
        async with Client(stdio_client(params, errlog=quiet), read_timeout_seconds=600) as client:
            if load:
                start = time.perf_counter()
                for i in range(0, len(records), 1000):
                    batch = records[i:i + 1000]
                    turns = [{k: r[k] for k in ("id", "speaker", "text", "date")} for r in batch]
                    by_conv: dict[str, list] = {}
                    for r, t in zip(batch, turns):
                        by_conv.setdefault(r["conversation"], []).append(t)
                    for conv, some in by_conv.items():
                        result = await client.call_tool("remember", {"turns": some, "conversation": conv})
                        assert not result.is_error, result.content[0].text
                loaded = time.perf_counter() - start

            async def search(n: int) -> None:
                result = await client.call_tool("search", {"query": questions[n % len(questions)]})
                assert not result.is_error, result.content[0].text

            async def remember(n: int) -> None:
                base = records[n % len(records)]
                result = await client.call_tool("remember", {"turns": [new_turn(200_000 + n, base)],
                                                             "conversation": base["conversation"]})
                assert not result.is_error and result.structured_content["added"] == 1, result.content[0].text

            times = {"stdio search": await timed_async(search, calls),
                     "stdio remember": await timed_async(remember, calls)}
    return times, loaded


def run_store(store: str, records: list[dict], questions: list[str], calls: int, scratch: Path) -> list[str]:
    """The rows of one store: search and remember, three columns each."""
    if store == "file":
        served, direct = scratch / "served.db", scratch / "direct.db"
        with Memory(path=served) as mem:
            for i in range(0, len(records), 1000):
                mem.ingest(records[i:i + 1000])
        shutil.copy(served, direct)
        with Memory(path=direct) as mem:
            times = in_process(mem, records, questions, calls)
        stdio, _ = anyio.run(over_stdio, ["--memory", str(served)], records, questions, calls, False)
        note = ""
    else:
        with Memory() as mem:
            mem.ingest(records)
            times = in_process(mem, records, questions, calls)
        stdio, loaded = anyio.run(over_stdio, [], records, questions, calls, True)
        note = f"  (the RAM server was filled through remember: {len(records)} turns in {loaded:.1f} s)"
    times.update(stdio)
    rows = []
    for verb, label in (("search", "search (k=5)"), ("remember", "remember (one turn)")):
        cells = "".join(f"{pct(times[f'{col} {verb}'], 50) * 1000:8.2f}{pct(times[f'{col} {verb}'], 95) * 1000:8.2f}"
                        for col in ("Memory", "tools", "stdio"))
        rows.append(f"{store:<6}{label:<22}{cells}")
    return rows + ([note] if note else [])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--data", default=DEFAULT_DATA)
    p.add_argument("--calls", type=int, default=500, help="timed calls per cell (after %d warm-up calls)" % WARM)
    p.add_argument("--store", default="ram,file", help="ram, file or both (comma-separated)")
    args = p.parse_args(argv)
    records, questions = copies(args.data, COPIES)
    print(f"graphmem serve: tool round trips at {len(records):,} turns (LoCoMo x{COPIES}), {args.calls} calls per "
          f"cell after {WARM} warm-up; wall ms")
    print(f"{'store':<6}{'call':<22}{'Memory':>16}{'tools':>16}{'stdio':>16}")
    print(f"{'':<28}" + "     p50     p95" * 3)
    with tempfile.TemporaryDirectory() as scratch:
        for store in args.store.split(","):
            for row in run_store(store.strip(), records, questions, args.calls, Path(scratch)):
                print(row, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
