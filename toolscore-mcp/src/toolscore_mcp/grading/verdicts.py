"""Judge one tool answer the way the server's author would.

* A happy-path call that errors fails the tool, unless the error says *our* generated input
  was wrong (a validation-style message naming an argument, an "invalid params" answer, or
  input that breaks the tool's own schema): then the scenario is ``inconclusive`` and the fix
  list asks for the schema hint that would have let us (and a model) build valid input.
* A call whose text plainly reports a failure while ``isError`` is false is a finding,
  "error reported as success": a model cannot tell such a call failed.
* A tool that declares an ``outputSchema`` must return ``structuredContent`` that validates
  against it; SDK clients reject the result otherwise.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from toolscore.lazy_pattern import lazy_pattern

from toolscore_mcp.client.content import content_to_text
from toolscore_mcp.grading.classify import classify_failure
from toolscore_mcp.grading.unfinished import says_unfinished
from toolscore_mcp.model import MCPToolDef, MCPToolResult, Scenario, ScenarioResult, Verdict
from toolscore_mcp.values.schema_subset import instance_is_valid

__all__ = [
    "answer_text",
    "excerpt",
    "judge_result",
    "output_problem",
    "reports_failure",
    "schema_hint_fix",
]

_DETAIL_MAX = 200
_INVALID_PARAMS = -32602

_NOT_FOUND = lazy_pattern(
    r"not found|no such|does not exist|doesn't exist|not exist", re.IGNORECASE
)
_FAILURE_TEXT = lazy_pattern(
    r"^\s*(?:\*\*)?(?:"
    r"(?:(?!no )[a-z]+ )?(?:error|exception|fatal(?: error)?|failure|failed)\s*[:!\-]"
    r"|(?:error|exception) (?:executing|calling|running|while|occurred|processing|in)\b"
    r"|(?:failed|unable) to \w+"
    r"|(?:could not|couldn't|cannot|can't) (?!find any\b)\w+"
    r"|unknown (?:tool|command|action|operation|method|entity|resource|file|path|table|column|"
    r"id|key|value|argument|parameter|option|type|format|error)\b"
    r"|invalid (?:\w+ ){0,3}(?:argument|parameter|input|value|path|id|format|request|json|"
    r"query|type|name|url|date|time|timezone|expression|index|range|level|number|position|"
    r"style|mode|option)(?:e?s)?\b"
    r"|invalid \w+(?: \w+)?\s*:"
    r"|no \w+ (?:in|on) (?:the |this )?(?:document|file|slide|sheet|presentation|workbook|page)\b"
    r"|no such (?:file|directory|table|column|entity|tool|key)\b"
    r"|(?:access|permission) denied\b"
    r"|mcp error -?\d+"
    r"|traceback \(most recent call last\)"
    r")",
    re.IGNORECASE,
)
#: An operating-system error code inside an answer ("a.txt: Error - ENOENT: no such file").
_ERRNO = lazy_pattern(r"\bE(?:NOENT|ACCES|ISDIR|NOTDIR|EXIST|PERM|NOTEMPTY|MFILE|NOSPC|ROFS):")
#: A short answer that says the request was blocked is a failure dressed as an empty result.
_SHORT_ANSWER = 500
_BLOCKED = lazy_pattern(r"bot detection|captcha|rate[ -]limit(?:ed)?|too many requests", re.I)
#: An error wrapped in markup inside otherwise normal text ("...: <error>No more content</error>").
_ERROR_TAG = lazy_pattern(r"<error>.{1,500}?</error>", re.IGNORECASE | re.DOTALL)
_ERROR_JSON_KEYS = frozenset(
    {"error", "errors", "code", "message", "details", "status", "success", "ok"}
)
#: A short answer (a sentence or two, not data) that says, anywhere in it, that the call did
#: not do its job: "Document notes.docx does not exist", "Security violation: Command 'echo'
#: is not allowed", "Please provide either a country or ...", "... API is unavailable".
_PROSE_ANSWER = 400
_FAILURE_PROSE = lazy_pattern(
    r"\b(?:does not exist|doesn't exist|do not exist|not found|no such|not allowed|"
    r"is not permitted|not authori[sz]ed|permission denied|access denied|forbidden|"
    r"violation|please (?:provide|specify|supply|enter|give)|(?:is|are) required|"
    r"is missing|missing required|(?:is|are|currently) unavailable|not available|"
    r"failed to|unable to|could not|couldn't|cannot|can't|mismatch|(?:is|are|was) invalid|"
    r"not supported|unsupported|expected .{1,60} but (?:found|got|received|was)|"
    r"must be (?:between|one of|at least|at most|less than|greater than)|"
    r"no (?:active |such |matching )?\w+ (?:found )?for (?:id|pid|key|uuid)\b)\b"
    # The same in Chinese and Japanese: error, failed, cannot find, unable, does not exist.
    r"|错误|錯誤|失败|失敗|找不到|无法|無法|不存在|请确保|請確保|エラー|見つかりません",
    re.IGNORECASE,
)
#: An answer whose opening words say, in Chinese or Japanese, that it failed ("tasks 參數格式錯誤").
_CJK_FAILURE_OPENING = lazy_pattern(r"^.{0,40}?(?:错误|錯誤|失败|失敗|找不到|无法|無法|エラー)")
#: An answer's first sentence (up to 160 characters).
_OPENING_SENTENCE = lazy_pattern(r"[^\n]{1,160}?(?:[.!?](?=\s)|\n|$)")
#: A line that starts with a failure tag ("[DENIED] notes.txt", "[ERROR] ...").
_FAILURE_TAG = lazy_pattern(
    r"^\s*\[(?:error|denied|not[ _-]?found|failed|forbidden|invalid)\]",
    re.IGNORECASE | re.MULTILINE,
)
#: A status field that says failure in JSON too long or too broken to parse.
_STATUS_TEXT = lazy_pattern(
    r"\"(?:status|result|state|outcome)\"\s*:\s*\"(?:error|errored|fail|failed|failure|invalid|"
    r"denied|rejected|not[ _-]?found)\"",
    re.IGNORECASE,
)
#: Status-like JSON values that say a call failed (``"task_not_found"``, ``"error"``).
_FAILED_STATUS = lazy_pattern(
    r"^(?:error|errored|fail|failed|failure|invalid|denied|forbidden|unauthori[sz]ed|rejected|"
    r"missing|unavailable|not[ _-]?found|\w*[_ -](?:not[_ -]found|error|failed|invalid))$",
    re.IGNORECASE,
)
_STATUS_KEYS = ("status", "result", "state", "outcome")
_JSON_DEPTH = 6


def excerpt(text: str) -> str:
    """Whitespace collapsed, at most 200 characters (199 plus an ellipsis)."""
    collapsed = " ".join(text.split())
    return collapsed if len(collapsed) <= _DETAIL_MAX else collapsed[: _DETAIL_MAX - 1] + "…"


def _content_excerpt(content: Any) -> str:
    if isinstance(content, list):
        parts = [
            str(item["text"]) if isinstance(item, Mapping) and "text" in item else str(item)
            for item in content
        ]
        return excerpt(" ".join(parts))
    if isinstance(content, Mapping) and content.get("message") is not None:
        return excerpt(str(content["message"]))
    return excerpt(str(content))


def _answer_excerpt(result: MCPToolResult) -> str:
    """What an error answer said: a JSON-RPC error with its code ("JSON-RPC error -32000:
    backend down"), a tool error by its content."""
    if result.rpc_error_code is not None:
        content = result.content
        message = content.get("message", "") if isinstance(content, Mapping) else content
        return excerpt(f"JSON-RPC error {result.rpc_error_code}: {message}")
    return _content_excerpt(result.content)


def _json_reports_failure(value: Any, depth: int = 0) -> bool:
    """Does a JSON answer say it failed: at the top, in a wrapper object, or for any item of
    a batch (a list of per-item results)?"""
    if depth > _JSON_DEPTH:
        return False
    if isinstance(value, list):
        return any(_json_reports_failure(item, depth + 1) for item in value[:100])
    if not isinstance(value, Mapping) or not value:
        return False
    if _object_reports_failure(value):
        return True
    return any(
        _json_reports_failure(item, depth + 1)
        for item in list(value.values())[:100]
        if isinstance(item, (Mapping, list))
    )


def _object_reports_failure(value: Mapping[str, Any]) -> bool:
    if value.get("success") is False or value.get("ok") is False:
        return True
    for key in _STATUS_KEYS:
        status = value.get(key)
        if isinstance(status, str) and _FAILED_STATUS.match(status.strip()):
            return True
    if value.get("isError") is True or value.get("is_error") is True:
        return True
    message = value.get("message") or value.get("detail")
    if (
        isinstance(message, str)
        and len(message) <= _PROSE_ANSWER
        and any(flag is False for flag in value.values())
        and _NOT_FOUND.search(message)
    ):
        # {"valid": false, "message": "Document x.docx does not exist"}: it never got to work.
        return True
    error = value.get("error") or value.get("errors")
    if not error:
        return False
    # {"error": "..."} alone, or with status words; an "error" beside real data is data.
    return set(value) <= _ERROR_JSON_KEYS or isinstance(error, (str, Mapping))


def reports_failure(result: MCPToolResult) -> bool:
    """Does a result that claims success say, in plain words or JSON, that it failed?"""
    if result.is_error:
        return False
    if _json_reports_failure(result.structured):
        return True
    text = content_to_text(result.content).strip()
    if not text:
        return False
    if _FAILURE_TEXT.match(text) or _ERROR_TAG.search(text) or _ERRNO.search(text):
        return True
    if _FAILURE_TAG.search(text) or _CJK_FAILURE_OPENING.match(text):
        return True
    if says_unfinished(text):  # "... a placeholder for future enhancement": it did nothing
        return True
    if len(text) <= _SHORT_ANSWER and _BLOCKED.search(text):
        return True
    if text[0] in "{[":
        try:
            return _json_reports_failure(json.loads(text))
        except (ValueError, RecursionError):
            if _STATUS_TEXT.search(text):  # cut short or broken, but it says so
                return True
    if len(text) <= _PROSE_ANSWER:
        return _FAILURE_PROSE.search(text) is not None
    # A long answer that opens by saying it failed ("Search content not found in x. The
    # closest match was ..."): the opening sentence decides.
    opening = _OPENING_SENTENCE.match(text)
    return opening is not None and _FAILURE_PROSE.search(opening.group(0)) is not None


def answer_text(result: MCPToolResult) -> str:
    """The answer as text: its content, or its structuredContent as JSON when it has none."""
    text = content_to_text(result.content)
    if not text.strip() and result.structured is not None:
        text = json.dumps(result.structured, ensure_ascii=False, default=str)
    return text


def output_problem(tool: MCPToolDef, result: MCPToolResult) -> str | None:
    schema = tool.output_schema
    if schema is None or result.is_error:
        return None
    if "structuredContent" not in result.raw:
        return "declares an outputSchema but returned no structuredContent"
    if instance_is_valid(schema, result.structured) is True:
        return None  # a plain schema, answered without jsonschema
    from jsonschema import exceptions as schema_errors
    from jsonschema.validators import validator_for
    from toolscore.bounded_schema import bounded_validator_class

    from toolscore_mcp.rules.validity import schema_problem

    problem = schema_problem(schema)
    if problem is not None:
        return f"declares an outputSchema that cannot be checked: {excerpt(problem)}"
    try:
        validator_cls = bounded_validator_class(
            validator_for(schema), report_invalid_patterns=False
        )
        error = schema_errors.best_match(validator_cls(schema).iter_errors(result.structured))
    except Exception as exc:
        return f"declares an outputSchema that cannot be checked: {excerpt(str(exc))}"
    if error is None:
        return None
    where = "/".join(str(p) for p in error.absolute_path) or "(root)"
    return f"structuredContent does not match outputSchema at {where}: {excerpt(error.message)}"


def _input_schema_error(tool: MCPToolDef, arguments: Mapping[str, Any]) -> tuple[str, str] | None:
    """(argument, message) when our own arguments break the tool's input schema."""
    schema = tool.input_schema
    if not schema or instance_is_valid(schema, dict(arguments)) is True:
        return None
    from jsonschema import exceptions as schema_errors
    from jsonschema.validators import validator_for
    from toolscore.bounded_schema import bounded_validator_class

    try:
        validator_cls = bounded_validator_class(
            validator_for(schema), report_invalid_patterns=False
        )
        error = schema_errors.best_match(validator_cls(schema).iter_errors(dict(arguments)))
    except Exception:
        return None
    if error is None:
        return None
    path = list(error.absolute_path)
    name = str(path[0]) if path else next(iter(arguments), "")
    return name, error.message


def _strings_in(value: Any, depth: int = 0, *, keys: bool = False) -> list[str]:
    """Every string inside an argument value (nested lists and objects too); with ``keys``,
    the names of the nested object keys instead."""
    if isinstance(value, str):
        return [] if keys else [value]
    if depth > 4:
        return []
    if isinstance(value, Mapping):
        own = [str(k) for k in value] if keys else []
        return own + [s for v in value.values() for s in _strings_in(v, depth + 1, keys=keys)]
    if isinstance(value, list):
        return [s for v in value for s in _strings_in(v, depth + 1, keys=keys)]
    return []


def _names_word(text: str, word: str) -> bool:
    return re.search(rf"(?<![\w]){re.escape(word.lower())}(?![\w])", text) is not None


def _mentioned_argument(text: str, arguments: Mapping[str, Any]) -> tuple[str | None, bool]:
    """The argument an error message is about: named itself, by one of its nested keys, or
    by a value we sent in it; and whether only its name was mentioned (a message may name a
    parameter without objecting to it: "station index is corrupted")."""
    lowered = text.lower()
    named = next((name for name in arguments if _names_word(lowered, name)), None)
    if named is not None:
        return named, not _quotes_value(text, arguments.get(named))
    for name, value in arguments.items():
        if any(
            len(key) >= 3 and _names_word(lowered, key) for key in _strings_in(value, keys=True)
        ):
            return name, False
    for name, value in arguments.items():
        if _quotes_value(text, value):
            return name, False
    return None, False


def _quotes_value(text: str, value: Any) -> bool:
    """Does the message repeat a value we sent (a string of 3+ characters, or a number)?"""
    lowered = text.lower()
    if any(len(s) >= 3 and s.lower() in lowered for s in _strings_in(value)):
        return True
    return (
        isinstance(value, (int, float))
        and not isinstance(value, bool)
        and re.search(rf"(?<![\w.]){re.escape(str(value))}(?![\w.])", text) is not None
    )


def judge_result(
    tool: MCPToolDef | None, scenario: Scenario, result: MCPToolResult
) -> ScenarioResult:
    """The verdict for one answered call (timeouts and crashes are judged by the runner).

    An edge case passes when the server answered cleanly; one that reports a failure with
    ``isError: false`` fails (a model would take the error for data). A failed happy path is
    classified (:func:`toolscore_mcp.grading.classify.classify_failure`): only a ``defect`` fails it;
    ``rejected-input`` and ``environment`` are inconclusive.
    """
    tool = tool or MCPToolDef(name=scenario.tool)
    misreported = reports_failure(result) and not _asked_for_an_error(scenario)
    base: dict[str, Any] = {
        "scenario": scenario,
        "duration": result.duration,
        "response": result,
    }
    if scenario.kind == "edge":
        if misreported:
            return ScenarioResult(
                ok=False,
                is_error=False,
                detail=f"error reported as success: {_text_excerpt(result)}",
                verdict="fail",
                finding="error-as-success",
                **base,
            )
        detail = _answer_excerpt(result) if result.is_error else "ok"
        return ScenarioResult(ok=True, is_error=result.is_error, detail=detail, **base)
    expectation = scenario.expect
    if expectation is not None:
        problem = expectation.check(result)
        if problem is not None:
            return ScenarioResult(
                ok=False,
                is_error=result.is_error,
                detail=excerpt(f"expectation not met: {problem}"),
                verdict="fail",
                finding="expectation",
                category="defect",
                **base,
            )
        if result.is_error:
            return ScenarioResult(ok=True, is_error=True, detail="error, as expected", **base)
    if result.is_error or misreported:
        return _judge_failure(tool, scenario, result, misreported, base)
    problem = output_problem(tool, result)
    if problem is not None:
        return ScenarioResult(
            ok=False,
            is_error=False,
            detail=problem,
            verdict="fail",
            finding="output-schema",
            category="defect",
            **base,
        )
    return ScenarioResult(ok=True, is_error=False, detail="ok", **base)


def _judge_failure(
    tool: MCPToolDef,
    scenario: Scenario,
    result: MCPToolResult,
    misreported: bool,
    base: dict[str, Any],
) -> ScenarioResult:
    text = _text_excerpt(result) if misreported else _answer_excerpt(result)
    full_text = content_to_text(result.content) or text
    own = _input_schema_error(tool, scenario.arguments)
    properties = tool.input_schema.get("properties") if tool.input_schema else None
    known = dict.fromkeys(properties) if isinstance(properties, Mapping) else {}
    blamed: str | None
    if own:
        blamed, by_name_only = own[0], False
    else:
        blamed, by_name_only = _mentioned_argument(full_text, {**known, **scenario.arguments})
        # Naming a parameter we left out asks for it ("Give `range` to create a table").
        by_name_only = by_name_only and blamed in scenario.arguments
    evidence = {name: scenario.evidence.get(name, "generated") for name in scenario.arguments}
    verdict_class = classify_failure(
        full_text,
        evidence,
        blamed=blamed,
        blamed_by_name_only=by_name_only,
        rpc_error_code=result.rpc_error_code,
        schema_error=own is not None,
    )
    verdict: Verdict = "fail" if verdict_class.conclusive else "inconclusive"
    if misreported:
        finding = "error-as-success"
        detail = f"error reported as success: {text}"
    else:
        # A JSON-RPC error answer is the server's protocol-level refusal, not a crash: it
        # answered, and the scenario shows the code it answered with.
        failure = "protocol-error" if result.rpc_error_code is not None else "failure"
        finding = failure if verdict_class.conclusive else "inconclusive"
        detail = text
    return ScenarioResult(
        ok=False,
        is_error=result.is_error,
        detail=detail,
        verdict=verdict,
        finding=finding,
        argument=blamed,
        category=verdict_class.category,
        needs=verdict_class.needs,
        **base,
    )


_ERROR_WORDS = frozenset({"error", "errors", "fail", "failed", "failure", "exception"})


def _asked_for_an_error(scenario: Scenario) -> bool:
    """A call whose arguments ask for an error (``messageType: "error"``) may get one."""
    return any(
        isinstance(v, str) and v.lower() in _ERROR_WORDS for v in scenario.arguments.values()
    )


def _text_excerpt(result: MCPToolResult) -> str:
    text = content_to_text(result.content)
    if not text.strip() and result.structured is not None:
        text = json.dumps(result.structured, ensure_ascii=False)
    return excerpt(text)


def schema_hint_fix(tool: MCPToolDef, argument: str | None, detail: str) -> str:
    """Which schema hint would let a client build a valid value for ``argument``."""
    if not argument:
        return (
            "Document valid input in the input schema (types, 'enum', 'pattern', 'format', "
            "'minimum'/'maximum', 'examples') so clients - and toolscore - can build a valid call."
        )
    properties = tool.input_schema.get("properties") if tool.input_schema else None
    prop = properties.get(argument) if isinstance(properties, Mapping) else None
    prop = prop if isinstance(prop, Mapping) else {}
    kind = prop.get("type")
    if _NOT_FOUND.search(detail):
        return (
            f"'{argument}' must name something that exists: add 'examples' to it and say in its "
            "description which tool lists valid values, so clients - and toolscore - can pass one."
        )
    if kind in ("integer", "number"):
        hint = "'minimum'/'maximum' (or 'examples')"
    elif kind in ("array", "object"):
        hint = "'items'/'properties' with their types, and 'examples'"
    else:
        hint = "'examples' (or an 'enum', 'pattern' or 'format')"
    return (
        f"Add {hint} to '{argument}' in the input schema, or name a valid value in its "
        "description (\"e.g. '...'\"), so clients - and toolscore - can build a valid value."
    )
