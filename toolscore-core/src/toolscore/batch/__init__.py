"""Evaluation at scale: score a dataset of cases in constant memory, on any executor.

Use :func:`evaluate_dataset` (Python) or ``toolscore eval-batch`` (CLI); both run the same
code in :mod:`toolscore.batch.run`. Nothing here is imported by ``import toolscore``: the
names below load their module on first access.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from toolscore.batch.aggregate import Aggregate
    from toolscore.batch.executors import Executor, ExecutorOptions
    from toolscore.batch.records import BadRecordError, CaseError, CaseResult
    from toolscore.batch.run import DatasetRun, evaluate_dataset

__all__ = [
    "Aggregate",
    "BadRecordError",
    "CaseError",
    "CaseResult",
    "DatasetRun",
    "Executor",
    "ExecutorOptions",
    "evaluate_dataset",
]

_HOMES = {
    "Aggregate": "toolscore.batch.aggregate",
    "Executor": "toolscore.batch.executors",
    "ExecutorOptions": "toolscore.batch.executors",
    "BadRecordError": "toolscore.batch.records",
    "CaseError": "toolscore.batch.records",
    "CaseResult": "toolscore.batch.records",
    "DatasetRun": "toolscore.batch.run",
    "evaluate_dataset": "toolscore.batch.run",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'toolscore.batch' has no attribute {name!r}")
    return getattr(import_module(home), name)
