"""The first-party table says what each distribution provides; each installed one really does.

Core's "pip install X" hints come from :data:`toolscore.first_party.FIRST_PARTY`. If a
distribution renamed a command or dropped a format, the hint would point at the wrong place:
this test loads each installed first-party distribution alone and compares.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, distribution

import click
import pytest
from toolscore.first_party import FIRST_PARTY, Provides, distribution_of_kind, provider_of
from toolscore.plugins import create_plugin_manager
from toolscore.plugins.manager import ToolscorePluginManager


def _installed(name: str) -> bool:
    try:
        distribution(name)
    except PackageNotFoundError:
        return False
    return True


def _alone(name: str, monkeypatch: pytest.MonkeyPatch) -> ToolscorePluginManager:
    """A manager with core's built-ins and only ``name``'s plugins, strictly loaded."""
    monkeypatch.delenv("TOOLSCORE_NO_PLUGINS", raising=False)
    monkeypatch.setenv("TOOLSCORE_LOAD_PLUGINS", name)
    return create_plugin_manager(strict=True)


@pytest.mark.parametrize("declared", FIRST_PARTY, ids=lambda p: p.distribution)
def test_each_installed_distribution_provides_what_the_table_says(
    declared: Provides, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not _installed(declared.distribution):
        pytest.skip(f"{declared.distribution} is not installed")
    pm = _alone(declared.distribution, monkeypatch)
    builtins = create_plugin_manager(load_entrypoints=False)

    group = click.Group("toolscore")
    pm.register_commands(group)
    assert set(declared.commands) <= set(group.commands)

    extractors = pm.get_extractors()
    formats = {alias for name in extractors.names() for alias in (name, *extractors[name].aliases)}
    own_formats = set(declared.formats) - set(builtins.get_extractors().names())
    assert own_formats <= formats
    functions = {extractors[name].function_name for name in extractors.names()}
    assert set(declared.functions) <= functions

    judges = pm.get_judges()
    assert set(declared.judges) <= set(judges.names())
    for name in declared.judges:
        load = judges[name].config_type
        assert load is not None, f"judge {name!r} declares no config_type"
        assert isinstance(load(), type)

    assert set(declared.executors) <= set(pm.get_executors().names())


def test_lookups_follow_the_table() -> None:
    assert provider_of("commands", "mcp") == "toolscore-mcp"
    assert provider_of("commands", "eval") is None
    assert provider_of("formats", "OpenAI-Responses") == "toolscore-providers"
    assert provider_of("functions", "from_gemini") == "toolscore-providers"
    assert provider_of("executors", "dask") == "toolscore-dask"
    assert distribution_of_kind("judges") == "toolscore-judge"
    with pytest.raises(ValueError, match="unknown kind"):
        provider_of("widgets", "x")


def test_every_name_is_declared_by_one_distribution_only() -> None:
    for kind in Provides._fields[1:]:
        names = [name for declared in FIRST_PARTY for name in getattr(declared, kind)]
        assert len(names) == len(set(names)), kind
