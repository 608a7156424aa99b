"""Conformance test server: one deliberate flaw, http-origin."""

from _conformance import main

main("http-origin")
