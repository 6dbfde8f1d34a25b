"""minilm.py against the reference vectors reference.py saved from
sentence-transformers (reference_vectors.json): every cosine must be above
0.999. Runs in the server's environment, in seconds, without torch:

  $(tests/bench/embedder/venv.sh)/bin/python tests/bench/embedder/check.py
"""

import json
import sys
from pathlib import Path

import numpy as np

import minilm

HERE = Path(__file__).resolve().parent
THRESHOLD = 0.999


def main():
    saved = json.loads((HERE / "reference_vectors.json").read_text(encoding="utf-8"))
    expected = np.array(saved["vectors"], dtype=np.float32)
    got = minilm.MiniLM().encode(saved["texts"])
    cosines = np.sum(expected * got, axis=1) / np.linalg.norm(expected, axis=1)
    low = [(float(c), t) for c, t in zip(cosines, saved["texts"]) if c <= THRESHOLD]
    for cosine, text in low:
        print(f"cosine {cosine:.6f}: {text[:80]!r}")
    print(f"{len(cosines) - len(low)} passed, {len(low)} failed (cosine to the reference > {THRESHOLD}; "
          f"lowest {cosines.min():.6f})")
    return 1 if low else 0


if __name__ == "__main__":
    sys.exit(main())
