"""The ``graphmem`` command: bench, stats, load, bench6.

Every failure a user can cause arrives here as a ``GraphmemError`` and leaves as one
``click.ClickException`` line with a non-zero exit, never a traceback.
"""

from __future__ import annotations

import functools
import json
import os
import resource
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from graphmem.errors import GraphmemError


def friendly(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Turn the package's own errors into one-line click errors."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except GraphmemError as exc:
            raise click.ClickException(str(exc)) from None

    return wrapper


@click.group()
@click.version_option(package_name="graphmem")
def main() -> None:
    """graphmem: a graph-backed conversational memory, and the LoCoMo benchmark that measures it."""


data_option = click.option("--data", type=click.Path(dir_okay=False, path_type=Path), default=None,
                           help="LoCoMo JSON (default: $GRAPHMEM_LOCOMO, else the cached download).")


@main.command()
@data_option
@click.option("--arms", default="default", show_default=True, help="A named set (default, factor, walk, hops) or a comma list.")
@click.option("-k", "k", type=click.IntRange(min=1), default=5, show_default=True, help="Turns each arm returns.")
@click.option("--floor", type=click.FloatRange(0, 1), default=0.30, show_default=True, help="Below this confidence reply 'No information available'.")
@click.option("--span", type=click.IntRange(min=1), default=4, show_default=True, help="Words a reply keeps per piece.")
@click.option("--band", type=click.FloatRange(0, 1), default=0.90, show_default=True, help="A second piece is stated if it covers this share of the best.")
@click.option("--parts", type=click.IntRange(min=1), default=2, show_default=True, help="Pieces of evidence Reply states at most.")
@click.option("--show", type=click.IntRange(min=0), default=0, help="Print N questions per category with every arm's reply.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None, help="Write predictions in the official LoCoMo layout.")
@click.option("--blind", is_flag=True, help="Empty every graph after building it: path falls silent, nothing else moves.")
@click.option("--build", is_flag=True, help="Print what was built per conversation.")
@friendly
def bench(data: Path | None, arms: str, k: int, floor: float, span: int, band: float, parts: int,
          show: int, out: Path | None, blind: bool, build: bool) -> None:
    """Run the LoCoMo benchmark and print the table."""
    from graphmem import bench as b
    from graphmem import locomo
    from graphmem.read import Settings

    wall = time.perf_counter()
    timer = b.Timer()
    names = b.parse_arms(arms)
    t = time.process_time()
    dataset = locomo.load(data)
    timer.add("load", t)
    settings = Settings(span, band, parts)
    prep = b.prepare(dataset, names, blind=blind, timer=timer)
    found = b.retrieve(prep, k)
    answers = b.answer(prep, found, settings)
    scored = b.score(prep, answers, floor)
    table = scored.table(names)
    click.echo(dataset.report.summary())
    if build:
        click.echo(b.render_census(prep))
    click.echo()
    click.echo(b.settings_line(k, floor, settings))
    click.echo()
    click.echo(b.render_table(names, table))
    if k >= max(len(c.conv.turns) for c in prep.contexts):
        click.echo()
        click.echo(b.render_reach(names, table))
    if show:
        click.echo()
        click.echo(b.render_show(prep, answers, floor, show))
    if out is not None:
        _write_json(out, b.predictions(prep, answers, floor))
        click.echo(f"\nwrote {out}")
    click.echo()
    click.echo(_timing(timer, wall))


def _write_json(path: Path, payload: Any) -> None:
    """Write atomically: a reader never sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(payload, ensure_ascii=False, indent=1), encoding="utf-8")
    os.replace(tmp, path)


def _timing(timer: Any, wall: float) -> str:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    stages = "  ".join(f"{name} {sec:.2f}s" for name, sec in timer.stages.items())
    return f"cpu {usage.ru_utime + usage.ru_stime:.2f}s wall {time.perf_counter() - wall:.2f}s  ({stages})"


if __name__ == "__main__":  # pragma: no cover
    main()
