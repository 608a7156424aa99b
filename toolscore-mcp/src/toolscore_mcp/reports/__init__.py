"""Scorecard reports: console (rich), Markdown, JSON and SARIF (lint findings)."""
