"""Make text from data safe to print on a terminal: control characters are shown, not obeyed.

Why: tool names, MCP tool descriptions and answers, snapshot names and plugin errors come from
agents, servers and files we do not control. Printed raw, an escape sequence can clear the
screen, rewrite earlier lines (a forged PASS), plant an OSC-8 link or change the window title;
a bidi override (U+202E) makes text read differently from what it is; NUL bytes and C1
controls confuse terminals and log viewers. :func:`visible` turns each such character into its
escape (``\\x1b``, ``\\x00``, ``\\u202e``), so the reader sees that it was there and the
terminal does nothing.

:func:`shown` is what commands call on data: redacted first (:mod:`toolscore.redaction`),
then made visible. :func:`shown_markup` also escapes rich markup, for text put into a rich
markup string (``[bold]`` in a tool name must stay text).
"""

from __future__ import annotations

__all__ = ["shown", "shown_markup", "visible"]

#: Bidirectional-text controls and invisible separators that make text display differently
#: from its content (Trojan Source), plus the Unicode line and paragraph separators.
_INVISIBLE = (
    0x061C,  # Arabic letter mark
    0x200B,  # zero width space
    0x200E,  # left-to-right mark
    0x200F,  # right-to-left mark
    *range(0x202A, 0x202F),  # LRE, RLE, PDF, LRO, RLO
    *range(0x2066, 0x206A),  # LRI, RLI, FSI, PDI
    0x2028,  # line separator
    0x2029,  # paragraph separator
    0xFEFF,  # zero width no-break space (BOM)
)


def _escape_of(code: int) -> str:
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _table(*, keep_newlines: bool, keep_tabs: bool) -> dict[int, str]:
    # Lone surrogates (a JSON "\ud800" decodes to one) cannot be encoded for any output.
    codes = [*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0), *_INVISIBLE, *range(0xD800, 0xE000)]
    table = {code: _escape_of(code) for code in codes}
    table[ord("\n")] = "\n" if keep_newlines else "\\n"
    table[ord("\t")] = "\t" if keep_tabs else "\\t"
    table[ord("\r")] = "\\r"  # a lone CR moves the cursor back over what was printed
    return table


_MULTI_LINE = _table(keep_newlines=True, keep_tabs=True)
_ONE_LINE = _table(keep_newlines=False, keep_tabs=False)


def visible(text: str, *, one_line: bool = False) -> str:
    """``text`` with every control, escape and bidi character shown as its escape code.

    ESC (so CSI and OSC-8 sequences), BEL, NUL, backspace, DEL, C1 controls (U+0080–U+009F),
    bidi overrides, invisible separators and lone surrogates become ``\\x1b``, ``\\x07``,
    ``\\u202e``, ``\\ud800``…; a
    carriage return becomes ``\\r``. Newlines and tabs are kept for multi-line text and shown
    as ``\\n`` and ``\\t`` with ``one_line=True`` (table cells, names, one-line messages).
    """
    return text.translate(_ONE_LINE if one_line else _MULTI_LINE)


def shown(text: object, *, one_line: bool = False) -> str:
    """``text`` (or ``str(text)``) ready for a terminal: credentials redacted, then
    :func:`visible`. Redaction goes first: it must see the text as it was recorded."""
    from toolscore.redaction import redact

    return visible(redact(str(text)), one_line=one_line)


def shown_markup(text: object, *, one_line: bool = False) -> str:
    """:func:`shown`, then escaped for a rich markup string, so ``[bold]`` in data stays text."""
    from rich.markup import escape

    return escape(shown(text, one_line=one_line))
