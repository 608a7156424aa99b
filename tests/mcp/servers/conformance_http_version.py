"""Conformance test server: one deliberate flaw, http-version."""

from _conformance import main

main("http-version")
