"""Option types shared by several commands."""

from __future__ import annotations

import math
from typing import Any

import click

GRADES = ("A", "B", "C", "D", "F")

#: ``-f/--format`` of the commands that read a trace file (``auto`` detects the format).
trace_format_option = click.option(
    "-f",
    "--format",
    "trace_format",
    default="auto",
    show_default=True,
    help="Trace format (auto, openai, anthropic, gemini, mcp, langchain, otel, custom, ...).",
)

#: ``-v/--verbose`` of the commands whose verbose mode prints progress lines.
progress_verbose_option = click.option(
    "-v", "--verbose", is_flag=True, help="Progress lines; tracebacks on errors."
)


class WeightType(click.ParamType):  # type: ignore[type-arg]  # generic only in click>=8.5
    """``NAME=VALUE`` with a float value."""

    name = "NAME=VALUE"

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> tuple[str, float]:
        if isinstance(value, tuple):
            return value
        text = str(value)
        key, sep, raw = text.partition("=")
        try:
            number = float(raw)
        except ValueError:
            number = math.nan
        if (
            not sep
            or not key.strip()
            or raw.strip() == ""
            or (math.isnan(number) and raw.strip().lower() != "nan")
        ):
            self.fail(f"expected NAME=VALUE, got {text!r}", param, ctx)
        return key.strip(), number


class Threshold:
    """A ``--fail-under`` value: a score in [0, 1] (``0.85`` or ``85%``) or a grade letter."""

    def __init__(self, score: float | None = None, grade: str | None = None) -> None:
        self.score = score
        self.grade = grade

    def failed_by(self, score: float, grade: str) -> str | None:
        """The failure sentence when ``score``/``grade`` is below this threshold, else ``None``."""
        if self.grade is not None:
            if GRADES.index(grade) > GRADES.index(self.grade):
                return f"Grade {grade} is below the required {self.grade}."
            return None
        assert self.score is not None
        if score < max(0.0, self.score - 1e-9):
            return f"Score {score:.2f} is below the required {self.score:.2f}."
        return None


class ThresholdType(click.ParamType):  # type: ignore[type-arg]
    name = "SCORE|GRADE"

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> Threshold:
        if isinstance(value, Threshold):
            return value
        text = str(value).strip()
        if text.upper() in GRADES:
            return Threshold(grade=text.upper())
        try:
            score = float(text[:-1]) / 100 if text.endswith("%") else float(text)
        except ValueError:
            score = math.nan
        if not 0.0 <= score <= 1.0:
            self.fail(
                f"expected a score between 0 and 1 (e.g. 0.85 or 85%) or a grade A-F, got {text!r}",
                param,
                ctx,
            )
        return Threshold(score=score)
