"""Option types shared by several commands."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import attrs
import click

GRADES = ("A", "B", "C", "D", "F")

FC = TypeVar("FC", bound=Callable[..., Any] | click.Command)


def check_format(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    """A format no installed extractor reads is a usage error (exit 2), named with the
    installed ones or the distribution to install; ``auto`` is always valid."""
    if value is None or ctx.resilient_parsing or str(value).strip().lower() == "auto":
        return value
    from toolscore.cli import plugin_manager_for
    from toolscore.errors import InputError, MissingPluginError
    from toolscore.loading import resolve_format

    try:
        resolve_format(value, plugin_manager_for(ctx).get_extractors())
    except (InputError, MissingPluginError) as exc:
        raise click.BadParameter(str(exc), ctx, param) from None
    return value


#: ``-f/--format`` of the commands that read a trace file (``auto`` detects the format).
trace_format_option = click.option(
    "-f",
    "--format",
    "trace_format",
    default="auto",
    show_default=True,
    callback=check_format,
    help="Trace format (auto, openai, anthropic, gemini, mcp, langchain, otel, custom, ...).",
)


def match_mode_option(help_text: str) -> Callable[[FC], FC]:
    """``--match MODE`` of the commands that evaluate; ``help_text`` says what the default is."""
    return click.option(
        "--match",
        "match_mode",
        type=click.Choice(["strict", "unordered", "subset", "superset", "in_order"]),
        default=None,
        help=help_text,
    )


#: ``--args POLICY`` of the commands that evaluate, read with ``--match``.
args_policy_option = click.option(
    "--args",
    "args_policy",
    type=click.Choice(["exact", "ignore", "subset", "superset"]),
    default=None,
    help="Argument policy with --match (default exact).",
)


def match_from_options(match_mode: str | None, args_policy: str | None) -> dict[str, str] | None:
    """The ``match=`` value ``--match``/``--args`` ask for, or ``None`` when neither is given."""
    if match_mode is None and args_policy is None:
        return None
    return {"mode": match_mode or "strict", "args": args_policy or "exact"}


#: ``--tools FILE`` of the commands that evaluate: arguments checked against the definitions.
tools_file_option = click.option(
    "--tools",
    "tools_file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="Tool definitions (OpenAI, Anthropic, MCP tools/list): check arguments against them.",
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
        key = key.strip()
        if ctx is not None:
            from toolscore.cli import plugin_manager_for
            from toolscore.result import validate_weights
            from toolscore.scoring import plugin_metric_names

            try:
                validate_weights({key: number}, plugin_metric_names(plugin_manager_for(ctx)))
            except ValueError as exc:
                self.fail(str(exc), param, ctx)
        return key, number


def check_weights(ctx: click.Context, weights: tuple[tuple[str, float], ...]) -> None:
    """Weights that are each valid may still sum to zero: a usage error too (exit 2)."""
    from toolscore.result import DEFAULT_WEIGHTS

    if weights and sum({**DEFAULT_WEIGHTS, **dict(weights)}.values()) == 0.0:
        raise click.BadParameter(
            "Weights sum to zero after merging with defaults; at least one weight must be "
            "positive.",
            ctx,
            param_hint="'--weight'",
        )


def _literal(text: str) -> Any:
    """A JSON value when ``text`` is one (``3``, ``1.5``, ``true``, ``[1]``), else the text.

    :raises ValueError: JSON nested deeper than the input bound (``[[[[...``).
    """
    import json

    from toolscore.limits import decode_json

    try:
        json.loads(text) if len(text) < 1000 else None
    except (ValueError, RecursionError):
        if not text.lstrip().startswith(("[", "{")):
            return text
    try:
        return decode_json(text)
    except ValueError as exc:
        if "nested deeper" in str(exc):
            raise
        return text


class OptionType(click.ParamType):  # type: ignore[type-arg]
    """``KEY=VALUE`` for plugin metrics (``context.options``); the value is read as JSON when
    it is JSON (``call_budget=3`` is the number 3), else kept as text."""

    name = "KEY=VALUE"

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> tuple[str, Any]:
        if isinstance(value, tuple):
            return value
        key, sep, raw = str(value).partition("=")
        if not sep or not key.strip():
            self.fail(f"expected KEY=VALUE, got {value!r}", param, ctx)
        try:
            return key.strip(), _literal(raw.strip())
        except ValueError as exc:
            self.fail(f"{key.strip()}: {exc}", param, ctx)


#: ``--option KEY=VALUE`` of the commands that evaluate (repeatable).
metric_option = click.option(
    "--option",
    "metric_options",
    type=OptionType(),
    multiple=True,
    help="An option for plugin metrics, e.g. --option call_budget=3 (repeatable).",
)


class ReportType(click.ParamType):  # type: ignore[type-arg]
    """``NAME[=PATH]``: an installed report format (built-in or a plugin's) and its file.

    Without a path the file is ``<stem>.<extension>`` (the format's extension, else its name).
    """

    name = "NAME[=PATH]"

    def __init__(self, stem: str = "toolscore-report") -> None:
        self.stem = stem

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> tuple[str, str]:
        if isinstance(value, tuple):
            return value
        name, sep, path = str(value).partition("=")
        name = name.strip()
        if not name or (sep and not path.strip()):
            self.fail(f"expected NAME or NAME=PATH, got {value!r}", param, ctx)
        if ctx is None:
            return name, path.strip()
        from toolscore.cli import plugin_manager_for

        registry = plugin_manager_for(ctx).get_reporters()
        if name not in registry:
            known = ", ".join(registry.names()) or "none"
            self.fail(f"no report format named {name!r} (installed: {known})", param, ctx)
        if not path.strip():
            extension = registry[name].extension or f".{name}"
            path = self.stem + (extension if extension.startswith(".") else f".{extension}")
        return name, path.strip()


def report_option(stem: str = "toolscore-report") -> Callable[[FC], FC]:
    """``--report NAME[=PATH]`` (repeatable): any installed report format, by name."""
    return click.option(
        "--report",
        "reports",
        type=ReportType(stem),
        multiple=True,
        help="Also write a report in an installed format (built-in or a plugin's, see "
        "'toolscore plugins list'), e.g. --report tap=out.tap (repeatable).",
    )


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


#: ``--forbidden FILE``: the forbidden-call rules, for every command that scores a gold file.
@attrs.frozen
class JudgeRequest:
    """What the ``--llm-*`` options asked for; :meth:`setting` is the ``judge=`` value."""

    enabled: bool
    model: str
    provider: str | None
    base_url: str | None
    cache: str | None

    def setting(self) -> Any:
        """``False`` without ``--llm-judge``; else the judge's config (the model name when
        toolscore-judge is not installed, which the evaluation turns into a warning).

        :raises MissingPluginError: a judge plugin is installed but cannot serve the options.
        """
        if not self.enabled:
            return False
        try:
            from toolscore.judging import judge_from_cli_options
        except ImportError:
            return self.model
        return judge_from_cli_options(True, self.model, self.provider, self.base_url, self.cache)


def judge_options(function: Callable[..., Any]) -> Callable[..., Any]:
    """``--llm-judge`` and the ``--llm-*`` options that aim it (``eval``, ``eval-batch``),
    handed to the command as one ``judge`` argument, a :class:`JudgeRequest`."""

    @functools.wraps(function)
    def command(
        *args: Any,
        llm_judge: bool,
        llm_model: str,
        llm_provider: str | None,
        llm_base_url: str | None,
        llm_cache: str | None,
        **kwargs: Any,
    ) -> Any:
        judge = JudgeRequest(llm_judge, llm_model, llm_provider, llm_base_url, llm_cache)
        return function(*args, judge=judge, **kwargs)

    options = (
        click.option(
            "--llm-judge",
            is_flag=True,
            help="Add an LLM judge's semantic score (needs toolscore-judge).",
        ),
        click.option("--llm-model", default="gpt-4o-mini", show_default=True, help="Judge model."),
        click.option(
            "--llm-provider",
            type=click.Choice(["openai", "anthropic", "gemini", "openai_compatible"]),
            default=None,
            help="Judge provider (inferred from the model by default).",
        ),
        click.option(
            "--llm-base-url",
            default=None,
            help="OpenAI-compatible endpoint (Ollama, vLLM, Groq, ...).",
        ),
        click.option(
            "--llm-cache",
            default=None,
            metavar="DIR|off",
            help="Judge verdict cache folder, or 'off'.",
        ),
    )
    decorated: Callable[..., Any] = command
    for option in reversed(options):
        decorated = option(decorated)
    return decorated


no_side_effects_option = click.option(
    "--no-side-effects",
    is_flag=True,
    help="Skip side-effect validation.",
)

forbidden_option = click.option(
    "--forbidden",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="JSON file of forbidden-call rules.",
)
#: ``--weight KEY=VALUE`` (repeatable), checked against the installed metrics by the command.
weights_option = click.option(
    "--weight",
    "weights",
    type=WeightType(),
    multiple=True,
    help="Override a score weight, e.g. --weight argument_f1=0.5 (repeatable).",
)


def fail_under_option(help_text: str) -> Callable[[FC], FC]:
    """``--fail-under SCORE|GRADE``; ``help_text`` says which score it gates."""
    return click.option("--fail-under", type=ThresholdType(), default=None, help=help_text)
