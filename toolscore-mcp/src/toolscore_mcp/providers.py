"""The value-provider API, at its documented path (plugins import it from here).

A plugin adds candidate argument values through ``toolscore_mcp_register_value_providers``,
returning :class:`ValueProviderSpec` objects. The code lives in
:mod:`toolscore_mcp.values.providers`; this module re-exports it so the path plugins and
docs use stays stable whatever the package layout.
"""

from __future__ import annotations

from toolscore_mcp.values.providers import (
    Candidate,
    Parameter,
    SandboxLike,
    SynthesisContext,
    ValueProviderSpec,
    name_tokens,
)

__all__ = [
    "Candidate",
    "Parameter",
    "SandboxLike",
    "SynthesisContext",
    "ValueProviderSpec",
    "name_tokens",
]
