"""Many users at once: N concurrent websocket chats and N concurrent SSE answers against one
Daphne process, with a local fake Anthropic model streaming at a set token rate.

Run: ``.venv/bin/python bench/load.py [--chats 200] [--sse 200] [--rate 50]`` (SQLite in a
throwaway data dir), or with ``--db postgres://kbqa:kbqa@127.0.0.1:5432/kbqa`` (the bench
drops and creates database ``kbqa_bench`` on that server; ``.ci/services.sh start``).
Loopback only; every phase is bounded by ``--timeout`` seconds.

The model is ``tests/fakes/anthropic_server.py`` in a subprocess, reached through the real
SDK (``KBQA_ANTHROPIC_BASE_URL``); it streams one delta per token, ``--rate`` tokens per
second, a verified answer of four cited sentences. The model's own pace is
``tokens / rate``; each answer's total time (question sent -> ``done``) is printed as a
ratio of it, so 1.00 means kbqa added nothing a user could wait for.

Printed per phase: answers asked, errors (anything but an ``answered`` done in time), lost
traces (answers that reached ``done`` minus turns stored complete; "+n messages": assistant
messages missing), time to first sentence p50/p95 (ms), total/pace p50/p95, server CPU (%
of one core over the phase), server CPU per answer and peak RSS (MB). ``lone`` is one
answer at a time: its overhead is kbqa's own time per answer (total minus the model's pace,
an upper bound: it includes the fake model's HTTP handling). "model streams alone" is the
same answer straight from the fake model through one SDK client, N at once, no kbqa: what
this machine delivers at that concurrency, the baseline for the rows after it.
``--profile FILE`` records the server with py-spy (speedscope JSON, or collapsed stacks
for a ``.txt`` FILE).
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psutil
import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.fake_model import BACKLOG, QUESTION, TOKENS, model_alone, serve_fake_model  # noqa: E402

FOOTER_DONE = re.compile(r'id="footer-\w+" data-status="(\w+)" hx-swap-oob')
SECRET = "bench-only-secret-key"


# ------------------------------------------------------------------- database and server


def env_for(args: argparse.Namespace, data_dir: str) -> dict[str, str]:
    env = {**os.environ, "KBQA_DATA_DIR": data_dir, "KBQA_SECRET_KEY": SECRET, "KBQA_DEBUG": "0",
           "KBQA_LOG_LEVEL": "WARNING", "DJANGO_SETTINGS_MODULE": "kbqa.settings"}
    env.pop("KBQA_REDIS_URL", None)
    if args.db:
        env["DATABASE_URL"] = args.db.rsplit("/", 1)[0] + "/kbqa_bench"
        if args.redis:
            env["KBQA_REDIS_URL"] = args.redis
    else:
        env.pop("DATABASE_URL", None)
    return env


def postgres_recreate(url: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("DROP DATABASE IF EXISTS kbqa_bench WITH (FORCE)")
        conn.execute("CREATE DATABASE kbqa_bench")


def setup_database(n: int) -> tuple[list[str], list[int], list[str]]:
    """Migrate, ingest the demo documents, and make ``n`` users: returns their session keys,
    one conversation each and one API token each."""
    import django
    from django.core.management import call_command

    django.setup()
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.auth.models import User
    from django.contrib.sessions.backends.db import SessionStore

    from chat.auth import api_token_create
    from chat.models import Conversation

    call_command("migrate", verbosity=0)
    call_command("ingest", str(ROOT / "sources/demo/docs"), verbosity=0, stdout=io.StringIO())
    sessions, conversations, tokens = [], [], []
    for i in range(n):
        user = User(username=f"bench-{i}")
        user.set_unusable_password()
        user.save()
        store = SessionStore()
        store[SESSION_KEY] = str(user.pk)
        store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        store[HASH_SESSION_KEY] = user.get_session_auth_hash()
        store.create()
        sessions.append(store.session_key)
        conversations.append(Conversation.objects.create(owner=user).pk)
        tokens.append(api_token_create(user=user, name="bench")[1])
    return sessions, conversations, tokens


def stored_counts() -> tuple[int, int]:
    """(traces stored complete, assistant messages complete and linked to their trace) for
    QUESTION: "complete" is anything but pending (an answered, refused or error turn)."""
    from django.db import connections

    from chat.models import Message, Trace

    connections.close_all()
    traces = Trace.objects.filter(question=QUESTION).exclude(status="pending").count()
    messages = (
        Message.objects.filter(role="assistant", trace__question=QUESTION)
        .exclude(status="pending")
        .count()
    )
    return traces, messages


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(env: dict[str, str], port: int) -> subprocess.Popen[bytes]:
    # Twisted listens with a backlog of 50: 200 clients connecting at once would see dropped
    # SYNs and retry after 1-3 s. The endpoint string raises it (README: production recipe).
    endpoint = f"tcp:port={port}:interface=127.0.0.1:backlog={BACKLOG}"
    # Daphne drops a websocket the app has not accepted within 5 s (its default); accepting
    # needs the session and the conversation from the database, which waits under a burst.
    cmd = [sys.executable, "-m", "daphne", "-e", endpoint, "--websocket_connect_timeout", "60",
           "kbqa.asgi:application"]
    log = open(Path(env["KBQA_DATA_DIR"]) / "daphne.log", "wb")  # noqa: SIM115 - child owns it
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stderr=log, stdout=log)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return proc
        if proc.poll() is not None:
            raise SystemExit(f"daphne exited: {Path(log.name).read_text()[-2000:]}")
        time.sleep(0.2)
    raise SystemExit("daphne did not start in 60 s")


# ------------------------------------------------------------------------------ clients


@dataclass
class Result:
    ok: bool  # reached done with status "answered"
    first_ms: float = 0.0
    total_ms: float = 0.0
    error: str = ""
    done: bool = False  # reached done (any status): the client was told the turn ended


async def alone_once(client: Any, timeout: float) -> Result:
    """One answer straight from the fake model (``fake_model.model_alone``), no kbqa."""
    try:
        first, total = await model_alone(client, timeout)
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


async def sse_once(client: httpx.AsyncClient, port: int, token: str, timeout: float) -> Result:
    """One ``POST /api/answer/stream``: request sent -> first ``sentence`` -> ``done``."""
    started, first, event = time.perf_counter(), 0.0, ""
    try:
        async with asyncio.timeout(timeout):
            async with client.stream(
                "POST", f"http://127.0.0.1:{port}/api/answer/stream", json={"question": QUESTION},
                headers={"Authorization": f"Bearer {token}"},
            ) as response:
                if response.status_code != 200:
                    return Result(False, error=f"HTTP {response.status_code}")
                async for line in response.aiter_lines():
                    now = time.perf_counter()
                    if line.startswith("event: "):
                        event = line[7:]
                        first = first or (now if event == "sentence" else 0.0)
                    elif line.startswith("data: ") and event == "done":
                        return finished(json.loads(line[6:])["status"], started, first, now)
        return Result(False, error="stream ended before done")
    except Exception as exc:
        return Result(False, error=type(exc).__name__)


# ---------------------------------------------------------------------------- measuring


@dataclass
class Phase:
    name: str
    results: list[Result] = field(default_factory=list)
    cpu_percent: float = 0.0
    cpu_ms_per_answer: float = 0.0
    peak_rss_mb: float = 0.0
    lost_traces: int = 0
    lost_messages: int = 0
    wall_s: float = 0.0


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def measured(name: str, server: psutil.Process, runs: list) -> Phase:  # type: ignore[type-arg]
    before, started, peak = server.cpu_times(), time.perf_counter(), 0

    async def sample() -> None:
        nonlocal peak
        while True:
            peak = max(peak, server.memory_info().rss)
            await asyncio.sleep(0.1)

    sampler = asyncio.create_task(sample())
    results = await asyncio.gather(*runs)
    sampler.cancel()
    wall = time.perf_counter() - started
    after = server.cpu_times()
    cpu_s = after.user + after.system - before.user - before.system
    per_answer = cpu_s * 1000 / max(len(results), 1)
    return Phase(name, list(results), cpu_s / wall * 100, per_answer, peak / 2**20, wall_s=wall)


def report(phases: list[Phase], rate: float, label: str) -> None:
    pace_ms = len(TOKENS) / rate * 1000
    print(f"\n{label}: model pace {pace_ms:.0f} ms ({len(TOKENS)} tokens at {rate:g}/s)")
    print("| phase | answers | errors | lost traces | first sentence p50/p95 (ms) "
          "| total/pace p50/p95 | overhead p50 (ms) | server CPU | CPU ms/answer "
          "| peak RSS (MB) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for p in phases:
        ok = [r for r in p.results if r.ok]
        firsts, totals = [r.first_ms for r in ok], [r.total_ms / pace_ms for r in ok]
        overhead = pct([r.total_ms - pace_ms for r in ok], 0.5)
        print(f"| {p.name} | {len(p.results)} | {len(p.results) - len(ok)} | "
              f"{p.lost_traces} (+{p.lost_messages} messages) | "
              f"{pct(firsts, .5):.0f} / {pct(firsts, .95):.0f} | "
              f"{pct(totals, .5):.2f} / {pct(totals, .95):.2f} | {overhead:.0f} | "
              f"{p.cpu_percent:.0f}% | {p.cpu_ms_per_answer:.1f} | {p.peak_rss_mb:.0f} |")
        errors = sorted({r.error for r in p.results if not r.ok})
        if errors:
            print(f"  errors in {p.name}: {', '.join(errors)}")


async def run_phases(args: argparse.Namespace, port: int, server: psutil.Process,
                     creds: tuple[list[str], list[int], list[str]], url: str) -> list[Phase]:
    sessions, conversations, tokens = creds
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
    phases: list[Phase] = []
    asked = 0
    async with httpx.AsyncClient(timeout=args.timeout, limits=limits) as client:
        warm = await sse_once(client, port, tokens[0], args.timeout)  # index, jieba, imports
        asked += warm.done
        profiler = profile_start(args, server.pid)
        async def one_by_one() -> list[Result]:
            return [await sse_once(client, port, tokens[0], args.timeout) for _ in range(args.lone)]

        phases.append(await measured("lone (SSE, one at a time)", server, [one_by_one()]))
        phases[-1].results = phases[-1].results[0]  # type: ignore[assignment]
        phases[-1].cpu_ms_per_answer /= max(args.lone, 1)
        asked += sum(r.done for r in phases[-1].results)
        n = max(args.chats, args.sse)
        import anthropic

        model = anthropic.AsyncAnthropic(api_key="bench", base_url=url, max_retries=0)
        runs = [alone_once(model, args.timeout) for _ in range(n)]
        phases.append(await measured(f"{n} model streams alone (no kbqa)", server, runs))
        await model.close()
        if args.chats:
            runs = [chat_once(port, sessions[i], conversations[i], args.timeout)
                    for i in range(args.chats)]
            phases.append(await measured(f"{args.chats} websocket chats", server, runs))
            asked += sum(r.done for r in phases[-1].results)
            await settle(phases[-1], asked)
        if args.sse:
            runs = [sse_once(client, port, tokens[i], args.timeout) for i in range(args.sse)]
            phases.append(await measured(f"{args.sse} SSE answers", server, runs))
            asked += sum(r.done for r in phases[-1].results)
            await settle(phases[-1], asked)
    profile_stop(profiler)
    return phases


async def settle(phase: Phase, asked: int) -> None:
    """Lost = answers that reached ``done`` so far minus turns stored complete (the turn
    service stores before it sends ``done``, so nothing should be in flight here)."""
    for _ in range(50):
        traces, messages = await asyncio.to_thread(stored_counts)
        if traces >= asked and messages >= asked:
            break
        await asyncio.sleep(0.2)
    phase.lost_traces, phase.lost_messages = max(0, asked - traces), max(0, asked - messages)


def profile_start(args: argparse.Namespace, pid: int) -> subprocess.Popen[bytes] | None:
    if not args.profile:
        return None
    exe = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    fmt = "raw" if args.profile.endswith(".txt") else "speedscope"  # raw: collapsed stacks
    cmd = [exe, "record", "--pid", str(pid), "--format", fmt, "--rate", "100",
           "--output", args.profile, "--threads", "--nonblocking"]
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL)


def profile_stop(proc: subprocess.Popen[bytes] | None) -> None:
    if proc is not None:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=60)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chats", type=int, default=200, help="concurrent websocket chats")
    parser.add_argument("--sse", type=int, default=200, help="concurrent SSE answers")
    parser.add_argument("--lone", type=int, default=10, help="answers one at a time first")
    parser.add_argument("--rate", type=float, default=50.0, help="model tokens per second")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per answer")
    parser.add_argument("--db", default="", help="a postgres:// URL (default: SQLite)")
    parser.add_argument("--redis", default="", help="redis:// URL for the channel layer")
    parser.add_argument("--profile", default="", help="py-spy speedscope output file")
    parser.add_argument("--fake-model", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.fake_model:
        serve_fake_model(args.rate)
        return
    n = max(args.chats, args.sse, 1)
    if not 0 < n <= 1000 or not 0 < args.rate <= 1000:
        raise SystemExit("keep --chats/--sse in 1..1000 and --rate in 1..1000")
    with tempfile.TemporaryDirectory(prefix="kbqa-load-") as data_dir:
        env = env_for(args, data_dir)
        if args.db:
            postgres_recreate(args.db)
        os.environ.update(env)
        if "DATABASE_URL" not in env:
            os.environ.pop("DATABASE_URL", None)
        creds = setup_database(n)
        from django.db import connections

        connections.close_all()
        fake = subprocess.Popen(
            [sys.executable, __file__, "--fake-model", "--rate", str(args.rate)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=ROOT,
        )
        try:
            url = fake.stdout.readline().decode().strip()  # type: ignore[union-attr]
            server_env = {**env, "KBQA_PROVIDER": "anthropic", "ANTHROPIC_API_KEY": "bench",
                          "KBQA_ANTHROPIC_BASE_URL": url, "KBQA_ANTHROPIC_MAX_RETRIES": "0"}
            port = free_port()
            daphne = start_server(server_env, port)
            try:
                server = psutil.Process(daphne.pid)
                phases = asyncio.run(run_phases(args, port, server, creds, url))
            finally:
                daphne.terminate()
                daphne.wait(timeout=30)
            log = (Path(data_dir) / "daphne.log").read_text(errors="replace").splitlines()
            if any(not r.ok for p in phases for r in p.results):
                print("server log (last 30 lines):", *log[-30:], sep="\n")
        finally:
            fake.stdin.close()  # type: ignore[union-attr]
            fake.wait(timeout=30)
    label = "PostgreSQL" if args.db else "SQLite"
    if args.redis:
        label += " + Redis channel layer"
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    report(phases, args.rate, f"{label}, one Daphne process, load average {load} on "
           f"{os.cpu_count()} CPUs at the end")


if __name__ == "__main__":
    main()
