"""``graphmem load``: conversations into Neo4j through its store, for people exploring the graph.

Why its own module: the load reads claims with the bench's reader and the mirror, and writes
through the Neo4j store, so that a loaded conversation is one the memory may go on with.
"""

from __future__ import annotations

from pathlib import Path

import click

from graphmem.cli.common import counted, friendly, neo4j_options, neo4j_settings
from graphmem.data.dialogue import dialogue, turn_file
from graphmem.store.neo4j import client as gn

__all__ = ["COMMANDS"]


@click.command()
@click.option("--data", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="LoCoMo JSON, or a JSON Lines file of turns {id, speaker, text, date?, conversation?, turn?} "
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
    from graphmem.store.neo4j import checks as gl
    from graphmem.search.dense import passages  # likewise
    from graphmem.store.neo4j.load import load_conversations  # likewise

    if dense:
        from graphmem.index.live_dense import need_dense  # before anything is written: the embedding is an extra

        need_dense()
    records = turn_file(data)
    chosen = gl.select(dialogue(data, records), conversations)
    with gn.connect(**neo4j_settings(neo4j)) as client:
        report = load_conversations(client, chosen, batch=batch, replace=replace, progress=not quiet,
                                    scoped=records is None, dense=dense)
    turns = [t for c in chosen for t in c.turns]
    for counts in report.counts:
        click.echo(counts.line())
    embedded = len(passages([(t.speaker, t.text) for t in turns])[1]) if dense else 0
    click.echo(f"{report.rows} rows in {report.seconds:.2f}s ({report.rows_per_second:.0f} rows/s)"
               f" into {client.settings.where}; counts match the mirror; {counted(len(turns), 'turn')} searchable"
               + (f", {counted(embedded, 'sentence')} embedded" if dense else ""))


COMMANDS = (load,)
