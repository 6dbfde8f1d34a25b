"""Long-term memories: write, list, read, change, forget, and recall by words and meaning."""

from __future__ import annotations

from typing import Any, Dict, Iterator, List, Optional, Sequence, cast

from ._api import ApiBase, Timestamp, app_path, encode_timestamp, seg, token_pages, user_path, without_none
from .types import JSON, Memory, MemoryIn, MemoryPage, MemoryWritten, Recall


class MemoriesApi(ApiBase):
    def write_memories(
        self,
        app: str,
        user: str,
        memories: Sequence[MemoryIn],
        *,
        wait: Optional[bool] = None,
        timeout: Optional[float] = None,
    ) -> List[MemoryWritten]:
        """Writes a batch of memories, all or nothing; answers ``id``, ``created`` and embedding status.

        Sent again after a lost answer: the daemon answers a repeated id with
        the same text, or a repeated text without id, as already stored.
        """
        body: Dict[str, Any] = {"memories": list(memories)}
        if wait is not None:
            body["wait"] = wait
        path = f"{user_path(app, user)}/memories"
        answer = self._call("POST", path, body=body, idempotent=True, timeout=timeout)
        return cast(List[MemoryWritten], answer["memories"])

    def write_memory(self, app: str, user: str, text: str, **fields: Any) -> MemoryWritten:
        """Writes one memory; ``fields`` are those of :class:`MemoryIn` besides ``text``."""
        return self.write_memories(app, user, [cast(MemoryIn, {"text": text, **fields})])[0]

    def list_memories(
        self,
        app: str,
        user: str,
        *,
        namespace: Optional[str] = None,
        session_id: Optional[str] = None,
        limit: Optional[int] = None,
        page_token: Optional[str] = None,
    ) -> MemoryPage:
        """One page of a user's memories, newest first. ``namespace=""`` is the default namespace."""
        query = {"namespace": namespace, "session_id": session_id, "limit": limit, "page_token": page_token}
        return cast(MemoryPage, self._call("GET", f"{user_path(app, user)}/memories", query=query, idempotent=True))

    def iter_memories(
        self,
        app: str,
        user: str,
        *,
        namespace: Optional[str] = None,
        session_id: Optional[str] = None,
        page_size: Optional[int] = None,
    ) -> Iterator[Memory]:
        return token_pages(
            lambda token: self.list_memories(
                app, user, namespace=namespace, session_id=session_id, limit=page_size, page_token=token
            ),
            "memories",
        )

    def get_memory(self, app: str, user: str, memory_id: str, *, include_embedding: Optional[bool] = None) -> Memory:
        path = f"{user_path(app, user)}/memories/{seg(memory_id)}"
        return cast(Memory, self._call("GET", path, query={"include_embedding": include_embedding}, idempotent=True))

    def update_memory(self, app: str, user: str, memory_id: str, **fields: Any) -> Memory:
        """Replaces the given fields whole (``text``, ``namespace``, ``metadata``, ``embedding``, ``ttl_seconds``)."""
        path = f"{user_path(app, user)}/memories/{seg(memory_id)}"
        return cast(Memory, self._call("PATCH", path, body=fields, idempotent=True))

    def delete_memory(self, app: str, user: str, memory_id: str) -> None:
        self._delete(f"{user_path(app, user)}/memories/{seg(memory_id)}")

    def recall(
        self,
        app: str,
        query: Optional[str] = None,
        *,
        embedding: Optional[Sequence[float]] = None,
        user: Optional[str] = None,
        namespace: Optional[str] = None,
        session_id: Optional[str] = None,
        metadata: Optional[Dict[str, JSON]] = None,
        created_after: Optional[Timestamp] = None,
        created_before: Optional[Timestamp] = None,
        mode: Optional[str] = None,
        limit: Optional[int] = None,
        min_similarity: Optional[float] = None,
    ) -> Recall:
        """Recalls memories by words and/or a vector under exact filters (``POST .../memories/search``).

        Without ``user`` the whole app is searched (an app or admin token).
        """
        body = without_none(
            {
                "query": query,
                "embedding": list(embedding) if embedding is not None else None,
                "user": user,
                "namespace": namespace,
                "session_id": session_id,
                "metadata": metadata,
                "created_after": encode_timestamp(created_after),
                "created_before": encode_timestamp(created_before),
                "mode": mode,
                "limit": limit,
                "min_similarity": min_similarity,
            }
        )
        return cast(Recall, self._call("POST", f"{app_path(app)}/memories/search", body=body, idempotent=True))

    def recall_user(
        self,
        app: str,
        user: str,
        q: str,
        *,
        namespace: Optional[str] = None,
        mode: Optional[str] = None,
        limit: Optional[int] = None,
    ) -> Recall:
        """The same recall for one user through ``GET .../memories/search`` (words, namespace, mode)."""
        query = {"q": q, "namespace": namespace, "mode": mode, "limit": limit}
        path = f"{user_path(app, user)}/memories/search"
        return cast(Recall, self._call("GET", path, query=query, idempotent=True))
