"""Conformance test server: one deliberate flaw, http-auth."""

from _conformance import main

main("http-auth")
