"""Conformance test server: one deliberate flaw, bad-input."""

from _conformance import main

main("bad-input")
