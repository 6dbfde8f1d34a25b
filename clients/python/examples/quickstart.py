"""A first tour of the mnemo client: a session, events, state, search, memories, recall.

Run it against a running mnemod (MNEMO_URL, default http://127.0.0.1:7420;
MNEMO_TOKEN when auth is on):  python3 examples/quickstart.py
"""

from mnemo import Client, Conflict, uuid7

APP, USER = "quickstart", "ann"

with Client() as client:
    session = client.create_session(APP, USER, state={"app:currency": "EUR", "cart": 0})
    sid = session["id"]
    print("created session", sid, "version", session["version"])

    # One atomic batch; each event gets a client id, so a retry is stored once.
    result = client.append_events(
        APP,
        USER,
        sid,
        [
            {"author": "user", "content": {"text": "Book me a window seat to Lyon"}},
            {"author": "travel-bot", "content": {"text": "Done: seat 12A"}, "state_delta": {"cart": 1}},
        ],
    )
    print("appended seqs", [a["seq"] for a in result["appended"]], "state", result["state"])

    # Optimistic concurrency: a stale version is refused with the current one.
    try:
        client.append_event(APP, USER, sid, {"author": "user", "content": "late"}, expected_version=1)
    except Conflict as conflict:
        print("conflict, current version is", conflict.current_version)

    for event in client.iter_events(APP, USER, sid):
        print(f"  #{event['seq']} {event['author']}: {event['content']['text']}")

    hits = client.search(APP, "window seat", user=USER)
    print("search found session", hits[0]["session"]["id"] == sid)

    client.write_memory(APP, USER, "Prefers window seats", id=f"pref-{uuid7()}")
    recalled = client.recall(APP, "window", user=USER)
    print("recalled:", [m["text"] for m in recalled["memories"]])

    print("purged:", client.purge_user(APP, USER))
