"""``toolscore.comparison``, a public module path: the model comparison of ``toolscore compare``.

The code lives in :mod:`toolscore.model_comparison`.
"""

from __future__ import annotations

from toolscore.model_comparison import (
    COMPARED_METRICS,
    compare_models,
    print_comparison_table,
    save_comparison_report,
)

__all__ = ["COMPARED_METRICS", "compare_models", "print_comparison_table", "save_comparison_report"]
