#!/usr/bin/python3
"""docs/openapi.yaml against a real mnemod.

1. GET /v1/openapi.json answers 200 without a token (auth is on here) and is
   docs/openapi.yaml as JSON.
2. Every (method, path) the description names is called at least once, and
   every answer (successes and the errors called on purpose) validates against
   the schema the description gives for that status; an answer whose status
   the description does not list fails.

The route set itself is compared with the router's by unit_openapi. Needs
Debian's python3-yaml and python3-jsonschema (tools/install-deps.sh --test).
"""

import http.client
import json
import sys
import time
from pathlib import Path

import jsonschema
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from daemon import SOURCE_DIR, Daemon  # noqa: E402

TOKEN = "docs-token"
ADMIN = "docs-admin"
CONFIG = f"""
auth:
  required: true
  admin_tokens: ["{ADMIN}"]
apps:
  shop:
    tokens: ["{TOKEN}"]
reset:
  overrides:
    - {{match: {{platform: tg}}, policy: {{mode: idle}}}}
summary:
  summarizer: command
  command: ["/bin/sh", "-c", "cat >/dev/null; echo The user deployed the app."]
"""

S = "/v1/apps/{app}/users/{user}/sessions/{session}"
M = "/v1/apps/{app}/users/{user}/memories"
MCP_HEADERS = {"Accept": "application/json, text/event-stream"}
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                         "clientInfo": {"name": "docs", "version": "1"}}}

# (method, path template, names to fill in, body, expected status[, headers]):
# every route at least once, in an order where each call finds what it needs.
CALLS = [
    ("GET", "/healthz", {}, None, 200),
    ("GET", "/readyz", {}, None, 200),
    ("GET", "/v1/info", {}, None, 200),
    ("GET", "/metrics", {}, None, 200),
    ("POST", "/v1/apps/{app}/users/{user}/sessions", {}, {"id": "s1", "state": {"cart": 1, "app:cur": "EUR",
                                                                                 "user:lang": "de"},
                                                           "metadata": {"channel": "web"}}, 201),
    ("POST", "/v1/apps/{app}/users/{user}/sessions", {}, {"id": "s1"}, 409),
    ("POST", "/v1/apps/{app}/users/{user}/sessions", {}, {"ttl_seconds": 3600}, 201),
    ("POST", S + "/events", {}, {"events": [
        {"id": "e1", "author": "user", "content": {"text": "deploy with make -C /srv/app deploy"},
         "state_delta": {"cart": 2, "temp:x": 1}},
        {"author": "bot", "content": {"text": "done"}, "usage": {"input_tokens": 12, "output_tokens": 3}},
        {"author": "user", "content": "and again"}]}, 200),
    ("POST", S + "/events", {}, {"expected_version": 1, "events": [{"author": "user", "content": "x"}]}, 409),
    ("POST", S + "/events", {}, {"events": []}, 400),
    ("GET", S + "/events", {}, None, 200),
    ("GET", S, {}, None, 200),
    ("GET", S, {"session": "nope"}, None, 404),
    ("GET", "/v1/apps/{app}/users/{user}/sessions", {}, None, 200),
    ("GET", "/v1/apps/{app}/sessions", {}, None, 200),
    ("PATCH", S + "/state", {}, {"state_delta": {"step": 3}}, 200),
    ("GET", "/v1/apps/{app}/state", {}, None, 200),
    ("PATCH", "/v1/apps/{app}/state", {}, {"state_delta": {"promo": "x"}}, 200),
    ("DELETE", "/v1/apps/{app}/state/{key}", {"key": "promo"}, None, 204),
    ("GET", "/v1/apps/{app}/users/{user}/state", {}, None, 200),
    ("PATCH", "/v1/apps/{app}/users/{user}/state", {}, {"state_delta": {"tz": "CET"}}, 200),
    ("DELETE", "/v1/apps/{app}/users/{user}/state/{key}", {"key": "tz"}, None, 204),
    ("POST", S + "/summaries", {}, {"text": "User asked for a deploy.", "up_to_seq": 1}, 201),
    ("GET", S + "/summaries", {}, None, 200),
    ("POST", S + "/summarize", {}, {"wait": True}, 200),
    ("POST", S + "/summarize", {}, {"force": True}, 409),  # the summary above covers every event
    ("POST", S + "/events", {}, {"events": [{"author": "user", "content": "one more"}]}, 200),
    ("POST", S + "/summarize", {}, {"force": True}, 202),
    ("POST", S + "/tracks/{track}", {"track": "audit"}, {"payload": {"tool": "grep"}}, 201),
    ("GET", S + "/tracks/{track}", {"track": "audit"}, None, 200),
    ("GET", S + "/tracks?limit=10", {}, None, 200),
    ("GET", S + "/tracks", {"session": "nope"}, None, 404),
    ("GET", "/v1/apps/{app}/search?q=deploy&context=1", {}, None, 200),
    ("POST", "/v1/apps/{app}/lanes/{lane}/resolve", {"lane": "tg:dm:42"}, {"user": "u1", "chat_type": "dm"}, 200),
    ("GET", "/v1/apps/{app}/lanes/{lane}", {"lane": "tg:dm:42"}, None, 200),
    ("GET", "/v1/apps/{app}/lanes", {}, None, 200),
    ("GET", "/v1/apps/{app}/reset-policies", {}, None, 200),
    ("POST", "/v1/apps/{app}/lanes/{lane}/turn-complete", {"lane": "tg:dm:42"}, {"input_tokens": 5}, 200),
    ("POST", "/v1/apps/{app}/lanes/{lane}/resume-pending", {"lane": "tg:dm:42"}, {"reason": "restart_timeout"},
     200),
    ("POST", "/v1/apps/{app}/lanes/{lane}/suspend", {"lane": "tg:dm:42"}, None, 200),
    ("POST", "/v1/apps/{app}/lanes/{lane}/reset", {"lane": "tg:dm:42"}, None, 200),
    ("POST", "/v1/apps/{app}/lanes/{lane}/switch", {"lane": "tg:dm:42"}, {"session_id": "s1"}, 200),
    ("POST", M, {}, {"memories": [{"id": "seat", "text": "Prefers an aisle seat", "metadata": {"topic": "travel"}},
                                 {"text": "Drinks green tea"}], "wait": True}, 200),
    ("POST", M, {}, {"memories": [{"text": "Likes trains", "embedding": [1, 0, 0]}]}, 400),
    ("GET", M, {}, None, 200),
    ("GET", M + "?status=ready,none&metadata.topic=travel", {}, None, 200),
    ("GET", M + "?status=done", {}, None, 400),
    ("GET", "/v1/apps", {}, None, 200, {"Authorization": f"Bearer {ADMIN}"}),
    ("GET", "/v1/apps", {}, None, 403),
    ("GET", "/v1/apps/{app}/users?limit=10", {}, None, 200),
    ("GET", M + "/search?q=tea", {}, None, 200),
    ("GET", M + "/{memory}?include_embedding=true", {"memory": "seat"}, None, 200),
    ("PATCH", M + "/{memory}", {"memory": "seat"}, {"text": "Prefers a window seat"}, 200),
    ("POST", "/v1/apps/{app}/memories/search", {}, {"query": "window seat", "user": "u1", "limit": 3}, 200),
    ("POST", "/v1/apps/{app}/memories/search", {}, {"query": "tea", "mode": "keyword",
                                                    "metadata": {"topic": "travel"}}, 200),
    ("DELETE", M + "/{memory}", {"memory": "seat"}, None, 204),
    ("GET", M + "/{memory}", {"memory": "seat"}, None, 404),
    ("PUT", S + "/events", {}, {"events": [{"author": "user", "content": "one"},
                                          {"author": "bot", "content": "two"}]}, 200),
    ("POST", S + "/rewind", {}, {"turns": 1}, 200),
    ("POST", "/v1/apps/{app}/users/{user}/mcp", {}, INITIALIZE, 200, MCP_HEADERS),
    ("DELETE", "/v1/apps/{app}/users/{user}/mcp", {}, None, 204, "mcp-session"),
    ("DELETE", S, {}, None, 204),
    ("DELETE", "/v1/apps/{app}/users/{user}", {}, None, 200),
    ("GET", "/v1/apps/{app}/state", {"app": "other"}, None, 403),
    ("GET", "/v1/info", {}, None, 401, {"Authorization": ""}),
    ("DELETE", "/v1/apps/{app}/state", {}, None, 405),
]

NAMES = {"app": "shop", "user": "u1", "session": "s1"}


def fill(template, names):
    path = template
    for key, value in {**NAMES, **names}.items():
        path = path.replace("{" + key + "}", value)
    return path


class Checker:
    def __init__(self, doc, port):
        self.doc = doc
        self.port = port
        self.resolver = jsonschema.RefResolver.from_schema(doc)
        self.failures = []
        self.covered = set()
        self.mcp_session = ""

    def call(self, method, template, names, body, expected, headers=None):
        route = template.split("?")[0]
        sent = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}
        if headers == "mcp-session":
            sent.update(MCP_HEADERS)
            sent["Mcp-Session-Id"] = self.mcp_session
        elif headers:
            sent.update(headers)
        sent = {k: v for k, v in sent.items() if v}
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        conn.request(method, fill(template, names), body=None if body is None else json.dumps(body), headers=sent)
        response = conn.getresponse()
        raw = response.read()
        conn.close()
        where = f"{method} {fill(template, names)}"
        if route.endswith("/mcp") and method == "POST":
            self.mcp_session = response.getheader("Mcp-Session-Id") or ""
        if response.status != expected:
            self.failures.append(f"{where}: expected {expected}, got {response.status}: {raw[:300]!r}")
            return
        operation = self.doc["paths"].get(route, {}).get(method.lower())
        if operation is None and response.status == 405:
            # A method the path does not have: the generic error answer.
            operation = {"responses": {"405": {"$ref": "#/components/responses/Error"}}}
        if operation is None:
            self.failures.append(f"{where}: openapi.yaml has no {method.lower()} under paths.{route}")
            return
        described = operation["responses"].get(str(response.status)) or operation["responses"].get("default")
        if described is None:
            self.failures.append(f"{where}: status {response.status} is not among its responses")
            return
        self.covered.add((method, route))
        described = self.resolve(described)
        content = described.get("content")
        if not content:
            if raw:
                self.failures.append(f"{where}: answered a body where the description has none: {raw[:200]!r}")
            return
        media = response.getheader("Content-Type", "").split(";")[0].strip()
        if media not in content:
            self.failures.append(f"{where}: content type {media} is not among {list(content)}")
            return
        schema = content[media].get("schema")
        if media != "application/json" or schema is None:
            return
        try:
            value = json.loads(raw)
        except ValueError as error:
            self.failures.append(f"{where}: not JSON ({error}): {raw[:200]!r}")
            return
        validator = jsonschema.Draft202012Validator(schema, resolver=self.resolver)
        for error in validator.iter_errors(value):
            path = "/".join(str(p) for p in error.absolute_path)
            self.failures.append(f"{where} -> {response.status}: at '{path}': {error.message}")

    def resolve(self, node):
        while "$ref" in node:
            node = self.resolver.resolve(node["$ref"])[1]
        return node


def main():
    doc = yaml.safe_load((SOURCE_DIR / "docs" / "openapi.yaml").read_text())
    jsonschema.Draft202012Validator.check_schema({"$defs": doc.get("components", {}).get("schemas", {})})
    daemon = Daemon(CONFIG, embedder_dimensions=8)
    failures = []
    try:
        daemon.start()
        conn = http.client.HTTPConnection("127.0.0.1", daemon.port, timeout=10)
        conn.request("GET", "/v1/openapi.json")
        response = conn.getresponse()
        served = response.read()
        if response.status != 200:
            failures.append(f"GET /v1/openapi.json without a token: {response.status} {served[:300]!r}")
        elif json.loads(served) != doc:
            failures.append("GET /v1/openapi.json is not docs/openapi.yaml (rebuild, or a scalar typed differently)")
        checker = Checker(doc, daemon.port)
        checker.covered.add(("GET", "/v1/openapi.json"))
        for entry in CALLS:
            checker.call(*entry)
            if entry[1].endswith("/summarize") and entry[4] == 202:
                time.sleep(0.2)  # let the enqueued summary finish before the transcript is rewritten
        failures += checker.failures
        for path, item in doc["paths"].items():
            for method in item:
                if method.upper() in {"GET", "POST", "PUT", "PATCH", "DELETE"} and \
                        (method.upper(), path) not in checker.covered:
                    failures.append(f"{method.upper()} {path}: described but never called by this test")
    finally:
        problem = daemon.stop()
        if problem:
            failures.append(problem)
    for failure in failures:
        print("FAIL", failure)
    print(f"{len(CALLS) + 1} calls, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
