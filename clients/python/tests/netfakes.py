"""Network stand-ins for failure tests: a proxy that can lose answers, a scripted server, a silent one."""

from __future__ import annotations

import json
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import BinaryIO, List, Optional, Tuple


def _read_message(stream: BinaryIO) -> Optional[bytes]:
    """One HTTP/1.1 message with a Content-Length body (what the client and mnemod send), or None at EOF."""
    head = b""
    while True:
        line = stream.readline()
        if not line:
            return None
        head += line
        if line in (b"\r\n", b"\n"):
            break
    length = 0
    for header in head.split(b"\r\n")[1:]:
        name, _, value = header.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    return head + (stream.read(length) if length else b"")


class Proxy:
    """Forwards connections to the daemon one request at a time.

    ``lose_answers`` answers are read from the daemon in full (so the daemon
    did the work) and then not delivered: the client's connection is closed
    instead, as when a network drops the answer.
    """

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.lose_answers = 0
        self.connections = 0
        self.requests: List[bytes] = []
        self._lock = threading.Lock()
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            with self._lock:
                self.connections += 1
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _take_loss(self) -> bool:
        with self._lock:
            if self.lose_answers > 0:
                self.lose_answers -= 1
                return True
            return False

    def _serve(self, client: socket.socket) -> None:
        upstream = socket.create_connection(("127.0.0.1", self.target_port))
        from_client, from_daemon = client.makefile("rb"), upstream.makefile("rb")
        try:
            while True:
                request = _read_message(from_client)
                if request is None:
                    return
                with self._lock:
                    self.requests.append(request)
                upstream.sendall(request)
                answer = _read_message(from_daemon)
                if answer is None or self._take_loss():
                    return
                client.sendall(answer)
        except OSError:
            return
        finally:
            client.close()
            upstream.close()

    def request_lines(self) -> List[str]:
        with self._lock:
            return [r.split(b"\r\n", 1)[0].decode() for r in self.requests]

    def close(self) -> None:
        self._listener.close()


class ScriptedServer:
    """Answers each request with the next (status, headers, body) of its script; the last one repeats."""

    def __init__(self, script: List[Tuple[int, dict, dict]]) -> None:
        self.script = script
        self.paths: List[str] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def _answer(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                if length:
                    self.rfile.read(length)
                outer.paths.append(self.path)
                status, headers, body = outer.script[min(len(outer.paths), len(outer.script)) - 1]
                data = json.dumps(body).encode()
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _answer

            def log_message(self, *args: object) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


class SilentServer:
    """Accepts connections and never answers."""

    def __init__(self) -> None:
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._held: List[socket.socket] = []
        self.url = f"http://127.0.0.1:{self._listener.getsockname()[1]}"
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self._listener.accept()
            except OSError:
                return
            self._held.append(conn)

    def close(self) -> None:
        self._listener.close()
        for conn in self._held:
            conn.close()
