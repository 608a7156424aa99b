"""Conformance test server: no flaw, draws no finding."""

from _conformance import main

main("clean")
