"""A real SDK server (stdio) whose ``roots`` tool asks the client for its roots.

The tool answers with JSON: ``declared`` (did the client declare the roots capability in
``initialize``) and ``roots`` (what ``roots/list`` returned, as on the wire). Runs on either
major of the ``mcp`` SDK: ``MCPServer`` in 2.x, ``FastMCP`` in 1.x.
"""

import json
import warnings

try:
    from mcp.server.mcpserver import Context, MCPServer
except ImportError:  # mcp 1.x
    from mcp.server.fastmcp import Context
    from mcp.server.fastmcp import FastMCP as MCPServer

# 2.x marks the roots capability deprecated (SEP-2577); the clients in the wild still use it.
warnings.simplefilter("ignore")

server = MCPServer("roots-probe")


def _client_capabilities(ctx: Context) -> object:
    """The client's declared capabilities (a 2.x context property; 1.x keeps them on the
    session's initialize params)."""
    capabilities = getattr(ctx, "client_capabilities", None)
    if capabilities is None:
        params = getattr(ctx.session, "client_params", None)
        capabilities = getattr(params, "capabilities", None)
    return capabilities


@server.tool()
async def roots(ctx: Context) -> str:
    """List the client's roots, as the client announced them."""
    capabilities = _client_capabilities(ctx)
    listed = await ctx.session.list_roots()
    wire = listed.model_dump(mode="json", by_alias=True, exclude_none=True)
    return json.dumps(
        {"declared": getattr(capabilities, "roots", None) is not None, "roots": wire["roots"]}
    )


server.run()
