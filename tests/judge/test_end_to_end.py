"""The judge through the public API and the real CLI: evaluate_trace(judge=...) and --llm-*."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import toolscore
import toolscore_judge.plugin
from click.testing import CliRunner, Result
from judge_support import FakeLLM
from toolscore.plugins import create_plugin_manager
from toolscore.plugins.manager import ToolscorePluginManager
from toolscore_judge.config import JudgeConfig

evaluation = pytest.importorskip("toolscore.evaluation")

GOLD = [
    {"tool": "search", "args": {"q": "weather Paris"}},
    {"tool": "get_weather", "args": {"city": "Paris"}},
]
# the agent called get_weather first and used another search tool
TRACE = {
    "calls": [
        {"tool": "get_weather", "args": {"city": "Paris"}},
        {"tool": "web_search", "args": {"query": "Paris weather"}},
    ]
}


@pytest.fixture
def pm() -> ToolscorePluginManager:
    manager = create_plugin_manager(load_entrypoints=False)
    manager.register(toolscore_judge.plugin, name="toolscore_judge")
    return manager


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    gold, trace = tmp_path / "gold.json", tmp_path / "trace.json"
    gold.write_text(json.dumps(GOLD))
    trace.write_text(json.dumps(TRACE))
    return gold, trace


def test_evaluate_trace_with_a_judge(
    files: tuple[Path, Path],
    llm: FakeLLM,
    make_config: Callable[..., JudgeConfig],
    pm: ToolscorePluginManager,
) -> None:
    gold, trace = files
    result = evaluation.evaluate_trace(gold, trace, judge=make_config(), plugin_manager=pm)
    semantic = result.metrics["semantic_metrics"]
    # get_weather is aligned with trace[0]; search is judged against web_search (trace[1])
    assert semantic["pairs"] == [[0, 1], [1, 0]]
    assert semantic["per_call_scores"] == [0.5, 1.0]
    assert semantic["semantic_score"] == pytest.approx(0.75)
    assert len(llm.seen) == 1


def test_evaluate_in_memory_with_a_judge_before_the_finished_hook(
    llm: FakeLLM, make_config: Callable[..., JudgeConfig], pm: ToolscorePluginManager
) -> None:
    seen: list[Any] = []

    class Listener:
        @toolscore.hookimpl
        def toolscore_evaluation_finished(self, result: Any) -> None:
            seen.append(result.metrics.get("semantic_metrics"))

    pm.register(Listener(), name="listener")
    result = evaluation.evaluate(GOLD, TRACE["calls"], judge=make_config(), plugin_manager=pm)
    semantic = result.metrics["semantic_metrics"]
    assert semantic["per_call_scores"] == [0.5, 1.0]
    assert seen == [semantic]  # plugins listening for the result see the judge's verdict
    assert (
        "semantic_metrics"
        not in evaluation.evaluate(GOLD, TRACE["calls"], plugin_manager=pm).metrics
    )
    assert len(llm.seen) == 1


def test_evaluate_trace_without_a_key_completes(
    files: tuple[Path, Path], pm: ToolscorePluginManager
) -> None:
    gold, trace = files
    result = evaluation.evaluate_trace(gold, trace, judge=True, plugin_manager=pm)
    semantic = result.metrics["semantic_metrics"]
    assert semantic["semantic_score"] is None
    assert semantic["error"] == (
        "API key required for provider 'openai'. Set the OPENAI_API_KEY environment variable "
        "or pass JudgeConfig(api_key=...)."
    )
    assert result.score > 0


def test_no_judge_no_key(files: tuple[Path, Path], pm: ToolscorePluginManager) -> None:
    gold, trace = files
    assert (
        "semantic_metrics" not in evaluation.evaluate_trace(gold, trace, plugin_manager=pm).metrics
    )


def _cli(args: list[str], cwd: Path, pm: ToolscorePluginManager) -> Result:
    from toolscore.cli import cli

    old = os.getcwd()
    os.chdir(cwd)
    try:
        return CliRunner().invoke(cli, args, obj={"plugin_manager": pm})
    finally:
        os.chdir(old)


def _semantic(report: Path) -> Any:
    return json.loads(report.read_text())["metrics"]["semantic_metrics"]


def test_cli_llm_options_and_an_offline_rerun(
    files: tuple[Path, Path], llm: FakeLLM, tmp_path: Path, pm: ToolscorePluginManager
) -> None:
    gold, trace = files
    llm.api_key = "not-needed"  # what a keyless OpenAI-compatible judge sends
    args = [
        "eval", str(gold), str(trace), "--llm-judge", "--llm-model", "llama3.1",
        "--llm-base-url", f"{llm.url}/v1", "--llm-cache", "verdicts",
    ]  # fmt: skip
    first = _cli([*args, "-o", "first.json"], tmp_path, pm)
    assert first.exit_code == 0, first.output
    assert _semantic(tmp_path / "first.json")["per_call_scores"] == [0.5, 1.0]
    assert (tmp_path / "verdicts" / "v1").is_dir()

    llm.stop()
    second = _cli([*args, "-o", "second.json"], tmp_path, pm)
    assert second.exit_code == 0, second.output
    again = _semantic(tmp_path / "second.json")
    assert again["cached"] is True
    assert again["semantic_score"] == _semantic(tmp_path / "first.json")["semantic_score"]


def test_cli_judge_error_with_markdown_report_exits_0(
    files: tuple[Path, Path], tmp_path: Path, pm: ToolscorePluginManager
) -> None:
    """No key + --markdown: the judge's error goes into the report, the run still succeeds
    (docs/compat.md#judge-without-key)."""
    gold, trace = files
    result = _cli(
        ["eval", str(gold), str(trace), "--llm-judge", "--markdown", "report.md"], tmp_path, pm
    )
    assert result.exit_code == 0, result.output
    markdown = (tmp_path / "report.md").read_text()
    assert "Semantic Evaluation" in markdown
    assert "API key required for provider 'openai'" in markdown
    # The advice on where the key goes is advice, not a secret: redaction keeps it readable.
    assert "pass JudgeConfig(api_key=...)." in markdown
    assert "pass JudgeConfig(api_key=...)." in " ".join(result.stderr.split())
    assert _semantic(tmp_path / "toolscore.json")["semantic_score"] is None
    # The console says so too, on stderr (stdout stays the usual summary).
    assert "Warning: LLM judge: API key required for provider 'openai'" in " ".join(
        result.stderr.split()
    )
