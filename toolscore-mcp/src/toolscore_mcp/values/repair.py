"""Read a rejected call's hint and fix the arguments, as a person would before trying again.

"Expected HH:MM", "must point to an .xlsx file", "outside the allowed repository '/x'",
"Supported: (a, b)", "cannot specify both head and tail", "unexpected keyword argument 'x'",
"'x' is required": each names what to change. :func:`repair_arguments` returns the changed
arguments and a one-line account of the change, or None when the hint says nothing we can
act on. The caller bounds the tries (three per tool).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from toolscore.lazy_pattern import lazy_pattern

from toolscore_mcp.values.builtin_providers import FORMAT_HINTS
from toolscore_mcp.values.exists_repair import repair_taken_name
from toolscore_mcp.values.json_text_repair import repair_json_text
from toolscore_mcp.values.meaning import path_kind, wants_new_path
from toolscore_mcp.values.nested_repair import repair_nested_missing, repair_quoted_value
from toolscore_mcp.values.reference_repair import repair_range_cells, repair_reference
from toolscore_mcp.values.synthesizer import ToolSynthesizer

__all__ = ["repair_arguments"]

_QUOTED = lazy_pattern(r"[\"'`]([^\"'`\n]{1,200})[\"'`]")
_OPTIONS = lazy_pattern(
    r"(?:one of|supported(?: values| options| formats)?|valid (?:\w+ )?(?:values|options|choices"
    r"|types|kinds|modes|operations)(?: are)?|allowed(?: values)?(?: are)?|available(?: \w+){0,3}"
    r"|expected|options(?: are)?|choose from|must be|\buse)"
    r"\s*[:=]?\s*[\[({]?\s*((?:[\"'`]?[\w./+-]+[\"'`]?\s*(?:,\s*(?:or\b)?|\||\bor\b)\s*)+"
    r"[\"'`]?[\w./+-]+[\"'`]?)",
    re.I,
)
_EXTENSION = lazy_pattern(
    r"(?<![\w/])\.(xlsx|xlsm|xls|csv|json|md|txt|png|jpe?g|db|sqlite|html?|ya?ml|docx|pptx|pdf)\b",
    re.I,
)
_ABS_PATH = lazy_pattern(r"(?:^|[\s\"'`(\[:,])(/[^\s\"'`)\],;]+)")
_BOTH = lazy_pattern(
    r"\bboth\b|only one of|mutually exclusive|cannot be used together|not both", re.I
)
_UNEXPECTED = lazy_pattern(
    r"unexpected (?:keyword )?argument|unrecognized (?:key|argument|field|parameter)|"
    r"additional propert|unknown (?:argument|parameter|field|property|key|option)|not permitted|"
    r"extra (?:fields|inputs?) (?:are )?not (?:permitted|allowed)",
    re.I,
)
_EITHER = lazy_pattern(r"\beither\b", re.I)
_MISSING = lazy_pattern(r"required|missing|must (?:be )?(?:provided|specified|given)", re.I)
_MISSING_PATH = lazy_pattern(r"does not exist|not found|no such file|enoent", re.I)
_NOT_REPO = lazy_pattern(r"not a git repository|not a repository|no repository", re.I)
_IS_DIR = lazy_pattern(r"is a directory|eisdir|expected a file|must be a file|not a file", re.I)
_NOT_DIR = lazy_pattern(r"not a directory|enotdir|must be a directory|expected a directory", re.I)
_OUTSIDE = lazy_pattern(
    r"outside|not (?:with)?in (?:the )?allowed|allowed (?:directories|roots|paths|repository)"
    r"|access denied|not allowed|permission",
    re.I,
)
_NUMBER = lazy_pattern(
    r"must be (?:an? )?(?:integer|number|int|float|numeric)|not a (?:valid )?number", re.I
)


def _named(text: str, arguments: Mapping[str, Any], properties: Mapping[str, Any]) -> list[str]:
    lowered = text.lower()
    return [
        name
        for name in properties
        if re.search(rf"(?<![\w]){re.escape(name.lower())}(?![\w])", lowered)
    ]


def repair_arguments(
    synthesizer: ToolSynthesizer, arguments: Mapping[str, Any], text: str
) -> tuple[dict[str, Any], str] | None:
    """New arguments that follow the hint in ``text``, and what was changed; or None."""
    props = synthesizer.properties
    named = list(dict.fromkeys([*_quoted_values(text, arguments), *_named(text, arguments, props)]))
    for rule in (_drop_conflicts, _drop_unexpected, _add_missing, _drop_named_items,
                 repair_json_text, repair_reference, repair_range_cells, repair_taken_name, _learned,
                 _paths, _a_file_after_all, _options, repair_quoted_value, repair_nested_missing,
                 _identifier, _formats, _numbers, _drop_guesses, _next_candidate):  # fmt: skip
        fixed = rule(synthesizer, dict(arguments), text, named)
        if (
            fixed is not None
            and fixed[0] != dict(arguments)
            and _still_valid(synthesizer, arguments, fixed[0])
        ):
            return dict(fixed[0]), str(fixed[1])
    return None


def _quoted_values(text: str, arguments: Mapping[str, Any]) -> list[str]:
    """The arguments whose value the message quotes ("Path '/x' must point to an image"
    blames the argument that was ``/x``, whatever word it calls it)."""
    quoted = {q.strip() for q in _QUOTED.findall(text)}
    return [
        name
        for name, value in arguments.items()
        if isinstance(value, str) and len(value) > 1 and value.strip() in quoted
    ]


def _still_valid(
    synthesizer: ToolSynthesizer, before: Mapping[str, Any], after: Mapping[str, Any]
) -> bool:
    """Every value the repair changed or added still fits its schema and its meaning: a path
    parameter never gets a word from the message, a hash never a path."""
    from toolscore_mcp.values.meaning import fits_meaning

    for name, value in after.items():
        if name in before and before[name] == value:
            continue
        if name not in synthesizer.properties:
            continue
        if not synthesizer._valid_value(name, value):
            return False
        if not fits_meaning(synthesizer.parameter(name), value):
            return False
    return True


def _optional(synthesizer: ToolSynthesizer, name: str) -> bool:
    return name not in synthesizer.required


_USE_INSTEAD = lazy_pattern(r"\buse ([\w, ]{1,80}?)(?: parameters?| arguments?)? instead\b", re.I)


def _drop_conflicts(s: ToolSynthesizer, args: dict[str, Any], text: str, named: list[str]) -> Any:
    instead = _USE_INSTEAD.search(text)
    if instead is not None:
        # "... not supported for text files, use old_string and new_string instead": keep
        # those, leave out the other optional arguments the message names.
        wanted = set(re.findall(r"\w+", instead.group(1)))
        extra = [n for n in named if n in args and n not in wanted and _optional(s, n)]
        if wanted & set(args) and extra:
            for name in extra:
                args.pop(name)
            return args, f"dropped {', '.join(extra)} (the server asks for {instead.group(1)})"
    if not _BOTH.search(text):
        return None
    droppable = [n for n in named if n in args and _optional(s, n)]
    if len(named) >= 2 and droppable:
        keep = [n for n in named if n in args and n not in droppable[-1:]]
        for name in droppable[-1:] if keep else droppable[1:]:
            args.pop(name, None)
        return (
            args,
            f"dropped {', '.join(sorted(set(named) - set(args)))} (the server allows only one)",
        )
    return None


def _drop_unexpected(s: ToolSynthesizer, args: dict[str, Any], text: str, named: list[str]) -> Any:
    if not _UNEXPECTED.search(text):
        return None
    quoted = [q for q in _QUOTED.findall(text) if q in args]
    victims = [n for n in (quoted or named) if n in args and _optional(s, n)]
    if not victims:
        return None
    for name in victims:
        del args[name]
    return args, f"dropped {', '.join(victims)} (the server does not accept it)"


def _add_missing(s: ToolSynthesizer, args: dict[str, Any], text: str, named: list[str]) -> Any:
    if not _MISSING.search(text) and not [n for n in named if n not in args]:
        return None
    added: list[str] = []
    # "Pass either source or series, not both": one of them (two names, one each; a message
    # naming groups, "(old + new) or (range + content)", gets them all, as before).
    missing = [name for name in named if name not in args]
    one = bool(_BOTH.search(text) or _EITHER.search(text)) and len(missing) == 2
    for name in named:
        if name not in args and not (one and added):
            options = s.candidates(name)
            if options:
                args[name] = options[0].value
                added.append(name)
    return (args, f"added {', '.join(added)} (the server requires it)") if added else None


def _path_params(s: ToolSynthesizer, args: Mapping[str, Any], named: list[str]) -> list[str]:
    names = [n for n in named if n in args] or list(args)
    return [n for n in names if path_kind(s.parameter(n)) is not None]


def _item_strings(item: Any, depth: int = 0) -> list[str]:
    if isinstance(item, str):
        return [item] if len(item.strip()) >= 3 else []
    if depth < 3 and isinstance(item, Mapping):
        return [text for value in item.values() for text in _item_strings(value, depth + 1)]
    if depth < 3 and isinstance(item, list):
        return [text for value in item for text in _item_strings(value, depth + 1)]
    return []


def _drop_named_items(s: ToolSynthesizer, args: dict[str, Any], text: str, named: list[str]) -> Any:
    """The message names a value inside one item of a list ("Entity with name Bob not
    found"): leave that item out, as long as the list keeps the items its schema asks for."""
    for name, value in args.items():
        if not isinstance(value, list) or len(value) < 2:
            continue
        kept = [item for item in value if not any(t in text for t in _item_strings(item))]
        schema = s.properties.get(name)
        least = schema.get("minItems", 1) if isinstance(schema, Mapping) else 1
        if len(value) > len(kept) >= max(1, least if isinstance(least, int) else 1):
            args[name] = kept
            return args, f"{name}: left out the item(s) the message names"
    return None


def _learned(s: ToolSynthesizer, args: dict[str, Any], text: str, named: list[str]) -> Any:
    """A value an earlier repair of this run got accepted for a parameter of this name (the
    server's own kind of file, an allowed folder): it holds for every tool of the server."""
    learned = getattr(s.context, "learned", None) or {}
    listed = _listed_options(text)
    for name in [n for n in named if n in args] or [n for n in args if n in s.required]:
        value = learned.get(name)
        if listed and value not in listed:
            continue  # the message lists what this tool takes, and that is not among them
        if value is not None and value != args[name]:
            args[name] = value
            return args, f"{name} -> {value!r} (accepted earlier in this run)"
    return None


def _paths(s: ToolSynthesizer, args: dict[str, Any], text: str, named: list[str]) -> Any:
    sandbox = s.context.sandbox
    targets = _path_params(s, args, named)
    if sandbox is None or not targets:
        return None
    name = targets[0]
    many = isinstance(args[name], list)
    value: str | None = None
    why = ""
    extensions = ["." + m.lower() for m in _EXTENSION.findall(text)]
    existing = [e for e in extensions if sandbox.file_with_extension(e) is not None]
    extension = (existing or extensions or [None])[0]
    if _NOT_REPO.search(text):
        value, why = str(sandbox.root / "repo"), "a git repository"
    elif extension and re.search(r"must|expected|only|support|require|invalid|not a", text, re.I):
        ext = extension
        found = sandbox.file_with_extension(ext)
        wants_new = wants_new_path(s.parameter(name))
        try:
            value = str(sandbox.new_path("toolscore", ext) if wants_new or found is None else found)
        except ValueError:  # scratch/ leads outside the sandbox: no repair
            return None
        why = f"a {ext} file"
    elif _MISSING_PATH.search(text) and (
        own := _own_kind(sandbox, str(args[name] if not many else args[name][0]), text)
    ):
        # "Document notes.txt.docx does not exist": the server looks for its own kind of file.
        if wants_new_path(s.parameter(name)):
            return None
        value, why = str(sandbox.file_with_extension(own)), f"a {own} file"
    elif (
        _MISSING_PATH.search(text)
        and not Path(str(args[name] if not many else args[name][0])).exists()
    ):
        previous = Path(str(args[name] if not many else args[name][0]))
        found = sandbox.file_with_extension(previous.suffix) if previous.suffix else None
        if found is not None:
            value, why = str(found), "an existing file of that kind"
    elif _IS_DIR.search(text):
        value, why = str(sandbox.root / "notes.txt"), "a file, not a directory"
    elif _NOT_DIR.search(text):
        value, why = str(sandbox.root), "a directory"
    elif _OUTSIDE.search(text):
        allowed = [
            p for p in _ABS_PATH.findall(text) if p.rstrip("/.") not in map(str, args.values())
        ]
        inside = [p for p in allowed if _inside(sandbox, p)]
        choice = (inside or (allowed if s.role == "reader" else []))[:1]
        if choice:
            value, why = (
                _within(choice[0].rstrip(".,"), args[name] if not many else args[name][0]),
                "inside the allowed root",
            )
    if value is None:
        return None
    args[name] = [value] if many else value
    return args, f"{name} -> {value} ({why})"


_FILE_MISSING = lazy_pattern(
    r"\bfile (?:not found|does not exist|doesn't exist|is missing)|no such file", re.I
)


def _a_file_after_all(s: ToolSynthesizer, args: dict[str, Any], text: str, named: list[str]) -> Any:
    """ "Image file not found: sample_image_source": a parameter whose name did not say so
    takes a file, and the message says of which kind. The sandbox's file of that kind."""
    sandbox = s.context.sandbox
    if sandbox is None or not _FILE_MISSING.search(text):
        return None
    from toolscore_mcp.values.meaning import extensions_in

    for name, value in args.items():
        if not isinstance(value, str) or len(value) < 3 or value not in text or "/" in value:
            continue
        for extension in extensions_in(text):
            found = sandbox.file_with_extension(extension)
            if found is not None:
                args[name] = str(found)
                return args, f"{name} -> {found} (a {extension} file, as the message says)"
    return None


def _own_kind(sandbox: Any, sent: str, text: str) -> str | None:
    """The extension of the path a "not found" message names when the server made it from
    ours by adding its own (``notes.txt`` -> ``notes.txt.docx``), if the sandbox has such a
    file; else None."""
    for path in _ABS_PATH.findall(text):
        suffix = Path(path.rstrip(".,;:'\"")).suffix.lower()
        if path.startswith(sent) and suffix and suffix != Path(sent).suffix.lower():
            return suffix if sandbox.file_with_extension(suffix) is not None else None
    return None


_IDENTIFIER_RULE = lazy_pattern(
    r"only (?:use )?(?:letters|alphanumeric)|(?:letters|alphanumerics?), (?:digits|numbers)"
    r"|no (?:spaces|hyphens|dashes|special characters)|valid identifier",
    re.I,
)


def _identifier(s: ToolSynthesizer, args: dict[str, Any], text: str, named: list[str]) -> Any:
    """ "Start with a letter ... use only letters, digits, underscores": the named value made
    into an identifier (``toolscore-item-2`` -> ``toolscore_item_2``)."""
    if not _IDENTIFIER_RULE.search(text):
        return None
    for name in named:
        value = args.get(name)
        if not isinstance(value, str) or not value:
            continue
        fixed = re.sub(r"\W", "_", value)
        fixed = fixed if fixed[0].isalpha() or fixed[0] == "_" else f"t_{fixed}"
        if fixed != value:
            args[name] = fixed
            return args, f"{name} -> {fixed!r} (an identifier, as the message asks)"
    return None


def _inside(sandbox: Any, path: str) -> bool:
    try:
        return bool(sandbox.contains(path))
    except Exception:
        return False


def _within(root: str, previous: Any) -> str:
    """Keep the file name we meant, under the allowed root, when that root is a directory."""
    name = Path(str(previous)).name
    candidate = Path(root) / name
    return str(candidate) if name and candidate.exists() else root


def _listed_options(text: str) -> list[str]:
    """The options a message lists ("Must be 'add' or 'enhance'", "Available shape types:
    arrow, cloud"), or []."""
    match = _OPTIONS.search(text)
    if not match:
        return []
    options = [o.strip("\"'` ") for o in re.split(r"\s*(?:,|\||\bor\b)\s*", match.group(1))]
    return [o for o in options if o]


def _options(s: ToolSynthesizer, args: dict[str, Any], text: str, named: list[str]) -> Any:
    options = _listed_options(text)
    if not options:
        return None
    targets = [n for n in named if n in args and isinstance(args[n], str)]
    if not targets:
        targets = [n for n in args if isinstance(args[n], str) and s.candidates(n) and
                   s.candidates(n)[0].source not in ("schema", "scenario-file", "recorded")]  # fmt: skip
    for name in targets[:1]:
        for option in options:
            if option != args[name]:
                args[name] = option
                return args, f"{name} -> {option!r} (an option the server listed)"
    return None


def _formats(s: ToolSynthesizer, args: dict[str, Any], text: str, named: list[str]) -> Any:
    for pattern, value in FORMAT_HINTS:
        if pattern.search(text):
            targets = [n for n in named if n in args and isinstance(args[n], str)]
            for name in targets[:1]:
                if args[name] != value:
                    args[name] = value
                    return args, f"{name} -> {value!r} (the format the server asked for)"
    return None


def _numbers(s: ToolSynthesizer, args: dict[str, Any], text: str, named: list[str]) -> Any:
    if not _NUMBER.search(text):
        return None
    for name in named:
        if name in args and not isinstance(args[name], (int, float)):
            args[name] = 1
            return args, f"{name} -> 1 (the server wants a number)"
    return None


def _drop_guesses(s: ToolSynthesizer, args: dict[str, Any], text: str, named: list[str]) -> Any:
    """After every other rule, when the message blames none of our guesses by name: leave
    out the optional values nothing vouched for (the schema-driven generator made them up:
    a ``replace`` naming a chart that is not there, a ``filter`` matching nothing)."""

    def guess(name: str) -> bool:
        value = args.get(name)
        return not isinstance(value, bool) and any(
            c.source == "generated" and c.value == value for c in s.candidates(name)
        )

    if any(guess(name) for name in named if name in args):
        return None  # the next candidate of the value it names
    guessed = [name for name in args if name not in s.required and guess(name)]
    for name in guessed:
        del args[name]
    return (args, f"dropped {', '.join(guessed)} (made-up optional values)") if guessed else None


def _next_candidate(s: ToolSynthesizer, args: dict[str, Any], text: str, named: list[str]) -> Any:
    """No specific hint: try the next candidate of the argument the message names.

    A message that names no argument never changes a path: a path the server had a problem
    with is one it names ("Path '/x' must point to ..."); "A1 holds no formula" is about
    what is in the file, and another file would only be refused for its kind."""
    unnamed = [n for n in args if n in s.required and path_kind(s.parameter(n)) is None]
    for name in named or unnamed:
        if name not in args:
            continue
        for candidate in s.candidates(name):
            if candidate.value != args[name] and candidate.source != "generated":
                args[name] = candidate.value
                return args, f"{name} -> {candidate.value!r} (next candidate, {candidate.source})"
    return None
