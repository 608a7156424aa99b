"""Actual calls' arguments checked against their tools' input schemas (``schema_validity``).

Why: "the agent sent ``"2"`` where the schema says integer" or "forgot a required field" is a
different mistake from "the agent picked the wrong city": the first is fixed in the tool
description or the model's function-calling setup, the second in the task prompt. When tool
definitions are known (``evaluate(..., tools=...)``, a gold file's ``tools``, a request
payload's ``tools``, an MCP ``tools/list`` answer, ``toolscore eval --tools FILE``), every
actual call is validated with jsonschema and the result is reported as its own metric,
``metrics["schema_validity"]``, with one ``schema_violation`` finding per error. The composite
score does not change: the metric is not one of its weighted components.
"""

from __future__ import annotations

from toolscore.tool_schemas.check import check_calls, schema_fixes
from toolscore.tool_schemas.definitions import read_tools_file, tool_schemas, tools_in_document

__all__ = ["check_calls", "read_tools_file", "schema_fixes", "tool_schemas", "tools_in_document"]
