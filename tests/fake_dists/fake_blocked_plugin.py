"""Importing this module is recorded, so tests can prove that blocking happens before import."""

import os

os.environ["TOOLSCORE_FAKE_BLOCKED_IMPORTED"] = "1"
