"""The plugin contract, end to end, with a real (fake) distribution on a temporary site dir.

``toolscore_aardvark`` sorts before ``toolscore_mcp`` and provides, through public names only:
a metric that returns a number, takes an option and may be weighted; a report format; a
registration hook that takes no arguments; and a lint rule for toolscore-mcp's own hook. Each
test runs the real ``toolscore`` command (or ``evaluate()``) in a subprocess, so the plugin
loads exactly as an installed one would.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path

import pytest

AARDVARK = '''
import toolscore
from toolscore.specs import MetricSpec, ReporterSpec
from toolscore_mcp.lint import LintRuleSpec
from toolscore_mcp.model import LintIssue


class Thrift:
    """1.0 when the agent made at most ``max_calls`` calls (default 1), else 0.0."""

    def compute(self, context):
        limit = context.options.get("max_calls", 1)
        return 1.0 if len(context.actual) <= limit else 0.0


class Plain:
    def render(self, result, *, verbose=False):
        return f"plain score={result.score:.4f} thrift={result.metrics.get('thrift')}\\n"


def _no_aardvarks(tool, server):
    if "aardvark" in tool.name:
        yield LintIssue(tool.name, "warning", "aardvarks are not allowed", "rename it", "no-aardvark")


@toolscore.hookimpl
def toolscore_register_metrics():
    yield MetricSpec(name="thrift", factory=Thrift, summary="few calls", label="Thrift")


@toolscore.hookimpl
def toolscore_register_reporters():
    yield ReporterSpec(name="plain", factory=Plain, extension=".plain")


@toolscore.hookimpl
def toolscore_register_commands():
    print("aardvark: commands hook called", file=__import__("sys").stderr)


@toolscore.hookimpl
def toolscore_mcp_register_lint_rules():
    yield LintRuleSpec(name="no-aardvark", check=_no_aardvarks, summary="no aardvarks")
'''

GOLD = [{"tool": "search", "args": {"q": "x"}}]
TRACE = [{"tool": "search", "args": {"q": "x"}}, {"tool": "search", "args": {"q": "y"}}]


@pytest.fixture
def site(tmp_path: Path) -> Path:
    folder = tmp_path / "site"
    folder.mkdir()
    (folder / "toolscore_aardvark_plugin.py").write_text(textwrap.dedent(AARDVARK), "utf-8")
    info = folder / "toolscore_aardvark-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: toolscore-aardvark\nVersion: 1.0\n", "utf-8"
    )
    (info / "entry_points.txt").write_text(
        "[toolscore]\naardvark = toolscore_aardvark_plugin\n", "utf-8"
    )
    (tmp_path / "gold.json").write_text(json.dumps(GOLD), "utf-8")
    (tmp_path / "trace.json").write_text(json.dumps(TRACE), "utf-8")
    return folder


def _env(site: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(site)}
    for name in ("TOOLSCORE_NO_PLUGINS", "TOOLSCORE_LOAD_PLUGINS", "TOOLSCORE_STRICT_PLUGINS"):
        env.pop(name, None)
    env.update(extra or {})
    return env


def run(site: Path, args: Sequence[str], **extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from toolscore.cli import main; main()", *args],
        capture_output=True,
        text=True,
        env=_env(site, extra),
        cwd=site.parent,
        timeout=120,
        check=False,
    )


def python(site: Path, code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        env=_env(site),
        cwd=site.parent,
        timeout=120,
        check=False,
    )


def test_plugins_list_shows_what_the_plugin_provides(site: Path) -> None:
    result = run(site, ["plugins", "list", "--json"])
    assert result.returncode == 0, result.stderr
    plugins = json.loads(result.stdout)["plugins"]
    (record,) = [p for p in plugins if p["name"] == "aardvark"]
    assert record["status"] == "active", record
    assert record["provides"]["metrics"] == ["thrift"]
    assert record["provides"]["reporters"] == ["plain"]
    assert "no-aardvark" in json.dumps(record["provides"])
    assert "toolscore_register_commands" in record["hooks"]
    assert "toolscore_mcp_register_lint_rules" in record["hooks"]


def test_a_metric_is_weighted_and_takes_an_option_from_evaluate(site: Path) -> None:
    result = python(
        site,
        """
        import json, toolscore
        gold = [{"tool": "search", "args": {"q": "x"}}]
        trace = gold + [{"tool": "search", "args": {"q": "y"}}]
        plain = toolscore.evaluate(gold, trace)
        weighted = toolscore.evaluate(gold, trace, weights={"thrift": 1.0})
        allowed = toolscore.evaluate(
            gold, trace, weights={"thrift": 1.0}, options={"max_calls": 2}
        )
        print(json.dumps([plain.metrics["thrift"], plain.score, weighted.score, allowed.score]))
        """,
    )
    assert result.returncode == 0, result.stderr
    thrift, plain, weighted, allowed = json.loads(result.stdout)
    assert thrift == 0.0
    # weights {defaults..., thrift: 1.0} sum to 2: the plugin's 0.0 halves the score
    assert weighted == pytest.approx(plain / 2)
    assert allowed == pytest.approx(plain / 2 + 0.5)


def test_eval_option_weight_and_report_from_the_command_line(site: Path) -> None:
    tmp = site.parent
    result = run(
        site,
        [
            "eval",
            "gold.json",
            "trace.json",
            "--weight",
            "thrift=1",
            "--option",
            "max_calls=2",
            "--report",
            "plain",
            "--markdown",
            "r.md",
            "--html",
            "r.html",
            "--csv",
            "r.csv",
            "--junit",
            "r.xml",
        ],
    )
    assert result.returncode == 0, result.stderr
    assert "Thrift" in result.stdout  # the console view shows the plugin metric
    report = json.loads((tmp / "toolscore.json").read_text("utf-8"))
    assert report["metrics"]["thrift"] == 1.0
    assert report["summary"]["weights"]["thrift"] == pytest.approx(0.5)
    assert (tmp / "toolscore-report.plain").read_text("utf-8").startswith("plain score=")
    assert "thrift=1.0" in (tmp / "toolscore-report.plain").read_text("utf-8")
    assert "| Thrift | 1 |" in (tmp / "r.md").read_text("utf-8")
    assert "Thrift" in (tmp / "r.html").read_text("utf-8")
    assert "thrift" in (tmp / "r.csv").read_text("utf-8")
    assert 'name="metric.thrift" value="1"' in (tmp / "r.xml").read_text("utf-8")


def test_regression_and_compare_take_report_and_option(site: Path) -> None:
    tmp = site.parent
    assert (
        run(site, ["eval", "gold.json", "trace.json", "--save-baseline", "b.json"]).returncode == 0
    )
    regression = run(
        site,
        [
            "regression",
            "b.json",
            "trace.json",
            "-g",
            "gold.json",
            "--report",
            "plain=reg.plain",
            "--option",
            "max_calls=5",
        ],
    )
    assert regression.returncode in (0, 1), regression.stderr
    assert "thrift=1.0" in (tmp / "reg.plain").read_text("utf-8")
    compare = run(
        site,
        [
            "compare",
            "gold.json",
            "trace.json",
            "gold.json",
            "-n",
            "a",
            "-n",
            "b",
            "--report",
            "plain=cmp.plain",
        ],
    )
    assert compare.returncode == 0, compare.stderr
    assert (tmp / "cmp-a.plain").exists()
    assert (tmp / "cmp-b.plain").exists()


def test_a_plugin_that_sorts_before_toolscore_mcp_adds_a_lint_rule(site: Path) -> None:
    tools = {
        "tools": [
            {
                "name": "find_aardvark",
                "description": "Finds one aardvark by name.",
                "inputSchema": {"type": "object"},
            }
        ]
    }
    (site.parent / "tools.json").write_text(json.dumps(tools), "utf-8")
    result = run(site, ["mcp", "lint", "--file", "tools.json"])
    assert "unknown hook" not in result.stderr
    assert "failed to load" not in result.stderr
    assert "aardvarks are not allowed" in result.stdout


def test_trace_hooks_shows_every_hook_call_registration_hooks_included(site: Path) -> None:
    result = run(
        site,
        ["eval", "gold.json", "trace.json", "--report", "plain=out/r.plain"],
        TOOLSCORE_TRACE_HOOKS="1",
    )
    assert (site.parent / "out" / "r.plain").exists()
    assert result.returncode == 0, result.stderr
    for hook in (
        "toolscore_register_metrics",
        "toolscore_register_reporters",
        "toolscore_register_extractors",
    ):
        assert f"hook {hook} " in result.stderr, hook
    listing = run(site, ["plugins", "list"], TOOLSCORE_TRACE_HOOKS="1")
    assert "hook toolscore_register_commands -> ['aardvark']" in listing.stderr
    assert "hook toolscore_describe_provided" in listing.stderr
    assert "aardvark: commands hook called" in listing.stderr


def test_usage_errors_with_the_plugin_installed_exit_2(site: Path) -> None:
    assert run(site, ["eval", "gold.json", "trace.json", "--report", "nope"]).returncode == 2
    assert run(site, ["eval", "gold.json", "trace.json", "--weight", "thrif=1"]).returncode == 2
    assert run(site, ["eval", "gold.json", "trace.json", "--option", "novalue"]).returncode == 2
