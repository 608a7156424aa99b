"""The lines of text a sandbox file holds as it was written, read back from its own bytes.

A tool that finds, anchors on or replaces text inside a document (``target_text``,
``start_anchor``, ``old_string``) can only be judged when the text we send is surely there:
then "not found" is the tool's failure, not missing state. A fresh copy of a sandbox file
(:meth:`toolscore_mcp.sandbox.sandbox.Sandbox.fresh_copy`) holds exactly these lines, in
document order: a heading first, a closing line last. Plain text, Markdown and CSV give
their non-empty lines; a .docx its paragraphs, a .pptx its slides' paragraphs, a PDF the
strings its pages show. Other formats (spreadsheets, images, databases) give none.
"""

from __future__ import annotations

import functools
import io
import re
import zipfile
from html import unescape

from toolscore.lazy_pattern import lazy_pattern

from toolscore_mcp.sandbox.files import pristine_bytes

__all__ = ["known_lines"]

_TEXT_SUFFIXES = (".txt", ".md", ".csv")
_DOCX_PARAGRAPH = lazy_pattern(r"<w:p\b.*?</w:p>", re.S)
_DOCX_RUN_TEXT = lazy_pattern(r"<w:t\b[^>]*>(.*?)</w:t>", re.S)
_PPTX_PARAGRAPH = lazy_pattern(r"<a:p\b.*?</a:p>", re.S)
_PPTX_RUN_TEXT = lazy_pattern(r"<a:t\b[^>]*>(.*?)</a:t>", re.S)
_PPTX_SLIDE = lazy_pattern(r"^ppt/slides/slide(\d+)\.xml$")
_PDF_SHOWN = lazy_pattern(r"\(((?:[^()\\]|\\.)*)\)\s*Tj")
_PDF_ESCAPE = lazy_pattern(r"\\(.)")


@functools.cache
def known_lines(relative: str) -> tuple[str, ...]:
    """The lines the layout's file ``relative`` holds when fresh (``()`` when it has no
    text we can read back, or is no plain file of the layout)."""
    data = pristine_bytes(relative)
    if data is None:
        return ()
    suffix = relative[relative.rfind(".") :].lower() if "." in relative else ""
    if suffix in _TEXT_SUFFIXES:
        lines = data.decode("utf-8", "replace").splitlines()
    elif suffix == ".docx":
        lines = _paragraphs(_zip_text(data, ["word/document.xml"]), _DOCX_PARAGRAPH, _DOCX_RUN_TEXT)
    elif suffix == ".pptx":
        lines = _paragraphs(_zip_text(data, _slides(data)), _PPTX_PARAGRAPH, _PPTX_RUN_TEXT)
    elif suffix == ".pdf":
        shown = _PDF_SHOWN.finditer(data.decode("latin-1"))
        lines = [_PDF_ESCAPE.sub(r"\1", match.group(1)) for match in shown]
    else:
        return ()
    return tuple(line.strip() for line in lines if line.strip())


def _zip_text(data: bytes, names: list[str]) -> str:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return "".join(archive.read(name).decode("utf-8") for name in names)


def _slides(data: bytes) -> list[str]:
    """The slide parts of a .pptx, in slide order."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        numbered = [
            (int(match.group(1)), name)
            for name in archive.namelist()
            if (match := _PPTX_SLIDE.match(name))
        ]
    return [name for _, name in sorted(numbered)]


def _paragraphs(xml: str, paragraph: re.Pattern[str], run_text: re.Pattern[str]) -> list[str]:
    return [
        unescape("".join(run_text.findall(match.group(0)))) for match in paragraph.finditer(xml)
    ]
