"""A task tracker whose tools need the ids an earlier tool returned.

``request_planning`` (no verb the run knows in its name; its description says it registers
a request) answers ``Request ID: req-1`` and the ids of the request's tasks. The other tools
refuse any request or task id the server did not hand out. Standard library only.
"""

from __future__ import annotations

import json
from typing import Any

from _stdio import serve, text_result

REQUESTS: dict[str, list[dict[str, Any]]] = {}


def _schema(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required}


_REQUEST = {"type": "string", "description": "The request id request_planning returned."}
_TASK = {"type": "string", "description": "A task id of the request."}
TOOLS = [
    {
        "name": "request_planning",
        "description": "Register a new user request and plan its tasks. Returns the request id.",
        "inputSchema": _schema(
            {
                "originalRequest": {"type": "string", "description": "What the user asked."},
                "tasks": {
                    "type": "array",
                    "items": {"type": "string"},
                    "description": "Titles of the tasks.",
                },
            },
            ["originalRequest", "tasks"],
        ),
    },
    {
        "name": "get_next_task",
        "description": "The next task of a request that is not done.",
        "inputSchema": _schema({"requestId": _REQUEST}, ["requestId"]),
    },
    {
        "name": "mark_task_done",
        "description": "Mark a task of a request as done.",
        "inputSchema": _schema({"requestId": _REQUEST, "taskId": _TASK}, ["requestId", "taskId"]),
    },
]


def call(name: str, arguments: dict[str, Any]) -> dict[str, Any] | None:
    if name == "request_planning":
        request_id = f"req-{len(REQUESTS) + 1}"
        titles = [str(t) for t in arguments.get("tasks") or []] or ["task"]
        REQUESTS[request_id] = [
            {"id": f"task-{len(REQUESTS) + 1}-{n + 1}", "title": t, "done": False}
            for n, t in enumerate(titles)
        ]
        tasks = "\n".join(f"Task ID: {task['id']}" for task in REQUESTS[request_id])
        return text_result(f"Request ID: {request_id}\n{tasks}")
    request = REQUESTS.get(str(arguments.get("requestId")))
    if name not in ("get_next_task", "mark_task_done"):
        return None
    if request is None:
        return text_result(f"Request not found: {arguments.get('requestId')!r}", error=True)
    if name == "get_next_task":
        pending = [task for task in request if not task["done"]]
        return text_result(json.dumps({"task": pending[0] if pending else None}))
    task = next((t for t in request if t["id"] == arguments.get("taskId")), None)
    if task is None:
        return text_result(f"Task not found: {arguments.get('taskId')!r}", error=True)
    task["done"] = True
    return text_result(f"Task {task['id']} is done.")


if __name__ == "__main__":
    raise SystemExit(serve("tracker", TOOLS, call))
