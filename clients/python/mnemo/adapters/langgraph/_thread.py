"""One LangGraph thread as MnemoSaver reads it from its session's events (the layout of saver.py's docstring)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Tuple, cast

from langgraph.checkpoint.base import writes_sort_key  # type: ignore[import]

Stored = Dict[str, Any]


@dataclass
class Thread:
    """One thread as read from its session's events."""

    checkpoints: Dict[str, Dict[str, Dict[str, Any]]] = field(default_factory=dict)  # ns -> id -> content
    blobs: Dict[Tuple[str, str, str], Stored] = field(default_factory=dict)  # (ns, channel, version) -> value
    writes: Dict[Tuple[str, str], Dict[Tuple[str, int], Dict[str, Any]]] = field(default_factory=dict)

    def absorb(self, content: Any) -> None:
        if not isinstance(content, dict):
            return
        if content.get("lg") == "checkpoint":
            # A checkpoint put again replaces the earlier one, as in LangGraph's SQL savers.
            self.checkpoints.setdefault(content["ns"], {})[content["id"]] = content
            for channel, (version, value) in content["blobs"].items():
                self.blobs[(content["ns"], channel, str(version))] = value
        elif content.get("lg") == "writes":
            stored = self.writes.setdefault((content["ns"], content["checkpoint"]), {})
            for idx, channel, value in content["writes"]:
                slot = (content["task"], idx)
                # A regular write is kept from its first put; a special one (error, interrupt) is replaced.
                if idx >= 0 and slot in stored:
                    continue
                stored[slot] = {"task": content["task"], "path": content["path"], "idx": idx, "channel": channel,
                                "value": value}

    def copy(self) -> "Thread":
        """A copy to absorb more events into: a thread handed out is never changed, as other calls may read it."""
        return Thread(
            checkpoints={ns: dict(byid) for ns, byid in self.checkpoints.items()},
            blobs=dict(self.blobs),
            writes={key: dict(stored) for key, stored in self.writes.items()},
        )

    def ordered_writes(self, ns: str, checkpoint_id: str) -> List[Dict[str, Any]]:
        stored = self.writes.get((ns, checkpoint_id), {}).values()
        return sorted(stored, key=lambda w: cast(Tuple[str, str, int], writes_sort_key(w["path"], w["task"], w["idx"])))


@dataclass
class CachedThread:
    """A thread read lately: what its session was when read, to fetch only the events appended since."""

    thread: Thread
    created_at: str
    last_seq: int
    count: int
