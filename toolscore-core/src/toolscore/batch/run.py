"""``evaluate_dataset``: the one pipeline behind the Python API and ``toolscore eval-batch``.

reader (raw lines) ─▶ batches ─▶ executor: score, serialize, tally ─▶ parent, in order:
                                      append the lines (+ fsync), merge the tally ─▶ caller

The parent does as little as it can per case (with several workers it shares the machine
with them): it hands out raw lines and gets back serialized lines and a per-batch tally.

Design of the API: :func:`evaluate_dataset` returns a :class:`DatasetRun`, an iterator of
per-case :class:`CaseResult` in dataset order; once it is exhausted, ``run.aggregate`` holds
the :class:`Aggregate`. An iterator object (rather than a generator returning the aggregate
through ``StopIteration.value``) lets a plain ``for`` loop get both, and ``run.finish()``
drains what is left when only the aggregate is wanted, without making a result object per
case.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolscore.batch.aggregate import Aggregate, AggregateBuilder, load_baseline
from toolscore.batch.executors import ExecutorOptions
from toolscore.batch.ids import SeenIds
from toolscore.batch.records import BadRecordError, BatchOutcome, Case, CaseError, CaseResult
from toolscore.batch.results_file import ResultsWriter
from toolscore.batch.scoring import BatchJob, ScoringOptions, adopt_plugin_manager, score_batch
from toolscore.batch.sources import Dataset, case_id_of, record_id
from toolscore.errors import InputError, MissingPluginError
from toolscore.first_party import install_hint, provider_of

if TYPE_CHECKING:
    from toolscore.plugins.manager import ToolscorePluginManager

#: Cases per work unit, unless the executor prefers another size (its ``batch_size``): big
#: enough that pickling and fsync are noise, small enough to spread.
DEFAULT_BATCH_SIZE = 128

#: A settled batch: how many records it held (results and bad records), and its results,
#: made only if asked for.
_Settled = tuple[int, Callable[[], list[CaseResult]]]


class DatasetRun(Iterator[CaseResult]):
    """A running evaluation of a dataset: iterate for results, then read :attr:`aggregate`.

    Results arrive in dataset order whatever the executor. Bad records are not yielded: they
    are counted in the aggregate, passed to ``on_error``, and (``fail_fast``) end the run with
    :class:`BadRecordError` after every earlier result has been written and yielded.
    """

    def __init__(
        self,
        dataset: Dataset,
        *,
        executor: str,
        executor_options: ExecutorOptions,
        scoring: ScoringOptions,
        out: str | os.PathLike[str] | None,
        resume: bool,
        baseline: str | os.PathLike[str] | None,
        fail_fast: bool,
        batch_size: int | None,
        worst: int,
        on_error: Callable[[CaseError], None] | None,
        plugin_manager: ToolscorePluginManager | None,
    ) -> None:
        if batch_size is not None and batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, got {batch_size}")
        if resume and out is None:
            raise ValueError("resume needs an output file (out=, --out) to resume from")
        self.dataset = dataset
        self._executor_name = executor
        self._executor_options = executor_options
        self._scoring = scoring
        self._out = out
        self._resume = resume
        self._baseline = baseline
        self._fail_fast = fail_fast
        self._batch_size = batch_size
        self._worst = worst
        self._on_error = on_error
        self._pm = plugin_manager
        self._aggregate: Aggregate | None = None
        self._batches = self._generate()
        self._pending: Iterator[CaseResult] = iter(())

    def __iter__(self) -> DatasetRun:
        return self

    def __next__(self) -> CaseResult:
        while True:
            result = next(self._pending, None)
            if result is not None:
                return result
            _count, results = next(self._batches)
            self._pending = iter(results())

    @property
    def aggregate(self) -> Aggregate:
        """The aggregate; available once every result has been consumed."""
        if self._aggregate is None:
            raise RuntimeError("the run is not finished: iterate it (or call finish()) first")
        return self._aggregate

    def finish(self, progress: Callable[[int], None] | None = None) -> Aggregate:
        """Run to the end, dropping the per-case results, and return the aggregate.

        ``progress`` is called after each batch with the number of records it settled
        (results and bad records): what a progress bar needs, without a result object per
        case.
        """
        self._pending = iter(())
        for count, _results in self._batches:
            if progress is not None:
                progress(count)
        return self.aggregate

    def close(self) -> None:
        """Stop early: release the executor and the output file."""
        self._batches.close()

    def __enter__(self) -> DatasetRun:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the pipeline ---------------------------------------------------------------------------

    def _generate(self) -> Generator[_Settled, None, None]:
        pm = self._pm
        if pm is None:
            from toolscore.plugins import get_plugin_manager

            pm = get_plugin_manager()
        adopt_plugin_manager(self._scoring, pm)
        if self._scoring.weights is not None:
            # Bad weights would fail every case: refuse them once, before any work starts.
            from toolscore.result import normalize_weights
            from toolscore.scoring import plugin_metric_names

            normalize_weights(self._scoring.weights, plugin_metric_names(pm))
        baseline = load_baseline(str(self._baseline)) if self._baseline is not None else None
        builder = AggregateBuilder(
            worst=self._worst,
            baseline=baseline,
            baseline_name=str(self._baseline) if self._baseline is not None else None,
        )
        done: set[str] = set()
        seen = SeenIds()  # every id kept so far: a second record with one is a bad record
        if self._resume and self._out is not None:
            from toolscore.batch.resume import dataset_ids, previous_results

            for previous in previous_results(Path(self._out), dataset_ids(self.dataset)):
                done.add(previous.id)
                seen.add(previous.id)
                builder.add(previous)
            builder.resumed = len(done)
        executor = _executor(pm, self._executor_name, self._executor_options)
        batch_size = self._batch_size or _preferred_batch_size(executor)
        writer = ResultsWriter(self._out, append=self._resume) if self._out is not None else None
        try:
            for outcome in executor.map_batches(score_batch, self._jobs(done, batch_size)):
                duplicates = {i for i, row in enumerate(outcome.rows) if not seen.add(row[0])}
                if duplicates or (self._fail_fast and outcome.errors):
                    yield from self._settle_in_order(outcome, builder, writer, duplicates)
                    continue
                for _before, error in outcome.errors:
                    builder.add(error)
                    if self._on_error is not None:
                        self._on_error(error)
                builder.merge(outcome.tally, outcome.rows)
                if writer is not None:
                    writer.write_chunks(outcome.lines)
                yield len(outcome.rows) + len(outcome.errors), outcome.results
        finally:
            executor.close()
            if writer is not None:
                writer.close()
        self._aggregate = builder.build()

    def _settle_in_order(
        self,
        outcome: BatchOutcome,
        builder: AggregateBuilder,
        writer: ResultsWriter | None,
        duplicates: set[int],
    ) -> Iterator[_Settled]:
        """A batch case by case, in dataset order: for a stop in the middle of it
        (``fail_fast``), where only the results before the bad record count, and for results
        that are bad records after all (``duplicates``: the indexes of rows whose id an
        earlier record has)."""
        kept: list[CaseResult] = []
        fatal: CaseError | None = None
        settled = 0
        row = 0
        for item in outcome.in_order():
            settled += 1
            if isinstance(item, CaseResult):
                if row in duplicates:
                    item = _duplicate(item)
                row += 1
            if isinstance(item, CaseError):
                if self._fail_fast:
                    fatal = item
                    break
                builder.add(item)
                if self._on_error is not None:
                    self._on_error(item)
                continue
            builder.add(item)
            kept.append(item)
        if writer is not None and kept:
            writer.write_lines(result.line for result in kept)
        yield settled, lambda: kept
        if fatal is not None:
            raise BadRecordError(fatal)

    def _jobs(self, done: set[str], batch_size: int) -> Iterator[BatchJob]:
        """The batches to score; with ``--resume``, the first record of each id in ``done``
        is left out (a later one with the same id is a duplicate, reported as such).
        ``done`` is used up."""
        if self.dataset.kind == "jsonl":
            name = str(self.dataset.path)
            for first, lines in self.dataset.line_batches(batch_size):
                if done:
                    lines = _blank_done(first, lines, done)
                yield BatchJob(
                    self._scoring,
                    lines=b"".join(lines),
                    name=name,
                    first_line=first,
                    worst=self._worst,
                )
            return
        records: Iterable[Case | CaseError] = iter(self.dataset)
        if done:
            records = (r for r in records if isinstance(r, CaseError) or not _take(done, r))
        iterator = iter(records)
        while batch := tuple(islice(iterator, batch_size)):
            yield BatchJob(self._scoring, cases=batch, worst=self._worst)


def _blank_done(first: int, lines: list[bytes], done: set[str]) -> list[bytes]:
    """``lines`` with the first record of each id in ``done`` blanked (``--resume``), ids
    taken out of ``done`` as they are found: the line numbers of the others stay right, the
    worker skips blank lines, and once ``done`` is empty no line is parsed here any more."""
    out: list[bytes] = []
    for number, raw in enumerate(lines, first):
        if not done:
            out.append(raw)
            continue
        try:
            text = raw.decode("utf-8-sig" if number == 1 else "utf-8")
        except UnicodeDecodeError:
            out.append(raw)  # the worker reports it
            continue
        case_id = record_id(text) if text.strip() else None
        if case_id is not None and case_id in done:
            done.discard(case_id)
            out.append(b"\n")
        else:
            out.append(raw)
    return out


def _take(done: set[str], case: Case) -> bool:
    """Whether ``case`` was done by an earlier run (its id is then taken out of ``done``)."""
    case_id = case_id_of(case)
    if case_id is None or case_id not in done:
        return False
    done.discard(case_id)
    return True


def _duplicate(result: CaseResult) -> CaseError:
    """The bad record a result becomes when an earlier record has its id."""
    message = f"{result.source}: $.id: duplicate id {result.id!r}: an earlier record has it"
    return CaseError(result.source, message, result.id)


def _executor(pm: ToolscorePluginManager, name: str, options: ExecutorOptions) -> Any:
    registry = pm.get_executors()
    if name not in registry:
        distribution = provider_of("executors", name)
        if distribution is not None:
            raise MissingPluginError(
                f"the {name!r} executor is provided by {install_hint(distribution)}"
            )
        raise InputError(
            f"unknown executor {name!r}; available: {', '.join(registry.names()) or 'none'}"
        )
    return registry[name].factory(options)


def _preferred_batch_size(executor: Any) -> int:
    """The cases per work unit ``executor`` asks for (its ``batch_size``), else the default."""
    size = getattr(executor, "batch_size", None)
    if isinstance(size, int) and not isinstance(size, bool) and size >= 1:
        return size
    return DEFAULT_BATCH_SIZE


def evaluate_dataset(
    source: str | os.PathLike[str] | Dataset,
    *,
    workers: int | None = None,
    executor: str = "local",
    scheduler: str | None = None,
    out: str | os.PathLike[str] | None = None,
    resume: bool = False,
    baseline: str | os.PathLike[str] | None = None,
    fail_fast: bool = False,
    batch_size: int | None = None,
    format: str = "auto",
    weights: Mapping[str, float] | None = None,
    forbidden: Sequence[Mapping[str, Any]] | None = None,
    strict: bool = False,
    match: Any = None,
    tools: Any = None,
    options: Mapping[str, Any] | None = None,
    gold_dir: str | os.PathLike[str] | None = None,
    validate_side_effects: bool = True,
    judge: Any = False,
    worst: int = 10,
    on_error: Callable[[CaseError], None] | None = None,
    plugin_manager: ToolscorePluginManager | None = None,
) -> DatasetRun:
    """Score every case of a dataset; iterate the returned run for per-case results.

    ``source`` is a JSON Lines file of ``{"id", "expected", "actual"}`` records, a folder
    with ``gold/`` and ``traces/``, or OTLP exports (file or folder) with ``gold_dir`` holding
    ``<trace id>.json``. ``executor`` names a registered executor (``local``; ``dask`` with
    toolscore-dask), ``workers`` sizes it (default: the machine). ``out`` receives one JSON
    line per case, appended a batch at a time; ``resume`` skips the ids already there. The
    scoring options (``weights``, ``forbidden``, ``strict``, ``match``, ``tools``,
    ``options``) are those of :func:`toolscore.evaluate`, checked once here, and apply to
    every case. A gold/ + traces/ pair is scored as ``toolscore eval`` scores two files
    (:func:`toolscore.evaluate_trace`, with ``validate_side_effects``). ``judge`` (off by
    default) adds an LLM judge's ``semantic_metrics`` to every case, as
    ``evaluate_trace(judge=...)`` does; it calls the judge's API once per case not in its
    cache. ``batch_size`` is the number of cases per work unit; ``None`` takes the
    executor's preference (128 cases for ``local``).

    Example::

        run = evaluate_dataset("nightly.jsonl", workers=2, out="results.jsonl")
        for result in run:
            if result.grade == "F":
                print(result.id, result.source)
        print(run.aggregate.mean)

    :raises InputError: the dataset is missing or of an unknown shape, or (``fail_fast``)
        :class:`BadRecordError` at the first bad record.
    :raises ValueError: bad forbidden rules, matching mode or tool definitions.
    """
    scoring = _scoring_options(
        format=format,
        weights=weights,
        forbidden=forbidden,
        strict=strict,
        match=match,
        tools=tools,
        options=options,
        side_effects=validate_side_effects,
        judge=judge,
    )
    dataset = source if isinstance(source, Dataset) else Dataset(source, gold_dir=gold_dir)
    return DatasetRun(
        dataset,
        executor=executor,
        executor_options=ExecutorOptions(workers=workers, scheduler=scheduler),
        scoring=scoring,
        out=out,
        resume=resume,
        baseline=baseline,
        fail_fast=fail_fast,
        batch_size=batch_size,
        worst=worst,
        on_error=on_error,
        plugin_manager=plugin_manager,
    )


def _scoring_options(
    *,
    format: str,
    weights: Mapping[str, float] | None,
    forbidden: Sequence[Mapping[str, Any]] | None,
    strict: bool,
    match: Any,
    tools: Any,
    options: Mapping[str, Any] | None,
    side_effects: bool,
    judge: Any,
) -> ScoringOptions:
    """The options every case is scored with, checked once (a bad one would fail every case).

    :raises ValueError: bad forbidden rules, matching mode or tool definitions.
    """
    if forbidden is not None:
        from toolscore.metrics.policy import validate_rules

        validate_rules(list(forbidden))
    if match is not None:
        from toolscore.matching.trajectory import MatchSpec

        MatchSpec.coerce(match)  # a bad mode would fail every case: refuse it now
    if tools is not None:
        from toolscore.tool_schemas import tool_schemas

        # as a list of MCP-style definitions: reads back to the same {name: schema} whatever
        # the tools are called
        tools = tuple(
            {"name": name, "inputSchema": schema} for name, schema in tool_schemas(tools).items()
        )
    return ScoringOptions(
        format=format,
        weights=dict(weights) if weights is not None else None,
        forbidden=tuple(forbidden) if forbidden is not None else None,
        strict=strict,
        match=match,
        tools=tools,
        options=dict(options) if options else None,
        side_effects=side_effects,
        judge=judge,
        no_plugins=os.environ.get("TOOLSCORE_NO_PLUGINS", "") not in ("", "0"),
    )
