#!/usr/bin/python3
"""Runs the shell examples of README.md and docs/*.md against a real mnemod.

    run_examples.py [-v] [FILE.md ...]   # default: README.md and docs/*.md; -v prints every output

Which blocks run: a fenced block whose info string is exactly `sh example`
(```sh example). Other blocks (```sh, ```console, ```yaml ...) are prose only.

How a file runs: its blocks, in order, in one bash session (`set -e`) against
one fresh mnemod: sqlite storage and its admin socket in a scratch folder that
is also the session's working directory (so `mnemoctl` finds the daemon
through ./mnemod.yaml, as it does from mnemod's own folder; `mnemoctl` is
this build's, whatever alias the example sets). Every
`127.0.0.1:7420` in a block is rewritten to the daemon's real address, so the
examples keep the documented port. `$ASSISTANT_TOKEN` is set (auth is off on
a loopback listener, so any token does). A file containing the line
`<!-- examples: embedder -->` gets the fake OpenAI-compatible embedder
(tests/fixtures/fake_embedder.py, 8 dimensions) as `memory.embedder`.

What fails a file: a command's non-zero exit (set -e; in a pipeline, only
curl's checks below count), and, for each `curl` (a shell function wrapping
the real one):
  - curl's own non-zero exit (connection refused, bad option, ...);
  - an HTTP status of 400 or more, unless the command declares it;
  - an answer labelled application/json that does not parse, or an answer of a
    /v1/ route (the MCP endpoint aside) that is not labelled JSON (checked
    after the session ends, from the answers the wrapper kept).
A command declares the status it expects with a trailing comment `# => 409`
(on the last line of a command that spans lines); the status must then be
exactly that one. Any `-w`/`--write-out` of the example's own is replaced.

ctest runs this as `docs_examples` (MNEMOD_BIN, MNEMO_PLUGIN_DIR, MNEMOCTL_BIN).
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from daemon import SOURCE_DIR, Daemon, required_env  # noqa: E402

FENCE = re.compile(r"^(`{3,})(.*)$")
EXPECT = re.compile(r"#\s*=>\s*(\d{3})\b")

PRELUDE = r'''
set -e
mnemo_expected=""
mnemo_fail() {
  echo "EXAMPLE FAILED: $*" >&2
  echo "$*" >> "$MNEMO_FAILED"
  return 1
}
curl() {
  local out err rc status ctype include=0 arg url=""
  for arg in "$@"; do
    case "$arg" in
      --include) include=1 ;;
      --*) ;;
      -*i*) include=1 ;;
      http://*) url="$arg" ;;
    esac
  done
  out=$(mktemp -p "$MNEMO_CHECKS") err=$(mktemp)
  rc=0
  command curl "$@" -w '%{stderr}\n@@mnemo %{http_code} %{content_type}\n' >"$out" 2>"$err" || rc=$?
  cat "$out"
  grep -v '^@@mnemo ' "$err" | sed '/^$/d' >&2 || true
  read -r _ status ctype < <(grep '^@@mnemo ' "$err" | tail -1) || true
  local expected="$mnemo_expected"
  rm -f "$err"
  if [ "$rc" -ne 0 ]; then rm -f "$out"; mnemo_fail "curl $* exited with $rc"; return 1; fi
  if [ -n "$expected" ]; then
    if [ "$status" != "$expected" ]; then rm -f "$out"; mnemo_fail "curl $* answered $status, the example expects $expected"; return 1; fi
  elif [ "${status:-0}" -ge 400 ] || [ "${status:-0}" -eq 0 ]; then
    rm -f "$out"; mnemo_fail "curl $* answered $status (declare an expected error status with '# => $status')"; return 1
  fi
  # JSON is checked by the runner afterwards: a python per curl would make the run slow.
  mv "$out" "$out.body"
  printf '%s\n%s\n%s\n%s\n' "$include" "$ctype" "$url" "curl $*" > "$out.meta"
  return 0
}
mnemo_expect() { mnemo_expected="$1"; }
mnemoctl() { "$MNEMOCTL_BIN" "$@"; }
'''


def blocks_of(text):
    """(first line number, body) of each ```sh example block."""
    found, lines, i = [], text.split("\n"), 0
    while i < len(lines):
        match = FENCE.match(lines[i])
        if not match:
            i += 1
            continue
        fence, info, start = match.group(1), match.group(2).strip(), i + 1
        i += 1
        while i < len(lines) and not lines[i].startswith(fence):
            i += 1
        if info == "sh example":
            found.append((start + 1, "\n".join(lines[start:i])))
        i += 1
    return found


def logical_lines(body):
    """Splits shell text into commands: a newline ends one unless quoted or escaped."""
    commands, current, quote, i = [], "", "", 0
    while i < len(body):
        c = body[i]
        if quote:
            current += c
            if c == quote:
                quote = ""
            elif c == "\\" and quote == '"' and i + 1 < len(body):
                current += body[i + 1]
                i += 1
        elif c == "\\" and i + 1 < len(body):
            current += c + body[i + 1]
            i += 1
        elif c in "'\"":
            quote, current = c, current + c
        elif c == "#" and (not current or current[-1] in " \t\n;"):
            end = body.find("\n", i)
            end = len(body) if end < 0 else end
            current += body[i:end]
            i = end - 1
        elif c == "\n":
            commands.append(current)
            current = ""
        else:
            current += c
        i += 1
    if current:
        commands.append(current)
    return commands


def with_expectations(body):
    """`cmd  # => 409` becomes `mnemo_expect 409; cmd; mnemo_expect ""  # => 409`."""
    out = []
    for command in logical_lines(body):
        comment_at = _comment_start(command)
        match = EXPECT.search(command, comment_at) if comment_at >= 0 else None
        if match is None:
            out.append(command)
            continue
        code, comment = command[:comment_at].rstrip(), command[comment_at:]
        out.append(f"mnemo_expect {match.group(1)}; {code}; mnemo_expect ''  {comment}")
    return "\n".join(out)


def _comment_start(command):
    quote = ""
    for i, c in enumerate(command):
        if quote:
            if c == quote:
                quote = ""
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or command[i - 1] in " \t\n;"):
            return i
    return -1


def json_problems(checks):
    """The answers the curl wrapper kept that are not the JSON they should be."""
    problems = []
    for meta in sorted(checks.glob("*.meta")):
        include, ctype, url, command = meta.read_text().split("\n", 3)
        body = meta.with_suffix(".body").read_bytes()
        if include == "1":
            end = body.find(b"\r\n\r\n")
            body = body[end + 4:] if end >= 0 else b""
        if ctype.startswith("application/json"):
            if body.strip():
                try:
                    json.loads(body)
                except ValueError as error:
                    problems.append(f"{command.strip()} answered a body labelled JSON that does not parse: {error}")
        elif "/v1/" in url and "/mcp" not in url and body.strip():
            problems.append(f"{command.strip()} answered '{ctype}', not JSON")
    return problems


def run_file(path, mnemoctl, verbose=False):
    text = path.read_text()
    blocks = blocks_of(text)
    if not blocks:
        return None
    embedder = 8 if "<!-- examples: embedder -->" in text else 0
    daemon = Daemon(embedder_dimensions=embedder)
    address = f"127.0.0.1:{daemon.port}"
    script = PRELUDE
    for line, body in blocks:
        script += f"\necho '### {path.name}:{line}' >&2\n"
        script += with_expectations(body.replace("127.0.0.1:7420", address)) + "\n"
    checks = Path(tempfile.mkdtemp(prefix="mnemo-examples-"))
    failed = checks / "failed"
    failed.touch()
    env = dict(os.environ, MNEMO_FAILED=str(failed), MNEMO_CHECKS=str(checks), MNEMOCTL_BIN=mnemoctl,
               ASSISTANT_TOKEN="example-token")
    try:
        daemon.start()
        result = subprocess.run(["/bin/bash", "-c", script], cwd=daemon.dir, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, timeout=120)
        output, status = result.stdout, result.returncode
    finally:
        problem = daemon.stop()
        not_json = json_problems(checks)
        failures = failed.read_text() + "".join(f + "\n" for f in not_json)
        shutil.rmtree(checks, ignore_errors=True)
    output += "".join(f"EXAMPLE FAILED: {f}\n" for f in not_json)
    ok = status == 0 and not failures and not problem
    name = path.relative_to(SOURCE_DIR) if path.is_relative_to(SOURCE_DIR) else path
    print(f"{'ok  ' if ok else 'FAIL'} {name}: {len(blocks)} blocks")
    if not ok or verbose:
        print(output)
        if status != 0 and not failures:
            print(f"the session exited with {status} after the last '###' block named above")
        if problem:
            print(problem)
    return ok


def main(argv):
    mnemoctl = required_env("MNEMOCTL_BIN")
    verbose = "-v" in argv
    argv = [a for a in argv if a != "-v"]
    files = [Path(a).resolve() for a in argv] or \
        [SOURCE_DIR / "README.md"] + sorted((SOURCE_DIR / "docs").glob("*.md"))
    results = [r for r in (run_file(f, mnemoctl, verbose) for f in files) if r is not None]
    if not results:
        print("no ```sh example blocks found")
        return 1
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
