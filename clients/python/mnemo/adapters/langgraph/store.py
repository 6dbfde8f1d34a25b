"""MnemoStore: LangGraph's BaseStore over the memories of one mnemod user, on the TypeScript MnemoStore's layout.

An item is one memory: its id ``lg-`` and the SHA-256 of the JSON of
``[namespace, key]``, its memory namespace the escaped labels joined by
``.`` (hashed past 128 bytes), its text the indexed fields of the value (what
recall searches), and its metadata the value itself (``lg.value``), its key
and namespace, one ``lg.ns.N`` per label and one ``lg.v.FIELD`` per
top-level scalar of the value, so that namespace prefixes and equality
filters run in mnemod; other filter operators apply after recall. A search
with a query is mnemod's ranked recall (hybrid when the daemon embeds, else
by words); with an ``index`` whose ``embed`` is set, the store embeds the
texts and queries itself and sends the vectors. A put's ``ttl`` (minutes, as
LangGraph counts) becomes the memory's TTL, refreshed by each put.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from datetime import datetime
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from langgraph.store.base import (  # type: ignore[import]
    BaseStore,
    GetOp,
    IndexConfig,
    Item,
    ListNamespacesOp,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    TTLConfig,
)
from langgraph.store.base.embed import ensure_embeddings, get_text_at_path  # type: ignore[import]

from ...client import Client
from ...errors import NotFound
from ._client import client_for
from ._names import escape_name, name_of

NS_DEPTH = "lg.depth"
OPERATORS = {"$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$in", "$nin"}
Scalar = Union[str, int, float, bool, None]


def _is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


def _is_operators(value: Any) -> bool:
    return isinstance(value, dict) and bool(value) and set(value) <= OPERATORS


def _matches(item_value: Any, wanted: Any) -> bool:
    """LangGraph's own filter semantics (InMemoryStore), applied to a value after recall."""
    if not _is_operators(wanted):
        return bool(item_value == wanted)
    checks: Dict[str, Callable[[Any], bool]] = {
        "$eq": lambda v: bool(item_value == v),
        "$ne": lambda v: bool(item_value != v),
        "$gt": lambda v: item_value is not None and bool(item_value > v),
        "$gte": lambda v: item_value is not None and bool(item_value >= v),
        "$lt": lambda v: item_value is not None and bool(item_value < v),
        "$lte": lambda v: item_value is not None and bool(item_value <= v),
        "$in": lambda v: item_value in v,
        "$nin": lambda v: item_value not in v,
    }
    return all(checks[op](v) for op, v in wanted.items())


def _leaves(value: Any) -> List[str]:
    """The value's string, number and boolean leaves: its JSON's keys and punctuation would match keyword queries."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, bool):
        return ["true" if value else "false"]  # as JavaScript's String() writes them
    if isinstance(value, (int, float)):
        return [json.dumps(value)]
    if isinstance(value, (list, tuple)):
        return [leaf for v in value for leaf in _leaves(v)]
    if isinstance(value, dict):
        return [leaf for v in value.values() for leaf in _leaves(v)]
    return []


def _truncate_utf8(text: str, max_bytes: int) -> str:
    return text.encode("utf-8")[:max_bytes].decode("utf-8", errors="ignore")


def _time(rfc3339: str) -> datetime:
    return datetime.fromisoformat(rfc3339.replace("Z", "+00:00"))


class MnemoStore(BaseStore):  # type: ignore[misc]
    """A LangGraph store (sync and async) whose items are the memories of one mnemod (app, user).

    ``index``: LangGraph's ``IndexConfig``; its ``fields`` say which parts of
    a value make the searchable text (``"$"``, every leaf, by default) and
    its ``embed``, when given, embeds texts and queries here (otherwise the
    daemon's embedder, if it has one, does). ``ttl``: LangGraph's
    ``TTLConfig``; its ``default_ttl`` (minutes) applies to puts without one.
    ``max_text_bytes``: the longest text sent (mnemod's
    ``memory.max_text_bytes``).
    """

    supports_ttl = True

    def __init__(
        self,
        url: Optional[str] = None,
        *,
        app: str,
        user: str,
        token: Optional[str] = None,
        client: Optional[Client] = None,
        index: Optional[IndexConfig] = None,
        ttl: Optional[TTLConfig] = None,
        max_text_bytes: int = 8192,
    ) -> None:
        self.client = client_for("MnemoStore", app=app, user=user, url=url, token=token, client=client)
        self.app, self.user = app, user
        self.index_config = index
        self.fields = list((index or {}).get("fields") or ["$"])
        embed = (index or {}).get("embed")
        self.embeddings = ensure_embeddings(embed) if embed is not None else None
        self.ttl_config = ttl
        self.max_text_bytes = max_text_bytes

    def memory_namespace(self, namespace: Sequence[str]) -> str:
        """The memory namespace of a store namespace."""
        joined = ".".join(escape_name(label) for label in namespace)
        return joined if len(joined) <= 128 else name_of(json.dumps(list(namespace), separators=(",", ":")), 0)

    def memory_id(self, namespace: Sequence[str], key: str) -> str:
        """The memory id of an item (the JSON hashed as JavaScript's JSON.stringify writes it)."""
        text = json.dumps([list(namespace), key], separators=(",", ":"), ensure_ascii=False)
        return "lg-" + hashlib.sha256(text.encode("utf-8")).hexdigest()

    def batch(self, ops: Iterable[Op]) -> List[Result]:
        results: List[Result] = []
        for op in ops:
            if isinstance(op, PutOp):
                self._put(op)
                results.append(None)
            elif isinstance(op, GetOp):
                results.append(self._get(op))
            elif isinstance(op, SearchOp):
                results.append(self._search(op))
            elif isinstance(op, ListNamespacesOp):
                results.append(self._list_namespaces(op))
            else:
                raise TypeError(f"MnemoStore: unknown operation {type(op).__name__}")
        return results

    async def abatch(self, ops: Iterable[Op]) -> List[Result]:
        return await asyncio.to_thread(self.batch, list(ops))

    def _get(self, op: GetOp) -> Optional[Item]:
        try:
            return self._item_of(self.client.get_memory(self.app, self.user, self.memory_id(op.namespace, op.key)))
        except NotFound:
            return None

    def _put(self, op: PutOp) -> None:
        memory_id = self.memory_id(op.namespace, op.key)
        if op.value is None:
            try:
                self.client.delete_memory(self.app, self.user, memory_id)
            except NotFound:
                pass
            return
        value = dict(op.value)
        metadata: Dict[str, Any] = {
            "lg.key": op.key,
            "lg.namespace": list(op.namespace),
            "lg.value": value,
            NS_DEPTH: len(op.namespace),
        }
        metadata.update({f"lg.ns.{i}": label for i, label in enumerate(op.namespace)})
        metadata.update({f"lg.v.{field}": v for field, v in value.items() if _is_scalar(v)})
        fields = [] if op.index is False else (op.index or self.fields)
        texts = [text for path in fields for text in (_leaves(value) if path == "$" else get_text_at_path(value, path))]
        text = _truncate_utf8("\n".join(texts).strip() or op.key, self.max_text_bytes)
        memory: Dict[str, Any] = {
            "id": memory_id,
            "text": text,
            "namespace": self.memory_namespace(op.namespace),
            "metadata": metadata,
        }
        ttl = op.ttl if op.ttl is not None else (self.ttl_config or {}).get("default_ttl")
        if ttl is not None:
            memory["ttl_seconds"] = max(1, round(ttl * 60))
        if self.embeddings is not None:
            memory["embedding"] = self.embeddings.embed_documents([text])[0]
        self.client.write_memories(self.app, self.user, [memory])  # type: ignore[list-item]

    def _search(self, op: SearchOp) -> List[SearchItem]:
        # Namespace labels and equality filters on top-level scalars go to mnemod as metadata equalities.
        exact: Dict[str, Scalar] = {f"lg.ns.{i}": label for i, label in enumerate(op.namespace_prefix)}
        rest: List[Tuple[str, Any]] = []
        for field, wanted in (op.filter or {}).items():
            eq = wanted["$eq"] if _is_operators(wanted) and set(wanted) == {"$eq"} else wanted
            if _is_scalar(eq):
                exact[f"lg.v.{field}"] = eq
            else:
                rest.append((field, wanted))

        def keep(memory: Mapping[str, Any]) -> bool:
            metadata = memory.get("metadata") or {}
            if "lg.key" not in metadata:
                return False  # not an item of a store
            value = metadata.get("lg.value") or {}
            return all(_matches(value.get(field), wanted) for field, wanted in rest)

        found: List[SearchItem] = []
        if op.query:
            vector = self.embeddings.embed_query(op.query) if self.embeddings is not None else None
            # Recall ranks at most 100; operators other than equality can only thin that list.
            answer = self.client.recall(
                self.app, op.query, embedding=vector, user=self.user, metadata=exact or None, limit=100
            )
            for memory in answer["memories"]:
                if keep(memory):
                    found.append(self._search_item(memory, memory.get("score")))
        else:
            for listed in self.client.iter_memories(self.app, self.user, page_size=1000):
                metadata = listed.get("metadata") or {}
                if all(metadata.get(k) == v for k, v in exact.items()) and keep(listed):
                    found.append(self._search_item(listed, None))
                if len(found) >= op.offset + op.limit:
                    break
        return found[op.offset : op.offset + op.limit]

    def _list_namespaces(self, op: ListNamespacesOp) -> List[Tuple[str, ...]]:
        seen = set()
        for memory in self.client.iter_memories(self.app, self.user, page_size=1000):
            labels = (memory.get("metadata") or {}).get("lg.namespace")
            if not isinstance(labels, list):
                continue
            if not all(self._namespace_matches(labels, c.match_type, c.path) for c in op.match_conditions or ()):
                continue
            seen.add(tuple(labels if op.max_depth is None else labels[: op.max_depth]))
        return sorted(seen)[op.offset : op.offset + op.limit]

    @staticmethod
    def _namespace_matches(labels: List[str], match_type: str, path: Sequence[str]) -> bool:
        if len(path) > len(labels):
            return False
        part = labels[: len(path)] if match_type == "prefix" else labels[len(labels) - len(path) :]
        return all(p == "*" or p == label for p, label in zip(path, part))

    def _item_of(self, memory: Mapping[str, Any]) -> Item:
        metadata = memory["metadata"]
        return Item(
            value=metadata["lg.value"],
            key=metadata["lg.key"],
            namespace=tuple(metadata["lg.namespace"]),
            created_at=_time(memory["created_at"]),
            updated_at=_time(memory["updated_at"]),
        )

    def _search_item(self, memory: Mapping[str, Any], score: Optional[float]) -> SearchItem:
        item = self._item_of(memory)
        return SearchItem(item.namespace, item.key, item.value, item.created_at, item.updated_at, score)
