"""toolscore-mcp's own extension points, added to the plugin manager when it loads.

Plugins implement these with :data:`toolscore.hookimpl`, like core's hooks::

    import toolscore
    from toolscore_mcp.lint import LintIssue, LintRuleSpec

    def _no_todo(tool, server):
        if "TODO" in tool.description:
            yield LintIssue(tool.name, "warning", "description contains TODO", "Finish the text.")

    @toolscore.hookimpl
    def toolscore_mcp_register_lint_rules():
        yield LintRuleSpec(name="no-todo", check=_no_todo, summary="TODO left in a description")
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from toolscore import hookspec

if TYPE_CHECKING:
    from toolscore_mcp.conformance import ConformanceCheckSpec
    from toolscore_mcp.lint import LintRuleSpec
    from toolscore_mcp.model import MCPToolDef, Scenario
    from toolscore_mcp.values.providers import ValueProviderSpec


@hookspec
def toolscore_mcp_register_lint_rules() -> Iterable[LintRuleSpec]:
    """Register lint rules run by ``toolscore mcp lint`` and ``toolscore mcp test``.

    Called once per plugin manager, the first time tools are linted. Every built-in rule
    comes through this hook too. A ``scope="tool"`` rule's ``check(tool, server)`` runs for
    each tool (issues are listed tool by tool, rules by ``order``); a ``scope="server"`` rule's
    ``check(server)`` runs once, after the per-tool rules, and sees every tool and the
    server instructions (``server.tools``, ``server.instructions``).

    :returns: An iterable of :class:`toolscore_mcp.lint.LintRuleSpec`; names must be unique.

    Example::

        @toolscore.hookimpl
        def toolscore_mcp_register_lint_rules():
            yield LintRuleSpec(name="no-todo", check=_no_todo)

    .. versionadded:: 0.1
    """
    return ()


@hookspec
def toolscore_mcp_extra_scenarios(tool: MCPToolDef) -> Iterable[Scenario]:
    """Add scenarios for a tool, after the generated happy-path and edge-case ones.

    Called once per tool by ``toolscore mcp test``. Happy scenarios count towards the
    happy-path pass rate, edge scenarios towards edge-case resilience.

    :param tool: The tool as the server advertised it.
    :returns: Extra scenarios (``Scenario(tool.name, arguments, "happy"|"edge", description)``).

    Example::

        @toolscore.hookimpl
        def toolscore_mcp_extra_scenarios(tool):
            if tool.name == "get_weather":
                yield Scenario(tool.name, {"city": "Paris"}, "happy", "known city")

    .. versionadded:: 0.1
    """
    return ()


@hookspec
def toolscore_mcp_register_value_providers() -> Iterable[ValueProviderSpec]:
    """Register value providers: where ``toolscore mcp test`` gets happy-path argument values.

    Called once per run. Each :class:`toolscore_mcp.values.providers.ValueProviderSpec` has a
    ``provide(parameter, context)`` callable that yields
    :class:`toolscore_mcp.values.providers.Candidate` values for one parameter, best first, with an
    evidence label (``source``). Providers are asked in descending ``priority``; the built-in
    ones use 80 (schema), 75 (discovered), 70 (description), 65 (harvested), 60 (meaning) and
    0 (generated). A candidate that breaks the parameter's schema is dropped. A provider that
    raises is skipped for that parameter, with a run note naming it.

    :returns: An iterable of ``ValueProviderSpec``; names must be unique.

    A plugin whose distribution name sorts before ``toolscore-mcp`` is registered before
    this hookspec exists: mark its implementation ``@toolscore.hookimpl(optionalhook=True)``.

    Example::

        @toolscore.hookimpl(optionalhook=True)
        def toolscore_mcp_register_value_providers():
            yield ValueProviderSpec("tickers", _tickers, priority=62)

    .. versionadded:: 0.2
    """
    return ()


@hookspec
def toolscore_mcp_register_conformance_checks() -> Iterable[ConformanceCheckSpec]:
    """Register protocol conformance checks run by ``toolscore mcp test`` (and, for those
    that need only the definitions, ``toolscore mcp lint``).

    Called once per run. Every built-in check comes through this hook too. A check's
    ``check(context)`` gets a :class:`toolscore_mcp.conformance.ConformanceContext` (the
    tools, the run's results, an open connection, the target) and returns findings; ``needs``
    says which of those it uses and ``since`` the protocol revision it applies from. Checks
    do not change the score; they are reported by name, with their fix.

    :returns: An iterable of :class:`toolscore_mcp.conformance.ConformanceCheckSpec`;
        names must be unique.

    Example::

        @toolscore.hookimpl(optionalhook=True)
        def toolscore_mcp_register_conformance_checks():
            yield ConformanceCheckSpec("titles", _every_tool_has_a_title, summary="...")

    .. versionadded:: 0.3
    """
    return ()
