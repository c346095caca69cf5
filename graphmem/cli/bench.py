"""The benchmarks' commands: ``bench`` (LoCoMo), ``stats``, ``bench6``, ``longmemeval``.

Why a module of their own: they import the research side (the arms, the bench, the model
reader), which the memory's commands never do.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any
from collections.abc import Callable

import click

from graphmem.bench.locomo import plot as pictures  # (matplotlib itself only when a plot is drawn)
from graphmem.cli.common import confidence_options, friendly, meaning_floor_setting, neo4j_options, neo4j_settings
from graphmem.data import locomo
from graphmem.store.neo4j import client as gn  # the connection only: the driver is imported when one is made

# What the benchmarks need but --help should not wait for (numpy, scipy and scikit-learn through
# text.terms, networkx through the claims) is imported in the command that needs it. These names
# are for type hints only.
if TYPE_CHECKING:
    from graphmem.answer.reader import ReaderSettings
    from graphmem.bench.locomo.run import Prepared

__all__ = ["COMMANDS"]


data_option = click.option("--data", type=click.Path(dir_okay=False, path_type=Path), default=None,
                           help="LoCoMo JSON (default: $GRAPHMEM_LOCOMO, else the shared copy: $GRAPHMEM_SHARED, "
                                "shared/data beside the checkout or above; else the cached download).")


def model_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """--model-name/--model-parallel/--model-cache, shared by bench and longmemeval (--model)."""
    for option in reversed([
        click.option("--model-name", default=None, envvar="GRAPHMEM_MODEL_NAME",
                     help="The model's name [$GRAPHMEM_MODEL_NAME, else the one the endpoint serves]; part of the cache key."),
        click.option("--model-parallel", type=click.IntRange(min=1), default=1, show_default=True,
                     help="Requests in flight at once."),
        click.option("--model-cache", type=click.Path(file_okay=False, path_type=Path), default=None,
                     help="Where replies are kept [~/.cache/graphmem/model]: a repeated run asks nothing."),
    ]):
        fn = option(fn)
    return fn


def _model_reader(url: str | None, name: str | None, parallel: int, cache: Path | None, env: str) -> Any:
    """A model reader when the option was given (alone: the URL in ``env``), else None."""
    from graphmem.bench.locomo.model_arms import KEY_ENV, make_reader  # the model client only when a model is asked for

    return None if url is None else make_reader(url or os.environ.get(env, ""), name, parallel, cache,
                                                os.environ.get(KEY_ENV), env)


@click.command()
@data_option
@click.option("--arms", default="default", show_default=True, help="A named set (default, factor, walk, hops, read) or a comma list.")
@click.option("-k", "k", type=click.IntRange(min=1), default=5, show_default=True, help="Turns each arm returns.")
@click.option("--floor", type=click.FloatRange(0, 1), default=None,
              help="Below this confidence reply 'No information available' [0.30; with --confidence calibrated the model's].")
@click.option("--span", type=click.IntRange(min=1), default=4, show_default=True, help="Words a reply keeps per piece.")
@click.option("--band", type=click.FloatRange(0, 1), default=0.90, show_default=True, help="A second piece is stated if it covers this share of the best.")
@click.option("--parts", type=click.IntRange(min=1), default=2, show_default=True, help="Pieces of evidence Reply states at most.")
@click.option("--show", type=click.IntRange(min=0), default=0, help="Print N questions per category with every arm's reply.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None, help="Write predictions in the official LoCoMo layout.")
@click.option("--blind", is_flag=True, help="Empty every graph after building it: path falls silent, nothing else moves.")
@click.option("--build", is_flag=True, help="Print what was built per conversation.")
@click.option("--sweep", type=click.Choice(["floor", "k", "span", "band", "parts"]), default=None,
              help="Vary one setting and print the sweep table (and, for floor, matched silence).")
@click.option("--plot", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="PNG: the trade-off of a sweep, or reach bars of a reach run (-k 2000 --floor 0).")
@click.option("--confidence", type=click.Choice(["turn", "relative", "calibrated"]), default="turn", show_default=True,
              help="Confidence: the best turn's coverage of the question (turn: the specification's Sure), that discounted by "
                   "the best coverage any turn reaches (relative), or the memory's calibrated probability over the first "
                   "five turns (calibrated: graphmem.memory.calibrated, fitted on the memory's turns).")
@click.option("--backend", type=click.Choice(["memory", "neo4j"]), default="memory", show_default=True,
              help="Where the path arms' hops run: the networkx mirror, or Cypher against Neo4j (run graphmem load first).")
@neo4j_options
@click.option("--model", "model_url", is_flag=False, flag_value="", default=None, metavar="URL",
              help="Add a <memory>+model column per memory and the closed-book control, read by this "
                   "OpenAI-compatible endpoint (--model alone: $GRAPHMEM_MODEL_URL; key: $GRAPHMEM_MODEL_KEY).")
@model_options
@click.option("--sample", type=click.IntRange(min=1), default=None, help="Ask N questions, stratified by category.")
@click.option("--seed", type=int, default=0, show_default=True, help="The sample's seed (printed with it).")
@click.option("--quiet", is_flag=True, help="No progress bar for --sweep (none is drawn when stderr is not a terminal).")
@friendly
def bench(data: Path | None, arms: str, k: int, floor: float | None, span: int, band: float, parts: int,
          show: int, out: Path | None, blind: bool, build: bool, sweep: str | None, plot: Path | None,
          confidence: str, backend: str, uri: str | None, neo4j_user: str | None, neo4j_password: str | None,
          database: str | None, timeout: float | None, model_url: str | None, model_name: str | None, model_parallel: int, model_cache: Path | None,
          sample: int | None, seed: int, quiet: bool) -> None:
    """Run the LoCoMo benchmark and print the table."""
    # only this command needs the bench (scikit-learn, nltk, networkx): imported here to keep --help fast
    from graphmem.answer.reader import ReaderSettings
    from graphmem.bench.arms.registry import parse_arms  # likewise
    from graphmem.bench.locomo import report  # likewise
    from graphmem.bench.locomo import run as b  # likewise
    from graphmem.bench.locomo import sample as sampling  # likewise

    timer = b.Timer()  # its clock starts here: a launcher's own time is not counted
    if floor is None:
        from graphmem.memory.calibrated import Calibrated  # the model's JSON only with --confidence calibrated

        floor = Calibrated.load().heads["friends"].floor if confidence == "calibrated" else 0.30
    names = parse_arms(arms)
    t = time.process_time()
    dataset = full = locomo.load_dataset(data)
    if sample is not None:
        dataset = sampling.stratified(full, sample, seed)
    timer.add("load", t)
    settings = ReaderSettings(span, band, parts)
    reader = _model_reader(model_url, model_name, model_parallel, model_cache, "GRAPHMEM_MODEL_URL")
    if reader is not None and sweep:
        raise click.UsageError("--model reads one run; it does not combine with --sweep")
    client = None
    if backend == "neo4j":
        client = gn.connect(uri, neo4j_user, neo4j_password, database, timeout=timeout)
    prep = b.prepare(dataset, names, blind=blind, timer=timer, backend=backend, neo4j=client)
    if sweep:
        _sweep(prep, sweep, k, floor, settings, plot, confidence, quiet)
        click.echo()
        click.echo(timer.line())
        return
    found = b.retrieve(prep, k)
    answers = b.answer(prep, found, settings, confidence)
    run = None
    if reader is not None:
        from graphmem.bench.locomo.model_arms import add_model_arms  # the model client (urllib, threads) only with --model

        run = add_model_arms(prep, answers, floor, reader)
    names = prep.arms
    scored = b.score(prep, answers, floor)
    table = scored.table(names)
    click.echo(dataset.report.summary())
    if sample is not None:
        click.echo(sampling.describe(dataset, full, seed))
    subjects = report.render_subjects(prep)
    if subjects:
        click.echo(subjects)
    if build:
        click.echo(report.render_census(prep))
    click.echo()
    click.echo(report.settings_line(k, floor, settings))
    click.echo()
    click.echo(report.render_table(names, table))
    click.echo("session hit@1 " + "  ".join(f"{a} {v:.3f}" for a, v in report.session_hits(prep, answers).items()))
    if run is not None:
        click.echo(run.line())
        click.echo(run.cost())
    if k >= max(len(c.conv.turns) for c in prep.contexts):
        click.echo()
        click.echo(report.render_reach(names, table))
        if plot is not None:
            pictures.reach(plot, names, table)
            click.echo(f"\nwrote {plot}")
    elif plot is not None:
        raise click.UsageError("--plot draws a sweep (--sweep) or a reach run (-k at least the longest conversation)")
    if show:
        click.echo()
        click.echo(report.render_show(prep, answers, floor, show))
    if out is not None:
        _write_json(out, report.predictions(prep, answers, floor))
        click.echo(f"\nwrote {out}")
    click.echo()
    click.echo(timer.line())


def _sweep(prep: Prepared, setting: str, k: int, floor: float, settings: ReaderSettings, plot: Path | None,
           confidence: str, quiet: bool = True) -> None:
    # the bench's modules, imported where bench needs them (see bench)
    from graphmem.bench.locomo import report
    from graphmem.bench.locomo import sweep as sw  # likewise

    result = sw.run(prep, setting, k, floor, settings, confidence, quiet)
    click.echo(report.settings_line(k, floor, settings) + f"  sweep={setting}")
    click.echo()
    click.echo(sw.render(setting, prep.arms, result))
    if setting == "floor" and len(prep.arms) > 1:
        click.echo()
        click.echo("at matched silence (each arm at whichever floor makes it as quiet as the other):")
        click.echo(sw.render_matched(result, prep.arms))
    if plot is not None:
        pictures.trade(plot, setting, prep.arms, result)
        click.echo(f"\nwrote {plot}")


@click.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the report.")
@click.option("--by-category", is_flag=True, help="Paired differences per answerable category too, not only per half.")
@click.option("--judge", "judge_url", is_flag=False, flag_value="", default=None, metavar="URL",
              help="Grade replies with an LLM judge at this OpenAI-compatible endpoint (J, apart from F1; "
                   "--judge alone: $GRAPHMEM_JUDGE_URL).")
@click.option("--judge-name", default=None, help="The judge model's name [the one the endpoint serves]; part of the cache key.")
@click.option("--judge-arms", default=None, help="Comma list of arms to judge [the model columns, else every arm].")
@click.option("--judge-parallel", type=click.IntRange(min=1), default=1, show_default=True, help="Judge requests in flight.")
@click.option("--model-cache", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Where verdicts are kept [~/.cache/graphmem/model]: a repeated run asks nothing.")
@friendly
def stats(file: Path, as_json: bool, by_category: bool, judge_url: str | None, judge_name: str | None,
          judge_arms: str | None, judge_parallel: int, model_cache: Path | None) -> None:
    """What the table cannot show, read back off a predictions file written by bench --out."""
    from graphmem.bench.locomo import stats as st  # only this command reads predictions back (numpy, scikit-learn): keeps --help fast
    from graphmem.bench.locomo import closed  # likewise

    preds = st.load_predictions(file)
    reader = _model_reader(judge_url, judge_name, judge_parallel, model_cache, "GRAPHMEM_JUDGE_URL")
    judged: dict[str, Any] = {}
    section = ""
    if reader is not None:
        from graphmem.bench.locomo import judge as jg  # the judge's client (urllib, threads) only with --judge

        result = jg.judge(preds, jg.judged_arms(preds, judge_arms), reader)
        judged, section = jg.as_json(result), jg.render(result)
    if as_json:
        click.echo(json.dumps({**st.as_json(preds, by_category), **closed.as_json(preds), **judged}, indent=1))
    else:
        click.echo(st.report(preds, by_category) + "".join("\n" + t for t in (closed.render(preds), section) if t))


@click.command()
@click.option("--data", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="bench6 folder (default: $GRAPHMEM_BENCH6, else bench6/ in the shared data: $GRAPHMEM_SHARED, "
                   "shared/data beside the checkout or above).")
@click.option("--lang", type=click.Choice(["zh", "en", "both"]), default="both", show_default=True,
              help="Which queries to ask: the Chinese, the English, or both.")
@click.option("-k", "k", type=click.IntRange(min=1), default=5, show_default=True,
              help="Turns each query returns (hit@k, MRR over them).")
@click.option("--dense", is_flag=True, help="Fuse the optional multilingual embedding (extra 'dense') with lexical scores.")
@click.option("--backend", type=click.Choice(["memory", "neo4j"]), default="memory", show_default=True,
              help="neo4j: ingest the pool into the database, search there, delete the pool after.")
@neo4j_options
@friendly
def bench6(data: Path | None, lang: str, k: int, dense: bool, backend: str, **neo4j: str | None) -> None:
    """bench6: 100 questions asked in Chinese and in English of 137 LoCoMo turns; hit@1, hit@k, MRR."""
    # only this command needs bench6 (and through it the memory): imported here to keep --help fast
    from graphmem.bench.bench6.adapter import Adapter
    from graphmem.bench.bench6.files import resolve_dir  # likewise
    from graphmem.bench.bench6.report import main_report  # likewise

    if backend == "memory":
        click.echo(main_report(resolve_dir(data), lang, k, adapter=Adapter(dense=True) if dense else None))
        return
    from graphmem.bench.bench6.database import database_report  # likewise

    click.echo(database_report(resolve_dir(data), lang, k, dense, **neo4j_settings(neo4j)))


@click.command()
@click.option("--data", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The release's JSON or .json.gz (default: $GRAPHMEM_LONGMEMEVAL, else the development half in "
                   "the shared data: $GRAPHMEM_SHARED, shared/data beside the checkout or above).")
@click.option("--variant", type=click.Choice(["s", "oracle"]), default="s", show_default=True,
              help="Which shared development file when --data is not given: _S haystacks, or evidence sessions only.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the tables.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write every question's reply, scores, top turns and CPU time as JSON.")
@click.option("--limit", type=click.IntRange(min=1), default=None, help="Only the first N questions.")
@click.option("--type", "types", multiple=True, metavar="TYPE",
              help="Only questions of this type (repeat for several), e.g. knowledge-update.")
@click.option("--model", "model_url", is_flag=False, flag_value="", default=None, metavar="URL",
              help="A model at this OpenAI-compatible endpoint reads each question's top 5 too "
                   "(--model alone: $GRAPHMEM_MODEL_URL; key: $GRAPHMEM_MODEL_KEY).")
@model_options
@click.option("--judge", "judge_url", is_flag=False, flag_value="", default=None, metavar="URL",
              help="Grade the model's replies with a judge at this endpoint (J; --judge alone: $GRAPHMEM_JUDGE_URL).")
@click.option("--judge-name", default=None, help="The judge model's name [the one the endpoint serves].")
@confidence_options
@click.option("--quiet", is_flag=True, help="No progress bar (none is drawn when stderr is not a terminal).")
@friendly
def longmemeval(data: Path | None, variant: str, as_json: bool, out: Path | None, limit: int | None,
                types: tuple[str, ...], model_url: str | None, model_name: str | None, model_parallel: int, model_cache: Path | None,
                judge_url: str | None, judge_name: str | None, confidence: str, meaning_floor: float | None,
                quiet: bool) -> None:
    """LongMemEval: a fresh memory per question's haystack, retrieval beside BM25, answers, by question type."""
    from graphmem.bench.longmemeval.baseline import need_bm25s  # the research side: only for this command

    need_bm25s()  # before anything is read: its absence is one line at once, not after the memory's work
    from graphmem.bench.longmemeval.command import longmemeval as lme  # the memory and bm25s: only for this command
    from graphmem.bench.longmemeval.run import Settings  # likewise
    if judge_url is not None and model_url is None:
        raise click.ClickException("--judge grades the model's replies: give --model too")
    reader = _model_reader(model_url, model_name, model_parallel, model_cache, "GRAPHMEM_MODEL_URL")
    judge = _model_reader(judge_url, judge_name, model_parallel, model_cache, "GRAPHMEM_JUDGE_URL")
    settings = Settings(confidence=confidence, **meaning_floor_setting(meaning_floor, confidence))
    click.echo(lme(data, variant, limit, as_json, out, settings, reader=reader, judge=judge, types=types, quiet=quiet))


def _write_json(path: Path, payload: Any) -> None:
    """Write atomically: a reader never sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(payload, ensure_ascii=False, indent=1), encoding="utf-8")
    os.replace(tmp, path)




COMMANDS = (bench, stats, bench6, longmemeval)
