"""Built-in lint rules, one plugin module per theme (registered like third-party rules)."""
