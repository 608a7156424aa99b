"""The work unit: score a batch of cases, in whichever process the executor chose.

:func:`score_batch` is a plain module-level function over picklable values, so a process pool
or a Dask worker can run it. Each case goes through core's own pieces: gold parsing (matcher
forms such as ``{"$regex": ...}``), trace extraction (any supported format), then
:func:`toolscore.evaluate`. A bad record becomes a :class:`CaseError` whose one line names the
file, the line and the JSON path; it never stops the batch.
"""

from __future__ import annotations

import gc
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from toolscore.batch.findings import summarize
from toolscore.batch.records import Case, CaseError, CaseResult
from toolscore.errors import InputError, MissingPluginError
from toolscore.result import letter_grade

if TYPE_CHECKING:
    from toolscore.plugins.manager import ToolscorePluginManager


@attrs.frozen
class ScoringOptions:
    """How every case of a run is scored (the gold options of ``toolscore eval``)."""

    format: str = "auto"
    weights: Mapping[str, float] | None = None
    forbidden: tuple[Mapping[str, Any], ...] | None = None
    strict: bool = False
    #: Plugin selection, re-applied in worker processes that build their own manager.
    no_plugins: bool = False
    disabled: tuple[str, ...] = ()


@attrs.frozen
class BatchJob:
    """A picklable batch of records and the options to score them with."""

    options: ScoringOptions
    cases: tuple[Case | CaseError, ...]


_MANAGERS: dict[tuple[bool, tuple[str, ...]], ToolscorePluginManager] = {}


def _manager(options: ScoringOptions) -> ToolscorePluginManager:
    """This process's plugin manager for ``options``, built once per process."""
    key = (options.no_plugins, options.disabled)
    pm = _MANAGERS.get(key)
    if pm is None:
        from toolscore.plugins import create_plugin_manager, current_plugin_manager

        current = current_plugin_manager()
        if key == (False, ()) and current is not None:
            pm = current
        else:
            pm = create_plugin_manager(load_entrypoints=not options.no_plugins, disabled=key[1])
        _MANAGERS[key] = pm
    return pm


def use_plugin_manager(options: ScoringOptions, pm: ToolscorePluginManager) -> None:
    """Score in this process with ``pm`` (the CLI's manager, for an in-process run)."""
    _MANAGERS[(options.no_plugins, options.disabled)] = pm


def score_batch(job: BatchJob) -> list[CaseResult | CaseError]:
    """Score every case of ``job``, in order; errors already found by the reader pass through.

    The cyclic garbage collector is paused for the batch, as ``evaluate()`` pauses it for one
    evaluation and for the same reason: a batch allocates many acyclic objects that live
    until it returns, so collections in between would walk them and free nothing.
    """
    if not gc.isenabled():
        return _score_batch(job)
    gc.disable()
    try:
        return _score_batch(job)
    finally:
        gc.enable()


def _score_batch(job: BatchJob) -> list[CaseResult | CaseError]:
    pm = _manager(job.options)
    out: list[CaseResult | CaseError] = []
    for case in job.cases:
        if isinstance(case, CaseError):
            out.append(case)
            continue
        try:
            out.append(score_case(case, job.options, pm))
        except InputError as exc:
            out.append(CaseError(case.source, str(exc), case.id))
        except (MissingPluginError, ValueError, TypeError) as exc:
            out.append(CaseError(case.source, f"{case.source}: {exc}", case.id))
    return out


def score_case(case: Case, options: ScoringOptions, pm: ToolscorePluginManager) -> CaseResult:
    """Score one case; raises :class:`InputError` (file, line, JSON path) for a bad record."""
    from toolscore.evaluation import evaluate

    case_id, expected, actual, locate = _calls(case, options, pm)
    try:
        result = evaluate(
            expected,
            actual,
            options.weights,
            options.strict,
            list(options.forbidden) if options.forbidden is not None else None,
            plugin_manager=pm,
        )
    except (ValueError, TypeError) as exc:
        if locate is not None:
            locate()  # core's loaders name the JSON path of what evaluate() refused
        raise InputError(str(exc), source=case.source) from None
    findings, tools = summarize(result)
    score = result.score
    grade = letter_grade(score)  # result.grade would compute the score again
    line = json.dumps(
        {
            "id": case_id,
            "score": score,
            "grade": grade,
            "metrics": result.metrics,
            "findings": findings,
            "tools": {t: {"expected": e, "failed": f} for t, (e, f) in tools.items()},
            "calls": {"expected": len(result.gold_calls), "actual": len(result.trace_calls)},
            "source": case.source,
        },
        default=_json_default,
    )
    return CaseResult(
        id=case_id,
        source=case.source,
        score=score,
        grade=grade,
        findings=tuple(sorted(findings.items())),
        tools=tuple(sorted((t, e, f) for t, (e, f) in tools.items())),
        line=line + "\n",
    )


def _json_default(value: Any) -> Any:
    """What ``json_safe`` makes of a value JSON cannot hold: mappings as dicts, else repr."""
    if isinstance(value, Mapping):
        return {str(key): item for key, item in value.items()}
    return repr(value)


def _calls(
    case: Case, options: ScoringOptions, pm: ToolscorePluginManager
) -> tuple[str, Any, Any, Callable[[], None] | None]:
    """``(id, expected, actual, locate)`` of a case.

    A record in the default format is handed to ``evaluate()`` as it is (so a batch scores
    exactly as a loop over ``evaluate()`` would); ``locate`` then re-reads it with core's
    loaders, only if ``evaluate()`` refuses it, to name the JSON path of the problem.
    Files and records with a format are read with the loaders straight away.
    """
    from toolscore.loading import load_gold_standard, load_trace

    if case.files is not None:
        gold_file, trace_file = case.files
        if not Path(gold_file).exists():
            raise InputError(f"no gold file {gold_file} for this trace", source=trace_file)
        expected = load_gold_standard(gold_file, plugin_manager=pm)
        actual = load_trace(trace_file, format=options.format, plugin_manager=pm)
        return case.id or Path(trace_file).stem, expected, actual, None
    if case.text is not None:
        record, text = _decode(case), case.text
    else:
        record, text = case.record, None
    if not isinstance(record, Mapping):
        raise InputError(
            f"expected an object with id, expected and actual, got {_kind(record)}",
            source=case.source,
            path="$",
        )
    return _from_record(record, text, case, options, pm)


def _decode(case: Case) -> Any:
    assert case.text is not None
    try:
        return json.loads(case.text)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"invalid JSON at column {exc.colno}: {exc.msg}", source=case.source
        ) from None
    except RecursionError:
        raise InputError("invalid JSON: nested too deeply", source=case.source) from None


def _kind(value: Any) -> str:
    return {dict: "an object", list: "an array", str: "a string", type(None): "null"}.get(
        type(value), type(value).__name__
    )


def _from_record(
    record: Mapping[str, Any],
    text: str | None,
    case: Case,
    options: ScoringOptions,
    pm: ToolscorePluginManager,
) -> tuple[str, Any, Any, Callable[[], None] | None]:
    source = case.source
    case_id = record.get("id")
    if isinstance(case_id, bool) or not isinstance(case_id, (str, int)) or case_id == "":
        got = "nothing" if case_id is None else _kind(case_id)
        raise InputError(
            f"expected a non-empty string or integer id, got {got}", source=source, path="$.id"
        )
    for key in ("expected", "actual"):
        if key not in record:
            raise InputError(f"missing {key!r}", source=source, path=f"$.{key}")
    fmt = record.get("format", options.format)
    if not isinstance(fmt, str):
        raise InputError(
            f"expected a format name, got {_kind(fmt)}", source=source, path="$.format"
        )
    expected_value, actual_value = record["expected"], record["actual"]
    if fmt == "auto":

        def locate() -> None:
            _expected(expected_value, text, source, pm)
            _actual(actual_value, fmt, source, pm)

        return str(case_id), expected_value, actual_value, locate
    expected = _expected(expected_value, text, source, pm)
    actual = _actual(actual_value, fmt, source, pm)
    return str(case_id), expected, actual, None


def _expected(value: Any, text: str | None, source: str, pm: ToolscorePluginManager) -> Any:
    from toolscore.loading import _gold_calls

    probe = text if text is not None else json.dumps(value, default=repr)
    try:
        return _gold_calls(value, probe, source, pm)
    except InputError as exc:
        raise _under(exc, "$.expected", source) from None


def _actual(value: Any, fmt: str, source: str, pm: ToolscorePluginManager) -> Any:
    from toolscore.loading import extract_calls

    try:
        return extract_calls(value, fmt, plugin_manager=pm, source=source)
    except InputError as exc:
        raise _under(exc, "$.actual", source) from None


def _under(exc: InputError, prefix: str, source: str) -> InputError:
    """``exc`` re-rooted: its ``$``-relative path now starts at ``prefix`` of the record."""
    path = exc.path or "$"
    if path.startswith("$"):
        path = prefix + path[1:]
    return InputError(exc.detail, source=source, path=path)
