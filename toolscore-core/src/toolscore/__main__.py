"""``python -m toolscore``: the ``toolscore`` command, for when its script is not on ``PATH``."""

from toolscore.console import main

if __name__ == "__main__":
    main()
