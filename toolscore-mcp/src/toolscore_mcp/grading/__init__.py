"""Grading: classify each call, give verdicts, build the scorecard."""
