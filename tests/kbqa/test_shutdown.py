"""A server told to stop (SIGTERM) while answers stream stops within seconds, and the answers it
cut short show as interrupted afterwards (issue 10, item 4).

Through a real Daphne and the real anthropic SDK against the local fake Messages API, whose
stream stalls after its first delta: one ``POST /api/answer`` (JSON, the whole answer awaited
by the view) and one ``POST /api/answer/stream`` are in flight when the signal comes.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import httpx

from tests.fakes.anthropic_server import FakeAnthropicServer, StreamReply
from tests.kbqa.live import api_key_create, daphne, manage, server_env

QUESTION = "How long does the recycle bin keep deleted files?"
STOP_SECONDS = 5.0

# Renders every conversation page of the API user as a fresh process (a restarted server)
# shows it, and prints how many turns are marked interrupted and how many still pending.
READ_PAGES = """
from django.contrib.auth import get_user_model
from django.test import Client
from chat.models import Trace
user = get_user_model().objects.get(username="api-client")
client = Client(); client.force_login(user)
pages = [client.get(f"/c/{c.pk}/").content.decode() for c in user.conversations.all()]
print(sum(p.count('data-status="interrupted"') for p in pages),
      Trace.objects.filter(status="pending").count())
"""


def ask(port: int, key: str, path: str) -> None:
    try:
        with httpx.Client(timeout=30) as client:
            headers = {"Authorization": f"Bearer {key}"}
            with client.stream("POST", f"http://127.0.0.1:{port}{path}",
                               json={"question": QUESTION}, headers=headers) as response:
                for _ in response.iter_bytes():
                    pass
    except httpx.HTTPError:
        pass  # the server went away mid-answer, as it should


def exited(pid: int) -> bool:
    """True once ``pid`` is gone or a zombie waiting to be reaped."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def test_sigterm_mid_answer_stops_the_server_and_the_turns_show_interrupted(
    tmp_path: Path,
) -> None:
    with FakeAnthropicServer() as fake:
        fake.default_reply = lambda: StreamReply(  # type: ignore[method-assign]
            deltas=("Deleted files stay ",), fault="stall", after=1
        )
        model = {"KBQA_PROVIDER": "anthropic", "ANTHROPIC_API_KEY": "sk-test",
                 "KBQA_ANTHROPIC_BASE_URL": fake.url, "KBQA_ANTHROPIC_MAX_RETRIES": "0"}
        with daphne(tmp_path, setup=("demo_setup",), **model) as server:
            key = api_key_create(tmp_path)
            clients = [threading.Thread(target=ask, args=(server.port, key, path), daemon=True)
                       for path in ("/api/answer", "/api/answer/stream")]
            for client in clients:
                client.start()
            deadline = time.monotonic() + 30
            while len(fake.requests) < 2 and time.monotonic() < deadline:
                time.sleep(0.05)
            assert len(fake.requests) == 2  # both answers are streaming from the model
            time.sleep(0.3)
            stopping = time.monotonic()
            server.terminate()
            while not exited(server.pid) and time.monotonic() - stopping < 20:
                time.sleep(0.05)
            assert time.monotonic() - stopping < STOP_SECONDS
    restarted = server_env(tmp_path, KBQA_ALLOWED_HOSTS="testserver", **model)
    shown = manage(restarted, "shell", "-c", READ_PAGES).stdout.splitlines()[-1].split()
    assert shown == ["2", "0"]  # both turns shown interrupted, none left pending
