"""One process's turn of a compiled LangGraph graph on MnemoSaver, for test_graph_restart.py.

Usage: graph_turn.py URL USER THREAD (say TEXT | resume ANSWER). Prints, as
JSON, the messages the scripted model was sent, the graph's state after the
turn and the interrupt it stopped at, if any. Nothing survives the process
but what MnemoSaver stored in mnemod.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Dict, List

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel  # noqa: E402
from langchain_core.messages import AIMessage, BaseMessage  # noqa: E402
from langgraph.graph import END, START, MessagesState, StateGraph  # noqa: E402
from langgraph.types import Command, interrupt  # noqa: E402

from mnemo.adapters.langgraph import MnemoSaver  # noqa: E402

SCRIPT = ["Hello! What should I book?", "A hotel in Lyon, then.", "Booked."]


def main(url: str, user: str, thread: str, verb: str, text: str) -> None:
    sent: List[List[str]] = []

    def chat(state: MessagesState) -> Dict[str, Any]:
        history: List[BaseMessage] = state["messages"]
        sent.append([str(m.content) for m in history])
        # The script's reply for this turn: one reply per user message so far.
        turn = sum(1 for m in history if m.type == "human") - 1
        model = FakeMessagesListChatModel(responses=[AIMessage(content=SCRIPT[turn])])
        return {"messages": [model.invoke(history)]}

    def confirm(state: MessagesState) -> Dict[str, Any]:
        if "book" not in str(state["messages"][-2].content):
            return {}
        answer = interrupt({"question": "book it?"})
        return {"messages": [AIMessage(content=f"confirmed: {answer}")]}

    builder = StateGraph(MessagesState)
    builder.add_node("chat", chat)
    builder.add_node("confirm", confirm)
    builder.add_edge(START, "chat")
    builder.add_edge("chat", "confirm")
    builder.add_edge("confirm", END)
    graph = builder.compile(checkpointer=MnemoSaver(url, app="graphs", user=user))
    config = {"configurable": {"thread_id": thread}}
    given: Any = {"messages": [("user", text)]} if verb == "say" else Command(resume=text)
    graph.invoke(given, config)
    snapshot = graph.get_state(config)
    print(json.dumps({
        "sent": sent,
        "messages": [str(m.content) for m in snapshot.values["messages"]],
        "next": list(snapshot.next),
        "interrupts": [i.value for task in snapshot.tasks for i in task.interrupts],
    }))


if __name__ == "__main__":
    main(*sys.argv[1:6])
