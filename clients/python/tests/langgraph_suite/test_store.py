"""MnemoStore, LangGraph's BaseStore on mnemod memories, through its public calls (sync and async)."""

from __future__ import annotations

import asyncio
import math
from typing import List

import pytest
from langgraph.store.base import Item

from mnemo import Client
from mnemo.adapters.langgraph import MnemoStore

APP, USER = "lgstore", "ann"


@pytest.fixture
def store(client: Client) -> MnemoStore:
    return MnemoStore(client=client, app=APP, user=USER)


def test_put_get_update_and_delete(store: MnemoStore, client: Client) -> None:
    store.put(("prefs", "food"), "lunch", {"dish": "ramen", "spicy": True})
    item = store.get(("prefs", "food"), "lunch")
    assert isinstance(item, Item) and item.value == {"dish": "ramen", "spicy": True}
    assert item.namespace == ("prefs", "food") and item.key == "lunch"
    memory = client.get_memory(APP, USER, store.memory_id(("prefs", "food"), "lunch"))
    assert memory["namespace"] == "prefs.food" and memory["text"] == "ramen\ntrue"
    store.put(("prefs", "food"), "lunch", {"dish": "pho"})
    updated = store.get(("prefs", "food"), "lunch")
    assert updated is not None and updated.value == {"dish": "pho"} and updated.created_at <= updated.updated_at
    store.delete(("prefs", "food"), "lunch")
    assert store.get(("prefs", "food"), "lunch") is None
    store.delete(("prefs", "food"), "lunch")  # already gone: no error
    assert store.get(("nothing",), "here") is None


def test_search_by_natural_query_ranks_and_filters(store: MnemoStore) -> None:
    store.put(("notes", "ann"), "n1", {"text": "the printer on floor two jams", "team": "ops", "prio": 2})
    store.put(("notes", "ann"), "n2", {"text": "lunch order for friday", "team": "ops", "prio": 5})
    store.put(("notes", "bob"), "n3", {"text": "printer toner is low", "team": "it", "prio": 1})
    hits = store.search(("notes",), query="printer jams")
    assert [h.key for h in hits][:2] == ["n1", "n3"] and all(h.score is not None for h in hits)
    assert [h.key for h in store.search(("notes", "ann"), query="printer")] == ["n1"]
    assert [h.key for h in store.search(("notes",), query="printer", filter={"team": "it"})] == ["n3"]
    assert sorted(h.key for h in store.search(("notes",), filter={"prio": {"$gte": 2}})) == ["n1", "n2"]
    assert [h.key for h in store.search(("notes",), filter={"team": {"$ne": "ops"}})] == ["n3"]
    assert len(store.search(("notes",), limit=2)) == 2
    assert len(store.search(("notes",), limit=2, offset=2)) == 1


def test_index_fields_and_index_false(store: MnemoStore, client: Client) -> None:
    store.put(("docs",), "a", {"title": "Quarterly plan", "body": "secret words"}, index=["title"])
    store.put(("docs",), "b", {"title": "Hidden"}, index=False)
    assert client.get_memory(APP, USER, store.memory_id(("docs",), "a"))["text"] == "Quarterly plan"
    assert client.get_memory(APP, USER, store.memory_id(("docs",), "b"))["text"] == "b"
    assert store.search(("docs",), query="secret") == []
    assert [h.key for h in store.search(("docs",), query="quarterly")] == ["a"]


def test_list_namespaces_with_prefix_suffix_and_depth(store: MnemoStore) -> None:
    for namespace in [("a", "x", "1"), ("a", "y", "1"), ("b", "x", "2")]:
        store.put(namespace, "k", {"v": 1})
    assert store.list_namespaces() == [("a", "x", "1"), ("a", "y", "1"), ("b", "x", "2")]
    assert store.list_namespaces(prefix=("a",)) == [("a", "x", "1"), ("a", "y", "1")]
    assert store.list_namespaces(suffix=("1",)) == [("a", "x", "1"), ("a", "y", "1")]
    assert store.list_namespaces(prefix=("*", "x")) == [("a", "x", "1"), ("b", "x", "2")]
    assert store.list_namespaces(max_depth=1) == [("a",), ("b",)]


def test_ttl_in_minutes_becomes_the_memorys_ttl(store: MnemoStore, client: Client) -> None:
    store.put(("tmp",), "soon", {"v": 1}, ttl=2)
    memory = client.get_memory(APP, USER, store.memory_id(("tmp",), "soon"))
    assert memory["expires_at"] is not None
    store.put(("tmp",), "kept", {"v": 1})
    assert client.get_memory(APP, USER, store.memory_id(("tmp",), "kept"))["expires_at"] is None


def test_vectors_from_the_index_embedder(client: Client) -> None:
    def embed(texts: List[str]) -> List[List[float]]:
        # A toy embedder: the direction says which of three topics a text is about.
        topics = ("cat", "car", "cake")
        out = []
        for text in texts:
            v = [float(text.lower().count(t)) + 0.01 for t in topics]
            norm = math.sqrt(sum(x * x for x in v))
            out.append([x / norm for x in v])
        return out

    store = MnemoStore(client=client, app=APP, user="vec", index={"dims": 3, "embed": embed})
    store.put(("k",), "pet", {"text": "my cat sleeps"})
    store.put(("k",), "ride", {"text": "the car is red"})
    stored = client.get_memory(APP, "vec", store.memory_id(("k",), "pet"), include_embedding=True)
    assert stored["vector"] == pytest.approx(embed(["my cat sleeps"])[0], abs=1e-6)
    assert [h.key for h in store.search(("k",), query="a car please", limit=1)] == ["ride"]


def test_async_calls(store: MnemoStore) -> None:
    async def go() -> None:
        await store.aput(("as",), "one", {"text": "asynchronous hello"})
        got = await store.aget(("as",), "one")
        assert got is not None and got.value == {"text": "asynchronous hello"}
        assert [h.key for h in await store.asearch(("as",), query="hello")] == ["one"]
        assert await store.alist_namespaces() == [("as",)]

    asyncio.run(go())
