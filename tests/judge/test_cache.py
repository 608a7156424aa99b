"""The verdict cache: offline deterministic re-runs, and judge drift when the model changes."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from judge_support import FakeLLM, Reply, calls
from toolscore.judging import run_judge
from toolscore.model import ToolCall
from toolscore.plugins.manager import ToolscorePluginManager
from toolscore_judge.config import JudgeConfig
from toolscore_judge.judge import JudgeDriftWarning

EXPECTED = calls(("search", {"q": "x"}), ("open", {"id": 1}), ("save", {"path": "/a"}))
ACTUAL = calls(("search", {"q": "x"}), ("open", {"id": 1}), ("store", {"path": "/a"}))

Run = Callable[..., dict]


@pytest.fixture
def run(make_config: Callable[..., JudgeConfig], judge_pm: ToolscorePluginManager) -> Run:
    def go(
        provider: str = "openai",
        expected: list | None = None,
        actual: list | None = None,
        **overrides: object,
    ) -> dict:
        result = run_judge(
            make_config(provider, **overrides),
            EXPECTED if expected is None else expected,
            ACTUAL if actual is None else actual,
            None,
            plugin_manager=judge_pm,
        )
        assert result is not None
        return result

    return go


def test_rerun_is_offline_and_identical(llm: FakeLLM, run: Run) -> None:
    first = run("anthropic")
    assert first["cached"] is False
    assert first["cache_hits"] == 0
    llm.stop()
    second = run("anthropic", api_key=None)  # no server, no key: the cache answers everything
    assert second["cached"] is True
    assert second["cache_hits"] == 3
    volatile = {"cached", "cache_hits"}
    assert {k: v for k, v in second.items() if k not in volatile} == {
        k: v for k, v in first.items() if k not in volatile
    }
    assert len(llm.seen) == 1


def test_cache_files_are_plain_json_in_the_documented_layout(
    llm: FakeLLM, run: Run, tmp_path: Path
) -> None:
    run("openai")
    files = sorted((tmp_path / "cache" / "v1").glob("*/*/*.json"))
    assert len(files) == 3
    entries = [json.loads(f.read_text()) for f in files]
    assert {e["judge"] for e in entries} == {"openai:gpt-4o-mini"}
    assert {e["prompt_version"] for e in entries} == {"toolscore-judge/1"}
    pairs = sorted(
        (e["pair"]["expected"]["tool"], e["pair"]["actual"]["tool"], e["score"]) for e in entries
    )
    assert pairs == [("open", "open", 1.0), ("save", "store", 0.5), ("search", "search", 1.0)]
    leftovers = [p for p in (tmp_path / "cache").rglob("*") if p.is_file() and p.suffix != ".json"]
    assert leftovers == [], "atomic writes leave no temporary files"


def test_default_cache_dir_is_under_the_working_directory(
    llm: FakeLLM, run: Run, tmp_path: Path
) -> None:
    run("openai", cache_dir=JudgeConfig().cache_dir)
    assert len(list((tmp_path / ".toolscore" / "judge-cache").rglob("*.json"))) == 3


def test_cache_off_asks_every_time(llm: FakeLLM, run: Run, tmp_path: Path) -> None:
    run("gemini", cache_dir="off")
    again = run("gemini", cache_dir="off")
    assert len(llm.seen) == 2
    assert again["cached"] is False
    assert not (tmp_path / "cache").exists()
    assert not (tmp_path / "off").exists()


def test_only_uncached_pairs_are_sent(llm: FakeLLM, run: Run) -> None:
    run("openai", expected=EXPECTED[:2], actual=ACTUAL[:2])
    result = run("openai")
    assert result["cache_hits"] == 2
    assert result["cached"] is False
    prompt = llm.seen[1].prompt
    assert "## Pair 0" in prompt
    assert "## Pair 1" not in prompt, "only the new pair is asked for"
    assert '"save"' in prompt
    assert result["per_call_scores"] == [1.0, 1.0, 0.5]


def test_identical_pairs_are_asked_once(llm: FakeLLM, run: Run) -> None:
    same = calls(("ping", {}), ("ping", {}), ("ping", {}))
    result = run("openai", expected=same, actual=same, cache_dir="off")
    assert result["per_call_scores"] == [1.0, 1.0, 1.0]
    assert llm.seen[0].prompt.count("## Pair ") == 1


def test_the_key_is_the_pair_content_not_ids_or_results(llm: FakeLLM, run: Run) -> None:
    run("openai")
    decorated = [
        ToolCall(c.tool, c.args, result="ok", id=f"call_{i}", duration=0.5)
        for i, c in enumerate(ACTUAL)
    ]
    assert run("openai", actual=decorated)["cached"] is True
    changed = calls(("search", {"q": "y"}), ("open", {"id": 1}), ("store", {"path": "/a"}))
    assert run("openai", actual=changed)["cache_hits"] == 2


def test_a_corrupt_cache_entry_is_ignored_and_replaced(
    llm: FakeLLM, run: Run, tmp_path: Path
) -> None:
    run("openai")
    victim = sorted((tmp_path / "cache").rglob("*.json"))[0]
    victim.write_text("{ half written")
    result = run("openai")
    assert result["cache_hits"] == 2
    assert len(llm.seen) == 2
    assert json.loads(victim.read_text())["judge"] == "openai:gpt-4o-mini"


def test_a_tampered_entry_for_another_pair_is_not_trusted(
    llm: FakeLLM, run: Run, tmp_path: Path
) -> None:
    run("openai")
    victim = sorted((tmp_path / "cache").rglob("*.json"))[0]
    entry = json.loads(victim.read_text())
    entry["pair"]["actual"]["tool"] = "something_else"
    victim.write_text(json.dumps(entry))
    assert run("openai")["cache_hits"] == 2


def test_unwritable_cache_is_reported_not_fatal(llm: FakeLLM, run: Run, tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the cache folder should be")
    result = run("openai", cache_dir=str(blocker))
    assert result["per_call_scores"] == [1.0, 1.0, 0.5]
    assert result["cache_error"].startswith("could not write the verdict cache")


def test_changed_model_is_reported_as_drift(llm: FakeLLM, run: Run) -> None:
    run("openai", model="gpt-4o-mini")
    llm.answer = lambda prompt: json.dumps(
        {"verdicts": [{"index": i, "score": 0.9, "explanation": "new"} for i in range(3)]}
    )
    with pytest.warns(JudgeDriftWarning, match="verdicts from openai:gpt-4o-mini are cached"):
        result = run("openai", model="gpt-4o")
    assert result["per_call_scores"] == [0.9, 0.9, 0.9], "the new model's verdicts are used"
    assert result["cached"] is False
    drift = result["judge_drift"]
    assert drift["judge"] == "openai:gpt-4o"
    assert drift["other_judges"] == {
        "openai:gpt-4o-mini": {"pairs": 3, "semantic_score": pytest.approx(2.5 / 3)}
    }
    assert [c["pair"] for c in drift["changed_pairs"]] == [0, 1, 2]
    assert drift["changed_pairs"][2]["other_scores"] == {"openai:gpt-4o-mini": 0.5}
    assert drift["max_delta"] == pytest.approx(0.4)


def test_rerun_with_the_original_model_still_hits_and_reports_drift(llm: FakeLLM, run: Run) -> None:
    first = run("openai", model="gpt-4o-mini")
    with pytest.warns(JudgeDriftWarning):
        run("openai", model="gpt-4o")
    llm.stop()
    with pytest.warns(JudgeDriftWarning, match="openai:gpt-4o"):
        back = run("openai", model="gpt-4o-mini")
    assert back["cached"] is True
    assert back["semantic_score"] == first["semantic_score"]
    assert back["judge_drift"]["changed_pairs"] == [], "same verdicts from both models"


def test_another_provider_or_temperature_is_another_judge(llm: FakeLLM, run: Run) -> None:
    run("openai", temperature=0.0)
    with pytest.warns(JudgeDriftWarning):
        warm = run("openai", temperature=0.7)
    assert warm["cached"] is False
    assert "openai:gpt-4o-mini" in warm["judge_drift"]["other_judges"]


def test_no_drift_without_other_models(llm: FakeLLM, run: Run) -> None:
    run("openai")
    assert run("openai")["judge_drift"] is None


def test_partial_drift_has_no_comparable_score(llm: FakeLLM, run: Run) -> None:
    run("openai", model="gpt-4o-mini", expected=EXPECTED[:1], actual=ACTUAL[:1])
    with pytest.warns(JudgeDriftWarning):
        result = run("openai", model="gpt-4o")
    assert result["judge_drift"]["other_judges"] == {
        "openai:gpt-4o-mini": {"pairs": 1, "semantic_score": None}
    }


def test_cache_survives_a_server_error_run(llm: FakeLLM, run: Run) -> None:
    run("openai")
    llm.queue(*[Reply(500)] * 5)
    assert run("openai")["cached"] is True, "cached verdicts need no request at all"
