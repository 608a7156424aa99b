"""Compatibility path ``toolscore.adapters``: the call model lives in :mod:`toolscore.model`."""
