"""Conformance test server: one deliberate flaw, schema-ref."""

from _conformance import main

main("schema-ref")
