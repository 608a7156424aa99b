"""Conformance test server: one deliberate flaw, resource-link."""

from _conformance import main

main("resource-link")
