"""An OpenAI-compatible embeddings server for all-MiniLM-L6-v2 (minilm.py),
so that mnemod's `http` embedder embeds with a real model in the benches.

  POST /v1/embeddings  {"model": "all-MiniLM-L6-v2", "input": "text" | ["text", ...]}
  -> {"object": "list", "model": ..., "usage": {"prompt_tokens", "total_tokens"},
      "data": [{"object": "embedding", "index": i, "embedding": [384 numbers]}]}
  GET /health -> 200 once the model is loaded

Run it in the virtual environment of venv.sh (serve.sh does both). It prints
"listening on http://HOST:PORT/v1" when ready. Loopback only by default.
"""

import argparse
import json
import os
import sys
import threading
import time

# One BLAS thread: on a small shared machine OpenBLAS's own threads spin
# against mnemod and the bench for the same cores; one call at a time (the
# lock below) with one thread is as fast there and steadier.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer  # noqa: E402

import minilm  # noqa: E402

NAMES = {minilm.MODEL_NAME, "sentence-transformers/" + minilm.MODEL_NAME}
MAX_INPUTS = 2048  # mnemod's memory.embedder.batch maximum


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address, model, batch, quiet):
        super().__init__(address, Handler)
        self.model, self.batch, self.quiet = model, batch, quiet
        self.lock = threading.Lock()  # the model computes one request at a time
        self.texts = 0
        self.seconds = 0.0


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: mnemod's embedder reuses its connection

    def log_message(self, format, *args):
        if not self.server.quiet:
            super().log_message(format, *args)

    def answer(self, status, body):
        raw = json.dumps(body, separators=(",", ":")).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def error(self, status, message, kind="invalid_request_error"):
        self.answer(status, {"error": {"message": message, "type": kind}})

    def do_GET(self):
        if self.path == "/health":
            self.answer(200, {"status": "ok", "model": minilm.MODEL_NAME, "texts": self.server.texts,
                              "seconds": round(self.server.seconds, 3)})
        else:
            self.error(404, f"no route GET {self.path}")

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        if self.path.rstrip("/") not in ("/v1/embeddings", "/embeddings"):
            return self.error(404, f"no route POST {self.path}")
        try:
            body = json.loads(raw)
        except ValueError as error:
            return self.error(400, f"the body is not JSON: {error}")
        if not isinstance(body, dict):
            return self.error(400, "the body must be a JSON object")
        if body.get("model") not in NAMES:
            return self.error(404, f"model {body.get('model')!r} is not served; use {minilm.MODEL_NAME!r}",
                              "model_not_found")
        texts = body.get("input")
        if isinstance(texts, str):
            texts = [texts]
        if not isinstance(texts, list) or not texts or not all(isinstance(t, str) for t in texts):
            return self.error(400, "input must be a string or a non-empty list of strings")
        if len(texts) > MAX_INPUTS:
            return self.error(400, f"at most {MAX_INPUTS} inputs per request")
        if body.get("encoding_format", "float") != "float":
            return self.error(400, "only encoding_format float is served")
        with self.server.lock:
            started = time.perf_counter()
            vectors = self.server.model.encode(texts, self.server.batch)
            tokens = self.server.model.count_tokens(texts)
            self.server.seconds += time.perf_counter() - started
            self.server.texts += len(texts)
        self.answer(200, {
            "object": "list", "model": minilm.MODEL_NAME,
            "data": [{"object": "embedding", "index": i, "embedding": [round(float(x), 7) for x in v]}
                     for i, v in enumerate(vectors)],
            "usage": {"prompt_tokens": int(tokens), "total_tokens": int(tokens)}})


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0, help="0: a free port (printed)")
    parser.add_argument("--batch", type=int, default=32, help="texts per forward pass inside one request")
    parser.add_argument("--quiet", action="store_true", help="no line per request on stderr")
    args = parser.parse_args()
    model = minilm.MiniLM()
    server = Server((args.host, args.port), model, args.batch, args.quiet)
    print(f"listening on http://{args.host}:{server.server_address[1]}/v1", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
