"""Save a scenario document as YAML or JSON, with a header saying how to check it."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

__all__ = ["write_scenario_file"]

_YAML_HEADER: Final = (
    "# toolscore MCP scenario file: what `toolscore mcp test --scenarios FILE` calls.\n"
    "# Edit the arguments, add `expect:` checks, and check it with"
    " `toolscore mcp scenarios check FILE`.\n"
)


def _yaml_text(document: Mapping[str, Any]) -> str:
    import yaml

    body = yaml.safe_dump(
        dict(document), sort_keys=False, allow_unicode=True, default_flow_style=False, width=100
    )
    return _YAML_HEADER + body


def write_scenario_file(document: Mapping[str, Any], path: str | Path) -> Path:
    """Write ``document`` atomically: JSON for ``.json``, block-style YAML otherwise.

    The YAML keeps key order and reads back with :func:`load_scenario_file`.
    """
    from toolscore.fileio import atomic_write_json, atomic_write_text

    target = Path(path)
    if target.suffix.lower() == ".json":
        return atomic_write_json(target, dict(document))
    return atomic_write_text(target, _yaml_text(document))
