"""``graphmem load``: conversations into Neo4j through its store, for people exploring the graph.

Why its own module: the command's side of a load (the file read, the conversations a comma list
chooses, the progress bar, the lines printed) stays here, and the writing is the Neo4j store's own
method (:meth:`graphmem.store.neo4j.store.Neo4jStore.load`), so that a loaded conversation is one
the memory may go on with and the store imports neither click nor the dataset's reader.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from graphmem.cli.common import counted, friendly, neo4j_options, neo4j_settings
from graphmem.data.dialogue import dialogue, turn_file
from graphmem.errors import DataError
from graphmem.progress import bar as progress_bar
from graphmem.store.neo4j import client as gn

if TYPE_CHECKING:  # types only: the dataset's reader is imported by dialogue() when the command runs
    from graphmem.data.locomo import Dataset
    from graphmem.domain import Conversation

__all__ = ["COMMANDS", "bar", "select"]


@click.command()
@click.option("--data", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="LoCoMo JSON, or a JSON Lines file of turns {id, speaker, text, date?, conversation?, turn?, metadata?} "
                   "(default: $GRAPHMEM_LOCOMO, else the shared copy: $GRAPHMEM_SHARED, shared/data beside the "
                   "checkout or above; else the cached LoCoMo download).")
@click.option("--conversations", default=None, help="Comma list of conversation ids to load (default: all), e.g. conv-26,conv-30.")
@click.option("--batch", type=click.IntRange(min=1), default=2000, show_default=True, help="Turns per write transaction.")
@click.option("--replace", is_flag=True, help="Delete each conversation's subgraph first (needed after the reader changes).")
@click.option("--quiet", is_flag=True, help="No progress bars.")
@click.option("--dense", is_flag=True, help="Also embed every sentence into the vector index (the dense extra).")
@neo4j_options
@friendly
def load(data: Path | None, conversations: str | None, batch: int, replace: bool, quiet: bool, dense: bool,
         **neo4j: str | float | None) -> None:
    """Load claims and graphs into Neo4j (idempotent) and check every count against the mirror.

    Every turn is written through the memory's Neo4j store, so Memory(backend="neo4j") searches it
    and a program may add turns to a loaded conversation."""
    # the load reads claims (networkx) and the store's modules: imported here to keep --help fast
    from graphmem.search.dense import passages  # likewise
    from graphmem.store.neo4j.store import Neo4jStore  # likewise

    if dense:
        from graphmem.index.live_dense import need_dense  # before anything is written: the embedding is an extra

        need_dense()
    records = turn_file(data)
    chosen = select(dialogue(data, records), conversations)
    with gn.connect(**neo4j_settings(neo4j)) as client:
        store = Neo4jStore(client=client, dense=dense, warmed=False)  # the load warms when done, for the data as loaded
        with bar(sum(len(c.turns) for c in chosen), not quiet, "loading") as shown:
            report = store.load(chosen, batch=batch, replace=replace, written=shown.update, scoped=records is None)
    turns = [t for c in chosen for t in c.turns]
    for counts in report.counts:
        click.echo(counts.line())
    embedded = len(passages([(t.speaker, t.text) for t in turns])[1]) if dense else 0
    click.echo(f"{report.rows} rows in {report.seconds:.2f}s ({report.rows_per_second:.0f} rows/s)"
               f" into {client.settings.where}; counts match the mirror; {counted(len(turns), 'turn')} searchable"
               + (f", {counted(embedded, 'sentence')} embedded" if dense else ""))


def select(dataset: Dataset, spec: str | None) -> list[Conversation]:
    """The conversations a comma list names (all when ``spec`` is None), in dataset order.

    A list that names none (``""``, ``",,,"``) is refused rather than read as "all" or as
    nothing: a load that writes nothing and exits 0 looks like a load that worked."""
    if spec is None:
        return list(dataset.conversations)
    wanted = [s.strip() for s in spec.split(",") if s.strip()]
    known = {c.id: c for c in dataset.conversations}
    if not wanted:
        raise DataError(f"--conversations {spec!r} names no conversation: give a comma list of ids "
                        f"(from {', '.join(known)}), or leave it out to load all")
    unknown = [w for w in wanted if w not in known]
    if unknown:
        raise DataError(f"unknown conversation {', '.join(unknown)}: choose from {', '.join(known)}")
    keep = set(wanted)
    return [c for c in dataset.conversations if c.id in keep]


@contextmanager
def bar(total: int, show: bool, label: str) -> Iterator[Any]:
    """A progress bar on stderr when ``show`` and stderr is a terminal (:mod:`graphmem.progress`)."""
    with progress_bar(total, label.ljust(15), quiet=not show) as shown:
        yield shown


COMMANDS = (load,)
