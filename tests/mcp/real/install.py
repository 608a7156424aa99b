"""Install every ground-truth server (``servers/*.json``) into one folder, at its exact pin.

    uv run python tests/mcp/real/install.py /tmp/mcp-real [name...]

* PyPI packages: one virtual environment per package, ``<dir>/venvs/<package>``, made with
  ``uv venv`` (their pins conflict: mcp-server-time needs ``mcp>=2.3``, mcp-server-calculator
  ``mcp<2``), plus the manifest's ``package.also`` pins (mcp-server-sqlite needs ``mcp<2`` but
  does not say so).
* npm packages: all in ``<dir>/npm`` with ``npm install --prefix <dir>/npm --no-audit --no-fund``.

The last line printed is the PATH fragment (``os.pathsep``-joined) holding every executable:
``<dir>/npm/node_modules/.bin`` first, then the venvs' ``bin`` folders; pass it to
``handcheck.py --bin-path``. A second run does nothing for packages already installed at the
same pins (a stamp file per venv, ``npm ls`` for npm), so it takes about a second.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SERVERS_DIR = HERE / "servers"
#: The interpreter for the PyPI servers' venvs: the one running this script (uv resolves a
#: venv's interpreter to its base), unless MCP_REAL_PYTHON names another (path or version).
PYTHON = os.environ.get("MCP_REAL_PYTHON", sys.executable)


def manifests(names: Sequence[str] = ()) -> list[dict[str, Any]]:
    found = {p.stem: p for p in sorted(SERVERS_DIR.glob("*.json"))}
    unknown = [n for n in names if n not in found]
    if unknown:
        raise SystemExit(f"unknown server(s): {', '.join(unknown)}")
    return [json.loads(found[n].read_text(encoding="utf-8")) for n in (names or list(found))]


#: Browser downloads that npm postinstall scripts attempt (puppeteer, playwright): the
#: machines this runs on reach the package registries only, and no manifest needs a browser.
_NO_BROWSER_DOWNLOADS = {"PUPPETEER_SKIP_DOWNLOAD": "1", "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD": "1"}


def _run(argv: list[str], quiet: bool = False) -> None:
    print("+", " ".join(argv), file=sys.stderr, flush=True)
    env = {**os.environ, **_NO_BROWSER_DOWNLOADS}
    done = subprocess.run(
        argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env
    )
    if done.returncode != 0:
        sys.stderr.write(done.stdout)
        raise SystemExit(f"install failed ({done.returncode}): {' '.join(argv)}")
    if not quiet and done.stdout.strip():
        sys.stderr.write(done.stdout)


def _venv_bin(venv: Path) -> Path:
    return venv / ("Scripts" if os.name == "nt" else "bin")


def install_pypi(root: Path, requirement: str, also: Sequence[str]) -> Path:
    """A venv for one pinned package (and its extra pins); returns its bin folder."""
    name = requirement.split("==", 1)[0].strip()
    venv = root / "venvs" / name
    stamp = venv / ".toolscore-pins"
    wanted = "\n".join([requirement, *also]) + "\n"
    if stamp.is_file() and stamp.read_text(encoding="utf-8") == wanted:
        return _venv_bin(venv)
    uv = shutil.which("uv")
    if uv is None:
        raise SystemExit("uv is not on PATH")
    if venv.exists():
        shutil.rmtree(venv)
    _run([uv, "venv", "--quiet", "--python", PYTHON, str(venv)])
    python = _venv_bin(venv) / ("python.exe" if os.name == "nt" else "python")
    _run([uv, "pip", "install", "--quiet", "--python", str(python), requirement, *also])
    stamp.write_text(wanted, encoding="utf-8")
    return _venv_bin(venv)


def _npm_installed(prefix: Path, specs: Sequence[str]) -> bool:
    """Are all ``name@version`` specs already in ``prefix``'s node_modules?"""
    for spec in specs:
        name, _, version = spec.rpartition("@")
        package_json = prefix / "node_modules" / name / "package.json"
        try:
            if json.loads(package_json.read_text(encoding="utf-8")).get("version") != version:
                return False
        except (OSError, ValueError):
            return False
    return True


def install_npm(root: Path, specs: Sequence[str]) -> Path:
    prefix = root / "npm"
    bin_dir = prefix / "node_modules" / ".bin"
    if not specs or _npm_installed(prefix, specs):
        return bin_dir
    npm = shutil.which("npm")
    if npm is None:
        raise SystemExit("npm is not on PATH")
    prefix.mkdir(parents=True, exist_ok=True)
    # --save-exact keeps <dir>/npm/package.json at the pins, so a rerun installs nothing new.
    _run(
        [
            npm,
            "install",
            "--prefix",
            str(prefix),
            "--no-audit",
            "--no-fund",
            "--save-exact",
            "--loglevel",
            "error",
            *specs,
        ]
    )
    return bin_dir


def install(root: Path, names: Sequence[str] = ()) -> list[Path]:
    """Install the named (default: all) manifests' packages; the bin folders, in order."""
    root = root.resolve()
    root.mkdir(parents=True, exist_ok=True)
    bins: list[Path] = []
    npm_specs: list[str] = []
    for manifest in manifests(names):
        package = manifest["package"]
        if "pypi" in package:
            path = install_pypi(root, package["pypi"], package.get("also", []))
            if path not in bins:
                bins.append(path)
        else:
            npm_specs.append(package["npm"])
    if npm_specs:
        # First on the PATH: an npm package's executable may share its name with one that
        # every PyPI venv has (@eslint/mcp's is ``mcp``, the Python SDK's command).
        bins.insert(0, install_npm(root, sorted(set(npm_specs))))
    return bins


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dir", type=Path, help="folder to install into (created)")
    parser.add_argument("names", nargs="*", help="manifest names (default: all)")
    args = parser.parse_args(argv)
    bins = install(args.dir, args.names)
    print(os.pathsep.join(str(b) for b in bins))
    return 0


if __name__ == "__main__":
    sys.exit(main())
