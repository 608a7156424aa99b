"""A real ``mcp`` SDK server on stdio whose own OpenTelemetry spans go to a file.

The SDK instruments the server (one ``tools/call <tool>`` SERVER span per call); this script
installs an SDK tracer provider whose exporter appends each finished span, as
``ReadableSpan.to_json()``, one per line, to the file named by ``TOOLSCORE_SPANS_OUT``. Tools:
``add`` answers, ``explode`` fails (a tool error). Runs on either major of the ``mcp`` SDK.
"""

import json
import os
from collections.abc import Sequence

from opentelemetry import trace
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor, SpanExporter, SpanExportResult

try:
    from mcp.server.mcpserver import MCPServer
except ImportError:  # mcp 1.x
    from mcp.server.fastmcp import FastMCP as MCPServer


class _LinesExporter(SpanExporter):
    def __init__(self, path: str) -> None:
        self.path = path

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        with open(self.path, "a", encoding="utf-8") as out:
            for span in spans:
                out.write(json.dumps(json.loads(span.to_json())) + "\n")
        return SpanExportResult.SUCCESS


provider = TracerProvider()
provider.add_span_processor(SimpleSpanProcessor(_LinesExporter(os.environ["TOOLSCORE_SPANS_OUT"])))
trace.set_tracer_provider(provider)

server = MCPServer("otel-probe")


@server.tool()
def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b


@server.tool()
def explode(reason: str) -> str:
    """Always fails."""
    raise ValueError(f"exploded: {reason}")


server.run()
