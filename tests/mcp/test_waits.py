"""A number that sets how long a tool waits gets the shortest valid value in every argument set.

A tool that sleeps for its default twenty seconds proves nothing more than it does in one, and
``mcp test`` is only as fast as its slowest call. A ``timeout`` bounds a wait and is left as
the evidence says.
"""

from __future__ import annotations

import json
from pathlib import Path

from mcp_support import run_cli, server_cmd


def _happy_arguments(report: Path, tool: str) -> list[dict[str, object]]:
    card = json.loads(report.read_text(encoding="utf-8"))
    return [
        result["arguments"]
        for result in card["results"]
        if result["tool"] == tool and result["kind"] == "happy"
    ]


def test_waits_get_the_shortest_valid_value_and_the_tools_pass(tmp_path: Path) -> None:
    report = tmp_path / "card.json"
    done = run_cli(
        "mcp", "test", " ".join(server_cmd("sleepy_server.py")), "--output", str(report),
        timeout=40,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    pauses = _happy_arguments(report, "pause")
    assert pauses
    assert all(arguments.get("duration") == 1 for arguments in pauses)
    throttles = _happy_arguments(report, "throttle")
    assert throttles
    assert all(arguments.get("delay_ms") == 50 for arguments in throttles)  # the schema minimum
    card = json.loads(report.read_text(encoding="utf-8"))
    verdicts = {r["tool"]: r["verdict"] for r in card["results"] if r["kind"] == "happy"}
    assert verdicts == {"pause": "pass", "throttle": "pass", "fetch_later": "pass"}


def test_a_timeout_is_not_taken_for_a_wait() -> None:
    from toolscore_mcp.model import MCPToolDef
    from toolscore_mcp.values.meaning import is_wait
    from toolscore_mcp.values.providers import Parameter

    raw = {
        "name": "fetch_later",
        "inputSchema": {
            "type": "object",
            "properties": {"timeout": {"type": "integer"}, "delay": {"type": "string"}},
        },
    }
    tool = MCPToolDef.from_wire(raw)
    for name in ("timeout", "delay"):  # a bound; a wait that is no number (e.g. "5m")
        parameter = Parameter(tool=tool, name=name, schema=raw["inputSchema"]["properties"][name])
        assert not is_wait(parameter)
