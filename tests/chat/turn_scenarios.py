"""Turn scenarios run in a subprocess with the production settings (``kbqa.settings``: a
SQLite file in WAL mode, IMMEDIATE transactions, the database thread pool), which the test
process cannot use: its own database runs inside per-test transactions.

``python -m tests.chat.turn_scenarios SCENARIO [ARG]`` with ``KBQA_DATA_DIR`` set prints one
JSON line (``stall`` prints "streaming" and waits to be killed):

- ``setup``: migrate, ingest ``tests/fixtures/sources/kb``;
- ``concurrent N``: N websocket chats and N ``POST /api/answer`` at once, through the real
  consumer, API and turn code; counts what was stored;
- ``stall``: one chat whose model stops after its first sentence, until the process is
  killed (``kill -9``: the server dies mid-answer);
- ``read``: the conversation page of the ``stall`` user, as the restarted server shows it;
- ``uploads``: the same file ingested by two threads at the same moment.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import sys
import threading
from collections.abc import AsyncIterator
from io import StringIO
from pathlib import Path
from typing import Any

import django
from django.db.models import Count

ROOT = Path(__file__).resolve().parents[2]
QUESTION = "How many days of annual leave do full-time employees receive?"


def main() -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = "kbqa.settings"
    django.setup()
    scenario, *args = sys.argv[1:]
    result = SCENARIOS[scenario](*args)
    print(json.dumps(result), flush=True)


def setup() -> dict[str, Any]:
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("ingest", str(ROOT / "tests/fixtures/sources/kb"), stdout=StringIO())
    return {"ok": True}


STALLED_ANSWER = (  # verified against doc-030#c01, block [1] for QUESTION
    "Full-time employees receive 25 days of annual leave per calendar year [1]. "
    "Up to five unused days can be carried over to the next year [1]."
)


def slow_extractive(*, delay: float, stall_after_first_sentence: bool = False) -> Any:
    """The offline provider, streaming one word per ``delay`` seconds like a model; or one
    that answers ``STALLED_ANSWER`` and stops for good after its first sentence."""
    from kbqa.core.providers.base import word_deltas
    from kbqa.core.readers.extractive.reader import ExtractiveProvider

    class Slow(ExtractiveProvider):
        async def stream(self, prompt: Any, call: Any) -> AsyncIterator[str]:
            if not (stall_after_first_sentence and prompt.task.startswith("answer")):
                async for delta in super().stream(prompt, call):
                    await asyncio.sleep(delay)
                    yield delta
                return
            for delta in word_deltas(STALLED_ANSWER):
                yield delta
                if delta.startswith("Up"):  # the first sentence is complete and shown
                    await asyncio.sleep(3600)

    return Slow()


def user_with_session(name: str) -> tuple[Any, str, int]:
    from django.contrib.auth import get_user_model
    from django.test import Client

    from chat.models import Conversation

    user = get_user_model().objects.create_user(name)  # no password: nothing to hash
    client = Client()
    client.force_login(user)
    conversation = Conversation.objects.create(owner=user)
    return user, client.cookies["sessionid"].value, conversation.pk


DONE = re.compile(r'id="footer-\w+" data-status="(\w+)" hx-swap-oob')
SENTENCE = re.compile(r'class="sentence sentence-')


async def chat_turn(session: str, conversation: int, *, until: re.Pattern[str] = DONE) -> list[str]:
    """One question over the real websocket route; frames up to the one matching ``until``."""
    from channels.testing import WebsocketCommunicator

    from kbqa.asgi import application

    headers = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1"),
               (b"cookie", f"sessionid={session}".encode())]
    comm = WebsocketCommunicator(application, f"/ws/chat/{conversation}/", headers=headers)
    connected, _ = await comm.connect(timeout=120)  # the default 1 s is too short for 50 at once
    assert connected
    # generous: 50 turns share two busy cores, and the test asserts loss, not speed
    await comm.receive_from(timeout=120)  # connection-state
    await comm.send_to(text_data=json.dumps({"question": QUESTION}))
    frames: list[str] = []
    while not frames or not until.search(frames[-1]):
        frames.append(await comm.receive_from(timeout=180))
    if until is DONE:
        await comm.disconnect()
    return frames


async def api_turn(token: str) -> int:
    from django.test import AsyncClient

    response = await AsyncClient().post(
        "/api/answer", {"question": QUESTION}, content_type="application/json",
        headers={"Authorization": f"Bearer {token}"},
    )
    return response.status_code


def concurrent(n: str) -> dict[str, Any]:
    from asgiref.sync import async_to_sync

    import chat.pipeline_settings
    from chat.auth import api_token_create
    from chat.models import Message, Trace

    provider = slow_extractive(delay=0.002)
    chat.pipeline_settings.provider_from_settings = lambda name=None: provider  # type: ignore[assignment]
    people = [user_with_session(f"u{i}") for i in range(int(n))]
    tokens = [api_token_create(user=user)[1] for user, _, _ in people]

    async def everyone() -> list[Any]:
        chats = [chat_turn(session, conversation) for _, session, conversation in people]
        calls = [api_turn(token) for token in tokens]
        return await asyncio.gather(*chats, *calls, return_exceptions=True)

    results = async_to_sync(everyone)()
    return {
        "errors": [repr(r) for r in results if isinstance(r, BaseException)],
        "http": sorted({r for r in results if isinstance(r, int)}),
        "chat_done": sorted({DONE.findall(r[-1])[0] for r in results if isinstance(r, list)}),
        "traces": dict(Trace.objects.values_list("status").annotate(n=Count("id"))),
        "user_messages": Message.objects.filter(role="user").count(),
        "answers": dict(
            Message.objects.filter(role="assistant", trace__isnull=False)
            .values_list("status").annotate(n=Count("id"))
        ),
    }


def stall() -> None:
    import chat.pipeline_settings

    provider = slow_extractive(delay=0.001, stall_after_first_sentence=True)
    chat.pipeline_settings.provider_from_settings = lambda name=None: provider  # type: ignore[assignment]
    _, session, conversation = user_with_session("stalled")

    async def run() -> None:
        await chat_turn(session, conversation, until=SENTENCE)
        print("streaming", flush=True)
        await asyncio.sleep(3600)

    from asgiref.sync import async_to_sync

    async_to_sync(run)()


def read() -> dict[str, Any]:
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.utils.html import escape

    from chat.models import Message, Trace

    user = get_user_model().objects.get(username="stalled")
    client = Client()
    client.force_login(user)
    conversation = user.conversations.get()
    page = client.get(f"/c/{conversation.pk}/").content.decode()
    trace = Trace.objects.get()
    answer = Message.objects.get(role="assistant")
    error = page.split('class="turn-error"', 1)[-1].split("</div>", 1)[0]
    return {
        "page_status": page.count('data-status="interrupted"'),
        "page_error": " ".join(re.sub(r"<[^>]+>|^[^>]*>", " ", error).split()),
        "page_sentence": bool(answer.sentences) and all(
            escape(s["text"]) in page for s in answer.sentences),
        "trace_model": bool(trace.provider and trace.model),
        "trace": trace.status,
        "note": trace.data.get("interrupted", {}).get("note", ""),
        "message": answer.status,
        "message_trace": answer.trace_id == trace.id,
        # the reviewer's trace holds what the user was shown, and what led to it
        "trace_shown": [s["text"] for s in trace.data.get("emitted") or []]
        == [s["text"] for s in answer.sentences] != [],
        "trace_hits": bool(trace.data.get("hits")) and bool(trace.standalone_query),
    }


def uploads() -> dict[str, Any]:
    from django.core.files.base import ContentFile

    from sources.services import document_ingest

    data = b"---\ndoc_id: same-upload\ntitle: Same upload\n---\n" + (
        ROOT / "tests/fixtures/sources/kb/travel-policy.md"
    ).read_bytes().split(b"---", 2)[2]
    barrier, outcomes = threading.Barrier(2), []

    def ingest() -> None:
        barrier.wait()
        try:
            outcomes.append(document_ingest(file=ContentFile(data, name="same.md")).status)
        except Exception as exc:
            outcomes.append(repr(exc))
        finally:
            from django.db import connection

            connection.close()

    threads = [threading.Thread(target=ingest) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return {"outcomes": sorted(outcomes)}


SCENARIOS: dict[str, Any] = {
    "setup": setup, "concurrent": concurrent, "stall": stall, "read": read, "uploads": uploads,
}

if __name__ == "__main__":
    main()
