"""A plugin that cannot even be imported."""

raise ImportError("fake_import_error needs a library that is not installed")
