"""The tools in process, through the SDK's in-memory client: schemas, each tool, bad input, a closed memory.

Why in process as well as spawned: some cases no wire carries (the SDK's client cannot encode a
lone surrogate; a memory closed under a running server), and the schema checks need no process.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import click
import pytest
from mcp import Client, MCPError

from graphmem.cli.serve import address
from graphmem.errors import GraphmemError
from graphmem.memory.api import Memory
from graphmem.memory.calibrated import Calibrated
from graphmem.server.app import build
from graphmem.server.schemas import TOOLS
from graphmem.server.tools import stable_id
from tests.server.conftest import BAD, error, ok

ANN = {"speaker": "Ann", "text": "I adopted a dog called Rex yesterday.", "date": "2023-05-08"}
BOB = {"speaker": "Bob", "text": "Congrats! I went hiking in the Alps."}


def served(mem: Memory, body: Callable[[Client], Awaitable[Any]]) -> Any:
    """``body(client)`` against a server over ``mem``, in this process."""
    async def main() -> Any:
        async with Client(build(mem)) as client:
            return await body(client)

    return anyio.run(main)


def _walk(schema: Any, path: str = "") -> list[tuple[str, dict]]:
    if not isinstance(schema, dict):
        return []
    found = [(path, schema)]
    for key, sub in schema.get("properties", {}).items():
        found += _walk(sub, f"{path}.{key}")
    if "items" in schema:
        found += _walk(schema["items"], f"{path}[]")
    return found


def test_every_tool_is_listed_with_a_schema_a_model_can_use_alone():
    async def body(client: Client) -> Any:
        return (await client.list_tools()).tools

    tools = served(Memory(), body)
    assert [t.name for t in tools] == list(TOOLS) == ["remember", "update", "search", "ask", "facts", "forget", "turns", "stats"]
    for tool in tools:
        assert "Example: {" in tool.description and tool.title, tool.name
        schema = tool.input_schema
        assert schema["type"] == "object" and schema["additionalProperties"] is False, tool.name
        for path, sub in _walk(schema)[1:]:
            assert isinstance(sub.get("type"), str), f"{tool.name}{path}: one type, no union"
            assert not {"anyOf", "oneOf", "allOf", "$ref", "format"} & set(sub), f"{tool.name}{path}"
            if not path.endswith("[]"):
                assert sub.get("description"), f"{tool.name}{path} says what it is"
            if sub.get("type") == "integer":  # bounded before use: no whole number reaches a store unbounded
                assert isinstance(sub.get("minimum"), int) and isinstance(sub.get("maximum"), int), \
                    f"{tool.name}{path}: an integer argument has both bounds"
                assert sub["maximum"] <= 2**53 - 1, f"{tool.name}{path}: within what every JSON client reads exactly"
        assert tool.output_schema["type"] == "object"
        assert tool.annotations.read_only_hint == (tool.name not in ("remember", "update", "forget"))
    assert next(t for t in tools if t.name == "forget").annotations.destructive_hint is True
    assert "NOT authentication" in TOOLS["search"]["input_schema"]["properties"]["user"]["description"]


def test_each_tool_in_process():
    async def body(client: Client) -> None:
        first = ok(await client.call_tool("remember", {"turns": [ANN, BOB], "conversation": "ann-chat"}))
        assert first["added"] == 2 and first["held"] == 0 and len(set(first["ids"])) == 2
        again = ok(await client.call_tool("remember", {"turns": [ANN, BOB], "conversation": "ann-chat"}))
        assert again == {"added": 0, "held": 2, "ids": first["ids"]}, "the same turns twice are kept once"
        found = ok(await client.call_tool("search", {"query": "Who adopted a dog?", "k": 1}))["turns"]
        assert found == [{"id": first["ids"][0], "speaker": "Ann", "text": ANN["text"], "conversation": "ann-chat",
                          "date": "2023-05-08T00:00:00"}]
        answer = ok(await client.call_tool("ask", {"question": "When did Ann adopt a dog?"}))
        assert answer["reply"] == "7 May 2023" and not answer["abstained"] and answer["floor"] == 0.3
        assert answer["cited"][0]["id"] == first["ids"][0] and answer["confidence"] >= 0.3
        page = ok(await client.call_tool("turns", {"limit": 1}))
        assert [t["id"] for t in page["turns"]] == first["ids"][:1] and page["next_offset"] == 1
        last = ok(await client.call_tool("turns", {"limit": 1, "offset": 1}))
        assert [t["id"] for t in last["turns"]] == first["ids"][1:] and "next_offset" not in last
        assert "date" not in last["turns"][0], "an undated turn has no date"
        stats = ok(await client.call_tool("stats", {}))
        assert stats == {"turns": 2, "conversations": 1, "read_only": False, "by_conversation": [
            {"conversation": "ann-chat", "turns": 2, "first": "2023-05-08T00:00:00", "last": "2023-05-08T00:00:00"}]}
        quiet = ok(await client.call_tool("ask", {"question": "What is Zorro's favourite colour?"}))
        assert quiet["reply"] == "No information available" and quiet["abstained"]

    served(Memory(), body)


def test_ask_answers_what_holds_as_of_the_day_asked():
    """The ask tool reads a person's attribute off the fact that holds as of ``as_of``, its turn cited
    first, and nothing said after that day (graphmem.memory.asked)."""
    moves = [{"id": "m1", "speaker": "Alice", "text": "I live in Paris and I work as a nurse.", "date": "2023-01-10"},
             {"id": "m2", "speaker": "Bob", "text": "Paris is lovely, Alice!", "date": "2023-01-10"},
             {"id": "m3", "speaker": "Alice", "text": "I moved from Paris to Berlin last month.", "date": "2023-06-02"}]

    async def body(client: Client) -> None:
        ok(await client.call_tool("remember", {"turns": moves}))
        now = ok(await client.call_tool("ask", {"question": "Where is Alice based?"}))
        assert (now["reply"], now["source"], now["cited"][0]["id"]) == ("Berlin", "m3", "m3") and not now["abstained"]
        then = ok(await client.call_tool("ask", {"question": "Where is Alice based?", "as_of": "2023-03-01"}))
        assert then["reply"] == "Paris" and "m3" not in {t["id"] for t in then["cited"]}
        job = ok(await client.call_tool("ask", {"question": "What is Alice's job?"}))
        assert job["reply"] == "nurse" and job["confidence"] >= job["floor"]

    served(Memory(), body)


def test_ask_reads_no_fact_of_a_turn_the_filter_leaves_out_and_a_past_month_asks_what_held_then():
    """Asked with ``where``, a fact read from a filtered-out turn neither answers nor ends the one that does;
    a state asked "in" a past month is what held by its end (graphmem.memory.asked)."""
    moves = [{"id": "m1", "speaker": "Alice", "text": "I live in Paris.", "date": "2023-01-10", "metadata": {"via": "chat"}},
             {"id": "m2", "speaker": "Bob", "text": "Paris is lovely, Alice!", "date": "2023-01-10"},
             {"id": "m3", "speaker": "Alice", "text": "I moved from Paris to Berlin last month.", "date": "2023-06-02",
              "metadata": {"via": "email"}}]

    async def body(client: Client) -> None:
        ok(await client.call_tool("remember", {"turns": moves}))
        chats = ok(await client.call_tool("ask", {"question": "Where does Alice live?", "where": {"via": "chat"}}))
        assert (chats["reply"], chats["source"]) == ("Paris", "m1")
        then = ok(await client.call_tool("ask", {"question": "Where did Alice live in February 2023?"}))
        assert (then["reply"], then["source"]) == ("Paris", "m1")
        history = ok(await client.call_tool("facts", {"about": "Alice", "history": True}))
        assert [f["value"] for f in history["facts"] if f["attribute"] == "residence"] == ["paris", "berlin"]

    served(Memory(), body)


def test_bad_input_is_a_tool_error_with_one_line_and_the_server_carries_on():
    async def body(client: Client) -> None:
        for tool, arguments, line in BAD:
            assert error(await client.call_tool(tool, arguments)) == line, (tool, arguments)
        assert error(await client.call_tool("remember", {"turns": [{"speaker": "Ann", "text": "a\ud800b"}]})) == \
            "remember: turns[0].text is not valid Unicode (a lone surrogate at character 1)"
        assert error(await client.call_tool("search", {"query": "dog\udfff"})) == \
            "search: query is not valid Unicode (a lone surrogate at character 3)"
        ok(await client.call_tool("remember", {"turns": [ANN], "conversation": "c"}))
        clash = {"turns": [{"speaker": "Bob", "text": "other", "id": "x1"}]}
        ok(await client.call_tool("remember", {"turns": [{"speaker": "Ann", "text": "one", "id": "x1"}]}))
        assert error(await client.call_tool("remember", clash)) == ("remember: turns[0] (id 'x1'): the memory holds id "
                                                                   "'x1' already, with other content (a turn's id is "
                                                                   "unique within its user's turns)")
        assert ok(await client.call_tool("stats", {}))["turns"] == 2, "nothing of a refused call was kept"

    served(Memory(), body)


def test_the_largest_offset_is_served_as_an_empty_page():
    async def body(client: Client) -> dict:
        ok(await client.call_tool("remember", {"turns": [ANN]}))
        return ok(await client.call_tool("turns", {"offset": 2**53 - 1, "limit": 1000}))

    assert served(Memory(), body) == {"turns": []}


def test_an_unknown_tool_is_a_protocol_error():
    async def body(client: Client) -> None:
        with pytest.raises(MCPError, match="unknown tool 'recall'; the tools are remember, update, search, ask"):
            await client.call_tool("recall", {})
        ok(await client.call_tool("stats", {}))

    served(Memory(), body)


def test_a_closed_memory_and_a_read_only_file_say_what_the_memory_says(tmp_path):
    mem = Memory()
    mem.close()
    with pytest.raises(GraphmemError) as closed:
        mem.search("dog")

    async def search(client: Client) -> str:
        return error(await client.call_tool("search", {"query": "dog"}))

    assert served(mem, search) == str(closed.value) == "memory: this memory was closed; open it again"
    path = tmp_path / "m.db"
    with Memory(path=path) as mem:
        mem.ingest([{"id": "a", "speaker": "Ann", "text": "hello"}])
    with Memory(path=path, read_only=True) as mem:
        async def remember(client: Client) -> tuple[str, dict]:
            refused = error(await client.call_tool("remember", {"turns": [BOB]}))
            return refused, ok(await client.call_tool("stats", {}))

        refused, stats = served(mem, remember)
    assert refused == f"{path}: this memory was opened read-only; it takes no turns"
    assert stats["read_only"] is True and stats["turns"] == 1


def test_a_bug_is_one_line_and_the_traceback_goes_to_the_log(caplog):
    mem = Memory()
    mem.hits = lambda *a, **k: 1 / 0

    async def body(client: Client) -> str:
        line = error(await client.call_tool("search", {"query": "dog"}))
        ok(await client.call_tool("stats", {}))
        return line

    assert served(mem, body) == "search: internal error (ZeroDivisionError); the server's log has the traceback"
    assert "ZeroDivisionError" in caplog.text


def test_a_turn_without_an_id_gets_one_made_of_what_it_is():
    base = {"conversation": "c", "speaker": "Ann", "text": "hi", "date": "2023-05-08"}
    same = stable_id(base, "t")
    assert same.startswith("m-") and same == stable_id({**base, "date": "2023-05-08T00:00:00"}, "t")
    assert same == stable_id({**base, "speaker": " Ann "}, "t"), "the memory strips a speaker's name"
    for change in ({"user": "alice"}, {"conversation": "d"}, {"speaker": "Bob"}, {"text": "hi!"},
                   {"date": "2023-05-09"}, {"date": None}):
        assert stable_id({**base, **change}, "t") != same, change
    with pytest.raises(GraphmemError, match=r"^t: cannot read the date 'soon'$"):
        stable_id({**base, "date": "soon"}, "t")


@pytest.mark.parametrize("text, host, port", [("8000", "127.0.0.1", 8000), (":8000", "127.0.0.1", 8000),
                                              ("0.0.0.0:9000", "0.0.0.0", 9000), ("[::1]:8000", "::1", 8000),
                                              ("localhost:65535", "localhost", 65535)])
def test_an_http_address_binds_this_machine_unless_told(text, host, port):
    assert address(text) == (host, port)


@pytest.mark.parametrize("text", ["", "x", "host:", "host:0", "host:70000", "host:-1"])
def test_a_bad_http_address_is_refused(text):
    with pytest.raises(click.BadParameter):
        address(text)


def test_forget_by_ids_says_which_matched_and_which_were_not_found():
    async def body(client: Client) -> tuple[dict, dict, dict]:
        ok(await client.call_tool("remember", {"turns": [{**ANN, "id": "a1"}], "user": "ann"}))
        ok(await client.call_tool("remember", {"turns": [{**BOB, "id": "b1"}]}))
        missed = ok(await client.call_tool("forget", {"ids": ["a1", "b1", "zz"]}))
        mine = ok(await client.call_tool("forget", {"ids": ["a1"], "user": "ann"}))
        whole = ok(await client.call_tool("forget", {"user": "ann"}))
        return missed, mine, whole

    missed, mine, whole = served(Memory(), body)
    assert missed == {"removed": 1, "matched": ["b1"], "not_found": ["a1", "zz"]}, \
        "ann's turn is not found among the turns without a user, and nothing says whose it is"
    assert mine == {"removed": 1, "matched": ["a1"], "not_found": []}
    assert whole == {"removed": 0}


def test_a_server_for_one_user_reads_and_writes_that_users_turns_and_refuses_another():
    mem = Memory()
    mem.ingest([{"id": "x", "speaker": "Cy", "text": "Cy's own dog is called Rex.", "user": "cy"}])

    async def body(client: Client) -> tuple:
        added = ok(await client.call_tool("remember", {"turns": [ANN]}))
        found = ok(await client.call_tool("search", {"query": "dog called Rex"}))
        same = ok(await client.call_tool("stats", {"user": "ann"}))
        other = error(await client.call_tool("search", {"query": "dog", "user": "cy"}))
        nothing = error(await client.call_tool("forget", {}))
        return added, found, same, other, nothing

    async def run() -> tuple:
        async with Client(build(mem, user="ann")) as client:
            return await body(client)

    added, found, same, other, nothing = anyio.run(run)
    assert [t.id for t in mem.turns(user="ann")] == added["ids"] and len(list(mem.turns())) == 0
    assert [t["id"] for t in found["turns"]] == added["ids"], "Cy's turn is not this server's to find"
    assert same["turns"] == 1
    assert other == "search: this server serves user 'ann' only (graphmem serve --user); leave user out"
    assert nothing.startswith("forget: give ids, a conversation or a user"), "forget {} never forgets a whole user"


def test_ask_with_the_calibrated_confidence_gives_the_heads_floor():
    async def body(client: Client) -> None:
        ok(await client.call_tool("remember", {"turns": [ANN, BOB], "conversation": "ann-chat"}))
        answer = ok(await client.call_tool("ask", {"question": "What did Ann adopt?"}))
        floor = Calibrated.load().heads["friends"].floor
        assert answer["floor"] == floor and 0.0 <= answer["confidence"] <= 1.0
        assert answer["abstained"] == (answer["confidence"] < floor)

    served(Memory(confidence="calibrated"), body)


def test_the_server_the_memory_and_the_command_line_refuse_an_argument_by_one_rule(tmp_path):
    """k, dates and names are checked by the memory's rules (graphmem.memory.arguments) wherever they
    come from: the MCP server reads ``as_of`` once, into the datetime the memory then takes as it is,
    and refuses a user the memory would refuse, in the memory's words."""
    from click.testing import CliRunner

    from graphmem.cli import main
    from graphmem.memory.arguments import moment
    from graphmem.server.checks import checked

    a = checked("search", {"query": "dog", "k": 3, "as_of": "1:56 pm on 8 May, 2023"})
    assert a["k"] == 3 and moment(a["as_of"]) is a["as_of"], "read once: the memory does not read it again"
    line = "user 'a\\x01b' holds a control character"
    with pytest.raises(GraphmemError) as served_:
        checked("search", {"query": "dog", "user": "a\x01b"})
    with pytest.raises(GraphmemError) as api:
        Memory().search("dog", user="a\x01b")
    assert str(served_.value) == str(api.value) == line
    turns = tmp_path / "t.jsonl"
    turns.write_text('{"id": "d1", "speaker": "Ann", "text": "hi"}\n')
    result = CliRunner().invoke(main, ["ingest", str(turns), "--memory", str(tmp_path / "m.db"), "--user", "a\x01b"])
    assert result.exit_code != 0 and result.output.strip() == "Error: " + line.replace("user", "--user", 1)
    with pytest.raises(GraphmemError, match="^as_of: cannot read the date 'soon'$"):
        checked("facts", {"about": "Ann", "as_of": "soon"})
    with pytest.raises(GraphmemError, match="^as_of: cannot read the date 'soon'$"):
        Memory().facts("Ann", as_of="soon")
