"""Talk to an MCP server: transports, the client session, recording."""
