"""``graphmem serve``'s arguments refused before anything is served: no server, no SDK call needed."""

import pytest
from click.testing import CliRunner

from graphmem.cli import main


@pytest.mark.parametrize(("args", "env", "named"), [
    (["--token", ""], {}, "--token"),
    (["--token", "  "], {}, "--token"),
    ([], {"GRAPHMEM_MCP_TOKEN": ""}, "GRAPHMEM_MCP_TOKEN"),
    ([], {"GRAPHMEM_MCP_TOKEN": " \t"}, "GRAPHMEM_MCP_TOKEN"),
])
def test_an_empty_token_is_refused_in_one_line_not_taken_as_no_authentication(args, env, named):
    result = CliRunner().invoke(main, ["serve", "--http", "127.0.0.1:1", *args], env=env)
    assert result.exit_code == 1, result.output
    assert result.output == (f"Error: {named} is empty: give a secret (openssl rand -hex 24), or leave it unset "
                             "to serve without a token\n")
