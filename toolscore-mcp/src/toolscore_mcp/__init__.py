"""toolscore MCP: grade an MCP server (scenarios, lint, token cost) and record MCP sessions."""
