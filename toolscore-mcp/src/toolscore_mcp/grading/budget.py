"""The tool surface's cost in a model's context, and the gates on it.

Every tool definition and the server instructions go to the model on every request. This
module counts them (per tool and in total, with :mod:`toolscore_mcp.grading.tokens`), finds tools
whose descriptions say nearly the same thing (a model cannot tell them apart), and checks
the ``--budget`` and ``--max-tools`` gates of ``mcp test`` and ``mcp lint``.

Client presets carry only limits their makers document; where no token limit is published
the preset sets none (see docs/mcp.md, "Budgets", for the sources).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

import attrs

from toolscore_mcp.grading.tokens import context_tokens, tool_definition_tokens
from toolscore_mcp.model import MCPToolDef

__all__ = [
    "PRESETS",
    "Budget",
    "BudgetReport",
    "measure",
    "near_duplicates",
    "parse_budget",
]

#: Descriptions at least this similar (difflib ratio over lowercased words) are near-duplicates.
SIMILAR = 0.9
#: Shorter descriptions are too generic to compare.
MIN_WORDS = 5


@attrs.frozen
class Budget:
    """Limits to hold a tool surface to; ``None`` means no limit."""

    tokens: int | None = None
    max_tools: int | None = None
    #: The preset's name, or "" for numbers given on the command line.
    preset: str = ""
    source: str = ""


#: Client presets: documented limits only.
PRESETS: dict[str, Budget] = {
    "cursor": Budget(
        max_tools=40,
        preset="cursor",
        source="Cursor docs, 'Tool quantity': only the first 40 tools are sent to the Agent "
        "(docs.cursor.com/context/model-context-protocol#tool-quantity); no token limit "
        "is documented",
    ),
    "vscode": Budget(
        max_tools=128,
        preset="vscode",
        source="VS Code docs: a chat request can have at most 128 tools enabled; no token "
        "limit is documented",
    ),
    "openai": Budget(
        max_tools=128,
        preset="openai",
        source="OpenAI API reference: at most 128 functions in 'tools'; no token limit "
        "beyond the model's context window",
    ),
}


def parse_budget(value: str | None, max_tools: str | None) -> Budget:
    """``--budget`` (tokens or a preset name) and ``--max-tools`` (a number or a preset)
    as one :class:`Budget`; raises ``ValueError`` with a one-line message."""
    budget = Budget()
    for given, what in ((value, "budget"), (max_tools, "max-tools")):
        if given is None:
            continue
        text = given.strip().lower()
        if text in PRESETS:
            preset = PRESETS[text]
            budget = attrs.evolve(
                budget,
                tokens=budget.tokens if preset.tokens is None else preset.tokens,
                max_tools=budget.max_tools if preset.max_tools is None else preset.max_tools,
                preset=preset.preset,
                source=preset.source,
            )
        elif text.isdigit() and int(text) > 0:
            if what == "budget":
                budget = attrs.evolve(budget, tokens=int(text))
            else:
                budget = attrs.evolve(budget, max_tools=int(text))
        else:
            names = ", ".join(PRESETS)
            raise ValueError(
                f"--{what} takes a positive number or a preset ({names}), not {given!r}"
            )
    return budget


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def near_duplicates(tools: Sequence[MCPToolDef]) -> list[tuple[str, str, float]]:
    """Pairs of tools whose descriptions are nearly the same, most similar first."""
    described = [(t.name, _words(t.description)) for t in tools]
    described = [(name, words) for name, words in described if len(words) >= MIN_WORDS]
    pairs: list[tuple[str, str, float]] = []
    for index, (name, words) in enumerate(described):
        for other, other_words in described[index + 1 :]:
            matcher = difflib.SequenceMatcher(None, words, other_words, autojunk=False)
            if matcher.real_quick_ratio() < SIMILAR or matcher.quick_ratio() < SIMILAR:
                continue
            ratio = matcher.ratio()
            if ratio >= SIMILAR:
                pairs.append((name, other, round(ratio, 3)))
    return sorted(pairs, key=lambda pair: -pair[2])


@attrs.frozen
class BudgetReport:
    """What the surface costs, and which gates it breaks."""

    per_tool: tuple[tuple[str, int], ...]
    instructions_tokens: int
    duplicates: tuple[tuple[str, str, float], ...]
    budget: Budget = attrs.field(factory=Budget)

    @property
    def total_tokens(self) -> int:
        return sum(tokens for _, tokens in self.per_tool) + self.instructions_tokens

    @property
    def tool_count(self) -> int:
        return len(self.per_tool)

    def breaches(self) -> list[str]:
        """One line per broken gate (empty when within budget)."""
        lines = []
        label = f" ({self.budget.preset})" if self.budget.preset else ""
        if self.budget.tokens is not None and self.total_tokens > self.budget.tokens:
            lines.append(
                f"tool surface is {self.total_tokens} tokens, over the budget of "
                f"{self.budget.tokens}{label}"
            )
        if self.budget.max_tools is not None and self.tool_count > self.budget.max_tools:
            lines.append(
                f"the server advertises {self.tool_count} tools, over the limit of "
                f"{self.budget.max_tools}{label}"
            )
        return lines


def measure(
    tools: Sequence[MCPToolDef], instructions: str | None, budget: Budget | None = None
) -> BudgetReport:
    """Token counts (largest tool first), near-duplicates, and the budget to check."""
    per_tool = sorted(
        ((tool.name, tool_definition_tokens(tool)) for tool in tools), key=lambda row: -row[1]
    )
    return BudgetReport(
        per_tool=tuple(per_tool),
        instructions_tokens=context_tokens(instructions or ""),
        duplicates=tuple(near_duplicates(tools)),
        budget=budget or Budget(),
    )
