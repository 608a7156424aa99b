"""Run the ``toolscore`` command line (what the console script does), for subprocess tests."""

import sys

from toolscore.cli import main

main(sys.argv[1:])
