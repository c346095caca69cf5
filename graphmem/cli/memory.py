"""The memory's commands: ``ingest`` turns into a memory file, ``search`` and ``ask`` a memory,
``update``, ``forget`` and ``repair`` its turns, ``facts`` about a person.

Why a module of their own: these are the product's commands, and they import the memory and
its stores, never the benchmarks.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from graphmem.cli.common import confidence_options, counted, friendly, meaning_floor_setting, neo4j_options, neo4j_settings
from graphmem.data.dialogue import memory_records, placed_records
from graphmem.memory.arguments import moment, name
from graphmem.domain import Answer, Fact, Turn
from graphmem.errors import DataError, StoreUnavailable
from graphmem.progress import bar as progress_bar

if TYPE_CHECKING:  # the memory (numpy, scipy, scikit-learn) is imported by the command that needs it: --help stays fast
    from graphmem.memory.api import Memory

__all__ = ["COMMANDS"]


DATA_HELP = ("LoCoMo JSON or a JSON Lines file of turns (default: $GRAPHMEM_LOCOMO, else the shared copy: "
             "$GRAPHMEM_SHARED, shared/data beside the checkout or above; else the cached LoCoMo download); "
             "not with --backend neo4j.")

memory_options = [
    click.option("--data", type=click.Path(dir_okay=False, path_type=Path), default=None, help=DATA_HELP),
    click.option("--backend", type=click.Choice(["memory", "neo4j"]), default="memory", show_default=True,
                 help="memory: read --data in process; neo4j: every turn already in Neo4j (graphmem load first)."),
    click.option("--memory", "saved", type=click.Path(dir_okay=False, path_type=Path), default=None,
                 help="A saved memory file (graphmem ingest --memory PATH FILE), instead of --data."),
    click.option("--conversation", default=None, help="Search this conversation only (e.g. conv-26)."),
    click.option("-k", "k", type=click.IntRange(min=1), default=5, show_default=True, help="Turns to return."),
    click.option("--asked-on", default=None, metavar="DATE",
                 help="When it is asked (e.g. 2023-05-20), so 'last week' or '10 days ago' names days."),
    click.option("--user", default=None, help="Whose turns (default: the turns that carry no user)."),
    click.option("--where", "where", multiple=True, metavar="NAME=VALUE",
                 help="Only turns whose metadata holds VALUE under NAME (a number, true/false, or a string;"
                      " repeat a NAME for any of several values, other NAMEs must all match)."),
]


def _where(pairs: Sequence[str]) -> dict[str, list[Any]] | None:
    """``--where`` as the memory's ``where``: each NAME to its values (JSON where it reads as a number,
    a boolean or a quoted string, else the text as given)."""
    out: dict[str, list[Any]] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise click.UsageError(f"--where {pair!r}: give NAME=VALUE")
        try:
            parsed = json.loads(value)
        except ValueError:
            parsed = value
        out.setdefault(name, []).append(parsed if isinstance(parsed, (str, int, float, bool)) else value)
    return out or None


def with_memory_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """--data/--backend/--memory/--conversation/-k/--asked-on/--user/--where, for search and ask. The Neo4j
    connection options are the command's own last decorator, so --help lists them last, as on every command."""
    for option in reversed(memory_options):
        fn = option(fn)
    return fn


def _memory(data: Path | None, backend: str, floor: float, neo4j: dict[str, Any], saved: Path | None = None,
            judged: dict[str, Any] | None = None) -> Memory:
    """A Memory over a dialogue file (in process), a saved memory file, or what Neo4j holds;
    ``judged``: its ``confidence=`` and ``meaning_floor=``, if not the default's."""
    judged = judged or {}
    neo4j = neo4j_settings(neo4j)
    # search and ask need the memory (scikit-learn): imported here to keep --help fast
    from graphmem.memory.api import Memory

    if saved is not None:
        if data is not None or backend != "memory":
            raise click.UsageError("--memory is a saved memory: not with --data or --backend neo4j")
        return Memory(floor=floor, path=saved, read_only=True, **judged)  # a reader: the file is never written
    if backend == "neo4j":
        if data is not None:
            raise click.UsageError("--data is read in process; with --backend neo4j load it first: graphmem load --data FILE")
        return Memory("neo4j", floor=floor, **judged, **neo4j)
    mem = Memory(floor=floor, **judged)
    mem.ingest(memory_records(data))
    return mem


def _cite(records: Sequence[Turn]) -> str:
    """One line per returned turn: conversation, id, speaker, date and what was said."""
    lines = []
    for r in records:
        when = f" ({r.date.day} {r.date:%B %Y})" if r.date else ""
        text = r.text if len(r.text) <= 160 else r.text[:157] + "..."
        lines.append(f"  {_named(r)}  {r.speaker}{when}: {text}")
    return "\n".join(lines) if lines else "  (nothing matched)"


def _named(r: Turn) -> str:
    """A turn as the commands name it: ``conversation/id`` (a LoCoMo id carries its conversation)."""
    return r.id if r.id.startswith(f"{r.conversation}/") else f"{r.conversation}/{r.id}"


def _source(answer: Answer, found: Sequence[Turn]) -> str | None:
    """The ``from:`` line: the turn the reply was read from and its sentence (None: an abstention)."""
    if not answer.sentence:
        return None
    said = next((r for r in found if r.id == answer.source), None)
    return f"from: {_named(said) if said else answer.source}  {answer.sentence}"


@click.command()
@click.argument("query")
@with_memory_options
@neo4j_options
@friendly
def search(query: str, data: Path | None, backend: str, saved: Path | None, conversation: str | None, k: int,
           asked_on: str | None, user: str | None, where: tuple[str, ...], **neo4j: str | None) -> None:
    """The turns a memory returns for QUERY, best first (English, or Chinese with the zh extra)."""
    when = moment(asked_on, "--asked-on")  # read here, so that its error names the option
    with _memory(data, backend, 0.30, neo4j, saved) as mem:
        click.echo(_cite([h.turn for h in mem.hits(query, k, conversation, when, user=user, where=_where(where))]))


@click.command()
@click.argument("question")
@with_memory_options
@click.option("--floor", type=click.FloatRange(0, 1), default=0.30, show_default=True,
              help="Below this confidence reply 'No information available'.")
@confidence_options
@neo4j_options
@friendly
def ask(question: str, data: Path | None, backend: str, saved: Path | None, conversation: str | None, k: int,
        asked_on: str | None, user: str | None, where: tuple[str, ...], floor: float, confidence: str,
        meaning_floor: float | None, **neo4j: str | None) -> None:
    """Ask a memory QUESTION: the reply, its confidence and the turns it cites."""
    from graphmem.memory.meaning import floor_text  # the memory's layer: imported here to keep --help fast

    judged = {"confidence": confidence, **meaning_floor_setting(meaning_floor, confidence)}
    when = moment(asked_on, "--asked-on")  # read here, so that its error names the option
    with _memory(data, backend, floor, neo4j, saved, judged) as mem:
        answer, found = mem.ask_with_turns(question, k, conversation, when, user=user, where=_where(where))
        used = mem.floor_of(answer)
    click.echo(f"reply: {answer.reply}")
    if (line := _source(answer, found)) is not None:
        click.echo(line)
    click.echo(f"confidence: {answer.confidence:.3f} ({answer.measure}, floor {floor_text(used)})")
    click.echo("cited:")
    click.echo(_cite(found[:k]))


@click.command()
@click.option("--memory", "saved", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The memory file to add to (made when missing); or --backend neo4j.")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--backend", type=click.Choice(["memory", "neo4j"]), default="memory", show_default=True,
              help="neo4j: add to the database (the connection options below) instead of a --memory file.")
@click.option("--user", default=None,
              help="Whose turns these are: each record without a user becomes this user's, and one naming "
                   "another user is refused (default: each record's own user, else none).")
@click.option("--batch", type=click.IntRange(min=1), default=1000, show_default=True, help="Turns per transaction.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@neo4j_options
@friendly
def ingest(saved: Path | None, file: Path, backend: str, user: str | None, batch: int, quiet: bool,
           **neo4j: str | None) -> None:
    """Add the turns of FILE (JSON Lines, or LoCoMo JSON) to a saved memory or to Neo4j.

    Every line is checked before any is added: one bad line adds nothing. Each batch is one
    transaction, so an interrupted run keeps the batches it finished; to resume, run the same
    command again: the turns the memory holds already (same id, same content) are skipped, and
    only what is missing is added. A turn whose id the memory holds with other content is
    refused, naming its line, before anything is added."""
    from graphmem.memory.api import Memory  # the memory (scikit-learn) only for this command

    if (saved is None) == (backend == "memory"):
        raise click.UsageError("give --memory FILE, or --backend neo4j")
    records, places = placed_records(file)
    if user is not None:
        name(user, "--user")
        records = [_owned(r, user, where) for r, where in zip(records, places)]
    with (Memory(path=saved) if saved is not None else Memory("neo4j", **neo4j_settings(neo4j))) as mem:
        mem.check(records, source=places)
        added = 0
        starts = range(0, len(records), batch)
        try:
            with progress_bar(len(records), "ingesting", quiet=quiet, unit="turn") as bar:
                for start in starts:
                    added += mem.ingest(records[start:start + batch])
                    bar.update(len(records[start:start + batch]))
        except StoreUnavailable as e:
            holding = counted(len(mem), "turn")
            raise click.ClickException(f"{e}; {mem.store.where} holds {holding}, {added} of them added now: make room "
                                       "and run the same command again to add the rest") from None
        held = len(records) - added
        click.echo(f"{counted(added, 'turn')} added to {mem.store.where}; it holds {len(mem)}"
                   + (f" ({held} of the file's turns it held already)" if held else ""))


def _owned(record: dict[str, Any], user: str, where: str) -> dict[str, Any]:
    """A record as ``--user``'s: given that user when it names none; refused when it names another."""
    if record.get("user") is None:
        return {**record, "user": user}
    if record["user"] != user:
        raise DataError(f"{where}: the record's user {record['user']!r} is not --user {user!r}")
    return record


@click.command()
@click.option("--memory", "saved", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The memory file to forget in (else --backend neo4j).")
@click.option("--backend", type=click.Choice(["memory", "neo4j"]), default="memory", show_default=True,
              help="neo4j: forget in the database (the connection options below).")
@click.option("--id", "ids", multiple=True, help="A turn's id (repeat for several).")
@click.option("--conversation", default=None, help="Every turn of this conversation (with --id: those ids in it).")
@click.option("--user", default=None, help="Whose turns (alone: every turn of this user).")
@neo4j_options
@friendly
def forget(saved: Path | None, backend: str, ids: tuple[str, ...], conversation: str | None, user: str | None,
           **neo4j: str | None) -> None:
    """Forget turns, and everything read from them, in a memory file or in Neo4j.

    Afterwards every search, answer and claim is that of a memory that never ingested them; in
    one transaction, so an interrupted forget forgets nothing."""
    if not ids and conversation is None and user is None:
        raise click.UsageError("say what to forget: --id ID..., --conversation C or --user U")
    with _written(saved, backend, neo4j) as mem:
        done = mem.forgetting(ids=list(ids) if ids else None, conversation=conversation, user=user)
        click.echo(f"{counted(done.removed, 'turn')} forgotten; {mem.store.where} holds {len(mem)}")
    if done.not_found:
        click.echo(f"not found{'' if conversation is None else f' in conversation {conversation!r}'} among "
                   f"{f'user {user!r}' if user is not None else 'the turns without a user'}'s turns: "
                   f"{', '.join(map(repr, done.not_found[:5]))}{', ...' if len(done.not_found) > 5 else ''} "
                   "(an id is its user's: a turn ingested with a user is forgotten with --user)", err=True)


def _written(saved: Path | None, backend: str, neo4j: dict[str, Any]) -> Memory:
    """The memory a writing command changes: a memory file that exists (``--memory``), or Neo4j."""
    from graphmem.memory.api import Memory  # the memory (scikit-learn) only for the commands that write

    if (saved is None) == (backend == "memory"):
        raise click.UsageError("give --memory FILE, or --backend neo4j")
    if saved is not None and not saved.is_file():
        raise click.ClickException(f"{saved}: no such memory file")
    return Memory(path=saved) if saved is not None else Memory("neo4j", **neo4j_settings(neo4j))


@click.command()
@click.argument("turn_id", metavar="ID")
@click.option("--text", default=None, help="What the turn says now.")
@click.option("--speaker", default=None, help="Who said it.")
@click.option("--date", default=None, metavar="DATE", help="When it was said (e.g. 2023-05-20).")
@click.option("--metadata", default=None, metavar="JSON",
              help='Its metadata, a JSON object of names to strings, numbers or booleans (replaces the old; "{}" empties it).')
@click.option("--memory", "saved", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The memory file the turn is in (else --backend neo4j).")
@click.option("--backend", type=click.Choice(["memory", "neo4j"]), default="memory", show_default=True,
              help="neo4j: update in the database (the connection options below).")
@click.option("--user", default=None, help="Whose turn (default: the turns that carry no user).")
@neo4j_options
@friendly
def update(turn_id: str, text: str | None, speaker: str | None, date: str | None, metadata: str | None,
           saved: Path | None, backend: str, user: str | None, **neo4j: str | None) -> None:
    """Change the turn ID: its text, speaker, date or metadata; what is not given stays.

    One transaction: afterwards the memory answers as one that forgot the turn and ingested the new
    record (the same id, conversation and number; its claims read again). An unknown ID changes nothing."""
    if text is None and speaker is None and date is None and metadata is None:
        raise click.UsageError("say what to change: --text, --speaker, --date or --metadata")
    tags = None
    if metadata is not None:
        try:
            tags = json.loads(metadata)
        except ValueError as e:
            raise click.ClickException(f"--metadata: not JSON ({e})") from None
    with _written(saved, backend, neo4j) as mem:
        turn = mem.update(turn_id, text=text, speaker=speaker, date=date, metadata=tags, user=user)
        click.echo(f"updated in {mem.store.where}:")
    click.echo(_cite([turn]) + (f"  {json.dumps(dict(turn.metadata), ensure_ascii=False)}" if turn.metadata else ""))


@click.command()
@click.option("--memory", "saved", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="The damaged memory file (read, never written).")
@click.option("--to", "new", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="The new memory file to make (must not exist).")
@friendly
def repair(saved: Path, new: Path) -> None:
    """Salvage what can be read of a damaged memory file into a new one.

    Every turn whose row reads back as it was written (its checksum agrees) goes into NEW, read
    afresh; what cannot be read is named. The damaged file is only read."""
    from graphmem.memory.api import Memory  # the memory (scikit-learn) only for this command
    from graphmem.store.sqlite.repair import readable  # likewise

    if new.exists():
        raise click.ClickException(f"{new}: exists already; give repair a new file to salvage into")
    found = readable(saved)
    kept = 0
    with Memory(path=new) as mem:
        for start in range(0, len(found.turns), 1000):
            kept += mem.ingest(found.turns[start:start + 1000])
    click.echo(f"{new}: {counted(kept, 'turn')} salvaged from {saved}; {found.lost_line()}")


@click.command()
@click.argument("person")
@click.option("--as-of", default=None, metavar="DATE", help="Only what held on that day (e.g. 2023-05-20).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per fact, a line each.")
@click.option("--history", is_flag=True,
              help="Every value of each attribute in order, the ended ones with the day and the turn that ended them.")
@click.option("--data", type=click.Path(dir_okay=False, path_type=Path), default=None, help=DATA_HELP)
@click.option("--backend", type=click.Choice(["memory", "neo4j"]), default="memory", show_default=True,
              help="memory: read --data in process; neo4j: what Neo4j holds (graphmem load first).")
@click.option("--memory", "saved", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="A saved memory file (graphmem ingest --memory PATH FILE), instead of --data.")
@click.option("--user", default=None, help="Whose memory (default: the turns that carry no user).")
@neo4j_options
@friendly
def facts(person: str, as_of: str | None, as_json: bool, history: bool, data: Path | None, backend: str,
          saved: Path | None, user: str | None, **neo4j: str | None) -> None:
    """What holds about PERSON now, oldest first: each fact a clause of a turn, with its attribute
    (where they live, their job, employer, partner, pets, diet, favourites...) and the turn it came
    from; with --as-of, what held then; with --history, every value of each attribute in order, from
    the day it was said until a later statement ended it."""
    when = moment(as_of, "--as-of")  # read here, so that its error names the option
    with _memory(data, backend, 0.30, neo4j, saved) as mem:
        found = mem.facts(person, as_of=when, user=user, history=history)
    if as_json:
        for f in found:
            click.echo(json.dumps(_fact_row(f), ensure_ascii=False))
        return
    for f in found:
        until = f"until {f.valid_to:%Y-%m-%d}" if f.valid_to else "holds"
        said = f"{'not ' if f.negated else ''}{f.predicate} {f.object}".strip()
        ended = f", ended by {f.ended_by}" if f.ended_by else ""
        click.echo(f"  {f.valid_from:%Y-%m-%d} {until:<16} {f.attribute or '':<20} {f.value or said}"
                   f"  ({f.subject} {said})  [{f.turn_id}{ended}]")
    if not found:
        click.echo(f"  (nothing held about {person}{f' on {as_of}' if as_of else ''})")


def _fact_row(f: Fact) -> dict[str, Any]:
    """A fact as JSON: dates as ISO strings."""
    row = {name: getattr(f, name) for name in f.__dataclass_fields__}
    return {k: (v.isoformat() if hasattr(v, "isoformat") else v) for k, v in row.items()}


COMMANDS = (search, ask, ingest, update, forget, repair, facts)
