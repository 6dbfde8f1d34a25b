"""Memories and recall through the client: writes, dedupe, pages, change, forget, recall modes."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

import mnemo
from mnemo import Client

APP, USER = "shop", "u1"


def test_write_dedupe_get_update_delete(client: Client) -> None:
    written = client.write_memories(
        APP,
        USER,
        [{"id": "m-1", "text": "Prefers aisle seats", "metadata": {"kind": "pref"}}, {"text": "Lives in Lyon"}],
    )
    assert [w["created"] for w in written] == [True, True] and written[0]["id"] == "m-1"
    assert written[0]["embedding"] == "none"
    again = client.write_memory(APP, USER, "  lives in   LYON ")
    assert again["created"] is False and again["id"] == written[1]["id"]
    memory = client.get_memory(APP, USER, "m-1")
    assert memory["text"] == "Prefers aisle seats" and memory["metadata"] == {"kind": "pref"}
    changed = client.update_memory(APP, USER, "m-1", text="Prefers window seats", metadata={})
    assert changed["text"] == "Prefers window seats" and changed["metadata"] == {}
    client.delete_memory(APP, USER, "m-1")
    with pytest.raises(mnemo.NotFound):
        client.get_memory(APP, USER, "m-1")


def test_list_pages_and_namespaces(client: Client) -> None:
    client.write_memories(APP, USER, [{"text": f"fact {i}", "namespace": "facts"} for i in range(5)])
    client.write_memory(APP, USER, "default one")
    page = client.list_memories(APP, USER, namespace="facts", limit=2)
    assert len(page["memories"]) == 2 and page["next_page_token"]
    facts = list(client.iter_memories(APP, USER, namespace="facts", page_size=2))
    assert sorted(m["text"] for m in facts) == [f"fact {i}" for i in range(5)]
    assert [m["text"] for m in client.list_memories(APP, USER, namespace="")["memories"]] == ["default one"]
    assert len(list(client.iter_memories(APP, USER))) == 6


def test_empty_text_is_invalid_and_names_the_index(client: Client) -> None:
    with pytest.raises(mnemo.InvalidArgument) as raised:
        client.write_memories(APP, USER, [{"text": "ok"}, {"text": ""}])
    assert "memories[1]" in raised.value.message
    assert client.list_memories(APP, USER)["memories"] == []


def test_keyword_recall_for_one_user_and_app_wide(client: Client) -> None:
    client.write_memory(APP, USER, "Allergic to peanuts")
    client.write_memory(APP, "u2", "Peanuts are fine")
    mine = client.recall(APP, "peanuts", user=USER)
    assert mine["mode"] == "keyword" and [m["text"] for m in mine["memories"]] == ["Allergic to peanuts"]
    assert mine["memories"][0]["keyword_rank"] == 1
    assert len(client.recall(APP, "peanuts")["memories"]) == 2
    assert [m["text"] for m in client.recall_user(APP, USER, "peanuts")["memories"]] == ["Allergic to peanuts"]
    with pytest.raises(mnemo.InvalidArgument):
        client.recall(APP, user=USER)  # neither query nor embedding


def test_semantic_recall_with_client_vectors(client: Client) -> None:
    client.write_memories(
        APP,
        USER,
        [
            {"id": "north", "text": "goes north", "embedding": [1.0, 0.0, 0.0]},
            {"id": "east", "text": "goes east", "embedding": [0.0, 1.0, 0.0]},
        ],
    )
    assert client.get_memory(APP, USER, "north", include_embedding=True)["vector"] == [1.0, 0.0, 0.0]
    found = client.recall(APP, embedding=[0.9, 0.1, 0.0], user=USER, mode="semantic", limit=1)
    assert found["mode"] == "semantic" and [m["id"] for m in found["memories"]] == ["north"]
    with pytest.raises(mnemo.InvalidArgument):
        client.write_memory(APP, USER, "wrong size", embedding=[1.0, 0.0])


def test_recall_filters_by_metadata_and_creation_time(client: Client) -> None:
    client.write_memory(APP, USER, "tea at five", metadata={"topic": "food"})
    client.write_memory(APP, USER, "tea ceremony", metadata={"topic": "culture"})
    now = datetime.now(timezone.utc)
    found = client.recall(
        APP,
        "tea",
        user=USER,
        metadata={"topic": "food"},
        created_after=now - timedelta(minutes=5),
        created_before=now + timedelta(minutes=5),
    )
    assert [m["text"] for m in found["memories"]] == ["tea at five"]
    assert client.recall(APP, "tea", user=USER, created_after=now + timedelta(minutes=5))["memories"] == []
