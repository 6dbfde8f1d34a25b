"""The Python MCP SDK 2.3.0 as a stock client of mnemod's MCP endpoint (a second one, beside tests/mcp's).

``mcp.Client`` over ``streamable_http_client`` with an ``httpx2`` client that
carries the app's bearer token, in ``mode="legacy"`` (the initialize
handshake) and in ``mode="auto"``: the SDK first probes ``server/discover``
at protocol 2026-07-28, which mnemod does not offer (JSON-RPC -32601), and
falls back to ``initialize``, so both end on a handshake-era version that
mnemod speaks. Each lists the tools and calls ``remember``, ``recall`` with a
natural question and ``search_conversations``.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Dict

import httpx2
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError
from mcp.client.streamable_http import streamable_http_client

from mnemo import Client as MnemoClient

TOKEN = "shop-token"
AUTH = f"auth:\n  required: true\napps:\n  shop:\n    tokens: [{TOKEN}]\n"


def structured(result: Any) -> Dict[str, Any]:
    assert not result.is_error, result.content
    if result.structured_content is not None:
        return dict(result.structured_content)
    return json.loads(result.content[0].text)


@pytest.mark.asyncio
@pytest.mark.parametrize("mode", ["legacy", "auto"])
@pytest.mark.parametrize("backend", ["memory", "sqlite"])
async def test_tools_through_the_sdk(mode: str, backend: str, start_daemon: Callable[..., Any]) -> None:
    daemon = start_daemon(backend, sections=AUTH)
    with MnemoClient(daemon.url, token=TOKEN) as rest:
        said = {"author": "user", "content": {"text": "deploy with make -C /srv/app"}}
        rest.append_event("shop", "ann", "trip", said, create_if_missing=True)
    url = f"{daemon.url}/v1/apps/shop/users/ann/mcp"
    async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {TOKEN}"}) as http:
        async with Client(streamable_http_client(url, http_client=http), mode=mode) as client:
            assert client.session.initialize_result is not None  # auto fell back to the handshake
            assert client.session.discover_result is None
            names = {tool.name for tool in (await client.list_tools()).tools}
            assert {"remember", "recall", "forget", "search_conversations", "list_conversations",
                    "get_conversation"} <= names

            stored = structured(await client.call_tool("remember", {"text": "Ann's printer is a LaserJet 4"}))
            assert stored["id"]
            recalled = structured(await client.call_tool("recall", {"query": "Which printer does Ann have?"}))
            assert [m["text"] for m in recalled["memories"]] == ["Ann's printer is a LaserJet 4"]
            found = structured(await client.call_tool("search_conversations", {"query": "how do we deploy the app?"}))
            assert [result["session"]["id"] for result in found["results"]] == ["trip"]
            assert "make -C /srv/app" in found["results"][0]["hits"][0]["excerpt"]


@pytest.mark.asyncio
async def test_a_wrong_token_is_refused(start_daemon: Callable[..., Any]) -> None:
    daemon = start_daemon("memory", sections=AUTH)
    url = f"{daemon.url}/v1/apps/shop/users/ann/mcp"
    async with httpx2.AsyncClient(headers={"Authorization": "Bearer not-the-token"}) as http:
        # The SDK reports the refused handshake as an internal error (-32603) inside its task group.
        with pytest.raises(BaseExceptionGroup) as refused:
            async with Client(streamable_http_client(url, http_client=http), mode="legacy"):
                pass
        assert refused.group_contains(MCPError)
        answer = await http.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "ping"},
                                 headers={"Accept": "application/json, text/event-stream"})
        assert answer.status_code == 401
