"""Expanding gold steps into flat lists of expected calls, and picking the best-scoring one.

Every step has a finite list of *candidates* (flat call lists with the choices that made
them); a sequence's candidates are the product of its steps'. The candidate whose flat list
scores best against the actual calls is scored; ties go to the first in declaration order
(an optional call included before skipped, fewer repeats before more, alternatives in the
order written).

Bounds, so that expansion stays small: a ``repeat`` without ``max`` is tried up to the
number of actual calls; an ``any_order``
group of more than :data:`MAX_PERMUTED` steps is tried in one order only, that of the actual
calls; more than :data:`MAX_CANDIDATES` candidates in all is an error that says so.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from toolscore.expectations.model import AnyOrder, OneOf, OptionalStep, Repeat, Step
from toolscore.model import ToolCall

__all__ = ["MAX_CANDIDATES", "MAX_PERMUTED", "Candidate", "best_expansion", "expansions"]

#: Groups up to this size are tried in every order (5! = 120 orders).
MAX_PERMUTED = 5
#: At most this many flat lists are scored for one gold.
MAX_CANDIDATES = 4096

#: A flat list of expected calls, and the choices (one mapping per decision) that made it.
Candidate = tuple[tuple[ToolCall, ...], tuple[dict[str, Any], ...]]


def expansions(
    steps: Sequence[Step], actual: Sequence[ToolCall], path: str = "$"
) -> list[Candidate]:
    """Every candidate of ``steps`` (the top-level sequence, at JSON ``path``), in order.

    :raises ValueError: more than :data:`MAX_CANDIDATES` candidates.
    """
    return _sequence(steps, actual, path)


def _check(count: int) -> None:
    if count > MAX_CANDIDATES:
        raise ValueError(
            f"the gold's optional, repeat, any_order and one_of steps expand to {count} "
            f"alternatives, more than {MAX_CANDIDATES}: bound repeats with max or split the case"
        )


def _sequence(steps: Sequence[Step], actual: Sequence[ToolCall], path: str) -> list[Candidate]:
    parts = [_step(step, actual, f"{path}[{i}]") for i, step in enumerate(steps)]
    _check(math.prod(len(p) for p in parts))
    out: list[Candidate] = []
    for combo in itertools.product(*parts):
        calls = tuple(call for part_calls, _ in combo for call in part_calls)
        choices = tuple(choice for _, part_choices in combo for choice in part_choices)
        out.append((calls, choices))
    return out


def _step(step: Step, actual: Sequence[ToolCall], path: str) -> list[Candidate]:
    if isinstance(step, ToolCall):
        return [((step,), ())]
    if isinstance(step, OptionalStep):
        inner = _step(step.step, actual, f"{path}.optional")
        skipped: Candidate = ((), ({"path": path, "optional": "skipped"},))
        return [(c, ({"path": path, "optional": "included"}, *ch)) for c, ch in inner] + [skipped]
    if isinstance(step, Repeat):
        return _repeat(step, actual, path)
    if isinstance(step, AnyOrder):
        return _any_order(step, actual, path)
    return _one_of(step, actual, path)


def _repeat(step: Repeat, actual: Sequence[ToolCall], path: str) -> list[Candidate]:
    inner = _step(step.step, actual, f"{path}.repeat")
    high = step.max if step.max is not None else max(step.min, _bound(step.step, actual))
    out: list[Candidate] = []
    for count in range(step.min, high + 1):
        _check(len(out) + len(inner) ** count)
        for combo in itertools.product(inner, repeat=count):
            calls = tuple(call for c, _ in combo for call in c)
            choices = tuple(choice for _, ch in combo for choice in ch)
            out.append((calls, ({"path": path, "count": count}, *choices)))
    return out


def _bound(step: Step, actual: Sequence[ToolCall]) -> int:
    """Repeats tried without ``max``: as many as there are actual calls.

    Not fewer: an expected call with no partner of its tool can still raise the score
    (the sequence metric pairs by position), as the brute-force test shows.
    """
    return len(actual)


def _any_order(step: AnyOrder, actual: Sequence[ToolCall], path: str) -> list[Candidate]:
    size = len(step.steps)
    if size <= MAX_PERMUTED:
        orders: list[tuple[int, ...]] = list(itertools.permutations(range(size)))
    else:
        orders = [_actual_order(step.steps, actual)]
    out: list[Candidate] = []
    for order in orders:
        ordered = [step.steps[i] for i in order]
        for calls, choices in _sequence(ordered, actual, f"{path}.any_order"):
            out.append((calls, ({"path": path, "order": list(order)}, *choices)))
    _check(len(out))
    return out


def _actual_order(steps: Sequence[Step], actual: Sequence[ToolCall]) -> tuple[int, ...]:
    """The group's steps sorted by where their tool first occurs in the actual calls."""
    first: dict[str, int] = {}
    for index, call in enumerate(actual):
        first.setdefault(call.tool, index)

    def key(i: int) -> tuple[int, int]:
        tool = _first_tool(steps[i])
        return (first.get(tool, len(actual)) if tool else len(actual), i)

    return tuple(sorted(range(len(steps)), key=key))


def _first_tool(step: Step) -> str | None:
    if isinstance(step, ToolCall):
        return step.tool
    if isinstance(step, (OptionalStep, Repeat)):
        return _first_tool(step.step)
    if isinstance(step, AnyOrder):
        return _first_tool(step.steps[0])
    return next((_first_tool(alt[0]) for alt in step.alternatives if alt), None)


def _one_of(step: OneOf, actual: Sequence[ToolCall], path: str) -> list[Candidate]:
    out: list[Candidate] = []
    for name, alternative in zip(step.names, step.alternatives):
        for calls, choices in _sequence(alternative, actual, f"{path}.one_of.{name}"):
            out.append((calls, ({"path": path, "one_of": name}, *choices)))
    _check(len(out))
    return out


def best_expansion(
    steps: Sequence[Step],
    actual: Sequence[ToolCall],
    score: Callable[[Sequence[ToolCall]], float],
    path: str = "$",
) -> tuple[list[ToolCall], list[dict[str, Any]], int]:
    """The best-scoring candidate: (its calls, its choices, how many candidates were scored)."""
    candidates = expansions(steps, actual, path)
    best: Candidate | None = None
    best_score = -math.inf
    for candidate in _unique(candidates):
        value = score(candidate[0])
        if value > best_score:
            best, best_score = candidate, value
    assert best is not None  # a sequence always has at least one candidate
    return list(best[0]), list(best[1]), len(candidates)


def _unique(candidates: list[Candidate]) -> Iterator[Candidate]:
    """Candidates whose flat lists are the same object sequence are scored once."""
    seen: set[tuple[int, ...]] = set()
    for candidate in candidates:
        key = tuple(id(call) for call in candidate[0])
        if key not in seen:
            seen.add(key)
            yield candidate
