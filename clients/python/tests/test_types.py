"""The package and its examples pass mypy --strict for Python 3.9 (the py.typed promise)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import CLIENT_DIR


def test_mypy_strict(tmp_path: Path) -> None:
    checked = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--python-version", "3.9", "--cache-dir", str(tmp_path),
         "mnemo", "examples"],
        cwd=CLIENT_DIR,
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
