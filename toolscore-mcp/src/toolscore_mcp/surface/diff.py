"""Classify what changed between two tool surfaces (a lock and a lock, or a lock and a
live server).

* **breaking** — a call that worked before can fail now: a tool removed, a parameter
  removed, a new required parameter (or an optional one made required), a type narrowed or
  changed, an enum value removed.
* **risky** — nothing breaks, but what the model is told changed: a tool's or a parameter's
  description (a possible poisoning or rug pull, shown as a word diff), annotations, the
  output schema, or constraints such as patterns and bounds.
* **compatible** — a tool added, an optional parameter added, a type widened, an enum value
  added.

Each change has a stable fingerprint (tool, kind of change, where), so code scanning tracks
it across runs (SARIF ``partialFingerprints``).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator, Mapping
from typing import Any, Literal

import attrs

__all__ = ["SurfaceChange", "diff_surfaces", "word_diff"]

Kind = Literal["breaking", "risky", "compatible"]
KIND_ORDER: tuple[Kind, ...] = ("breaking", "risky", "compatible")
#: Schema keywords compared on their own (the rest counts as "constraints").
_STRUCTURAL = frozenset({"type", "properties", "required", "enum", "description", "items", "title"})


@attrs.frozen
class SurfaceChange:
    """One change to one tool."""

    tool: str
    kind: Kind
    #: ``tool-removed``, ``tool-added``, ``parameter-removed``, ``required-added``,
    #: ``type-narrowed``, ``type-changed``, ``type-widened``, ``enum-value-removed``,
    #: ``enum-value-added``, ``parameter-added``, ``description-changed``,
    #: ``annotations-changed``, ``output-schema-changed``, ``constraints-changed``,
    #: ``title-changed``.
    code: str
    message: str
    #: Where in the definition (``inputSchema.properties.city``), "" for the tool itself.
    path: str = ""
    #: The word diff of a changed description.
    detail: str = ""

    def to_dict(self) -> dict[str, str]:
        """The change as the JSON reports write it (``word_diff`` is :attr:`detail`)."""
        return {
            "tool": self.tool,
            "kind": self.kind,
            "code": self.code,
            "message": self.message,
            "path": self.path,
            "word_diff": self.detail,
            "fingerprint": self.fingerprint,
        }

    @property
    def fingerprint(self) -> str:
        import hashlib  # only diffs need it, and it costs milliseconds to import

        key = "\0".join((self.tool, self.code, self.path))
        # surrogatepass: a lone surrogate in a tool name hashes instead of crashing.
        return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def word_diff(old: str, new: str) -> str:
    """``[-removed-]{+added+}`` between the two texts, word by word."""
    a, b = old.split(), new.split()
    out: list[str] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            out.extend(a[i1:i2])
            continue
        if i2 > i1:
            out.append("[-" + " ".join(a[i1:i2]) + "-]")
        if j2 > j1:
            out.append("{+" + " ".join(b[j1:j2]) + "+}")
    return " ".join(out)


def _types(schema: Mapping[str, Any]) -> set[str]:
    kind = schema.get("type")
    if isinstance(kind, str):
        found = {kind}
    elif isinstance(kind, list):
        found = {str(k) for k in kind}
    else:
        return set()
    if "number" in found:
        found.add("integer")  # a number accepts integers
    return found


def _schema_changes(tool: str, old: Any, new: Any, path: str) -> Iterator[SurfaceChange]:
    if not isinstance(old, Mapping) or not isinstance(new, Mapping):
        if old != new:
            yield SurfaceChange(tool, "breaking", "type-changed", f"{path} changed shape", path)
        return
    old_desc, new_desc = str(old.get("description") or ""), str(new.get("description") or "")
    if old_desc != new_desc:
        yield SurfaceChange(
            tool, "risky", "description-changed", f"description of {path} changed", path,
            word_diff(old_desc, new_desc),
        )  # fmt: skip
    old_types, new_types = _types(old), _types(new)
    if old_types and new_types and old_types != new_types:
        if new_types < old_types:
            yield SurfaceChange(
                tool, "breaking", "type-narrowed",
                f"{path} narrowed from {sorted(old_types)} to {sorted(new_types)}", path,
            )  # fmt: skip
        elif new_types > old_types:
            yield SurfaceChange(
                tool, "compatible", "type-widened",
                f"{path} widened from {sorted(old_types)} to {sorted(new_types)}", path,
            )  # fmt: skip
        else:
            yield SurfaceChange(
                tool, "breaking", "type-changed",
                f"{path} changed type from {sorted(old_types)} to {sorted(new_types)}", path,
            )  # fmt: skip
    old_enum, new_enum = old.get("enum"), new.get("enum")
    if isinstance(old_enum, list) and isinstance(new_enum, list):
        removed = [v for v in old_enum if v not in new_enum]
        added = [v for v in new_enum if v not in old_enum]
        if removed:
            yield SurfaceChange(
                tool, "breaking", "enum-value-removed",
                f"{path} no longer accepts {', '.join(map(repr, removed))}", path,
            )  # fmt: skip
        if added:
            yield SurfaceChange(
                tool, "compatible", "enum-value-added",
                f"{path} now also accepts {', '.join(map(repr, added))}", path,
            )  # fmt: skip
    elif isinstance(new_enum, list) and old_enum is None:
        yield SurfaceChange(
            tool, "breaking", "type-narrowed", f"{path} is now limited to an enum", path
        )
    yield from _properties(tool, old, new, path)
    if "items" in old or "items" in new:
        yield from _schema_changes(
            tool, old.get("items", {}), new.get("items", {}), f"{path}.items"
        )
    old_rest = {k: v for k, v in old.items() if k not in _STRUCTURAL}
    new_rest = {k: v for k, v in new.items() if k not in _STRUCTURAL}
    if old_rest != new_rest:
        keys = sorted(
            k for k in set(old_rest) | set(new_rest) if old_rest.get(k) != new_rest.get(k)
        )
        yield SurfaceChange(
            tool, "risky", "constraints-changed", f"{path} changed {', '.join(keys)}", path
        )


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _properties(
    tool: str, old: Mapping[str, Any], new: Mapping[str, Any], path: str
) -> Iterator[SurfaceChange]:
    old_props = _mapping(old.get("properties"))
    new_props = _mapping(new.get("properties"))
    old_req = set(old.get("required") or []) if isinstance(old.get("required"), list) else set()
    new_req = set(new.get("required") or []) if isinstance(new.get("required"), list) else set()
    for name in old_props:
        if name not in new_props:
            yield SurfaceChange(
                tool, "breaking", "parameter-removed", f"parameter {name!r} was removed",
                f"{path}.properties.{name}",
            )  # fmt: skip
    for name in new_props:
        where = f"{path}.properties.{name}"
        if name not in old_props:
            if name in new_req:
                yield SurfaceChange(
                    tool, "breaking", "required-added",
                    f"new required parameter {name!r}", where,
                )  # fmt: skip
            else:
                yield SurfaceChange(
                    tool, "compatible", "parameter-added",
                    f"new optional parameter {name!r}", where,
                )  # fmt: skip
            continue
        if name in new_req and name not in old_req:
            yield SurfaceChange(
                tool, "breaking", "required-added", f"parameter {name!r} is now required", where
            )
        yield from _schema_changes(tool, old_props[name], new_props[name], where)


def _tool_changes(
    name: str, old: Mapping[str, Any], new: Mapping[str, Any]
) -> Iterator[SurfaceChange]:
    old_desc, new_desc = str(old.get("description") or ""), str(new.get("description") or "")
    if old_desc != new_desc:
        yield SurfaceChange(
            name, "risky", "description-changed",
            "tool description changed (review it: a changed description can carry new "
            "instructions to the model)", "description", word_diff(old_desc, new_desc),
        )  # fmt: skip
    if old.get("title") != new.get("title"):
        yield SurfaceChange(
            name, "risky", "title-changed",
            f"title changed from {old.get('title')!r} to {new.get('title')!r}", "title",
        )  # fmt: skip
    if old.get("annotations") != new.get("annotations"):
        yield SurfaceChange(
            name, "risky", "annotations-changed",
            f"annotations changed from {old.get('annotations')} to {new.get('annotations')}",
            "annotations",
        )  # fmt: skip
    if old.get("outputSchema") != new.get("outputSchema"):
        yield SurfaceChange(
            name, "risky", "output-schema-changed", "outputSchema changed", "outputSchema"
        )
    yield from _schema_changes(
        name, old.get("inputSchema") or {}, new.get("inputSchema") or {}, "inputSchema"
    )


def diff_surfaces(
    old: Mapping[str, Mapping[str, Any]], new: Mapping[str, Mapping[str, Any]]
) -> list[SurfaceChange]:
    """Every change from ``old`` to ``new`` (tool name -> normalized definition), breaking
    first, then by tool."""
    changes: list[SurfaceChange] = []
    for name in old:
        if name not in new:
            changes.append(SurfaceChange(name, "breaking", "tool-removed", "tool was removed"))
    for name in new:
        if name not in old:
            changes.append(SurfaceChange(name, "compatible", "tool-added", "tool was added"))
        elif old[name] != new[name]:
            changes.extend(_tool_changes(name, old[name], new[name]))
    return sorted(changes, key=lambda c: (KIND_ORDER.index(c.kind), c.tool, c.path, c.code))
