"""Values made up for an MCP server's tools stay small whatever the schemas ask (issue 12).

Each check runs in a subprocess with an address-space limit and a timeout, so a regression
fails in seconds (MemoryError or TimeoutExpired) instead of taking the machine: before the
bounds, ``minItems: 100000000`` drove ``mcp test`` past 1.5 GB and a minute.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import textwrap
from pathlib import Path

from mcp_support import CLI_SCRIPT, server_cmd

MEMORY_LIMIT = 3 * 1024**3  # the CLI with the mcp SDK loaded needs well under this
TIMEOUT = 60


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def _run_python(code: str, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter with the memory limit; fails the test on timeout."""
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=timeout,
        preexec_fn=_limit_memory,
        check=False,
    )


def test_mcp_test_on_absurd_schemas_finishes_small_and_reports_the_tools_as_not_callable(
    tmp_path: Path,
) -> None:
    report = tmp_path / "card.json"
    command = " ".join(server_cmd("huge_schema_server.py"))
    argv = [sys.executable, str(CLI_SCRIPT), "mcp", "test", command]
    done = subprocess.run(
        [*argv, "--report", "json", "-o", str(report)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        preexec_fn=_limit_memory,
        env={**os.environ, "COLUMNS": "200"},
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    assert "Traceback" not in done.stderr
    card = json.loads(report.read_text())
    tools = {tool["name"]: tool for tool in card["tools"]}
    assert set(tools) == {"bulk_insert", "pad_text", "match_code", "tree", "status", "echo"}
    # The ordinary tool is still exercised and works.
    assert tools["echo"]["passed"] == tools["echo"]["total"] >= 1
    # Each absurd tool is not called: no argument set fits its schema within the bounds.
    for name in ("bulk_insert", "pad_text", "match_code", "tree"):
        assert tools[name]["total"] == 0, tools[name]
    # An answer that makes the tool's own outputSchema pattern backtrack is a finding, not a hang.
    status = [r for r in card["results"] if r["tool"] == "status"]
    assert status, card["results"]
    assert "'(a|aa)+$' cannot be checked safely" in status[0]["detail"]


def test_generated_values_are_capped_in_size_depth_and_total() -> None:
    done = _run_python(
        """
        import json, random
        from toolscore_mcp.values.generate import generate_value_from_schema

        schemas = {
            "items": {"type": "array", "minItems": 100000000},
            "length": {"type": "string", "minLength": 1e9},
            "infinite": {"type": "string", "minLength": 1e400},
            "pattern": {"type": "string", "pattern": "^a{1000000000}$"},
            "grid": {"type": "array", "minItems": 1000, "items": {"type": "array",
                     "minItems": 1000, "items": {"type": "string", "minLength": 100000}}},
            "recursive": {"type": "object", "properties": {
                "kids": {"type": "array", "minItems": 50, "items": {"$ref": "#"}}}},
        }
        sizes = {}
        for name, schema in schemas.items():
            for variation in ("normal", "boundary", "edge"):
                value = generate_value_from_schema(name, schema, variation, random.Random(0))
                sizes[f"{name}/{variation}"] = len(json.dumps(value))
        print(json.dumps(sizes))
        """
    )
    assert done.returncode == 0, done.stderr
    sizes = json.loads(done.stdout)
    # MAX_GENERATED_CHARS (100 000) of text plus the JSON punctuation of at most
    # MAX_GENERATED_NODES (10 000) values: well under a megabyte whatever was asked.
    assert max(sizes.values()) < 1_000_000, sizes
    # Bounded is not empty: a huge minLength or minItems still gets a long value.
    assert sizes["length/boundary"] > 1000
    assert sizes["items/boundary"] > 100


def test_recursive_all_of_fan_out_is_folded_within_bounds() -> None:
    done = _run_python(
        """
        from toolscore_mcp.values.generate import effective_schema

        defs = {f"A{i}": {"allOf": [{"$ref": f"#/$defs/A{i + 1}"}] * 30} for i in range(30)}
        defs["A30"] = {"type": "string"}
        folded = effective_schema({"$ref": "#/$defs/A0"}, {"$defs": defs})
        print(sorted(folded))
        """,
        timeout=20,
    )
    assert done.returncode == 0, done.stderr


def test_a_pattern_of_a_billion_repeats_yields_no_value_quickly() -> None:
    done = _run_python(
        """
        from toolscore_mcp.values.patterns import string_for_pattern

        assert string_for_pattern("^a{1000000000}$") is None
        assert string_for_pattern("^(?:ab){100000}c{100000}$") is None
        assert string_for_pattern("^(ab){3}$") == "ababab"
        """,
        timeout=20,
    )
    assert done.returncode == 0, done.stderr


def test_a_backtracking_schema_pattern_rejects_the_value_instead_of_hanging() -> None:
    done = _run_python(
        """
        from toolscore_mcp.model import MCPToolDef
        from toolscore_mcp.values.providers import Candidate, SynthesisContext, ValueProviderSpec
        from toolscore_mcp.values.synthesizer import ToolSynthesizer

        tool = MCPToolDef.from_wire({"name": "lookup", "inputSchema": {
            "type": "object",
            "properties": {"key": {"type": "string", "pattern": "(a|aa)+$"}},
            "required": ["key"]}})
        offer = ValueProviderSpec("hostile", lambda p, c: [Candidate("a" * 60 + "!", "plugin")])
        synthesizer = ToolSynthesizer(tool, [offer], SynthesisContext())
        assert synthesizer.candidates("key") == []
        assert synthesizer.argument_sets(3) == []
        print("rejected")
        """,
        timeout=20,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "rejected"
