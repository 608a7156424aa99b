"""Conformance test server: one deliberate flaw, output-schema."""

from _conformance import main

main("output-schema")
