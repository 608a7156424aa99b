"""Conformance test server: one deliberate flaw, unstable-list."""

from _conformance import main

main("unstable-list")
