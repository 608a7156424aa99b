"""A stdio MCP server that advertises the tools listed in a JSON file (argv[1]).

The file holds ``{"tools": [...]}`` as a ``tools/list`` answer would; names and descriptions
are served exactly as written (control characters, bidi overrides, lone surrogates and all).
Every call answers "ok".
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _stdio import serve, text_result

TOOLS = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))["tools"]

if __name__ == "__main__":
    raise SystemExit(serve("tools-from-file", TOOLS, lambda name, arguments: text_result("ok")))
