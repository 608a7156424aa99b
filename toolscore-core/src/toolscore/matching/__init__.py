"""Matching modes beyond the default scoring: trajectory verdicts and argument policies.

``toolscore.match_trajectory(expected, actual, mode=..., args=..., args_overrides=...)`` gives
a yes/no :class:`TrajectoryMatch`; ``evaluate(..., match=...)`` makes the score follow the same
mode. See docs/matching.md for choosing a mode.
"""

from __future__ import annotations

from toolscore.matching.policies import ARGS_MODES, ArgsRule, rule_from_policy
from toolscore.matching.trajectory import (
    MODES,
    MatchSpec,
    TrajectoryMatch,
    match_calls,
    match_trajectory,
)

__all__ = [
    "ARGS_MODES",
    "MODES",
    "ArgsRule",
    "MatchSpec",
    "TrajectoryMatch",
    "match_calls",
    "match_trajectory",
    "rule_from_policy",
]
