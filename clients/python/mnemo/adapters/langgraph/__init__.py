"""LangGraph for Python on mnemod: ``MnemoSaver`` (a checkpointer) and ``MnemoStore`` (a long-term store).

Both share the TypeScript adapters' wire layout (clients/typescript/src/langgraph),
so a thread or a store item written from one language reads from the other.
Importing this package needs ``langgraph`` installed.
"""

from .saver import MnemoSaver
from .store import MnemoStore

__all__ = ["MnemoSaver", "MnemoStore"]
