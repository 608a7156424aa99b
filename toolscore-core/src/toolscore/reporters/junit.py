"""The JUnit XML report: evaluation results as test cases that CI systems display.

Two layouts:

- per evaluation (default): one test case, ``evaluation``, that fails when the score is below
  ``min_score`` (default 0.9, the ``assert_tools`` default; the shared 1e-9 tolerance applies)
  or, with ``fail_on_violations``, when a forbidden call or a credential was found;
- per expected call (``per_call=True``): one test case per expected call (failing when the call
  is missing, its arguments differ, or it failed), one ``unexpected calls`` case, and with
  ``fail_on_violations`` one ``forbidden calls and credentials`` case.

The file follows the common JUnit schema (Apache Ant's ``JUnit.xsd``, which Jenkins, GitLab and
the GitHub test-report actions read): ``<testsuites>`` holding one ``<testsuite>`` with its
``properties``, test cases, ``system-out`` and ``system-err``. Text is redacted and characters
XML cannot carry are dropped.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from toolscore._markers import hookimpl
from toolscore.reporters._common import (
    as_float,
    findings,
    fix_list,
    generated_at,
    metric,
    redact,
)
from toolscore.specs import ReporterSpec

if TYPE_CHECKING:
    from toolscore.result import EvaluationResult

__all__ = ["JUnitReporter"]

#: Tolerance of the shared threshold check (:func:`toolscore.assertions.check_threshold`).
EPSILON = 1e-9

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _clean(text: object) -> str:
    return _NOT_XML.sub("", str(text))


def _seconds(value: Any) -> str:
    return f"{max(as_float(value), 0.0):.3f}"


class _Case:
    """A test case being built: name, time, and at most one failure."""

    def __init__(self, name: str, time: Any = 0.0) -> None:
        self.name = name
        self.time = time
        self.failure: tuple[str, str, str] | None = None

    def fail(self, kind: str, message: str, body: str = "") -> None:
        self.failure = (kind, message, body or message)


class JUnitReporter:
    """Builds the JUnit XML document for one evaluation."""

    def __init__(
        self,
        *,
        per_call: bool = False,
        min_score: float | None = 0.9,
        fail_on_violations: bool = False,
        suite_name: str = "toolscore",
    ) -> None:
        self.per_call = per_call
        self.min_score = min_score
        self.fail_on_violations = fail_on_violations
        self.suite_name = suite_name or "toolscore"

    # -- test cases ---------------------------------------------------------------------------

    def _violation_messages(self, result: EvaluationResult) -> list[str]:
        return [message for severity, message in findings(result) if severity == "error"]

    def _evaluation_case(self, result: EvaluationResult) -> _Case:
        case = _Case("evaluation", metric(result, "latency_metrics", "total_duration", 0.0))
        problems: list[str] = []
        score = result.score
        if self.min_score is not None and score < max(0.0, self.min_score - EPSILON):
            problems.append(
                f"score {score:.2f} < {self.min_score:.2f} required (grade {result.grade})"
            )
        violations = self._violation_messages(result) if self.fail_on_violations else []
        if violations:
            problems.append(f"{len(violations)} forbidden call(s) or credential(s) found")
        if problems:
            body = [*problems, ""]
            body += [f"{fix.tool}: {fix.problem}" for fix in fix_list(result)]
            body += violations
            case.fail("toolscore.EvaluationFailed", "; ".join(problems), "\n".join(body).strip())
        return case

    def _call_cases(self, result: EvaluationResult) -> Iterator[_Case]:
        from toolscore.diff import diff_rows

        strict = bool(getattr(result, "strict", False))
        extras: list[str] = []
        for row in diff_rows(result.gold_calls, result.trace_calls, strict=strict):
            expected, actual = row.expected, row.actual
            if expected is None:
                if actual is not None:
                    extras.append(actual.tool)
                continue
            case = _Case(f"call {row.number}: {expected.tool}", actual.duration if actual else 0.0)
            if actual is None:
                case.fail(
                    "toolscore.MissingCall", f"expected call to `{expected.tool}` never happened"
                )
            elif row.status == "wrong_tool":
                case.fail(
                    "toolscore.WrongTool",
                    f"called `{actual.tool}` where `{expected.tool}` was expected",
                )
            elif row.problems:
                case.fail(
                    "toolscore.ArgumentMismatch",
                    f"`{expected.tool}` called with unexpected arguments",
                    "\n".join(row.problems),
                )
            elif actual.is_error:
                case.fail(
                    "toolscore.ToolCallFailed",
                    f"`{expected.tool}` failed: {actual.error or 'error'}",
                )
            yield case
        case = _Case("unexpected calls")
        if extras:
            case.fail(
                "toolscore.UnexpectedCall",
                f"{len(extras)} unexpected call(s): {', '.join(extras)}",
            )
        yield case
        if self.fail_on_violations:
            case = _Case("forbidden calls and credentials")
            violations = self._violation_messages(result)
            if violations:
                case.fail(
                    "toolscore.PolicyViolation",
                    f"{len(violations)} forbidden call(s) or credential(s) found",
                    "\n".join(violations),
                )
            yield case

    # -- document -----------------------------------------------------------------------------

    def _properties(self, result: EvaluationResult) -> dict[str, str]:
        security = result.metrics.get("security_metrics")
        secrets = security.get("secret_count", 0) if isinstance(security, Mapping) else 0
        recall = result.required_call_recall
        props = {
            "score": f"{result.score:.6f}",
            "grade": str(result.grade),
            "selection_accuracy": f"{result.selection_accuracy:.6f}",
            "argument_f1": f"{result.argument_f1:.6f}",
            "sequence_accuracy": f"{result.sequence_accuracy:.6f}",
            "required_call_recall": "" if recall is None else f"{recall:.6f}",
            "gold_calls_count": str(len(result.gold_calls)),
            "trace_calls_count": str(len(result.trace_calls)),
            "policy_violations": str(len(result.policy_violations)),
            "secrets": str(secrets),
        }
        if self.min_score is not None:
            props["min_score"] = f"{self.min_score:.6f}"
        from toolscore.reporters.plugin_metrics import plugin_metric_rows

        for row in plugin_metric_rows(result):
            props.setdefault(f"metric.{row.name}", row.text)
        from toolscore.findings import findings_for

        codes = sorted({finding.code for finding in findings_for(result)})
        props["finding_codes"] = ",".join(codes)
        return props

    def _system_out(self, result: EvaluationResult) -> str:
        lines = [f"score {result.score:.1%} (grade {result.grade})"]
        fixes = fix_list(result)
        if fixes:
            lines.append("Top issues to fix:")
            lines += [f"  {i}. {fix.tool}  {fix.problem}" for i, fix in enumerate(fixes, start=1)]
        for severity, message in findings(result):
            lines.append(f"{severity.upper()}: {message}")
        from toolscore.findings import findings_for

        coded = findings_for(result)
        if coded:
            lines.append("Findings:")
            lines += [f"  [{f.code}] {f.message}" for f in coded]
        return "\n".join(lines) + "\n"

    def render(self, result: EvaluationResult, *, verbose: bool = False) -> str:
        # Imported here: this module is loaded on every start-up to register the reporter.
        import socket
        import xml.etree.ElementTree as ET

        cases = list(self._call_cases(result)) if self.per_call else [self._evaluation_case(result)]
        failures = sum(1 for case in cases if case.failure is not None)
        total_time = sum(max(as_float(case.time), 0.0) for case in cases)
        root = ET.Element("testsuites")
        suite = ET.SubElement(
            root,
            "testsuite",
            {
                "name": _clean(self.suite_name),
                "timestamp": generated_at(utc=True).strftime("%Y-%m-%dT%H:%M:%S"),
                "hostname": _clean(socket.gethostname() or "localhost"),
                "tests": str(len(cases)),
                "failures": str(failures),
                "errors": "0",
                "time": f"{total_time:.3f}",
                "package": "toolscore",
                "id": "0",
            },
        )
        properties = ET.SubElement(suite, "properties")
        for name, value in self._properties(result).items():
            ET.SubElement(properties, "property", {"name": name, "value": value})
        classname = f"toolscore.{self.suite_name}"
        for case in cases:
            element = ET.SubElement(
                suite,
                "testcase",
                {
                    "name": _clean(case.name),
                    "classname": _clean(classname),
                    "time": _seconds(case.time),
                },
            )
            if case.failure is not None:
                kind, message, body = case.failure
                failure = ET.SubElement(
                    element, "failure", {"message": _clean(message), "type": kind}
                )
                failure.text = _clean(body)
        ET.SubElement(suite, "system-out").text = _clean(self._system_out(result))
        ET.SubElement(suite, "system-err").text = ""
        ET.indent(root)
        text = ET.tostring(root, encoding="unicode")
        return redact('<?xml version="1.0" encoding="UTF-8"?>\n' + text + "\n")


@hookimpl
def toolscore_register_reporters() -> Iterator[ReporterSpec]:
    yield ReporterSpec(
        name="junit",
        factory=JUnitReporter,
        summary="JUnit XML for CI test reports (per evaluation, or per expected call)",
        extension=".xml",
    )
