#!/usr/bin/env python3
"""Fill mnemod with BENCH.md workload E's transcripts through the HTTP API.

Sessions u{N % 100}/s{N} of app "bench" get `--per-session` events each, in
batches of up to 256 (limits.max_batch_events), until `--events` events are
stored, over `--connections` keep-alive connections in parallel. The text is
realistic and reproducible (seeded): English sentences of varied length from
a vocabulary of a few hundred words, mixed with file paths, URLs, shell
commands and identifiers, and tool calls with arguments. Two query targets
occur at known rates: the word `rollback` (about 1 event in 1,000) and the
path `/etc/nginx/nginx.conf` (about 1 event in 2,000). Standard library only.
"""
import argparse
import http.client
import json
import random
import sys
import threading
import urllib.parse

WORDS = """
the a to of and in is it you that for on with as was at be this have from or by not but what all were when we
there can an your which their said if do will each about how up out them then she many some so these would other
into has more her two like him see time could no make than first been its who now people my made over did down
only way find use may water long little very after words called just where most know get through back much go
good new write our me man too any day same right look think also around another came come work three word must
because does part even place well such here take why things help put years different away again off went old
number great tell men say small every found still between name should home big give air line set own under read
last never us left end along while might next sound below saw something thought both few those always looked show
large often together asked house world going want school important until form food keep children feet land side
without boy once animals life enough took sometimes four head above kind began almost live page got earth need far
hand high year mother light parts country father let night following picture being study second eyes soon times
story boys since white days ever paper hard near sentence better best across during today others however sure means
knew its try told young miles sun ways thing whole hear example heard several change answer room sea against top
turned learn point city play toward five using himself usually money seen car morning given trying leave
server deploy database config container cluster request response error timeout latency memory disk network proxy
cache queue worker thread process service endpoint certificate token session user customer invoice order payment
refund shipping address email password account login logout profile settings dashboard report metric alert
incident outage backup restore migration schema index query table column row transaction commit branch merge
release version build pipeline test coverage lint format review approve reject ticket sprint estimate deadline
meeting schedule calendar reminder travel flight hotel booking weather forecast recipe dinner grocery budget
invoice contract lawyer doctor appointment prescription pharmacy insurance claim mortgage loan interest savings
""".split()

PATHS = ["/var/log/syslog", "/home/ada/projects/app/src/main.rs", "/usr/local/bin/deploy.sh",
         "C:\\Users\\bob\\notes.txt",
         "/srv/data/export-2024-03.csv", "~/.ssh/config", "/opt/app/config/settings.yaml", "./scripts/build_all.sh",
         "/tmp/upload_7f3a.bin", "/etc/hosts", "/etc/systemd/system/app.service", "src/components/Button.tsx"]
URLS = ["https://example.com/docs/getting-started", "https://api.github.com/repos/acme/app/pulls?state=open",
        "http://localhost:8080/healthz", "https://news.ycombinator.com/item?id=123456",
        "https://en.wikipedia.org/wiki/Full-text_search", "https://shop.example.org/cart?item=42&qty=3"]
COMMANDS = ["git push origin main", "kubectl get pods -n staging", "docker compose up -d", "npm run build",
            "systemctl restart nginx", "cargo test --release", "psql -U postgres -c 'select 1'",
            "tail -f /var/log/nginx/error.log", "pip install -r requirements.txt", "make -j4 install"]
IDENTS = ["parse_config_v2()", "UserService.findById", "handle_request", "MAX_RETRIES", "fetchOrders()",
          "useEffect", "__init__", "os.path.join", "HashMap<String, Vec<u8>>", "retry_with_backoff"]


def sentence(rng):
    words = [rng.choice(WORDS) for _ in range(rng.randint(5, 22))]
    roll = rng.random()
    if roll < 0.10:
        words.insert(rng.randrange(len(words)), rng.choice(PATHS))
    elif roll < 0.16:
        words.insert(rng.randrange(len(words)), rng.choice(URLS))
    elif roll < 0.22:
        words.insert(rng.randrange(len(words)), "`" + rng.choice(COMMANDS) + "`")
    elif roll < 0.28:
        words.insert(rng.randrange(len(words)), rng.choice(IDENTS))
    text = " ".join(words)
    return text[0].upper() + text[1:] + rng.choice([".", ".", ".", "?", "!"])


def event(rng):
    text = " ".join(sentence(rng) for _ in range(rng.randint(1, 5)))
    if rng.random() < 0.001:
        text += " We should plan a rollback first."
    if rng.random() < 0.0005:
        text += " Edit /etc/nginx/nginx.conf and reload."
    if rng.random() < 0.15:
        call = {"name": rng.choice(["read_file", "run_shell", "http_get", "search_docs"]),
                "arguments": {"target": rng.choice(PATHS + URLS + COMMANDS)}, "result_summary": sentence(rng)}
        return {"author": "agent", "role": "assistant", "content": {"text": text}, "tool_calls": [call]}
    role = rng.choice(["user", "assistant"])
    return {"author": role, "role": role, "content": {"text": text}}


class Filler(threading.Thread):
    """Posts the batches of every `step`-th session starting at `first`."""

    def __init__(self, url, sessions, per_session, batch, first, step, seed):
        super().__init__()
        self.url, self.sessions, self.per_session, self.batch = url, sessions, per_session, batch
        self.first, self.step, self.seed = first, step, seed
        self.error = None

    def run(self):
        connection = http.client.HTTPConnection(self.url.hostname, self.url.port, timeout=120)
        for n in range(self.first, self.sessions, self.step):
            rng = random.Random(self.seed * 1_000_003 + n)
            path = "/v1/apps/bench/users/u%d/sessions/s%d/events" % (n % 100, n)
            left = self.per_session
            while left > 0:
                count = min(left, self.batch)
                body = json.dumps({"events": [event(rng) for _ in range(count)], "create_if_missing": True})
                connection.request("POST", path, body.encode(), {"Content-Type": "application/json"})
                response = connection.getresponse()
                answer = response.read()
                if response.status != 200:
                    self.error = "POST %s answered %d: %s" % (path, response.status, answer[:300])
                    return
                left -= count


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url", help="mnemod base URL, e.g. http://127.0.0.1:7420")
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--per-session", type=int, default=100)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--connections", type=int, default=2)
    parser.add_argument("--seed", type=int, default=8)
    args = parser.parse_args()
    url = urllib.parse.urlsplit(args.url)
    sessions = max(1, args.events // args.per_session)
    fillers = [Filler(url, sessions, args.per_session, args.batch, i, args.connections, args.seed)
               for i in range(args.connections)]
    for filler in fillers:
        filler.start()
    for filler in fillers:
        filler.join()
    errors = [f.error for f in fillers if f.error]
    for error in errors:
        print(error, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
