"""The clean conformance server's next release (a tool removed, a new required parameter,
a changed description), for mcp lock / mcp diff."""

from _conformance import main

main("v2")
