"""Conformance test server: one deliberate flaw, name."""

from _conformance import main

main("name")
