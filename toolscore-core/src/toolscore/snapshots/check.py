"""The snapshot check: record an agent's calls, or replay them against an approved baseline.

:func:`run_snapshot` is the state machine described in :mod:`toolscore.snapshots` (update,
record, pending, replay; nothing is written in CI) and says what it did;
:func:`snapshot_check` is the same check returning only the evaluation.
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import attrs

from toolscore.snapshots.record import (
    Snapshot,
    SnapshotPathError,
    escape_literals,
    keep_matchers,
)
from toolscore.snapshots.store import SnapshotStore, corrupt_snapshot_error

if TYPE_CHECKING:
    from toolscore.result import EvaluationResult

__all__ = [
    "SnapshotOutcome",
    "Status",
    "in_ci",
    "merge_recorded_calls",
    "recordable_calls",
    "run_snapshot",
    "snapshot_check",
]


Status = Literal["created", "updated", "pending", "passed"]


def in_ci() -> bool:
    """True when the ``CI`` environment variable is set and non-empty (read at call time)."""
    return bool(os.environ.get("CI"))


#: What a snapshot keeps of a call extracted from a provider or framework response. Call ids,
#: timings and extractor metadata change on every real run and would only add noise to diffs.
_EXTRACTED_KEYS = ("tool", "args", "result", "error", "is_error")


def recordable_calls(actual: Any, calls: list[Any]) -> list[dict[str, Any]]:
    """The calls as a snapshot stores them.

    A list of call dicts is stored as given (extra keys such as ``result`` included). Calls
    extracted from a response, and ``ToolCall`` objects, keep only ``tool`` and ``args`` plus
    ``result``/``error`` when the response carried them; volatile ids, timings and extractor
    metadata are dropped so that a re-recording shows only real changes.
    """
    from toolscore.model import ToolCall

    passthrough = calls is actual
    out: list[dict[str, Any]] = []
    for call in calls:
        if isinstance(call, ToolCall):
            call = call.to_dict()
        elif passthrough:
            out.append(call)
            continue
        kept = {key: call[key] for key in _EXTRACTED_KEYS if call.get(key) is not None}
        if not kept.get("is_error"):
            kept.pop("is_error", None)
        if not kept.get("error"):
            kept.pop("error", None)
        out.append(kept)
    return out


def merge_recorded_calls(
    old_calls: list[dict[str, Any]], new_calls: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The calls to store when a snapshot is re-recorded.

    The k-th new call of a tool is paired with the k-th stored call of the same tool; inside
    a pair, every stored matcher that still matches the new value is kept, everything else
    takes the new value.
    """
    by_tool: dict[str, list[dict[str, Any]]] = {}
    for call in old_calls:
        by_tool.setdefault(str(call.get("tool")), []).append(call)
    seen: dict[str, int] = {}
    merged: list[dict[str, Any]] = []
    for call in new_calls:
        tool = str(call.get("tool"))
        index = seen.get(tool, 0)
        seen[tool] = index + 1
        candidates = by_tool.get(tool, [])
        if index < len(candidates):
            merged.append(keep_matchers(candidates[index], call))
        else:
            merged.append(call)
    return merged


@attrs.frozen
class SnapshotOutcome:
    """What one snapshot check did: ``created``, ``updated``, ``pending`` or ``passed``.

    ``result`` is the evaluation for ``passed`` and ``None`` otherwise.
    """

    name: str
    status: Status
    path: Path
    result: EvaluationResult | None = None


def _warn(message: str) -> None:
    warnings.warn(message, UserWarning, stacklevel=4)


def _missing_in_ci(name: str) -> Exception:
    from toolscore.assertions import ToolScoreAssertionError

    return ToolScoreAssertionError(
        f"snapshot {name!r} does not exist; snapshots cannot be created in CI. Run the test "
        "locally to record it, review it, then approve with `toolscore approve`."
    )


def _pending_in_ci(name: str) -> Exception:
    from toolscore.assertions import ToolScoreAssertionError

    return ToolScoreAssertionError(
        f"snapshot {name!r} is pending approval; an unapproved snapshot cannot be used as a "
        "baseline in CI. Approve it locally with `toolscore approve`."
    )


#: How to re-record outside pytest.
_DEFAULT_UPDATE_HINT = "snapshot_check(name, actual, update=True)"


def run_snapshot(
    name: str,
    actual: Any,
    *,
    store: SnapshotStore | None = None,
    update: bool = False,
    min_score: float = 1.0,
    weights: dict[str, float] | None = None,
    strict: bool = False,
    update_hint: str | None = None,
) -> SnapshotOutcome:
    """Run the snapshot state machine and say what happened (see :func:`snapshot_check`).

    Observers of ``toolscore_snapshot_used`` hear of the check first, whatever its outcome.
    ``update_hint`` is the re-record command a drift failure names (the pytest plugin passes
    its ``pytest ... --toolscore-update``).
    """
    from toolscore.integrations import auto_extract
    from toolscore.plugins import get_plugin_manager

    store = store if store is not None else SnapshotStore()
    path = store.path_for(name)
    get_plugin_manager().snapshot_used(name, path)
    calls = auto_extract(actual)
    recorded = recordable_calls(actual, calls)
    existing = store.load(name)

    if update:
        stored = escape_literals(recorded)
        if existing is None:
            store.save(Snapshot(name=name, calls=stored, approved=True, source="pytest"))
        else:
            merged = merge_recorded_calls(existing.calls, stored)
            if merged != existing.calls or not existing.approved:  # else: keep the file as is
                existing.calls = merged
                existing.approved = True
                store.save(existing)
        _warn(f"snapshot {name!r} updated (calls overwritten and approved)")
        return SnapshotOutcome(name, "updated", path)

    if existing is None:
        if in_ci():
            raise _missing_in_ci(name)
        fresh = Snapshot(
            name=name, calls=escape_literals(recorded), approved=False, source="pytest"
        )
        if store.create(fresh):
            _warn(f"snapshot {name!r} created - review it, then approve with `toolscore approve`")
            return SnapshotOutcome(name, "created", path)
        existing = store.load(name)  # another process recorded it first
        if existing is None:  # pragma: no cover - deleted again in between
            raise _missing_in_ci(name)

    if not existing.approved:
        if in_ci():
            raise _pending_in_ci(name)
        _warn(
            f"snapshot {name!r} pending approval - run `toolscore approve` to use it as a baseline"
        )
        return SnapshotOutcome(name, "pending", path)

    from toolscore.assertions import ToolScoreAssertionError, check_threshold
    from toolscore.evaluation import evaluate
    from toolscore.model import calls_from_dicts

    try:
        # As ToolCalls, not dicts: evaluate() would read a recorded literal such as
        # {"$regex": "^a"} (stored as {"$literal": ...}) as a matcher again.
        expected = calls_from_dicts(existing.expected_calls())
    except SnapshotPathError as exc:  # pragma: no cover - load() already validated the matchers
        raise corrupt_snapshot_error(path, exc.path, exc.problem) from exc
    result = evaluate(expected, calls, weights=weights, strict=strict)
    try:
        check_threshold(result, min_score)
    except ToolScoreAssertionError as exc:
        from toolscore.snapshots.hints import drift_hints

        hints = drift_hints(result, path, update_hint or _DEFAULT_UPDATE_HINT)
        raise ToolScoreAssertionError("\n".join([str(exc).rstrip(), "", *hints])) from None
    return SnapshotOutcome(name, "passed", path, result)


def snapshot_check(
    name: str,
    actual: Any,
    *,
    store: SnapshotStore | None = None,
    update: bool = False,
    min_score: float = 1.0,
    weights: dict[str, float] | None = None,
    strict: bool = False,
) -> EvaluationResult | None:
    """Record, or replay against an approved baseline, the tool calls in ``actual``.

    ``actual`` is anything ``auto_extract`` reads (a provider response, a framework result or
    a list of ``{"tool", "args"}`` dicts). Then:

    - ``update=True``: store the calls (keeping matchers that still match), approve, warn,
      return ``None``;
    - no snapshot: in CI raise ``ToolScoreAssertionError`` and write nothing; locally record
      a pending snapshot, warn, return ``None``;
    - pending: in CI raise; locally warn and return ``None``;
    - approved: evaluate against it and return the result, or raise
      ``ToolScoreAssertionError`` with the expected-vs-actual table when the score is below
      ``min_score`` (1e-9 tolerance). This works in CI too.

    A corrupt or hand-broken snapshot file raises ``InputError`` naming the file and the JSON
    path of the problem.
    """
    outcome = run_snapshot(
        name,
        actual,
        store=store,
        update=update,
        min_score=min_score,
        weights=weights,
        strict=strict,
    )
    return outcome.result
