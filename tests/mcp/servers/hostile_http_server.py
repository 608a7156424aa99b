"""An HTTP "MCP server" on 127.0.0.1 that accepts the connection and then never speaks.

``GET /sse`` answers 200 ``text/event-stream`` and sends only keep-alive comments, never the
``endpoint`` event; ``POST /mcp`` (streamable HTTP) answers 200 ``text/event-stream`` and
never sends the ``initialize`` response. Usage: ``hostile_http_server.py PORT``.
"""

from __future__ import annotations

import asyncio
import sys

KEEPALIVE = 0.3


async def _read_request(reader: asyncio.StreamReader) -> int:
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    length = 0
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name.strip().lower() == "content-length":
            length = int(value.strip() or 0)
    return length


async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        length = await _read_request(reader)
        if length:
            await reader.readexactly(length)
        writer.write(
            b"HTTP/1.1 200 OK\r\n"
            b"Content-Type: text/event-stream\r\n"
            b"Cache-Control: no-cache\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n"
        )
        while True:  # comments keep every read timeout from firing
            payload = b": still here\n\n"
            writer.write(b"%x\r\n%s\r\n" % (len(payload), payload))
            await writer.drain()
            await asyncio.sleep(KEEPALIVE)
    except (ConnectionError, asyncio.IncompleteReadError):
        pass
    finally:
        writer.close()


async def main(port: int) -> None:
    server = await asyncio.start_server(handle, "127.0.0.1", port)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1])))
