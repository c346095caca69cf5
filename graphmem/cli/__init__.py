"""The ``graphmem`` command: the memory's commands (ingest, search, ask), ``serve`` (MCP), ``load`` for the graph,
and the benchmarks (bench, stats, bench6, longmemeval), each group in a module of its own.

Every failure a user can cause arrives as a ``GraphmemError`` and leaves as one
``click.ClickException`` line with a non-zero exit, never a traceback.
"""

from __future__ import annotations

import os

import click

# The matrices here are small and sparse: BLAS threads would only spin (0.3 s CPU at
# numpy's import alone). Set before anything imports numpy; a user's setting wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from graphmem.cli import bench, load, memory, serve  # noqa: E402

__all__ = ["main"]


@click.group()
@click.version_option(package_name="graphmem")
def main() -> None:
    """graphmem: a graph-backed conversational memory, and the LoCoMo benchmark that measures it."""


for _command in (*memory.COMMANDS, *serve.COMMANDS, *load.COMMANDS, *bench.COMMANDS):
    main.add_command(_command)
