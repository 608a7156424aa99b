"""A planner that takes its whole plan as JSON text and validates it on its side.

``plan_steps`` reads ``planRaw``, a JSON list of steps whose example in the description
holds prose where an option belongs (``"kind": "Step kind (BUILD: make it, CHECK: test
it)"``). It answers as a schema validator does, with ``isError`` false: the received value,
the allowed options and the path of each field it refused, and the length a too-short
``detail`` needs. A valid plan gets step ids, which ``show_step`` and ``revise_step`` need;
``revise_step`` given nothing to change says the step does not exist. Standard library only.
"""

from __future__ import annotations

import json
from typing import Any

from _stdio import serve, text_result

STEPS: dict[str, dict[str, Any]] = {}
KINDS = ["BUILD", "CHECK", "SHIP"]

_EXAMPLE = (
    "[{title: 'Short title of the step', kind: 'Step kind (BUILD: make it, CHECK: test it,"
    " SHIP: release it)', detail: 'What the step does, in full'}, {title: 'Step 2',"
    " kind: 'BUILD', detail: 'Short'}]"
)
_STEP = {"type": "string", "description": "A step id plan_steps returned."}
TOOLS = [
    {
        "name": "plan_steps",
        "description": "Break a goal into steps.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "planRaw": {
                    "type": "string",
                    "description": f"The steps, as JSON text, e.g. {_EXAMPLE}",
                },
                "mode": {"type": "string", "enum": ["append", "overwrite"]},
            },
            "required": ["planRaw", "mode"],
        },
    },
    {
        "name": "show_step",
        "description": "Show one step of the plan.",
        "inputSchema": {"type": "object", "properties": {"stepId": _STEP}, "required": ["stepId"]},
    },
    {
        "name": "revise_step",
        "description": "Change a step's title or detail.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "stepId": _STEP,
                "title": {"type": "string"},
                "detail": {"type": "string"},
            },
            "required": ["stepId"],
        },
    },
]


def _problems(steps: Any) -> list[dict[str, Any]]:
    if not isinstance(steps, list) or not steps:
        return [{"code": "invalid_type", "expected": "array", "path": []}]
    issues: list[dict[str, Any]] = []
    for index, step in enumerate(steps):
        kind = step.get("kind") if isinstance(step, dict) else None
        if kind not in KINDS:
            issues.append(
                {
                    "received": kind,
                    "code": "invalid_enum_value",
                    "options": KINDS,
                    "path": [index, "kind"],
                    "message": f"Invalid enum value. Expected {' | '.join(KINDS)}",
                }
            )
        detail = step.get("detail") if isinstance(step, dict) else None
        if not isinstance(detail, str) or len(detail) < 10:
            issues.append(
                {
                    "code": "too_small",
                    "minimum": 10,
                    "type": "string",
                    "path": [index, "detail"],
                    "message": "The detail is too short",
                }
            )
    return issues


def _plan(arguments: dict[str, Any]) -> dict[str, Any]:
    try:
        steps = json.loads(str(arguments.get("planRaw")))
    except ValueError as exc:
        return text_result(f"planRaw is not valid JSON: {exc}")
    issues = _problems(steps)
    if issues:
        return text_result(f"Error: planRaw is invalid: {json.dumps(issues, indent=1)}")
    if arguments.get("mode") == "overwrite":
        STEPS.clear()
    made = []
    for step in steps:
        step_id = f"step-{len(STEPS) + 1}"
        STEPS[step_id] = dict(step)
        made.append(step_id)
    return text_result(
        json.dumps({"created": [{"id": i, "title": STEPS[i]["title"]} for i in made]})
    )


def call(name: str, arguments: dict[str, Any]) -> dict[str, Any] | None:
    if name == "plan_steps":
        return _plan(arguments)
    if name not in ("show_step", "revise_step"):
        return None
    step = STEPS.get(str(arguments.get("stepId")))
    changes = {k: v for k, v in arguments.items() if k in ("title", "detail")}
    if step is None or (name == "revise_step" and not changes):
        return text_result(f"Step {arguments.get('stepId')!r} not found.", error=True)
    step.update(changes)
    return text_result(json.dumps({"step": step}))


if __name__ == "__main__":
    raise SystemExit(serve("step-planner", TOOLS, call))
