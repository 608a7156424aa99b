"""The work unit: score a batch of cases, in whichever process the executor chose.

:func:`score_batch` is a plain module-level function over picklable values, so a process pool
or a Dask worker can run it. A batch is either raw JSON Lines bytes (decoded and parsed here,
in the worker) or prepared :class:`Case` values (gold/ + traces/ folders, OTLP exports). Each
case goes through core's own pieces: gold parsing (matcher forms such as ``{"$regex": ...}``),
trace extraction (any supported format), then :func:`toolscore.evaluate`; a gold/ + traces/
pair goes through :func:`toolscore.evaluate_trace` instead, as ``toolscore eval`` takes
files (so ``strict`` does not apply to it: file comparison is lenient). A bad record becomes
a :class:`CaseError` whose one line names the file, the line and the JSON path; it never stops
the batch.

The worker also does what would otherwise load the parent: it serializes the output lines
(to bytes, ready to append) and tallies the batch's share of the aggregate. The parent then
only writes and merges, which is what lets ``--workers 2`` use both cores for scoring.
"""

from __future__ import annotations

import gc
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from toolscore.batch.aggregate import BatchTally
from toolscore.batch.findings import summarize
from toolscore.batch.records import BatchOutcome, Case, CaseError, Row
from toolscore.errors import InputError, MissingPluginError
from toolscore.model import calls_from_dicts
from toolscore.result import letter_grade

if TYPE_CHECKING:
    from toolscore.plugins.manager import ToolscorePluginManager
    from toolscore.result import EvaluationResult


@attrs.frozen
class ScoringOptions:
    """How every case of a run is scored (the gold options of ``toolscore eval``)."""

    format: str = "auto"
    weights: Mapping[str, float] | None = None
    forbidden: tuple[Mapping[str, Any], ...] | None = None
    strict: bool = False
    #: A matching mode (a mode name, a ``{"mode", "args"}`` mapping, a ``MatchSpec``).
    match: Any = None
    #: Tool definitions to check arguments against, or ``None``.
    tools: tuple[Mapping[str, Any], ...] | None = None
    #: Options for plugin metrics (``context.options``), or ``None``.
    options: Mapping[str, Any] | None = None
    #: Check the gold files' side effects (gold/ + traces/ folders only, as ``toolscore eval``).
    side_effects: bool = True
    #: An LLM judge (a ``JudgeConfig``, a model name) for ``semantic_metrics``; off by default.
    judge: Any = False
    #: Plugin selection, re-applied in worker processes that build their own manager.
    no_plugins: bool = False
    disabled: tuple[str, ...] = ()


@attrs.frozen
class BatchJob:
    """A picklable batch and the options to score it with.

    JSON Lines datasets travel as ``lines``: consecutive raw lines of the file ``name``,
    the first being line ``first_line`` (blank lines are kept, so the numbering holds, and
    skipped). Other datasets travel as ``cases``. ``worst`` is how many worst cases the
    run reports: the batch's tally keeps that many.
    """

    options: ScoringOptions
    cases: tuple[Case | CaseError, ...] = ()
    lines: bytes = b""
    name: str = ""
    first_line: int = 1
    worst: int = 10


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


def adopt_plugin_manager(options: ScoringOptions, pm: ToolscorePluginManager) -> None:
    """Score in this process with ``pm`` (the CLI's manager, for an in-process run)."""
    _MANAGERS[(options.no_plugins, options.disabled)] = pm


def score_batch(job: BatchJob) -> BatchOutcome:
    """Score every case of ``job``, in order; errors already found by the reader pass through.

    The cyclic garbage collector is paused for the batch: a batch allocates many acyclic
    objects that live until it returns, so collections in between would walk them and free
    nothing.
    """
    if not gc.isenabled():
        return _score_batch(job)
    gc.disable()
    try:
        return _score_batch(job)
    finally:
        gc.enable()


def _score_batch(job: BatchJob) -> BatchOutcome:
    scorer = _Scorer(job.options, _manager(job.options))
    for case in job.cases:
        if isinstance(case, CaseError):
            scorer.errors.append((len(scorer.rows), case))
        else:
            scorer.add(case.source, case, case.id)
    if job.lines:
        name, number = job.name, job.first_line
        for raw in job.lines.split(b"\n"):
            if raw and not raw.isspace():
                source = f"{name}:{number}"
                try:
                    text = raw.decode("utf-8-sig" if number == 1 else "utf-8")
                except UnicodeDecodeError as exc:
                    message = (
                        f"{source}: expected UTF-8 text, got an undecodable byte at column "
                        f"{exc.start + 1}"
                    )
                    scorer.errors.append((len(scorer.rows), CaseError(source, message)))
                else:
                    scorer.add(source, text, None)
            number += 1
    return BatchOutcome(
        lines=tuple(scorer.lines),
        rows=tuple(scorer.rows),
        errors=tuple(scorer.errors),
        tally=scorer.tally.finish(scorer.rows, job.worst),
    )


def _json_default(value: Any) -> Any:
    """What ``toolscore.result.record_value`` makes of a value JSON cannot hold: mappings as dicts, else repr."""
    if isinstance(value, Mapping):
        return {str(key): item for key, item in value.items()}
    return repr(value)


def _make_encoder() -> Callable[[Any], bytes]:
    """``json.dumps(value, default=_json_default)`` plus a newline, as ASCII bytes; built once
    instead of once per line.

    The C encoder is made once and without the circular-reference bookkeeping (a dict insert
    and delete per container, and the metrics are many small containers): evaluation
    results are trees. A cycle would end in ``RecursionError``, which makes the case a bad
    record as ``json.dumps``'s ``ValueError`` would. The newline joins the encoder's pieces
    rather than being added to the finished line (one copy of the line fewer).
    """
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:  # no C accelerator: the standard path, same output

        def dumps(value: Any) -> bytes:
            return (json.dumps(value, default=_json_default) + "\n").encode("ascii")

        return dumps
    encoder = make(
        None, _json_default, json.encoder.encode_basestring_ascii, None, ": ", ", ",
        False, False, True,
    )  # fmt: skip

    def encode(value: Any) -> bytes:
        chunks = encoder(value, 0)  # a list of str (Python 3.11) or a 1-tuple (3.12+)
        if type(chunks) is list:
            chunks.append("\n")
            return "".join(chunks).encode("ascii")
        return "".join((*chunks, "\n")).encode("ascii")

    return encode


_encode_line = _make_encoder()


class _Scorer:
    """Scores the cases of one batch, with the options and the manager resolved once, and
    collects what the batch sends back."""

    def __init__(self, options: ScoringOptions, pm: ToolscorePluginManager) -> None:
        from toolscore.evaluation import evaluate

        self.options = options
        self.pm = pm
        self._evaluate = evaluate
        self._forbidden = list(options.forbidden) if options.forbidden is not None else None
        #: Only what was asked for goes to evaluate(), as ``toolscore eval`` would pass it.
        self._extra: dict[str, Any] = {
            key: value
            for key, value in (
                ("match", options.match),
                ("tools", list(options.tools) if options.tools is not None else None),
                ("options", options.options),
                ("judge", None if options.judge is False else options.judge),
            )
            if value is not None
        }
        self.lines: list[bytes] = []
        self.rows: list[Row] = []
        self.tally = BatchTally()
        self.errors: list[tuple[int, CaseError]] = []

    def add(self, source: str, item: str | Case, known_id: str | None) -> None:
        """Score one case (``item``: a JSON Lines record's text, or a prepared case); a bad
        record becomes a :class:`CaseError` in :attr:`errors`."""
        try:
            self._score(source, item)
        except InputError as exc:
            self.errors.append((len(self.rows), CaseError(source, str(exc), known_id)))
        except (MissingPluginError, ValueError, TypeError, RecursionError) as exc:
            message = f"{source}: {exc}"
            self.errors.append((len(self.rows), CaseError(source, message, known_id)))

    def _score(self, source: str, item: str | Case) -> None:
        if not isinstance(item, str) and item.files is not None:
            self._record(source, *self._score_files(*item.files, item.id))
            return
        if isinstance(item, str):
            record = _decode(item, source)
            if type(record) is not dict and not isinstance(record, Mapping):
                raise InputError(
                    f"expected an object with id, expected and actual, got {_kind(record)}",
                    source=source,
                    path="$",
                )
            case_id, expected, actual, raw = _from_record(
                record, item, source, self.options, self.pm
            )
        else:
            case_id, expected, actual, raw = _calls(item, self.options, self.pm)
        pm = self.pm
        try:
            result = self._evaluate(
                expected,
                actual,
                self.options.weights,
                self.options.strict,
                self._forbidden,
                plugin_manager=pm,
                **self._extra,
            )
        except (ValueError, TypeError) as exc:
            if raw is not None:  # core's loaders name the JSON path of what evaluate() refused
                _expected(raw[0], raw[2], source, pm)
                _actual(raw[1], "auto", source, pm)
            raise InputError(str(exc), source=source) from None
        self._record(source, case_id, result)

    def _score_files(
        self, gold_file: str, trace_file: str, case_id: str | None
    ) -> tuple[str, EvaluationResult]:
        """A gold/ and traces/ pair, scored as ``toolscore eval GOLD TRACE`` scores it: by
        :func:`~toolscore.evaluate_trace`, so the gold file's structured steps, ``match`` and
        ``tools``, and the trace's durations, costs and side effects count as they do there."""
        from toolscore.evaluation import evaluate_trace

        if not Path(gold_file).exists():
            raise InputError(f"no gold file {gold_file} for this trace", source=trace_file)
        options = self.options
        result = evaluate_trace(
            gold_file,
            trace_file,
            format=options.format,
            validate_side_effects=options.side_effects,
            forbidden=self._forbidden,
            weights=options.weights,
            plugin_manager=self.pm,
            **self._extra,
        )
        return case_id or Path(trace_file).stem, result

    def _record(self, source: str, case_id: str, result: EvaluationResult) -> None:
        """Keep a scored case: its output line, its row, and its share of the tally."""
        findings, tools = summarize(result)
        score = result.score
        grade = letter_grade(score)  # result.grade would compute the score again
        self.lines.append(
            _encode_line(
                {
                    "id": case_id,
                    "score": score,
                    "grade": grade,
                    "metrics": result.metrics,
                    "findings": findings,
                    "tools": tools,
                    "calls": {
                        "expected": len(result.gold_calls),
                        "actual": len(result.trace_calls),
                    },
                    "source": source,
                }
            )
        )
        self.rows.append((case_id, source, score, grade))
        self.tally.count(findings, tools)


#: A record's own ``(expected, actual, text)``, kept to locate what ``evaluate()`` refused.
_Raw = tuple[Any, Any, "str | None"]


def _calls(
    case: Case, options: ScoringOptions, pm: ToolscorePluginManager
) -> tuple[str, Any, Any, _Raw | None]:
    """``(id, expected, actual, raw)`` of a prepared record (an OTLP trace, or a record
    decoded by the reader); see :func:`_from_record`."""
    if case.text is not None:
        record, text = _decode(case.text, case.source), case.text
    else:
        record, text = case.record, None
    if not isinstance(record, Mapping):
        raise InputError(
            f"expected an object with id, expected and actual, got {_kind(record)}",
            source=case.source,
            path="$",
        )
    return _from_record(record, text, case.source, options, pm)


def _decode(text: str, source: str) -> Any:
    from toolscore.limits import MAX_INPUT_DEPTH, MAX_RECORD_BYTES, too_deep_in_json

    if len(text) > MAX_RECORD_BYTES:  # characters: at least that many bytes
        raise InputError(
            f"the record is over the {MAX_RECORD_BYTES // (1024 * 1024)} MiB size limit",
            source=source,
        )
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"invalid JSON at column {exc.colno}: {exc.msg}", source=source) from None
    except RecursionError:
        value = None
        where: str | None = "$"
    else:
        where = too_deep_in_json(text, value)
    if where is not None:
        raise InputError(f"nested deeper than {MAX_INPUT_DEPTH} levels", source=source, path=where)
    return value


def _kind(value: Any) -> str:
    return {dict: "an object", list: "an array", str: "a string", type(None): "null"}.get(
        type(value), type(value).__name__
    )


def _from_record(
    record: Mapping[str, Any],
    text: str | None,
    source: str,
    options: ScoringOptions,
    pm: ToolscorePluginManager,
) -> tuple[str, Any, Any, _Raw | None]:
    """``(id, expected, actual, raw)`` of a record, its id and keys checked.

    A record in the default format is handed to ``evaluate()`` as it is (so a batch scores
    exactly as a loop over ``evaluate()`` would) and ``raw`` keeps it: only if ``evaluate()``
    refuses it are core's loaders run on it, to name the JSON path of the problem. A record
    with a format is read by the loaders straight away (``raw`` is then ``None``).
    """
    case_id = record.get("id")
    if isinstance(case_id, bool) or not isinstance(case_id, (str, int)) or case_id == "":
        got = "nothing" if case_id is None else _kind(case_id)
        raise InputError(
            f"expected a non-empty string or integer id, got {got}", source=source, path="$.id"
        )
    if "expected" not in record:
        raise InputError("missing 'expected'", source=source, path="$.expected")
    if "actual" not in record:
        raise InputError("missing 'actual'", source=source, path="$.actual")
    fmt = record.get("format", options.format)
    if not isinstance(fmt, str):
        raise InputError(
            f"expected a format name, got {_kind(fmt)}", source=source, path="$.format"
        )
    expected, actual = record["expected"], record["actual"]
    case_id = case_id if type(case_id) is str else str(case_id)
    if fmt != "auto":
        return (
            case_id,
            _expected(expected, text, source, pm),
            _actual(actual, fmt, source, pm),
            None,
        )
    return case_id, _plain_gold(expected, text), actual, (expected, actual, text)


def _plain_gold(expected: Any, text: str | None) -> Any:
    """``expected`` as the calls ``evaluate()`` would make of it, when that is a plain
    conversion; else ``expected`` unchanged, for ``evaluate()`` to read.

    ``evaluate()`` converts a flat gold list with ``calls_from_dicts`` after walking every
    argument for ``$`` matcher forms (``{"$regex": ...}``). A record whose text holds no
    ``"$`` (nor ``$`` written as a ``u0024`` escape) cannot contain one, so the walk, a good
    part of the gold's cost, is skipped and ``evaluate()`` gets the very calls it would have
    built (it takes calls as they are). Anything ``calls_from_dicts`` refuses (a structured
    step, a call without a tool) goes to ``evaluate()`` as it is, which reads it or reports
    it.
    """
    if (
        text is None
        or type(expected) is not list
        # a one-character search first: memchr, where the pairs need a slower search
        or ("$" in text and '"$' in text)
        or ("\\" in text and "\\u0024" in text)
    ):
        return expected
    try:
        return calls_from_dicts(expected)
    except (ValueError, TypeError):
        return expected


def _expected(value: Any, text: str | None, source: str, pm: ToolscorePluginManager) -> Any:
    from toolscore.loading import gold_calls_from_document

    probe = text if text is not None else json.dumps(value, default=repr)
    try:
        return gold_calls_from_document(value, probe, source, pm)
    except InputError as exc:
        raise _under(exc, "$.expected", source) from None


def _actual(value: Any, fmt: str, source: str, pm: ToolscorePluginManager) -> Any:
    from toolscore.loading import calls_from_trace_data

    try:
        return calls_from_trace_data(value, fmt, plugin_manager=pm, source=source)
    except InputError as exc:
        raise _under(exc, "$.actual", source) from None


def _under(exc: InputError, prefix: str, source: str) -> InputError:
    """``exc`` re-rooted: its ``$``-relative path now starts at ``prefix`` of the record."""
    path = exc.path or "$"
    if path.startswith("$"):
        path = prefix + path[1:]
    return InputError(exc.detail, source=source, path=path)
