"""The clients of ``bench/load.py``: one answer each, timed from the question sent.

Each returns a ``Result`` and never raises: any failure is a counted error named by its
exception's type. ``chat_once`` is a logged-in browser tab (websocket, htmx fragments),
``sse_once`` an API client (``POST /api/answer/stream``), ``alone_once`` the same answer
straight from the fake model through kbqa's Anthropic provider, no pipeline, no server.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from dataclasses import dataclass
from typing import Any

import aiohttp
import websockets

from bench.fake_model import QUESTION, model_alone

FOOTER_DONE = re.compile(r'id="footer-\w+" data-status="(\w+)" hx-swap-oob')


@dataclass
class Result:
    ok: bool  # reached done with status "answered"
    first_ms: float = 0.0
    total_ms: float = 0.0
    error: str = ""
    done: bool = False  # reached done (any status): the client was told the turn ended


async def alone_once(provider: Any, timeout: float) -> Result:
    """One answer straight from the fake model (``fake_model.model_alone``), no kbqa."""
    try:
        first, total = await model_alone(provider, timeout)
    except Exception as exc:
        return Result(False, error=type(exc).__name__)
    return Result(True, first * 1000, total * 1000, done=True)


def finished(status: str, started: float, first: float, now: float) -> Result:
    """A turn that reached ``done`` with ``status``; times in ms from ``started``."""
    ok = status == "answered"
    error = "" if ok else status
    return Result(ok, (first - started) * 1000, (now - started) * 1000, error, done=True)


async def chat_once(port: int, session: str, conversation: int, timeout: float) -> Result:
    """One websocket turn: question sent -> first sentence fragment -> footer marked done."""
    url = f"ws://127.0.0.1:{port}/ws/chat/{conversation}/"
    headers = {"Cookie": f"sessionid={session}", "Origin": f"http://127.0.0.1:{port}"}
    try:
        async with asyncio.timeout(timeout):
            async with websockets.connect(
                url, additional_headers=headers, max_size=None, open_timeout=timeout
            ) as ws:
                await ws.recv()  # connection-state: open
                started, first = time.perf_counter(), 0.0
                await ws.send(json.dumps({"question": QUESTION}))
                async for frame in ws:
                    now = time.perf_counter()
                    if not first and 'class="sentence sentence-' in frame:
                        first = now
                    if done := FOOTER_DONE.search(str(frame)):
                        return finished(done.group(1), started, first, now)
                return Result(False, error="socket closed before done")
    except Exception as exc:  # every failure is a counted error, named by its type
        return Result(False, error=type(exc).__name__)


async def sse_once(client: aiohttp.ClientSession, port: int, token: str,
                   timeout: float) -> Result:
    """One ``POST /api/answer/stream``: request sent -> first ``sentence`` -> ``done``."""
    started, first, event = time.perf_counter(), 0.0, ""
    try:
        async with asyncio.timeout(timeout):
            async with client.post(
                f"http://127.0.0.1:{port}/api/answer/stream", json={"question": QUESTION},
                headers={"Authorization": f"Bearer {token}"},
            ) as response:
                if response.status != 200:
                    return Result(False, error=f"HTTP {response.status}")
                async for raw in response.content:  # one line at a time
                    now = time.perf_counter()
                    if raw.startswith(b"event: "):
                        event = raw[7:].decode().strip()
                        first = first or (now if event == "sentence" else 0.0)
                    elif raw.startswith(b"data: ") and event == "done":
                        return finished(json.loads(raw[6:])["status"], started, first, now)
        return Result(False, error="stream ended before done")
    except Exception as exc:
        return Result(False, error=type(exc).__name__)
