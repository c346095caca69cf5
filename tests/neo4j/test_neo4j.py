"""Neo4j: the load and its count check, idempotence, verbatim round trips, the query files,
the Browser files, connection errors, and the path arm over Cypher against the mirror.

Every test here talks to the real server at ``NEO4J_URI`` (``scripts/neo4j-local start``).
Without one they are skipped locally and fail under ``CI=true``.
"""

from __future__ import annotations

import ast
import json
import os
import re
from datetime import datetime
from pathlib import Path

from collections.abc import Iterator

import pytest

from tests.conftest import need

from graphmem.store.neo4j import queries
from graphmem.store.neo4j.client import DEFAULT_PASSWORD, Client, Neo4jSettings, connect
from graphmem.bench.arms.hops import CypherNeighbourhood, path_backend
from graphmem.store.neo4j.checks import delete
from graphmem.store.neo4j.load import load_conversations
from graphmem.store.neo4j.plan import BLIND_PREFIX
from graphmem.store.neo4j.queries import browser_file, browser_queries, query, query_names, statements
from graphmem.errors import GraphmemError, Neo4jUnavailable

SMALL = ("conv-26", "conv-30")
WRONG_PASSWORD = "not-the-Pa$$word-4711"


def server_or_skip() -> Client:
    """A verified client, else skip (locally) or fail (CI=true) with the reason."""
    try:
        return connect()
    except Neo4jUnavailable as exc:
        need(f"no Neo4j server: {exc}")


def emptied(*conversations: str) -> Iterator[Client]:
    """A verified client with ``conversations`` deleted before and after the test: the body of
    every Neo4j test module's ``clean`` fixture (``yield from emptied(CONV)``)."""
    client = server_or_skip()
    for conv in conversations:
        delete(client, conv)
    yield client
    for conv in conversations:
        delete(client, conv)
    client.close()


@pytest.fixture(scope="module")
def client():
    c = server_or_skip()
    yield c
    c.close()


@pytest.fixture(scope="module")
def contexts(dataset):
    """The small conversations as the bench builds them (vocabulary, reading, mirror)."""
    from graphmem.bench.locomo import run as bench
    from graphmem.bench.arms.base import Context

    out = []
    for conv in dataset.conversations:
        if conv.id in SMALL:
            ctx = Context.of(conv)
            bench.read_and_build(ctx)
            out.append(ctx)
    return out


@pytest.fixture(scope="module")
def loaded(client, contexts):
    """conv-26 and conv-30 loaded (replacing whatever reading was there), with their report."""
    return load_conversations(client, [c.conv for c in contexts], batch=500, replace=True)


def handmade(sample_id: str = 'hand"made\'{$x}`', twist: str = "") -> object:
    """A tiny conversation whose names and texts hold quotes, backticks, braces, $, newlines, CJK."""
    from graphmem.data.locomo import Question, Sample, Session, Turn

    a, b = 'Zoë "Z" O\'Neil', "李小龍"
    d1, d2 = datetime(2023, 5, 8, 13, 56), datetime(2023, 6, 1, 9, 5)
    said = [
        (a, "I painted a mural called \"{$x}\" with `backticks` yesterday.\nIt costs $5 at {the} café."),
        (b, "我喜欢画画。 I love your mural, Zoë! My sister Mei painted {braces} and `ticks` too."),
        (a, "My dog named Pixie loves the park; she ran $100 laps.\r\nMATCH (n) DETACH DELETE n // })"),
        (b, "I'm learning to cook " + (twist or "饺子") + " with my friend Jenna, O'Neil."),
        (a, "Li\\Xiao's ${name} isn't \"Bruce\"; I don't eat dairy."),
        (b, "I went hiking with Mei last weekend."),
    ]
    sessions, turn_by_id = [], {}
    for s, (date, part) in enumerate([(d1, said[:3]), (d2, said[3:])], start=1):
        turns = []
        for j, (who, text) in enumerate(part, start=1):
            t = Turn(f"D{s}:{j}", who, text, date, session=s, caption="a photo of {\"x\"} $y `z`" if j == 1 else None)
            turns.append(t)
            turn_by_id[t.id] = t
        sessions.append(Session(s, date, date.strftime("%-I:%M %p on %-d %B, %Y"), tuple(turns)))
    questions = (
        Question(0, "What did Zoë paint?", "a mural", 4, ("D1:1",)),
        Question(1, "What does 李小龍 cook?", "饺子", 4, ("D2:1",)),
        Question(2, "Who loves the park?", "Pixie", 1, ("D1:3",)),
        Question(3, "Who went hiking with Mei?", "李小龍", 4, ("D2:3",)),
    )
    return Sample(sample_id, (a, b), tuple(sessions), turn_by_id, questions)


def handmade_context(conv):
    from graphmem.bench.locomo import run as bench
    from graphmem.bench.arms.base import Context

    ctx = Context.of(conv)
    bench.read_and_build(ctx)
    return ctx


@pytest.fixture(scope="module")
def weird(client):
    """The hand-made conversation, loaded; deleted again after the module."""
    ctx = handmade_context(handmade())
    report = load_conversations(client, [ctx.conv], replace=True)
    yield ctx, report
    delete(client, ctx.conv.id)


def _scoped_totals(client, ids) -> dict:
    """Nodes and relationships of these conversations, counted without the load's own query."""
    rows = client.run(
        "UNWIND $ids AS id MATCH (n {conversation: id}) "
        "RETURN count(n) AS nodes, sum(COUNT { (n)-->() }) AS out", ids=list(ids))
    conv = client.run("UNWIND $ids AS id MATCH (c:Conversation {id: id}) "
                      "RETURN count(c) AS nodes, sum(COUNT { (c)-->() }) AS out", ids=list(ids))
    return {"nodes": rows[0]["nodes"] + conv[0]["nodes"], "relationships": rows[0]["out"] + conv[0]["out"]}


def _duplicate_relationships(client, ids) -> int:
    return client.run(
        "UNWIND $ids AS id MATCH (a {conversation: id})-[r]->(b) WITH a, b, type(r) AS t, count(r) AS c "
        "WHERE c > 1 RETURN count(*) AS dups", ids=list(ids))[0]["dups"]


# --------------------------------------------------------------------------- the load


def test_load_counts_match_the_mirror(loaded, contexts):
    assert [c.conversation for c in loaded.counts] == list(SMALL)
    for counts, ctx in zip(loaded.counts, contexts):
        assert counts.ok, counts.differences()
        g = ctx.graph
        kinds = [d.get("kind") for _, d in g.nodes(data=True)]
        edges = [k for _, _, k in g.edges(keys=True)]
        people = [d["human"] for _, d in g.nodes(data=True) if d.get("kind") == "person"]
        assert (counts.found["people"], counts.found["others"]) == (people.count(True), people.count(False))
        assert counts.found["assertions"] == kinds.count("assertion")
        assert counts.found["derived"] == sum(bool(d.get("derived")) for _, d in g.nodes(data=True))
        assert counts.found["subject_of"] == edges.count("about")
        assert counts.found["mentions"] == edges.count("mentions")
        assert counts.found["read_from"] == edges.count("from")
        assert counts.found["turns"] == len(ctx.conv.turns) == counts.found["has_turn"]
        assert counts.found["sessions"] == len(ctx.conv.sessions) == counts.found["has_session"]
        assert counts.found["spoke"] == len(ctx.conv.turns)
        assert "ok" in counts.line()
    assert loaded.rows == sum(c.nodes + c.relationships for c in loaded.counts)


def test_loading_again_leaves_identical_counts(client, loaded, contexts):
    before = _scoped_totals(client, SMALL)
    again = load_conversations(client, [c.conv for c in contexts], batch=777)
    assert [c.found for c in again.counts] == [c.found for c in loaded.counts]
    assert _scoped_totals(client, SMALL) == before
    assert before["nodes"] == sum(c.nodes for c in loaded.counts)
    assert before["relationships"] == sum(c.relationships for c in loaded.counts)
    assert _duplicate_relationships(client, SMALL) == 0


def test_replace_deletes_the_subgraph_first(client, weird):
    ctx, report = weird
    cid = ctx.conv.id
    assert delete(client, cid, batch=3) == report.counts[0].nodes
    assert _scoped_totals(client, [cid]) == {"nodes": 0, "relationships": 0}
    again = load_conversations(client, [ctx.conv], replace=True, batch=2)
    assert again.counts[0].found == report.counts[0].found


def test_a_changed_reading_is_an_error_until_replaced(client):
    cid = "handmade-changed"
    load_conversations(client, [handmade(cid)], replace=True)
    try:
        changed = handmade(cid, twist="noodles")  # one assertion's object changes: the old one would linger
        with pytest.raises(GraphmemError, match=r"(does not match the mirror|holds other turns under this file.s ids).*--replace"):
            load_conversations(client, [changed])
        ctx = handmade_context(changed)
        with pytest.raises(GraphmemError, match="loaded from another reading|not loaded"):
            path_backend(ctx, client)
        assert load_conversations(client, [changed], replace=True).counts[0].ok
        assert path_backend(ctx, client) is not None
    finally:
        delete(client, cid)


def test_ids_that_would_break_keys_are_refused(client):
    for bad in ("a/b", "blind:conv-26", ""):
        with pytest.raises(GraphmemError, match="cannot be loaded"):
            load_conversations(client, [handmade(bad)])


def test_names_and_texts_read_back_verbatim(client, weird):
    ctx, report = weird
    cid = ctx.conv.id
    assert report.counts[0].ok
    conv = client.run("MATCH (c:Conversation {id: $id}) RETURN c.speakers AS s", id=cid)
    assert conv == [{"s": list(ctx.conv.speakers)}]

    turns = client.run("MATCH (t:Turn {conversation: $id}) RETURN t.id AS id, t.text AS text, "
                       "t.speaker AS speaker, t.caption AS caption", id=cid)
    assert {r["id"]: (r["text"], r["speaker"], r["caption"]) for r in turns} == {
        f"{cid}/{t.id}": (t.text, t.speaker, t.caption) for t in ctx.conv.turns}
    assert any("\n" in r["text"] and "`" in r["text"] and "{$x}" in r["text"] for r in turns)

    people = client.run("MATCH (p:Person {conversation: $id}) RETURN p.id AS id, p.name AS name", id=cid)
    mirror_people = {n[1]: d["name"] for n, d in ctx.graph.nodes(data=True) if d["kind"] == "person"}
    assert {r["id"]: r["name"] for r in people} == mirror_people
    assert {'Zoë "Z" O\'Neil', "李小龍"} <= set(mirror_people.values())

    said = client.run("MATCH (a:Assertion {conversation: $id}) RETURN a.n AS n, a.predicate AS predicate, "
                      "a.object AS object, a.sentence AS sentence, a.topic AS topic, a.negated AS negated", id=cid)
    mirror_said = {str(n[1]): (d["predicate"], d["object"], d["sentence"], d["topic"], d["negated"])
                   for n, d in ctx.graph.nodes(data=True) if d["kind"] == "assertion"}
    assert {r["n"]: (r["predicate"], r["object"], r["sentence"], r["topic"], r["negated"]) for r in said} == mirror_said
    sentences = " ".join(v[2] for v in mirror_said.values())
    for piece in ("$", "{", '"', "'", "饺子"):  # the reader turns backticks into quotes
        assert piece in sentences, piece
    texts = " ".join(r["text"] for r in turns)
    for piece in ("`", "\\", "\r\n", "${name}", "我喜欢画画", "// })"):
        assert piece in texts, piece


# --------------------------------------------------------------------------- query files


def _sources() -> list[Path]:
    """The modules that run Cypher: the Neo4j store's folder, the path arm's hops, bench6's run in it."""
    here = Path(queries.__file__).parent
    bench = here.parents[1] / "bench"
    return sorted([*here.glob("*.py"), bench / "arms" / "hops.py", bench / "bench6" / "database.py"])


def _asked_names() -> set[str]:
    """Every query name the package's modules ask for, read off their source."""
    source = "\n".join(p.read_text(encoding="utf-8") for p in _sources())
    names = set(re.findall(r"\.(?:query|write|run)\(\s*\"([\w+]+)\"", source))
    names |= set(re.findall(r"\b(?:query|statements)\(\s*\"([\w+]+)\"", source))
    return names


def test_every_query_file_is_used_and_every_name_exists(client):
    files = set(query_names())
    asked = _asked_names()
    parts = {part for name in asked for part in name.split("+")}  # "a+b": one statement in two files
    assert parts - files == set(), "asked for but missing"
    assert files - parts == set(), "shipped but never used"
    for name in sorted(asked):  # and every statement asked for is valid Cypher for this server
        for stmt in statements(name) if name == "schema" else [query(name)]:
            client.run("EXPLAIN " + stmt)
    with pytest.raises(GraphmemError, match="no Cypher query named"):
        query("no_such_query")


def test_queries_take_values_only_as_parameters():
    """No query is built with string formatting: each call passes a literal name."""
    trees = [ast.parse(p.read_text(encoding="utf-8")) for p in _sources()]
    for node in (n for tree in trees for n in ast.walk(tree)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("query", "write"):
            if node.args and not isinstance(node.args[0], ast.Constant):
                assert isinstance(node.args[0], ast.Name) and node.args[0].id == "step", ast.unparse(node)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "run":
            arg = node.args[0] if node.args else None
            assert not isinstance(arg, ast.JoinedStr), ast.unparse(node)


def test_schema_has_a_constraint_for_every_merge_key(client, loaded):
    merged = {(label, tuple(sorted(re.findall(r"(\w+):", keys))))
              for name in query_names() for label, keys in re.findall(r"MERGE \(\w+:(\w+) \{([^}]*)\}", query(name))}
    rows = client.run("SHOW CONSTRAINTS YIELD type, labelsOrTypes, properties")
    unique = {(r["labelsOrTypes"][0], tuple(sorted(r["properties"]))) for r in rows if r["type"] == "UNIQUENESS"}
    assert merged <= unique
    assert merged == {("Conversation", ("id",)), ("Session", ("key",)), ("Turn", ("key",)), ("Person", ("key",)),
                      ("Assertion", ("key",)), ("Term", ("owner", "stem")), ("Sentence", ("key",))}


# --------------------------------------------------------------------------- Browser


def test_every_documented_browser_query_runs(client, loaded):
    params_text, examples = browser_queries()
    assert {e.name for e in examples} >= {"person-neighbourhood", "topic", "said-in-session", "answer-assertions"}
    params = client.run("RETURN " + params_text + " AS p")[0]["p"]
    for e in examples:
        assert e.description
        rows = client.run(e.text, **params)
        assert rows, f"{e.name} returned nothing for {params}"


def _grass(text: str) -> dict[str, dict[str, str]]:
    """GraSS as Neo4j Browser reads it: ``selector { key: value; ... }``, braces inside '...' kept."""
    rules: dict[str, dict[str, str]] = {}
    selector, body, inside_props, inside_string = "", "", False, False
    for ch in text:
        if ch == "'":
            inside_string = not inside_string
        elif ch == "{" and not inside_string:
            inside_props = True
        elif ch == "}" and not inside_string:
            assert inside_props, "unbalanced }"
            props = {}
            for part in body.split(";"):
                if part.strip():
                    key, value = part.split(":", 1)
                    assert ":" not in value, f"Browser keeps only the text before a second colon: {part!r}"
                    props[key.strip()] = value.strip()
            rules[selector.strip()] = props
            selector, body, inside_props = "", "", False
        elif inside_props:
            body += ch
        else:
            selector += ch
    assert not inside_props and not inside_string and not selector.strip()
    return rules


def test_browser_style_captions_and_colours():
    rules = _grass(browser_file("style.grass").read_text(encoding="utf-8"))
    assert rules["node.Person"]["caption"] == "{name}"
    assert rules["node.Assertion"]["caption"] == "{predicate} {object}"
    assert rules["node.Turn"]["caption"] == "{id}"
    labels = ["node.Person", "node.Assertion", "node.Turn", "node.Session", "node.Conversation"]
    colours = [rules[label]["color"].upper() for label in labels]
    assert len(set(colours)) == len(colours)
    for rel in ("SUBJECT_OF", "MENTIONS", "READ_FROM"):
        assert f"relationship.{rel}" in rules


# --------------------------------------------------------------------------- connection errors


def _assert_one_line(exc: BaseException, *must: str) -> None:
    text = str(exc)
    assert "\n" not in text and "Traceback" not in text
    assert WRONG_PASSWORD not in text and os.environ.get("NEO4J_PASSWORD", DEFAULT_PASSWORD) not in text
    for m in must:
        assert m in text, (m, text)


def test_unreachable_server_is_one_clear_line():
    with pytest.raises(Neo4jUnavailable) as err:
        connect("bolt://127.0.0.1:1", password=WRONG_PASSWORD)
    _assert_one_line(err.value, "cannot reach Neo4j at bolt://127.0.0.1:1", "scripts/neo4j-local start")


def test_not_a_bolt_uri_is_one_clear_line():
    with pytest.raises(GraphmemError) as err:
        connect("http://localhost:7474")
    _assert_one_line(err.value, "NEO4J_URI", "bolt://")


def test_wrong_password_is_one_clear_line(client):
    with pytest.raises(Neo4jUnavailable) as err:
        connect(client.settings.uri, client.settings.user, WRONG_PASSWORD)
    _assert_one_line(err.value, client.settings.uri, "NEO4J_USER", "NEO4J_PASSWORD")


def test_missing_database_is_one_clear_line(client):
    with pytest.raises(Neo4jUnavailable) as err:
        connect(client.settings.uri, client.settings.user, client.settings.password, "graphmem-missing")
    _assert_one_line(err.value, client.settings.uri, "no database 'graphmem-missing'", "NEO4J_DATABASE")


def test_settings_never_show_the_password():
    s = Neo4jSettings.from_env(password=WRONG_PASSWORD)
    assert WRONG_PASSWORD not in repr(s) and WRONG_PASSWORD not in s.where
    inline = Neo4jSettings(uri=f"bolt://neo4j:{WRONG_PASSWORD}@localhost:7687")
    assert inline.where == "bolt://localhost:7687"


def _cli_load():
    from graphmem.cli import main

    assert "load" in main.commands
    return main


def test_cli_load_prints_counts(client, loaded, locomo_path):
    from click.testing import CliRunner

    main = _cli_load()
    result = CliRunner().invoke(main, ["load", "--data", str(locomo_path), "--conversations", "conv-30", "--quiet"])
    assert result.exit_code == 0, result.output
    assert re.search(r"conv-30 .* ok", result.output)
    assert "rows/s" in result.output
    assert client.settings.password not in result.output


def test_cli_load_errors_are_one_line(client, locomo_path):
    from click.testing import CliRunner

    main = _cli_load()
    for args, must in [
        (["--uri", "bolt://127.0.0.1:1"], "cannot reach Neo4j"),
        (["--neo4j-user", "graphmem-nobody", "--neo4j-password", WRONG_PASSWORD],
         "set NEO4J_USER and NEO4J_PASSWORD (or --neo4j-user and --neo4j-password)"),
        (["--database", "graphmem-missing"], "no database"),
    ]:
        result = CliRunner().invoke(main, ["load", "--data", str(locomo_path), "--conversations", "conv-30", "--quiet", *args])
        assert result.exit_code != 0
        assert "Traceback" not in result.output and WRONG_PASSWORD not in result.output
        assert len(result.output.strip().splitlines()) == 1, result.output
        assert must in result.output


# --------------------------------------------------------------------------- the path arm


ARMS = [(1, True), (2, True), (3, False)]


def _parity(ctx, client):
    from graphmem.bench.arms.path import PathArm

    ctx.extra.pop("neo4j_neighbourhood", None)
    backend = path_backend(ctx, client)
    for hops, guided in ARMS:
        memory = PathArm(ctx, hops, guided).cite(ctx.conv.questions, 5)
        cypher = PathArm(ctx, hops, guided, backend=backend).cite(ctx.conv.questions, 5)
        assert cypher == memory, (ctx.conv.id, hops, guided)
    memory = PathArm(ctx, owned=False).cite(ctx.conv.questions, 5)  # the walk without the ownership test
    assert PathArm(ctx, owned=False, backend=backend).cite(ctx.conv.questions, 5) == memory, (ctx.conv.id, "unowned")
    return backend


def test_path_over_cypher_cites_exactly_what_the_mirror_does(client, loaded, contexts):
    for ctx in contexts:
        backend = _parity(ctx, client)
        assert backend.queries < len(ctx.conv.questions)  # batched: fewer round trips than questions


def test_path_over_cypher_matches_on_the_handmade_conversation(client, weird):
    ctx, _ = weird
    _parity(ctx, client)


def test_neighbourhood_rows_are_the_mirrors(client, loaded, contexts):
    from graphmem.claims.hops import MemoryNeighbourhood

    ctx = contexts[0]
    memory = MemoryNeighbourhood(ctx.graph)
    cypher = CypherNeighbourhood(client, ctx.conv.id, memo=False)
    assert cypher.people() == memory.people()
    for who in memory.people():
        assert sorted(cypher.assertions([who]), key=repr) == sorted(memory.assertions([who]), key=repr)
    some = [e.assertion for e in memory.assertions(memory.people()[:1])][:50]
    assert set(cypher.linked(some)) == set(memory.linked(some))


def test_blind_path_runs_against_an_empty_scope_and_falls_silent(client, loaded, contexts):
    from graphmem.bench.arms.path import PathArm

    for ctx in contexts:
        hood = path_backend(ctx, client, blind=True)
        assert hood.conversation == BLIND_PREFIX + ctx.conv.id
        hits = PathArm(ctx, 1, True, backend=hood).cite(ctx.conv.questions, 5)
        assert all(h == [] for h in hits)
        assert hood.queries >= 1  # the same Cypher ran, against nothing


def test_path_backend_refuses_a_conversation_that_is_not_loaded(client):
    ctx = handmade_context(handmade("handmade-never-loaded"))
    delete(client, "handmade-never-loaded")
    with pytest.raises(GraphmemError, match="not loaded in Neo4j.*graphmem load"):
        path_backend(ctx, client)


def _bench_has_backend() -> bool:
    from graphmem.cli import main

    return any(p.name == "backend" for p in main.commands["bench"].params)


def test_bench_predictions_are_byte_identical_over_neo4j(client, loaded, locomo_path, tmp_path):
    """``bench --backend neo4j`` writes the same bytes as ``--backend memory``, blind or not."""
    from click.testing import CliRunner

    from graphmem.cli import main

    assert _bench_has_backend()
    small = tmp_path / "small.json"  # a temporary subset, never committed
    small.write_text(json.dumps([s for s in json.loads(Path(locomo_path).read_text()) if s["sample_id"] in SMALL]))
    for blind in ([], ["--blind"]):
        outs = []
        for backend in ("memory", "neo4j"):
            out = tmp_path / f"{backend}{'-blind' if blind else ''}.json"
            result = CliRunner().invoke(main, ["bench", "--data", str(small), "--arms", "path,path+set,path2,walk3",
                                               "--backend", backend, "--out", str(out), *blind])
            assert result.exit_code == 0, result.output
            outs.append(out.read_bytes())
        assert outs[0] == outs[1], f"predictions differ (blind={bool(blind)})"


def test_cli_load_reads_json_lines_of_turns(client, tmp_path):
    """Your own dialogue, one turn per line, loads like LoCoMo: counts checked, idempotent."""
    import json

    from click.testing import CliRunner

    main = _cli_load()
    turns = [
        {"id": "jl1", "speaker": "Ann", "text": "I adopted a dog named Rex yesterday!", "date": "2023-05-08", "conversation": "jsonl-test"},
        {"id": "jl2", "speaker": "Bob", "text": "Congrats! My sister Jo loves dogs.", "date": "2023-05-09", "conversation": "jsonl-test"},
    ]
    delete(client, "jsonl-test")
    path = tmp_path / "turns.jsonl"
    path.write_text("\n".join(json.dumps(t) for t in turns) + "\n")
    first = CliRunner().invoke(main, ["load", "--data", str(path), "--quiet"])
    assert first.exit_code == 0, first.output
    again = CliRunner().invoke(main, ["load", "--data", str(path), "--quiet"])
    assert again.exit_code == 0, again.output
    line = lambda out: next(x for x in out.splitlines() if x.startswith("jsonl-test"))
    assert line(first.output) == line(again.output) and line(first.output).endswith("ok")
    assert "   3 people (1 other named)" in line(first.output)  # Ann, Bob and Bob's sister Jo; Rex is a dog
    humans = client.run("MATCH (p:Person {conversation: 'jsonl-test'}) RETURN p.id AS id, p.human AS human")
    assert {r["id"]: r["human"] for r in humans} == {"ann": True, "bob": True, "jo": True, "rex": False}
    rows = client.run("MATCH (t:Turn {conversation: 'jsonl-test'}) RETURN t.id AS id, t.text AS text ORDER BY id")
    assert [(r["id"], r["text"]) for r in rows] == [("jl1", turns[0]["text"]), ("jl2", turns[1]["text"])]
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(turns[0]) + "\n{not json\n")
    result = CliRunner().invoke(main, ["load", "--data", str(bad), "--quiet"])
    assert result.exit_code != 0 and "bad.jsonl: line 2: not JSON" in result.output
    delete(client, "jsonl-test")
