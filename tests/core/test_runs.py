"""Repeated runs: pass@k and pass^k equal their closed forms; evaluate_runs and eval --k."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from pathlib import Path

import pytest
import toolscore
from click.testing import CliRunner
from toolscore.runs import pass_at_k, pass_hat_k


def _enumerated(n: int, c: int, k: int) -> tuple[Fraction, Fraction]:
    """Both metrics by enumerating every k-subset of n runs of which the first c pass."""
    subsets = list(itertools.combinations(range(n), k))
    any_pass = sum(1 for s in subsets if any(i < c for i in s))
    all_pass = sum(1 for s in subsets if all(i < c for i in s))
    return Fraction(any_pass, len(subsets)), Fraction(all_pass, len(subsets))


@pytest.mark.parametrize("n", range(1, 8))
def test_pass_at_k_and_pass_hat_k_equal_the_closed_forms(n: int) -> None:
    for c in range(n + 1):
        for k in range(1, n + 1):
            at, hat = _enumerated(n, c, k)
            assert pass_at_k(n, c, k) == pytest.approx(float(at), abs=1e-12)
            assert pass_hat_k(n, c, k) == pytest.approx(float(hat), abs=1e-12)


def test_k_must_be_within_the_runs() -> None:
    with pytest.raises(ValueError, match="k must be between 1 and the number of runs"):
        pass_hat_k(3, 1, 4)


GOLD = [{"tool": "search", "args": {"q": "paris"}}, {"tool": "book", "args": {"id": 7}}]
GOOD = [{"tool": "search", "args": {"q": "paris"}}, {"tool": "book", "args": {"id": 7}}]
BAD = [{"tool": "search", "args": {"q": "rome"}}, {"tool": "book", "args": {"id": 7}}]


def test_evaluate_runs_reports_counts_flakiness_and_differences() -> None:
    result = toolscore.evaluate_runs(GOLD, [GOOD, BAD, GOOD, GOOD], k=2)
    assert (result.n, result.passed, result.k) == (4, 3, 2)
    assert result.flaky
    assert result.pass_at_k == 1.0
    assert result.pass_hat_k == pytest.approx(3 / 6)
    assert len(result.runs) == 4
    assert result.outcomes == (True, False, True, True)
    (difference,) = result.differences
    assert difference["position"] == 1
    assert difference["variants"] == [
        {"call": "search(q='paris')", "runs": [1, 3, 4]},
        {"call": "search(q='rome')", "runs": [2]},
    ]
    steady = toolscore.evaluate_runs(GOLD, [GOOD, GOOD], k=2)
    assert not steady.flaky
    assert steady.pass_hat_k == 1.0
    assert steady.differences == ()


def test_evaluate_runs_takes_match_modes() -> None:
    reordered = GOOD[::-1]
    strict = toolscore.evaluate_runs(GOLD, [reordered], k=1, threshold=1.0)
    assert strict.passed == 0
    loose = toolscore.evaluate_runs(GOLD, [reordered], k=1, threshold=1.0, match="unordered")
    assert loose.passed == 1


def test_eval_cli_with_several_runs(tmp_path: Path) -> None:
    from toolscore.cli import cli

    (tmp_path / "gold.json").write_text(json.dumps(GOLD))
    for name, calls in (("r1", GOOD), ("r2", BAD), ("r3", GOOD)):
        (tmp_path / f"{name}.json").write_text(json.dumps(calls))
    out = tmp_path / "runs.json"
    args = ["eval", str(tmp_path / "gold.json")]
    args += [str(tmp_path / f"{n}.json") for n in ("r1", "r2", "r3")]
    done = CliRunner().invoke(cli, [*args, "--k", "2", "-o", str(out)])
    assert done.exit_code == 0, done.output
    assert "2/3 runs pass" in done.output
    assert "pass@2 = 1.0000   pass^2 = 0.3333   FLAKY" in done.output
    assert (
        "call #1 differs: search(q='paris') in run 1, 3; search(q='rome') in run 2" in done.output
    )
    (case,) = json.loads(out.read_text())["cases"]
    assert (case["n"], case["passed"], case["flaky"]) == (3, 2, True)
    assert case["pass_hat_k"] == pytest.approx(1 / 3)
    too_many = CliRunner().invoke(cli, [*args, "--k", "4", "-o", str(out)])
    assert too_many.exit_code == 2


def test_gold_file_match_object_is_honoured(tmp_path: Path) -> None:
    gold = {"match": {"mode": "unordered"}, "calls": GOLD}
    (tmp_path / "gold.json").write_text(json.dumps(gold))
    (tmp_path / "trace.json").write_text(json.dumps(GOOD[::-1]))
    result = toolscore.evaluate_trace(tmp_path / "gold.json", tmp_path / "trace.json")
    assert result.score == 1.0
    assert result.metrics["trajectory_match"]["matched"] is True
    (tmp_path / "bad.json").write_text(json.dumps({"match": {"mode": "sorted"}, "calls": GOLD}))
    with pytest.raises(ValueError, match=r"\$\.match: unknown match mode 'sorted'"):
        toolscore.evaluate_trace(tmp_path / "bad.json", tmp_path / "trace.json")
