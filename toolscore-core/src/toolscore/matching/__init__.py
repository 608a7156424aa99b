"""Everything that decides whether calls and values match, in one package.

Public modules (documented; plugins may import them):

* :mod:`toolscore.matching.values` — the one comparison of an expected argument value with an
  actual one (:func:`values_match`, :func:`count_correct`, :func:`match_key`);
* :mod:`toolscore.matching.matchers` — ``ANY``, ``Regex``, ... and their ``"$regex"``-style JSON
  forms;
* :mod:`toolscore.matching.alignment` — the one-to-one pairing of expected and actual calls that
  every metric shares (:class:`Alignment`, :func:`align`), computed once per evaluation;
* :mod:`toolscore.matching.trajectory` and :mod:`toolscore.matching.policies` — trajectory modes
  (``strict``, ``unordered``, ``subset``, ``superset``) and argument policies:
  ``toolscore.match_trajectory(expected, actual, mode=..., args=..., args_overrides=...)`` gives a
  yes/no :class:`TrajectoryMatch`; ``evaluate(..., match=...)`` makes the score follow the same
  mode. See docs/matching.md for choosing a mode.

Private modules (no underscore-free import outside toolscore-core):

* ``_solver`` — the weighted pairing engine behind :func:`align` (most pairs, then most correct
  arguments, then the lexicographically first decisions);
* ``_pairing`` and ``_flow`` — the pairing of the trajectory modes: a compatibility graph
  between groups of interchangeable calls, and a maximum flow over it;
* ``_apply`` — ``evaluate(match=...)``: rewrites the inputs of the metrics under a mode;
* ``_expected`` — expected calls from dicts with the ``$`` JSON forms; ``_gold`` — the ``match``
  object of a gold file.

Why two pairing engines. :func:`align` maximises a *weight* (correct arguments) and breaks ties
by a fixed lexicographic order, because the argument metrics read those weights and the tie
order changes their numbers. The trajectory modes only ask *whether* calls are compatible under
a policy (which may be a callable, a set of key paths, ``subset``/``superset``), and a trace
often repeats one call many times: ``_flow`` works on groups of identical calls with a
multiplicity (twenty identical ``list_files()`` are one node), which the weighted solver, one
node per call, cannot. The pairs a mode finds are also reported (``TrajectoryMatch.pairs``) and
then re-used by ``evaluate(match=...)``, so handing them to the weighted solver would change
which calls pair with which, and with it the reported pairs and scores.

Names are resolved lazily, so importing one submodule (``toolscore.matching.values``) does not
import the others.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

_LAZY: dict[str, str] = {
    "ARGS_MODES": "toolscore.matching.policies",
    "ArgsRule": "toolscore.matching.policies",
    "rule_from_policy": "toolscore.matching.policies",
    "MODES": "toolscore.matching.trajectory",
    "MatchSpec": "toolscore.matching.trajectory",
    "TrajectoryMatch": "toolscore.matching.trajectory",
    "match_calls": "toolscore.matching.trajectory",
    "match_trajectory": "toolscore.matching.trajectory",
}


def __getattr__(name: str) -> Any:
    module_name = _LAZY.get(name)
    if module_name is None:
        raise AttributeError(f"module 'toolscore.matching' has no attribute {name!r}")
    value = getattr(import_module(module_name), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
