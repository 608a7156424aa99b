"""The exception hierarchy.

Every error toolscore raises on purpose derives from :class:`ToolscoreError`, so callers can
catch one type.  Errors that callers have always caught as builtin types (``ValueError``,
``TypeError``) keep that base too, so existing ``except ValueError`` code still works.
"""

from __future__ import annotations


class ToolscoreError(Exception):
    """Base class for errors raised by toolscore itself."""


class InputError(ToolscoreError, ValueError):
    """A user-supplied file or value is not what was expected.

    ``str(error)`` is one line: ``<file>: <json path>: <what was expected>``.
    """

    def __init__(self, message: str, *, source: str | None = None, path: str | None = None) -> None:
        self.source = source
        self.path = path
        self.detail = message
        parts = [p for p in (source, path) if p]
        super().__init__(": ".join([*parts, message]))


class GoldFileError(InputError):
    """A gold file (or the expected calls given to ``evaluate()``) is not valid: an unknown
    ``$`` matcher, an unknown step key, a bad ``repeat`` bound, a call without ``tool``, ...

    ``str(error)`` is one line: ``gold.json: $[1].max: expected an integer >= 1, got 0``.
    """


class OutputError(ToolscoreError, OSError):
    """An output file could not be written: ``cannot write <path>: <reason>``."""

    def __init__(self, path: object, reason: str) -> None:
        self.target = str(path)
        self.reason = reason
        super().__init__(f"cannot write {path}: {reason}")

    def __str__(self) -> str:
        return f"cannot write {self.target}: {self.reason}"


class MissingPluginError(ToolscoreError, LookupError):
    """A feature is provided by a distribution that is not installed."""


class PluginError(ToolscoreError):
    """Base class for plugin loading and registration problems."""


class PluginLoadError(PluginError):
    """A plugin failed to import or register (raised only in strict mode)."""


class PluginConflictError(PluginError):
    """Two plugins registered the same name for the same kind of thing."""


class PluginValidationError(PluginError):
    """A registration hook returned something that is not a valid spec."""
