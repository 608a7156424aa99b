"""The tool synthesizer, at its documented path (plugins and their tests import it here).

:class:`ToolSynthesizer` picks each tool's happy-path arguments from the registered value
providers; :func:`collect_value_providers` lists those providers. The code lives in
:mod:`toolscore_mcp.values.synthesizer`; this module re-exports it so the documented path
stays stable whatever the package layout.
"""

from __future__ import annotations

from toolscore_mcp.values.synthesizer import ArgumentSet, ToolSynthesizer, collect_value_providers

__all__ = ["ArgumentSet", "ToolSynthesizer", "collect_value_providers"]
