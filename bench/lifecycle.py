"""What the memory's lifecycle verbs cost at scale: forget, users, facts (issue #40's targets).

Why: a memory that keeps a hundred thousand turns must still forget (and update) one at a cost set by that turn,
keep one user's searches as fast among two hundred users as alone, and say what it holds about a
person at a cost set by that person's conversations. The only honest way to show that is to build
the memory that big and measure, in every store, in one run.

    python bench/lifecycle.py scale --stores ram,file,neo4j [--r 16] [--trials 30] [--whole 3] [--people 30]
    python bench/lifecycle.py users --stores ram,file,neo4j [--users 200] [--user-conv conv-42] [--rounds 3]
        [--neo4j-alone-uri bolt://localhost:7693 --neo4j-alone-dir DIR] [--neo4j-reuse]

``scale``: LoCoMo copied r times (:func:`memory_scale.copy_batches`: fresh ids and speaker names per
copy), ingested ``--batch`` turns at a time (the build's wall and CPU time reported), then

- ``facts(about)`` for ``--people`` speakers drawn at random from every copy: the first call for a
  person (cold: an embedded memory reads a conversation's claims the first time they are asked
  for, a saved one also writes them to its file) and ``--warm`` calls after it (warm);
- ``--trials`` single turns drawn at random, forgotten one at a time (``forget(ids=[id])``), each
  checked afterwards: ``len(mem)`` one less, and a search for its own text in its conversation
  does not return it;
- ``--whole`` conversations of 550 to 700 turns, from copies the singles did not draw from where
  they can, each forgotten whole (``forget(conversation=...)``), checked: ``len(mem)`` dropped by
  what it held, ``turns(conversation)`` empty;
- ``--trials`` single turns still held, drawn at random, updated one at a time (``update(id, text=...,
  metadata=...)``: another turn's text and a tag), each checked: ``len(mem)`` unchanged and a search
  for its new text under its tag returns it first.

``users``: ``--users`` users, each one LoCoMo conversation (copy j's, ids and names its own; a user
holds about 600 turns); the target user holds copy 0's ``--user-conv``. Its LoCoMo questions are
searched with ``user=`` that user in a store of that user alone and in a store of every user: one
warm-up pass (``--warmup``), then ``--rounds`` timed passes. The two stores are held at once and their searches
interleave, question by question, so the machine's load moves both alike; Neo4j holds one database a
server, so that needs a second server for the user alone (``--neo4j-alone-uri``, and its
``scripts/neo4j-local`` directory for its CPU time), else the one database is measured with the user
alone and again after the other users were ingested. ``--neo4j-reuse`` keeps a database that holds the
users already (an earlier run's: the ingest then skips every turn, and its time is that check's).

Every figure is a p50 (and p95) of wall time beside the p50 of this process's CPU time
(``time.process_time``), which other jobs on a shared machine move less; for Neo4j also the
server's CPU per call (the JVM's user+system time over all the calls, divided by their number:
/proc, 10 ms ticks, so a mean). Neo4j: ``NEO4J_URI``/``NEO4J_PASSWORD`` name the server; its
database must be empty, or ``--neo4j-clear`` empties it first (every node: never point it at a
database you need).
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import pstats
import os
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from memory_scale import DEFAULT_DATA, ROOT, _pct, copy_batches  # noqa: E402

STORES = ("ram", "file", "neo4j")
FORGET_ONE = {"ram": 0.005, "file": 0.005, "neo4j": 0.050}
FORGET_CONVERSATION = 0.5
USERS_RATIO = 1.5
FACTS = {"ram": 0.005, "file": 0.005, "neo4j": 0.030}
"""Issue #40's targets, in seconds (the users target a ratio of p50s)."""
PROFILE = [0]
"""With ``--profile N``: every timed call runs under cProfile timing by this process's CPU time (so
waiting, for the machine or a server, does not count), and each figure is followed by the N functions
its calls spent the most cumulative CPU time in (the profiler's overhead inflates the figures)."""


class Store:
    """One memory under measure: its store's name, where a file memory lives, and the Neo4j
    server's process (for its CPU time)."""

    def __init__(self, name: str, clear: bool, reuse: bool = False, uri: str | None = None, local: str | None = None):
        from graphmem import Memory

        self.name, self.dir = name, Path(tempfile.mkdtemp(prefix="lifecycle-")) if name == "file" else None
        if name == "ram":
            self.mem = Memory()
        elif name == "file":
            self.mem = Memory(path=str(self.dir / "memory.db"))
        else:
            self.mem = Memory(backend="neo4j", **({"uri": uri} if uri else {}))
            _empty(self.mem, clear, reuse)
        self.pid = _server_pid(local) if name == "neo4j" else None

    def server_cpu(self) -> float | None:
        """The Neo4j server's CPU seconds so far (user + system), or None (embedded, or not found)."""
        if self.pid is None:
            return None
        try:
            fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return None
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def close(self) -> None:
        self.mem.close()
        if self.dir is not None:
            shutil.rmtree(self.dir, ignore_errors=True)
        gc.collect()


def _server_pid(local: str | None = None) -> int | None:
    """The local server's pid (``scripts/neo4j-local``'s pid file in ``local``, else in NEO4J_LOCAL_DIR
    or the repository's .neo4j), if this machine runs it."""
    where = Path(local or os.environ.get("NEO4J_LOCAL_DIR", ROOT / ".neo4j")) / "neo4j.pid"
    try:
        return int(where.read_text().strip())
    except (OSError, ValueError):
        return None


def _empty(mem, clear: bool, reuse: bool = False) -> None:
    """A Neo4j database with nothing in it: refused unless it is empty or ``clear`` is given (``reuse``:
    kept as it is, its turns skipped by the ingests that hold them with the same content)."""
    client = mem.store.client
    held = client.run("MATCH (n) RETURN count(n) AS n")[0]["n"]
    if held and reuse:
        return
    if held and not clear:
        raise SystemExit(f"{mem.store.where} holds {held} nodes: this bench needs an empty database"
                         " (--neo4j-clear deletes every node of it)")
    if held:  # CALL ... IN TRANSACTIONS runs only in an auto-commit transaction, not a managed one
        with client.driver.session(database=client.settings.database) as session:
            session.run("MATCH (n) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS").consume()


class Timings:
    """Calls timed one by one (wall, this process's CPU) and the server's CPU over all of them."""

    def __init__(self, store: Store):
        self.store, self.wall, self.cpu = store, [], []
        self.server, self.has_server = 0.0, store.server_cpu() is not None
        self.profile = cProfile.Profile(time.process_time) if PROFILE[0] else None

    def __call__(self, fn: Callable, *args, **kwargs):
        before = self.store.server_cpu()
        t, cpu = time.perf_counter(), time.process_time()
        if self.profile is not None:
            out = self.profile.runcall(fn, *args, **kwargs)
        else:
            out = fn(*args, **kwargs)
        self.wall.append(time.perf_counter() - t)
        self.cpu.append(time.process_time() - cpu)
        if before is not None:
            self.server += self.store.server_cpu() - before
        return out

    def row(self, label: str, target: float | None = None) -> str:
        ms = lambda v: f"{1000 * v:.2f}"  # noqa: E731
        p50 = _pct(self.wall, 50)
        server = f", server CPU {ms(self.server / len(self.wall))} ms a call (mean)" if self.has_server else ""
        verdict = "" if target is None else f"  [target <= {ms(target)} ms: {'met' if p50 <= target else 'MISSED'}]"
        return (f"  {label}: n={len(self.wall)} p50 {ms(p50)} ms, p95 {ms(_pct(self.wall, 95))} ms"
                f" (CPU p50 {ms(_pct(self.cpu, 50))} ms{server}){verdict}{self.profiled()}")

    def profiled(self) -> str:
        """The functions the calls spent the most cumulative time in (``--profile``), else nothing."""
        if self.profile is None:
            return ""
        out = io.StringIO()
        pstats.Stats(self.profile, stream=out).sort_stats("cumulative").print_stats(PROFILE[0])
        rows = out.getvalue().split("   ncalls", 1)[1].strip().splitlines()[1:]
        return "\n    profiled, CPU s (ncalls, tottime, percall, cumtime, percall, function):\n" + \
            "\n".join(f"      {row.strip()}" for row in rows if row.strip())


def ingest(store: Store, records: Sequence[dict], batch: int) -> str:
    """The records ingested ``batch`` at a time; what it took, as a line."""
    t, cpu, server = time.perf_counter(), time.process_time(), store.server_cpu()
    for i in range(0, len(records), batch):
        store.mem.ingest(records[i:i + batch])
    wall, cpu = time.perf_counter() - t, time.process_time() - cpu
    spent = f", server CPU {store.server_cpu() - server:.1f} s" if server is not None else ""
    return (f"  build: {len(records)} turns in batches of {batch}: {wall:.1f} s wall, {cpu:.1f} s CPU{spent}"
            f" ({len(records) / wall:.0f} turns/s wall); the store holds {len(store.mem)}")


def scale(store: Store, args: argparse.Namespace) -> None:
    """LoCoMo x r in ``store``: facts, then single turns forgotten, then whole conversations."""
    batches = copy_batches(args.data, args.r)
    next(batches)  # the questions: not asked here
    records = [rec for b in batches for rec in b]
    print(f"{store.name}: LoCoMo x {args.r}", flush=True)
    print(ingest(store, records, args.batch), flush=True)
    rng = random.Random(0)
    facts(store, records, args, rng)
    drawn = forget_singles(store, records, args.trials, rng)
    forget_whole(store, records, args.whole, drawn, rng)
    update_singles(store, records, args.trials, random.Random(1))


def update_singles(store: Store, records: Sequence[dict], trials: int, rng: random.Random) -> None:
    """Single held turns updated one at a time (another turn's text, a tag), each checked: one
    transaction of the store, a forgetting and an ingest (issue #48; no target: it costs both)."""
    mem, timed, failed = store.mem, Timings(store), []
    texts = [rec["text"] for rec in rng.sample(list(records), trials)]
    held = [rec for rec in rng.sample(list(records), 4 * trials) if mem.get(rec["id"]) is not None][:trials]
    for rec, text in zip(held, texts):
        count = len(mem)
        new = f"{text} zq{len(timed.wall)}update"
        turn = timed(mem.update, rec["id"], text=new, metadata={"updated": True})
        found = mem.search(new, k=1, conversation=rec["conversation"], where={"updated": True})
        if turn.text != new or len(mem) != count or found != [rec["id"]]:
            failed.append(rec["id"])
    print(timed.row(f"update one turn ({len(held)} drawn at random, one at a time)"))
    print(f"    checks (count unchanged, found first by its new text under its tag): "
          f"{len(held) - len(failed)} of {len(held)} passed{'; failed: ' + ', '.join(failed) if failed else ''}",
          flush=True)


def facts(store: Store, records: Sequence[dict], args: argparse.Namespace, rng: random.Random) -> None:
    """``facts(about)`` for people drawn from every copy: each one's first call, then warm calls."""
    people = sorted({rec["speaker"] for rec in records})
    cold, warm, found = Timings(store), Timings(store), []
    for who in rng.sample(people, min(args.people, len(people))):
        found.append(len(cold(store.mem.facts, who)))
        for _ in range(args.warm):
            warm(store.mem.facts, who)
    print(f"  facts(about) for {len(cold.wall)} people drawn from {len(people)} (facts found: p50"
          f" {_pct(found, 50)}, min {min(found)}, max {max(found)})", flush=True)
    print(cold.row("first call (cold: an embedded memory reads the person's conversations' claims here)"))
    print(warm.row(f"warm ({args.warm} calls a person after the first)", FACTS[store.name]), flush=True)


def forget_singles(store: Store, records: Sequence[dict], trials: int, rng: random.Random) -> set[str]:
    """Single turns forgotten one at a time, each checked; returns the conversations drawn from."""
    mem, timed, failed = store.mem, Timings(store), []
    drawn = rng.sample(list(records), trials)
    for rec in drawn:
        held = len(mem)
        n = timed(mem.forget, ids=[rec["id"]])
        found = mem.search(rec["text"], k=5, conversation=rec["conversation"])
        if n != 1 or len(mem) != held - 1 or rec["id"] in found:
            failed.append(rec["id"])
    print(timed.row(f"forget one turn ({trials} drawn at random, one at a time)", FORGET_ONE[store.name]))
    print(f"    checks (count one less, not found by a search for its own text): "
          f"{trials - len(failed)} of {trials} passed{'; failed: ' + ', '.join(failed) if failed else ''}", flush=True)
    return {rec["conversation"] for rec in drawn}


def forget_whole(store: Store, records: Sequence[dict], whole: int, drawn: set[str], rng: random.Random) -> None:
    """Whole conversations of 550 to 700 turns forgotten, each timed and checked; those the single
    forgets drew from are passed over while others remain."""
    sizes: dict[str, int] = {}
    for rec in records:
        sizes[rec["conversation"]] = sizes.get(rec["conversation"], 0) + 1
    fit = sorted(c for c, n in sizes.items() if 550 <= n <= 700)
    fresh = [c for c in fit if c not in drawn]
    chosen = rng.sample(fresh, min(whole, len(fresh)))
    chosen += rng.sample(sorted(set(fit) & drawn), max(0, whole - len(chosen)))
    mem = store.mem
    for conv in chosen:
        timed, held = Timings(store), len(mem)
        n = timed(mem.forget, conversation=conv)
        ok = len(mem) == held - n and not list(mem.turns(conv))
        wall = timed.wall[0]
        server = f", server CPU {timed.server:.2f} s" if timed.has_server else ""
        verdict = "met" if wall <= FORGET_CONVERSATION else "MISSED"
        print(f"  forget conversation {conv} ({n} turns): {wall:.3f} s wall, {timed.cpu[0]:.3f} s CPU{server}"
              f"  [target <= {FORGET_CONVERSATION} s: {verdict}]; checked (count, no turn left): {ok}"
              + timed.profiled(), flush=True)


def user_records(data: str, users: int, target: str) -> tuple[str, list[dict], list[dict], list[str]]:
    """``users`` users, each one conversation of a LoCoMo copy (copy j's ids and names), the target
    user holding copy 0's ``target``: that user, their records, everyone else's, their questions."""
    from graphmem.data.locomo import load_file

    batches = copy_batches(data, -(-users // 10))
    next(batches)
    convs: dict[str, list[dict]] = {}
    for batch in batches:
        for rec in batch:
            convs.setdefault(rec["conversation"], []).append(rec)
    names = list(convs)[:users]
    mine = f"r0/{target}"
    if mine not in names:
        raise SystemExit(f"--user-conv {target}: not a LoCoMo conversation")
    owner = {c: f"user{k:03d}" for k, c in enumerate(names)}
    own = [{**rec, "user": owner[mine]} for rec in convs[mine]]
    rest = [{**rec, "user": owner[c]} for c in names if c != mine for rec in convs[c]]
    questions = next(c for c in load_file(data).conversations if c.id == target).questions
    return owner[mine], own, rest, [q.text for q in questions]


def users(name: str, args: argparse.Namespace) -> None:
    """One user's questions searched in a store of that user alone and in a store of ``--users`` users.
    Both held at once (embedded; Neo4j with ``--neo4j-alone-uri``, a second server), their searches
    interleave, question by question, so a machine's load moves both alike; else (Neo4j with one server)
    the store is measured with the user alone, then again after the other users were ingested."""
    user, own, rest, questions = user_records(args.data, args.users, args.user_conv)
    both = name != "neo4j" or args.neo4j_alone_uri is not None
    print(f"{name}: user {user} ({len(own)} turns of copy 0's {args.user_conv}), {len(questions)} questions,"
          f" {args.rounds} timed rounds after {args.warmup} warm-up, "
          + ("the two stores' searches interleaved" if both else "the user alone first, then among the others"),
          flush=True)
    among = Store(name, args.neo4j_clear, args.neo4j_reuse)
    alone = Store(name, args.neo4j_clear, False, args.neo4j_alone_uri, args.neo4j_alone_dir) if both else among
    try:
        print(ingest(alone, own, args.batch) + " (the user alone)", flush=True)
        if both:
            print(ingest(among, own + rest, args.batch) + f" ({args.users} users)", flush=True)
            (t_alone, got_alone), (t_among, got_among) = _searches([alone, among], user, questions, args.rounds, args.warmup)
        else:
            ((t_alone, got_alone),) = _searches([alone], user, questions, args.rounds, args.warmup)
            print(ingest(among, rest, args.batch) + f" ({args.users} users)", flush=True)
            ((t_among, got_among),) = _searches([among], user, questions, args.rounds, args.warmup)
    finally:
        among.close()
        if both:
            alone.close()
    print(t_alone.row("search, the user alone"))
    print(t_among.row(f"search, among {args.users} users"))
    _compare(args, t_alone, t_among, got_alone, got_among)


def _compare(args: argparse.Namespace, alone: Timings, among: Timings, got_alone: list, got_among: list) -> None:
    wall = _pct(among.wall, 50) / _pct(alone.wall, 50)
    cpu = _pct(among.cpu, 50) / _pct(alone.cpu, 50)
    same = sum(a == b for a, b in zip(got_alone, got_among, strict=True))
    shared = sum(len(set(a) & set(b)) for a, b in zip(got_alone, got_among, strict=True))
    shared /= max(1, sum(map(len, got_alone)))
    theirs = all(i.startswith(f"r0/{args.user_conv}/") for ids in got_alone + got_among for i in ids)
    print(f"  ratio of p50s, among {args.users} / alone: wall {wall:.2f}, CPU {cpu:.2f}"
          f"  [target <= {USERS_RATIO}: {'met' if wall <= USERS_RATIO else 'MISSED'}]; same top 5 for {same} of"
          f" {len(got_alone)} questions, {100 * shared:.0f}% of the turns found alone found among them (each"
          f" user's statistics are their own); only the user's turns found: {theirs}", flush=True)


def _searches(stores: Sequence[Store], user: str, questions: Sequence[str], rounds: int,
              warmup: int = 1) -> list[tuple[Timings, list[list[str]]]]:
    """``warmup`` untimed passes over the questions in each store (a Neo4j server compiles its plans), then
    ``rounds`` timed, each question asked of every store in turn (the order reversed every round)."""
    got = [[s.mem.search(q, k=5, user=user) for q in questions] for s in stores]
    for _ in range(warmup - 1):
        for s in stores:
            for q in questions:
                s.mem.search(q, k=5, user=user)
    timed = [Timings(s) for s in stores]
    for r in range(rounds):
        for q in questions:
            for s, t in (zip(stores, timed) if r % 2 == 0 else reversed(list(zip(stores, timed)))):
                t(s.mem.search, q, k=5, user=user)
    return list(zip(timed, got))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("measure", choices=("scale", "users"))
    p.add_argument("--stores", default="ram,file,neo4j", help="comma-separated, of " + ", ".join(STORES))
    p.add_argument("--data", default=DEFAULT_DATA)
    p.add_argument("--batch", type=int, default=1000, help="turns an ingest")
    p.add_argument("--r", type=int, default=16, help="scale: LoCoMo copies")
    p.add_argument("--trials", type=int, default=30, help="scale: single turns forgotten")
    p.add_argument("--whole", type=int, default=3, help="scale: whole conversations forgotten")
    p.add_argument("--people", type=int, default=30, help="scale: people asked about")
    p.add_argument("--warm", type=int, default=5, help="scale: warm facts calls a person")
    p.add_argument("--users", type=int, default=200, help="users: how many")
    p.add_argument("--user-conv", default="conv-42", help="users: the target user's LoCoMo conversation")
    p.add_argument("--rounds", type=int, default=3, help="users: timed passes over the questions")
    p.add_argument("--warmup", type=int, default=1, help="users: untimed passes over the questions first")
    p.add_argument("--profile", type=int, default=0, metavar="N",
                   help="run the timed calls under cProfile and print the N costliest functions of each figure")
    p.add_argument("--neo4j-clear", action="store_true", help="empty the Neo4j database first (every node)")
    p.add_argument("--neo4j-reuse", action="store_true",
                   help="users: keep what the database holds (the 200 users of an earlier run: ingest skips them)")
    p.add_argument("--neo4j-alone-uri", help="users: a second Neo4j server for the user alone (searches interleaved)")
    p.add_argument("--neo4j-alone-dir", help="users: that server's scripts/neo4j-local directory (its CPU time)")
    args = p.parse_args(argv)
    stores, PROFILE[0] = args.stores.split(","), args.profile
    if unknown := set(stores) - set(STORES):
        p.error(f"unknown stores: {', '.join(sorted(unknown))}")
    import graphmem

    print(f"graphmem from {Path(graphmem.__file__).parent}; {os.cpu_count()} cores; load average"
          f" {', '.join(f'{x:.2f}' for x in os.getloadavg())} at the start")
    for name in stores:
        t = time.perf_counter()
        if args.measure == "users":
            users(name, args)
        else:
            store = Store(name, args.neo4j_clear)
            try:
                scale(store, args)
            finally:
                store.close()
        print(f"  ({name}: {time.perf_counter() - t:.0f} s in all)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
