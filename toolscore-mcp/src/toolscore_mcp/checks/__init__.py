"""Built-in conformance checks, one plugin module per kind of evidence they need."""
