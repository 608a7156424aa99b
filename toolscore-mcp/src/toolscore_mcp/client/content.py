"""Render MCP tool-result content as text, for details, reports and error detection."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["content_to_text"]


def _item_text(item: Mapping[str, Any]) -> str | None:
    kind = item.get("type")
    if kind == "text":
        return str(item.get("text", ""))
    if kind == "resource":
        resource = item.get("resource")
        if not isinstance(resource, Mapping):
            return None
        uri = resource.get("uri", "")
        if "text" in resource:
            return f"[resource {uri}]\n{resource.get('text', '')}"
        mime = resource.get("mimeType")
        return f"[binary resource {uri} ({mime})]" if mime else f"[binary resource {uri}]"
    if kind == "resource_link":
        return f"[resource link {item.get('uri', '')} {item.get('name', '') or ''}".rstrip() + "]"
    if kind == "image":
        return f"[image ({item.get('mimeType', '')})]"
    if kind == "audio":
        return "[audio]"
    return None


def content_to_text(content: Any) -> str:
    """Text of a ``content`` value: None -> "", a str as is, an error dict -> its message.

    A list is rendered item by item (text, resources, links, images, audio) and joined with
    newlines; unknown items are skipped.
    """
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, Mapping):
        message = content.get("message")
        return str(message) if message is not None else ""
    if isinstance(content, list):
        parts = [
            text
            for item in content
            if isinstance(item, Mapping) and (text := _item_text(item)) is not None
        ]
        return "\n".join(parts)
    return ""
