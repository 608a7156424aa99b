"""docs/mcp.md's scenario-file example is one `mcp scenarios check` accepts."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_scenario_file_example_is_valid(tmp_path: Path) -> None:
    text = (ROOT / "docs" / "mcp.md").read_text(encoding="utf-8")
    [example] = re.findall(r"```yaml\n(.*?)```", text, flags=re.S)
    path = tmp_path / "scenarios.yaml"
    path.write_text(example, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "toolscore", "mcp", "scenarios", "check", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "OK, 3 tools" in done.stdout
