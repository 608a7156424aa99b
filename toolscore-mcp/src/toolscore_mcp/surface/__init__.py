"""The advertised surface: lock files and their diffs."""
