"""Dataset readers: a JSON Lines file of cases, a gold/ + traces/ folder pair, OTLP exports.

Each reader is lazy and holds one batch at a time: memory stays flat whatever the dataset
size. Parsing and extraction happen in the workers, not here: a JSON Lines file is handed out
as raw lines (:meth:`Dataset.line_batches`), the other shapes as :class:`Case` values (or a
:class:`CaseError` for a record the reader could not even delimit).

- ``cases.jsonl``: one ``{"id", "expected", "actual", "format"?}`` object per line; ``actual``
  is anything core's extraction reads (call lists, OpenAI, Anthropic, ... responses).
- ``DIR`` with ``gold/`` and ``traces/``: a trace file and the gold file of the same name make
  a case, whose id is the file name without its extension.
- OTLP JSON exports (``resourceSpans``; one export per line, or one per file): one case per
  trace id, the expected calls read from ``GOLD_DIR/<trace id>.json``. Spans are grouped per
  export document, so a trace must not be split across exports.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from itertools import islice
from pathlib import Path
from typing import Any

from toolscore.batch.records import Case, CaseError
from toolscore.errors import InputError

Item = Case | CaseError


class Dataset:
    """A dataset on disk: iterate for its records; :meth:`count` for a progress total."""

    def __init__(
        self, path: str | os.PathLike[str], *, gold_dir: str | os.PathLike[str] | None = None
    ) -> None:
        self.path = Path(path)
        self.gold_dir = Path(gold_dir) if gold_dir is not None else None
        if not self.path.exists():
            raise InputError(f"dataset not found: {self.path}")
        self.kind = self._kind()

    def _kind(self) -> str:
        if self.path.is_dir():
            if (self.path / "traces").is_dir():
                return "folders"
            if self.gold_dir is not None:
                return "otlp"
            raise InputError(
                "a dataset folder needs gold/ and traces/ subfolders (or pass --gold DIR for "
                "a folder of OTLP exports)",
                source=str(self.path),
            )
        return "otlp" if self.gold_dir is not None else "jsonl"

    def __iter__(self) -> Iterator[Item]:
        if self.kind == "folders":
            return _folder_cases(self.path)
        if self.kind == "otlp":
            assert self.gold_dir is not None
            return _otlp_cases(self.path, self.gold_dir)
        return _jsonl_cases(self.path)

    def line_batches(self, size: int) -> Iterator[tuple[int, list[bytes]]]:
        """A JSON Lines dataset as ``(first line number, raw lines)``, ``size`` lines at a time.

        Nothing is decoded or parsed here: the worker does that, so the reading process stays
        idle enough to keep several workers fed. Blank lines are included (they keep the
        numbering; the worker skips them).
        """
        if self.kind != "jsonl":
            raise ValueError(f"line_batches reads JSON Lines datasets, not {self.kind}")
        with self.path.open("rb") as handle:
            number = 1
            while lines := list(islice(handle, size)):
                yield number, lines
                number += len(lines)

    def count(self) -> int | None:
        """How many records there are, cheaply (a byte scan or a listing), or ``None``."""
        if self.kind == "jsonl":
            lines = 0
            with self.path.open("rb") as handle:
                while chunk := handle.read(1 << 20):
                    lines += chunk.count(b"\n")
            return lines
        if self.kind == "folders":
            return sum(1 for entry in os.scandir(self.path / "traces") if entry.is_file())
        return None


def _jsonl_cases(path: Path) -> Iterator[Item]:
    name = str(path)
    with path.open("rb") as handle:
        for number, raw in enumerate(handle, 1):
            if not raw.strip():
                continue
            source = f"{name}:{number}"
            try:
                text = raw.decode("utf-8-sig" if number == 1 else "utf-8")
            except UnicodeDecodeError as exc:
                yield CaseError(
                    source,
                    f"{source}: expected UTF-8 text, got an undecodable byte at column {exc.start + 1}",
                )
                continue
            yield Case(source=source, text=text)


def _folder_cases(root: Path) -> Iterator[Item]:
    traces, gold = root / "traces", root / "gold"
    names = sorted(entry.name for entry in os.scandir(traces) if entry.is_file())
    for name in names:
        trace = traces / name
        yield Case(source=str(trace), id=Path(name).stem, files=(str(gold / name), str(trace)))


def _otlp_files(path: Path) -> list[Path]:
    if path.is_dir():
        return sorted(p for p in path.iterdir() if p.is_file() and p.suffix in (".json", ".jsonl"))
    return [path]


def _otlp_cases(path: Path, gold_dir: Path) -> Iterator[Item]:
    for file in _otlp_files(path):
        for source, document in _otlp_documents(file):
            if isinstance(document, CaseError):
                yield document
                continue
            yield from _split_by_trace(document, source, gold_dir)


def _otlp_documents(file: Path) -> Iterator[tuple[str, Any]]:
    """Each export in ``file``: the whole file when it is one JSON value, else each line."""
    name = str(file)
    with file.open("rb") as handle:
        head = handle.read(1 << 16)
    if file.suffix != ".jsonl" and head.lstrip().startswith(b"{") and b"\n{" not in head:
        try:
            yield f"{name}:1", json.loads(file.read_bytes().decode("utf-8-sig"))
        except (ValueError, RecursionError) as exc:
            yield f"{name}:1", CaseError(f"{name}:1", f"{name}:1: invalid JSON: {exc}")
        return
    with file.open("rb") as handle:
        for number, raw in enumerate(handle, 1):
            if not raw.strip():
                continue
            source = f"{name}:{number}"
            try:
                yield source, json.loads(raw)
            except (ValueError, RecursionError) as exc:
                yield source, CaseError(source, f"{source}: invalid JSON: {exc}")


def _split_by_trace(document: Any, source: str, gold_dir: Path) -> Iterator[Item]:
    """One case per trace id of an OTLP export, with only that trace's spans."""
    if not isinstance(document, dict) or not isinstance(document.get("resourceSpans"), list):
        yield CaseError(source, f"{source}: $.resourceSpans: expected an OTLP traces export")
        return
    order: list[str] = []
    by_trace: dict[str, list[tuple[int, int, Any]]] = {}
    for r, resource in enumerate(document["resourceSpans"]):
        scopes = resource.get("scopeSpans", []) if isinstance(resource, dict) else []
        for s, scope in enumerate(scopes if isinstance(scopes, list) else []):
            spans = scope.get("spans", []) if isinstance(scope, dict) else []
            for span in spans if isinstance(spans, list) else []:
                trace_id = span.get("traceId") if isinstance(span, dict) else None
                if not isinstance(trace_id, str) or not trace_id:
                    continue
                if trace_id not in by_trace:
                    order.append(trace_id)
                    by_trace[trace_id] = []
                by_trace[trace_id].append((r, s, span))
    for trace_id in order:
        gold_file = gold_dir / f"{trace_id}.json"
        try:
            expected = json.loads(gold_file.read_text(encoding="utf-8-sig"))
        except FileNotFoundError:
            yield CaseError(
                source, f"{source}: trace {trace_id}: no gold file {gold_file}", trace_id
            )
            continue
        except (ValueError, OSError) as exc:
            yield CaseError(source, f"{gold_file}: invalid JSON: {exc}", trace_id)
            continue
        export = _export_of(document, by_trace[trace_id])
        yield Case(
            source=source,
            id=trace_id,
            record={"id": trace_id, "expected": expected, "actual": export, "format": "otel"},
        )


def _export_of(document: dict[str, Any], spans: list[tuple[int, int, Any]]) -> dict[str, Any]:
    grouped: dict[tuple[int, int], list[Any]] = {}
    for r, s, span in spans:
        grouped.setdefault((r, s), []).append(span)
    resources: dict[int, list[Any]] = {}
    for (r, s), items in grouped.items():
        scope = dict(document["resourceSpans"][r]["scopeSpans"][s])
        scope["spans"] = items
        resources.setdefault(r, []).append(scope)
    out = []
    for r, scopes in resources.items():
        resource = dict(document["resourceSpans"][r])
        resource["scopeSpans"] = scopes
        out.append(resource)
    return {"resourceSpans": out}


def case_id_of(case: Case) -> str | None:
    """The id of a record, parsing a JSON Lines record only when it must (``--resume``)."""
    if case.id is not None:
        return case.id
    if case.text is None:
        return None
    return record_id(case.text)


def record_id(text: str) -> str | None:
    """The ``id`` of a JSON Lines record, or ``None`` when it has none or does not parse."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    found = value.get("id") if isinstance(value, dict) else None
    return str(found) if isinstance(found, (str, int)) and not isinstance(found, bool) else None
