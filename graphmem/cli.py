"""The ``graphmem`` command: bench, stats, load, search, ask, bench6, longmemeval.

Every failure a user can cause arrives here as a ``GraphmemError`` and leaves as one
``click.ClickException`` line with a non-zero exit, never a traceback.
"""

from __future__ import annotations

import functools
import json
import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

# The matrices here are small and sparse: BLAS threads would only spin (0.3 s CPU at
# numpy's import alone). Set before anything imports numpy; a user's setting wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from graphmem.bench import plot as pictures  # noqa: E402  (matplotlib itself only when a plot is drawn)
from graphmem.data import locomo  # noqa: E402
from graphmem.data.dialogue import dialogue, memory_records, turn_file  # noqa: E402
from graphmem.data.records import Record  # noqa: E402
from graphmem.errors import GraphmemError  # noqa: E402
from graphmem.neo4j import client as gn  # noqa: E402  (the connection only: the driver is imported when one is made)

# What several commands need but --help should not wait for (numpy, scipy and scikit-learn
# through text.terms, networkx through the claims) is imported in the command that needs it:
# imported here, they would make `graphmem --help` cost 2.45 s of CPU instead of 0.27 s (best
# of 5; still about 1.1 s with scikit-learn imported lazily). These names are for type hints only.
if TYPE_CHECKING:
    from graphmem.answer.reader import ReaderSettings
    from graphmem.bench.run import Prepared
    from graphmem.memory.api import Memory


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


def neo4j_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """--uri/--user/--password/--database; each falls back to NEO4J_*, then the local defaults."""
    for option in reversed([
        click.option("--uri", default=None, help="Bolt URI [$NEO4J_URI, else bolt://localhost:7687]."),
        click.option("--user", default=None, help="Neo4j user [$NEO4J_USER, else neo4j]."),
        click.option("--password", default=None, help="Neo4j password [$NEO4J_PASSWORD, else graphmem-dev]; never printed."),
        click.option("--database", default=None, help="Database [$NEO4J_DATABASE, else the server's default]."),
    ]):
        fn = option(fn)
    return fn


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
    from graphmem.bench.model_arms import KEY_ENV, make_reader  # the model client only when a model is asked for

    return None if url is None else make_reader(url or os.environ.get(env, ""), name, parallel, cache,
                                                os.environ.get(KEY_ENV), env)


@main.command()
@data_option
@click.option("--arms", default="default", show_default=True, help="A named set (default, factor, walk, hops, read) or a comma list.")
@click.option("-k", "k", type=click.IntRange(min=1), default=5, show_default=True, help="Turns each arm returns.")
@click.option("--floor", type=click.FloatRange(0, 1), default=0.30, show_default=True, help="Below this confidence reply 'No information available'.")
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
@click.option("--confidence", type=click.Choice(["turn", "relative"]), default="turn", show_default=True,
              help="Confidence: the best turn's coverage of the question (turn: the specification's Sure), or that discounted by the best coverage any turn reaches (relative).")
@click.option("--backend", type=click.Choice(["memory", "neo4j"]), default="memory", show_default=True,
              help="Where the path arms' hops run: the networkx mirror, or Cypher against Neo4j (run graphmem load first).")
@neo4j_options
@click.option("--model", "model_url", is_flag=False, flag_value="", default=None, metavar="URL",
              help="Add a <memory>+model column per memory and the closed-book control, read by this "
                   "OpenAI-compatible endpoint (--model alone: $GRAPHMEM_MODEL_URL; key: $GRAPHMEM_MODEL_KEY).")
@model_options
@click.option("--sample", type=click.IntRange(min=1), default=None, help="Ask N questions, stratified by category.")
@click.option("--seed", type=int, default=0, show_default=True, help="The sample's seed (printed with it).")
@friendly
def bench(data: Path | None, arms: str, k: int, floor: float, span: int, band: float, parts: int,
          show: int, out: Path | None, blind: bool, build: bool, sweep: str | None, plot: Path | None,
          confidence: str, backend: str, uri: str | None, user: str | None, password: str | None, database: str | None,
          model_url: str | None, model_name: str | None, model_parallel: int, model_cache: Path | None,
          sample: int | None, seed: int) -> None:
    """Run the LoCoMo benchmark and print the table."""
    # only this command needs the bench (scikit-learn, nltk, networkx): imported here to keep --help fast
    from graphmem.answer.reader import ReaderSettings
    from graphmem.arms.registry import parse_arms  # likewise
    from graphmem.bench import report  # likewise
    from graphmem.bench import run as b  # likewise
    from graphmem.bench import sample as sampling  # likewise

    timer = b.Timer()  # its clock starts here: a launcher's own time is not counted
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
        client = gn.connect(uri, user, password, database)
    prep = b.prepare(dataset, names, blind=blind, timer=timer, backend=backend, neo4j=client)
    if sweep:
        _sweep(prep, sweep, k, floor, settings, plot, confidence)
        click.echo()
        click.echo(timer.line())
        return
    found = b.retrieve(prep, k)
    answers = b.answer(prep, found, settings, confidence)
    run = None
    if reader is not None:
        from graphmem.bench.model_arms import add_model_arms  # the model client (urllib, threads) only with --model

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
           confidence: str) -> None:
    # the bench's modules, imported where bench needs them (see bench)
    from graphmem.bench import report
    from graphmem.bench import sweep as sw  # likewise

    result = sw.run(prep, setting, k, floor, settings, confidence)
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


@main.command()
@click.option("--data", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="LoCoMo JSON, or a JSON Lines file of turns {id, speaker, text, date?, conversation?, turn?} "
                   "(default: $GRAPHMEM_LOCOMO, else the cached LoCoMo download).")
@click.option("--conversations", default=None, help="Comma list of conversation ids to load (default: all), e.g. conv-26,conv-30.")
@click.option("--batch", type=click.IntRange(min=1), default=2000, show_default=True, help="Rows per UNWIND write transaction.")
@click.option("--replace", is_flag=True, help="Delete each conversation's subgraph first (needed after the reader changes).")
@click.option("--quiet", is_flag=True, help="No progress bars.")
@click.option("--dense", is_flag=True, help="Also embed every sentence into the vector index (the dense extra).")
@neo4j_options
@friendly
def load(data: Path | None, conversations: str | None, batch: int, replace: bool, quiet: bool, dense: bool,
         uri: str | None, user: str | None, password: str | None, database: str | None) -> None:
    """Load claims and graphs into Neo4j (idempotent) and check every count against the mirror."""
    from graphmem.neo4j import load as gl  # the load reads claims (networkx): only for this command
    from graphmem.memory import graphdb  # the memory's search fields, written after the graph: likewise

    if dense:
        from graphmem.memory.index import need_dense  # before anything is written: the embedding is an extra

        need_dense()
    records = turn_file(data)
    chosen = gl.select(dialogue(data, records), conversations)
    with gn.connect(uri, user, password, database) as client:
        report = gl.load_conversations(client, chosen, batch=batch, replace=replace, progress=not quiet)
        kept = {c.sample_id for c in chosen}
        # what Memory(backend="neo4j") searches; a turn file's own records keep its turn numbers
        searchable = ([r for r in records if r.conversation in kept] if records
                      else [r for c in chosen for r in graphdb.loaded_records(c)])
        indexed = graphdb.index_loaded(client, searchable, batch=batch)
        embedded = graphdb.embed_loaded(client, searchable) if dense else 0
    for counts in report.counts:
        click.echo(counts.line())
    click.echo(f"{report.rows} rows in {report.seconds:.2f}s ({report.rows_per_second:.0f} rows/s)"
               f" into {client.settings.where}; counts match the mirror; {indexed} turns searchable"
               + (f", {embedded} sentences embedded" if dense else ""))


memory_options = [
    click.option("--data", type=click.Path(dir_okay=False, path_type=Path), default=None,
                 help="LoCoMo JSON or a JSON Lines file of turns (default: $GRAPHMEM_LOCOMO, else the cached "
                      "LoCoMo download); not with --backend neo4j."),
    click.option("--backend", type=click.Choice(["memory", "neo4j"]), default="memory", show_default=True,
                 help="memory: read --data in process; neo4j: every turn already in Neo4j (graphmem load first)."),
    click.option("--memory", "saved", type=click.Path(dir_okay=False, path_type=Path), default=None,
                 help="A saved memory file (graphmem ingest --memory PATH FILE), instead of --data."),
    click.option("--conversation", default=None, help="Search this conversation only (e.g. conv-26)."),
    click.option("-k", "k", type=click.IntRange(min=1), default=5, show_default=True, help="Turns to return."),
    click.option("--asked-on", default=None, metavar="DATE",
                 help="When it is asked (e.g. 2023-05-20), so 'last week' or '10 days ago' names days."),
]


def confidence_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """--confidence and --meaning-floor: what an answer abstains by (graphmem.memory.meaning)."""
    fn = click.option("--meaning-floor", type=click.FloatRange(-1, 1), default=None,
                      help="With --confidence meaning: below this cosine reply 'No information available' "
                           "[the memory's, chosen on LongMemEval's development half].")(fn)
    return click.option("--confidence", type=click.Choice(["coverage", "meaning"]), default="coverage", show_default=True,
                        help="What an answer abstains by: the words of the question the first turn found covers, or "
                             "(between a person and an assistant) an embedding's cosine and WordNet's kinds "
                             "(extra 'dense' and WordNet: scripts/wordnet-local).")(fn)


def with_memory_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """--data/--backend/--memory/--conversation/-k/--asked-on and the Neo4j connection options, for search and ask."""
    for option in reversed(memory_options):
        fn = option(fn)
    return neo4j_options(fn)


def _memory(data: Path | None, backend: str, floor: float, neo4j: dict[str, Any], saved: Path | None = None,
            judged: dict[str, Any] | None = None) -> Memory:
    """A Memory over a dialogue file (in process), a saved memory file, or what Neo4j holds;
    ``judged``: its ``confidence=`` and ``meaning_floor=``, if not the default's."""
    judged = judged or {}
    # search and ask need the memory (scikit-learn): imported here to keep --help fast
    from graphmem.memory.api import Memory

    if saved is not None:
        if data is not None or backend != "memory":
            raise click.UsageError("--memory is a saved memory: not with --data or --backend neo4j")
        if not saved.is_file():
            raise click.ClickException(f"{saved}: no such memory file (make one: graphmem ingest --memory {saved} FILE)")
        return Memory(floor=floor, path=saved, **judged)
    if backend == "neo4j":
        if data is not None:
            raise click.UsageError("--data is read in process; with --backend neo4j load it first: graphmem load --data FILE")
        return Memory("neo4j", floor=floor, **judged, **neo4j)
    mem = Memory(floor=floor, **judged)
    mem.ingest(memory_records(data))
    return mem


def _cite(records: Sequence[Record]) -> str:
    """One line per returned turn: conversation, id, speaker, date and what was said."""
    lines = []
    for r in records:
        when = f" ({r.date.day} {r.date:%B %Y})" if r.date else ""
        text = r.text if len(r.text) <= 160 else r.text[:157] + "..."
        where = r.id if r.id.startswith(f"{r.conversation}/") else f"{r.conversation}/{r.id}"
        lines.append(f"  {where}  {r.speaker}{when}: {text}")
    return "\n".join(lines) if lines else "  (nothing matched)"


@main.command()
@click.argument("query")
@with_memory_options
@friendly
def search(query: str, data: Path | None, backend: str, saved: Path | None, conversation: str | None, k: int,
           asked_on: str | None, **neo4j: str | None) -> None:
    """The turns a memory returns for QUERY, best first (English, or Chinese with the zh extra)."""
    with _memory(data, backend, 0.30, neo4j, saved) as mem:
        click.echo(_cite(mem.records_for(query, k, conversation, asked_on)))


@main.command()
@click.argument("question")
@with_memory_options
@click.option("--floor", type=click.FloatRange(0, 1), default=0.30, show_default=True,
              help="Below this confidence reply 'No information available'.")
@confidence_options
@friendly
def ask(question: str, data: Path | None, backend: str, saved: Path | None, conversation: str | None, k: int,
        asked_on: str | None, floor: float, confidence: str, meaning_floor: float | None, **neo4j: str | None) -> None:
    """Ask a memory QUESTION: the reply, its confidence and the turns it cites."""
    from graphmem.memory.meaning import floor_text  # the memory's layer: imported here to keep --help fast

    judged = {"confidence": confidence, **_meaning_floor(meaning_floor, confidence)}
    with _memory(data, backend, floor, neo4j, saved, judged) as mem:
        found = mem.records_for(question, max(k, mem.confidence_turns), conversation, asked_on)
        answer = mem.answer_from(question, found, cite=k)
        used = mem.floor_of(answer)
    click.echo(f"reply: {answer.reply}")
    click.echo(f"confidence: {answer.confidence:.3f} ({answer.measure}, floor {floor_text(used)})")
    click.echo("cited:")
    click.echo(_cite(found[:k]))


@main.command()
@click.option("--memory", "saved", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="The memory file to add to (made when missing).")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--batch", type=click.IntRange(min=1), default=1000, show_default=True, help="Turns per transaction.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@friendly
def ingest(saved: Path, file: Path, batch: int, quiet: bool) -> None:
    """Add the turns of FILE (JSON Lines, or LoCoMo JSON) to a saved memory.

    Every line is checked before any is added: one bad line adds nothing. Each batch is one
    transaction, so an interrupted run keeps the batches it finished; run it again and the
    turns already held are refused as duplicates by id."""
    from graphmem.memory.api import Memory  # the memory (scikit-learn) only for this command

    records = memory_records(file)
    with Memory(path=saved) as mem:
        mem.check(records, source=f"{file}: turn")
        starts = range(0, len(records), batch)
        with click.progressbar(starts, label="ingesting", hidden=quiet) as bar:
            for start in bar:
                mem.ingest(records[start:start + batch])
        click.echo(f"{len(records)} turns added to {saved}; it holds {len(mem)}")


@main.command()
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
    from graphmem.bench import stats as st  # only this command reads predictions back (numpy, scikit-learn): keeps --help fast
    from graphmem.bench import closed  # likewise

    preds = st.load_predictions(file)
    reader = _model_reader(judge_url, judge_name, judge_parallel, model_cache, "GRAPHMEM_JUDGE_URL")
    judged: dict[str, Any] = {}
    section = ""
    if reader is not None:
        from graphmem.bench import judge as jg  # the judge's client (urllib, threads) only with --judge

        result = jg.judge(preds, jg.judged_arms(preds, judge_arms), reader)
        judged, section = jg.as_json(result), jg.render(result)
    if as_json:
        click.echo(json.dumps({**st.as_json(preds, by_category), **closed.as_json(preds), **judged}, indent=1))
    else:
        click.echo(st.report(preds, by_category) + "".join("\n" + t for t in (closed.render(preds), section) if t))


@main.command()
@click.option("--data", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="bench6 folder (default: $GRAPHMEM_BENCH6).")
@click.option("--lang", type=click.Choice(["zh", "en", "both"]), default="both", show_default=True)
@click.option("-k", "k", type=click.IntRange(min=1), default=5, show_default=True)
@click.option("--dense", is_flag=True, help="Fuse the optional multilingual embedding (extra 'dense') with lexical scores.")
@click.option("--backend", type=click.Choice(["memory", "neo4j"]), default="memory", show_default=True,
              help="neo4j: ingest the pool into the database, search there, delete the pool after.")
@neo4j_options
@friendly
def bench6(data: Path | None, lang: str, k: int, dense: bool, backend: str, **neo4j: str | None) -> None:
    """bench6: 100 questions asked in Chinese and in English of 137 LoCoMo turns; hit@1, hit@k, MRR."""
    # only this command needs bench6 (and through it the memory): imported here to keep --help fast
    from graphmem.bench6.adapter import Adapter
    from graphmem.bench6.files import resolve_dir  # likewise
    from graphmem.bench6.report import main_report  # likewise

    if backend == "memory":
        click.echo(main_report(resolve_dir(data), lang, k, adapter=Adapter(dense=True) if dense else None))
        return
    from graphmem.bench6.database import database_report  # likewise

    click.echo(database_report(resolve_dir(data), lang, k, dense, **neo4j))


@main.command()
@click.option("--data", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The release's JSON or .json.gz (default: $GRAPHMEM_LONGMEMEVAL, else the shared development half).")
@click.option("--variant", type=click.Choice(["s", "oracle"]), default="s", show_default=True,
              help="Which shared development file when --data is not given: _S haystacks, or evidence sessions only.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the tables.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write every question's reply, scores, top turns and CPU time as JSON.")
@click.option("--limit", type=click.IntRange(min=1), default=None, help="Only the first N questions.")
@click.option("--model", "model_url", is_flag=False, flag_value="", default=None, metavar="URL",
              help="A model at this OpenAI-compatible endpoint reads each question's top 5 too "
                   "(--model alone: $GRAPHMEM_MODEL_URL; key: $GRAPHMEM_MODEL_KEY).")
@model_options
@click.option("--judge", "judge_url", is_flag=False, flag_value="", default=None, metavar="URL",
              help="Grade the model's replies with a judge at this endpoint (J; --judge alone: $GRAPHMEM_JUDGE_URL).")
@click.option("--judge-name", default=None, help="The judge model's name [the one the endpoint serves].")
@confidence_options
@friendly
def longmemeval(data: Path | None, variant: str, as_json: bool, out: Path | None, limit: int | None,
                model_url: str | None, model_name: str | None, model_parallel: int, model_cache: Path | None,
                judge_url: str | None, judge_name: str | None, confidence: str, meaning_floor: float | None) -> None:
    """LongMemEval: a fresh memory per question's haystack, retrieval beside BM25, answers, by question type."""
    from graphmem.longmemeval.command import longmemeval as lme  # the memory and bm25s: only for this command
    from graphmem.longmemeval.run import Settings  # likewise

    if judge_url is not None and model_url is None:
        raise click.ClickException("--judge grades the model's replies: give --model too")
    reader = _model_reader(model_url, model_name, model_parallel, model_cache, "GRAPHMEM_MODEL_URL")
    judge = _model_reader(judge_url, judge_name, model_parallel, model_cache, "GRAPHMEM_JUDGE_URL")
    settings = Settings(confidence=confidence, **_meaning_floor(meaning_floor, confidence))
    click.echo(lme(data, variant, limit, as_json, out, settings, reader=reader, judge=judge))


def _meaning_floor(floor: float | None, confidence: str) -> dict[str, float]:
    """``meaning_floor=`` for a memory when ``--meaning-floor`` was given (else the memory's own)."""
    if floor is not None and confidence != "meaning":
        raise click.UsageError("--meaning-floor is the floor of --confidence meaning: give that too")
    return {} if floor is None else {"meaning_floor": floor}


def _write_json(path: Path, payload: Any) -> None:
    """Write atomically: a reader never sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(payload, ensure_ascii=False, indent=1), encoding="utf-8")
    os.replace(tmp, path)


if __name__ == "__main__":  # pragma: no cover
    main()
