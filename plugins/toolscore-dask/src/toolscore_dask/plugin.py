"""The toolscore entry point of toolscore-dask: registers the ``dask`` executor.

Import-light on purpose: ``toolscore --help`` and ``toolscore plugins list`` load this module,
and neither should import ``distributed``. The executor module is imported by the factory.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import toolscore
from toolscore.specs import ExecutorSpec


def _dask(options: Any) -> Any:
    from toolscore_dask.executor import DaskExecutor

    return DaskExecutor(options)


@toolscore.hookimpl
def toolscore_register_executors() -> Iterator[ExecutorSpec]:
    yield ExecutorSpec(
        name="dask",
        factory=_dask,
        summary="a Dask distributed cluster (--scheduler ADDRESS, or a LocalCluster for the run)",
    )
