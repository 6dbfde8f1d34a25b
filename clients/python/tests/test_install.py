"""The package installs offline into a venv with Debian's setuptools, and the installed copy is typed."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from conftest import CLIENT_DIR


def test_offline_install_into_a_venv(tmp_path: Path) -> None:
    # A copy: pip builds in the source folder, and the tests must leave the checkout clean.
    source = tmp_path / "python"
    shutil.copytree(CLIENT_DIR, source, ignore=shutil.ignore_patterns("tests", "build", "*.egg-info", "__pycache__"))
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    install = subprocess.run(
        [str(venv / "bin" / "pip"), "install", "--no-index", "--no-build-isolation", str(source)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert install.returncode == 0, install.stdout + install.stderr
    probe = (
        "import mnemo, mnemo.adapters.adk, mnemo.adapters.openai_agents, pathlib;"
        "print(mnemo.__file__);"
        "print((pathlib.Path(mnemo.__file__).parent / 'py.typed').exists())"
    )
    shown = subprocess.run([str(venv / "bin" / "python"), "-c", probe], capture_output=True, text=True, cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    location, typed = shown.stdout.split()
    assert location.startswith(str(venv)) and typed == "True"
