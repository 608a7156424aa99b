"""Core's own plugins, registered through the same path as third-party ones."""
