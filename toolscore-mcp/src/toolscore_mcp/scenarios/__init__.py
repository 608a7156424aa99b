"""Scenarios and campaigns: what is called, in which order, from which file."""
