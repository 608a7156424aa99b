"""Conformance test server: one deliberate flaw, annotations."""

from _conformance import main

main("annotations")
