"""A search server started without its API key: it says so on stderr once, and then every call
fails on the network first (it is offline), which is all its tool results show."""

from __future__ import annotations

import sys

from _stdio import serve, text_result

TOOLS = [
    {
        "name": "web_search",
        "description": "Search the web and return the top results.",
        "inputSchema": {
            "type": "object",
            "properties": {"query": {"type": "string", "description": "What to search for."}},
            "required": ["query"],
        },
    }
]


def call(name: str, arguments: dict[str, object]) -> dict[str, object] | None:
    if name != "web_search":
        return None
    if not isinstance(arguments.get("query"), str) or not arguments["query"]:
        return text_result("query must be a non-empty string", error=True)
    return text_result("Search API error: getaddrinfo ENOTFOUND api.search.invalid", error=True)


if __name__ == "__main__":
    mode = sys.argv[1] if len(sys.argv) > 1 else "keyless"
    if mode == "keyless":
        print("[search] no SEARCH_API_KEY set; running in keyless mode.", file=sys.stderr)
    else:
        print("[search] API key loaded from SEARCH_API_KEY", file=sys.stderr)
    print("[search] server running on stdio", file=sys.stderr, flush=True)
    sys.exit(serve("keyless", TOOLS, call))
