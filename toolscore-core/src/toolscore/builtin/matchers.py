"""Core's argument matchers as a plugin: one :class:`~toolscore.specs.MatcherSpec` each.

They register through the same hook as third-party matchers, so ``toolscore plugins list
--all`` shows them and a plugin can add its own ``$`` form next to them.
"""

from __future__ import annotations

from collections.abc import Iterator

from toolscore._markers import hookimpl
from toolscore.specs import MatcherSpec


def _any() -> object:
    from toolscore.matching.matchers import ANY

    return ANY


@hookimpl
def toolscore_register_matchers() -> Iterator[MatcherSpec]:
    """ANY, Regex, Approx, Contains, OneOf and IsType with their JSON forms."""
    from toolscore.matching import matchers as m

    forms = m.builtin_json_forms()
    yield MatcherSpec(
        name="any",
        factory=_any,
        summary="matches every value",
        json_key="$any",
        from_json=forms["$any"],
    )
    yield MatcherSpec(
        name="regex",
        factory=m.Regex,
        summary="full regular-expression match of a string",
        json_key="$regex",
        from_json=forms["$regex"],
    )
    yield MatcherSpec(
        name="approx",
        factory=m.Approx,
        summary="a number within a relative/absolute tolerance",
        json_key="$approx",
        from_json=forms["$approx"],
    )
    yield MatcherSpec(
        name="contains",
        factory=m.Contains,
        summary="an item in a string, list, set or dict",
        json_key="$contains",
        from_json=forms["$contains"],
    )
    yield MatcherSpec(
        name="one_of",
        factory=m.OneOf,
        summary="equal to one of several values",
        json_key="$one_of",
        from_json=forms["$one_of"],
    )
    yield MatcherSpec(
        name="is_type",
        factory=m.IsType,
        summary="an instance of the given types (bools apart)",
        json_key="$type",
        from_json=forms["$type"],
    )
