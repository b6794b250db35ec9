"""Many users at once: N concurrent websocket chats and N concurrent SSE answers against one
Daphne process, with a local fake Anthropic model streaming at a set token rate.

Run: ``.venv/bin/python bench/load.py [--chats 200] [--sse 200] [--rate 50]`` (SQLite in a
throwaway data dir), or with ``--db postgres://kbqa:kbqa@127.0.0.1:5432/kbqa`` (the bench
drops and creates database ``kbqa_bench`` on that server; ``.ci/services.sh start``).
Loopback only; every phase is bounded by ``--timeout`` seconds.

The model is ``bench/fake_model.py`` in a subprocess (the Messages API's events, errors and
model ids from ``tests/fakes/anthropic_server.py``, served from one asyncio loop with one timer
wheel), reached through the real SDK (``KBQA_ANTHROPIC_BASE_URL``); it streams a verified
answer of four cited sentences, 66 tokens in text deltas of 2 tokens as the real API sends
them, ``--rate`` tokens per second. The model's own pace is ``tokens / rate``; each answer's
total time (question sent -> ``done``) is printed as a ratio of it, so 1.00 means kbqa added
nothing a user could wait for.

Printed per phase: answers asked, errors (anything but an ``answered`` done in time), lost
traces (answers that reached ``done`` minus turns stored complete; "+n messages": assistant
messages missing), time to first sentence p50/p95 (ms), total/pace p50/p95, server CPU (%
of one core over the phase), server CPU per answer, peak RSS (MB), and the rig's own CPU per
answer: this process (the clients) and the fake model, which share the cores with the server.
``lone`` is one
answer at a time: its overhead is kbqa's own time per answer (total minus the model's pace,
an upper bound: it includes the fake model's HTTP handling). "model streams alone" is the
same answer straight from the fake model through kbqa's Anthropic provider (one SDK client),
N at once, no pipeline and no server: what this machine delivers at that concurrency, the
baseline for the rows after it. CPU ms/answer is the server's whole CPU time over the phase
divided by the answers, and in brackets its main thread's alone (the event loop); in the
lone phase it includes the idle server's own ticking.
``--against DIR`` (another checkout, e.g. ``/work/main``) starts a second Daphne with that
checkout's code on the same database and fake model, and runs every phase on both, one
after the other, for a before/after table from one run. ``--profile FILE`` records this
checkout's server with py-spy (speedscope JSON, or collapsed stacks for a ``.txt`` FILE).

Modules: ``load_server`` (database, Daphne processes, profiler), ``load_clients`` (one
answer per client), ``load_report`` (measuring a phase, the table), ``fake_model``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.checkout import commit  # noqa: E402
from bench.fake_model import serve_fake_model  # noqa: E402
from bench.load_clients import Result, alone_once, chat_once, sse_once  # noqa: E402
from bench.load_report import Phase, measured, report  # noqa: E402
from bench.load_server import (  # noqa: E402
    Credentials,
    env_for,
    free_port,
    postgres_recreate,
    profile_start,
    profile_stop,
    server_log,
    setup_database,
    start_server,
    stored_counts,
)


@dataclass
class Server:
    code: str  # the checkout's commit
    port: int
    process: psutil.Process
    lone_user: int  # the user whose token the lone answers use (questions per minute)


class Run:
    """The phases of one bench run over one or two servers; ``asked`` counts the answers
    that reached ``done`` so far (stored turns must match them)."""

    def __init__(self, args: argparse.Namespace, servers: list[Server], creds: Credentials,
                 client: aiohttp.ClientSession, fake: psutil.Process) -> None:
        self.args, self.servers, self.creds, self.client = args, servers, creds, client
        self.rig = (psutil.Process(), fake)  # the clients (this process), the fake model
        self.asked = 0
        self.phases: list[Phase] = []

    def add(self, phase: Phase, server: Server, *, stored: bool = True) -> Phase:
        phase.code = server.code
        self.asked += sum(r.done for r in phase.results) if stored else 0
        self.phases.append(phase)
        return phase

    async def lone(self, server: Server) -> None:
        token, timeout = self.creds.tokens[server.lone_user], self.args.timeout

        async def one_by_one() -> list[Result]:
            return [await sse_once(self.client, server.port, token, timeout)
                    for _ in range(self.args.lone)]

        self.add(await measured("lone (SSE, one at a time)", server.process, [one_by_one()],
                                 self.rig),
                 server)

    async def alone(self, url: str) -> None:
        from kbqa.core.providers.anthropic import AnthropicProvider

        n = max(self.args.chats, self.args.sse)
        provider = AnthropicProvider(api_key="bench", model="claude-sonnet-4-6", base_url=url,
                                     max_retries=0, timeout=self.args.timeout)
        runs = [alone_once(provider, self.args.timeout) for _ in range(n)]
        phase = await measured(f"{n} model streams alone (no kbqa)", self.servers[0].process,
                               runs, self.rig)
        await provider.aclose()
        phase.measures_server = False
        self.add(phase, Server("-", 0, self.servers[0].process, 0), stored=False)

    async def chats(self, j: int, server: Server) -> None:
        c, t = self.creds, self.args.timeout
        runs = [chat_once(server.port, c.sessions[i], c.conversations[j][i], t)
                for i in range(self.args.chats)]
        phase = await measured(f"{self.args.chats} websocket chats", server.process, runs,
                               self.rig)
        await self.settle(self.add(phase, server))

    async def sse(self, server: Server) -> None:
        runs = [sse_once(self.client, server.port, self.creds.tokens[i], self.args.timeout)
                for i in range(self.args.sse)]
        phase = await measured(f"{self.args.sse} SSE answers", server.process, runs, self.rig)
        await self.settle(self.add(phase, server))

    async def settle(self, phase: Phase) -> None:
        """Lost = answers that reached ``done`` so far minus turns stored complete (the turn
        service stores before it sends ``done``, so nothing should be in flight here)."""
        for _ in range(50):
            traces, messages = await asyncio.to_thread(stored_counts)
            if traces >= self.asked and messages >= self.asked:
                break
            await asyncio.sleep(0.2)
        phase.lost_traces = max(0, self.asked - traces)
        phase.lost_messages = max(0, self.asked - messages)


async def run_phases(args: argparse.Namespace, servers: list[Server], creds: Credentials,
                     url: str, fake: psutil.Process) -> list[Phase]:
    """Warm each server, then: lone answers, the model alone, chats, SSE answers; with two
    servers each phase runs on both, the order swapped from one phase to the next."""
    # aiohttp's C parser reads the answers' SSE lines: httpx's pure-Python h11 cost the
    # bench's clients about 1.5 ms of CPU per answer, on the cores the server needs.
    connector = aiohttp.TCPConnector(limit=0)  # no cap: every answer at once
    async with aiohttp.ClientSession(connector=connector) as client:
        run = Run(args, servers, creds, client, fake)
        for server in servers:  # index, jieba, imports
            warm = await sse_once(client, server.port, creds.tokens[server.lone_user],
                                  args.timeout)
            run.asked += warm.done
        profiler = profile_start(args.profile, servers[0].process.pid)
        try:
            for server in servers:
                await run.lone(server)
            await run.alone(url)
            order = list(enumerate(servers))
            if args.chats:
                for j, server in order:
                    await run.chats(j, server)
            if args.sse:
                for _, server in reversed(order):
                    await run.sse(server)
        finally:
            profile_stop(profiler)
    return run.phases


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chats", type=int, default=200, help="concurrent websocket chats")
    parser.add_argument("--sse", type=int, default=200, help="concurrent SSE answers")
    parser.add_argument("--lone", type=int, default=10, help="answers one at a time first")
    parser.add_argument("--rate", type=float, default=50.0, help="model tokens per second")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per answer")
    parser.add_argument("--db", default="", help="a postgres:// URL (default: SQLite)")
    parser.add_argument("--redis", default="", help="redis:// URL for the channel layer")
    parser.add_argument("--profile", default="", help="py-spy output file (this checkout)")
    parser.add_argument("--against", type=Path, help="another checkout to measure as well")
    parser.add_argument("--fake-model", action="store_true", help=argparse.SUPPRESS)
    return parser.parse_args()


def main() -> None:
    args = parse_args()
    if args.fake_model:
        serve_fake_model(args.rate)
        return
    n = max(args.chats, args.sse, 1)
    if not 0 < n <= 1000 or not 0 < args.rate <= 1000 or not 0 <= args.lone <= 15:
        raise SystemExit("keep --chats/--sse in 1..1000, --rate in 1..1000 and --lone in "
                         "0..15 (the questions-per-minute limit is 20)")
    codes = [ROOT] + ([args.against.resolve()] if args.against else [])
    with tempfile.TemporaryDirectory(prefix="kbqa-load-") as data_dir:
        env = env_for(args, data_dir)
        if args.db:
            postgres_recreate(args.db)
        os.environ.update(env)
        if "DATABASE_URL" not in env:
            os.environ.pop("DATABASE_URL", None)
        creds = setup_database(n + len(codes), len(codes))
        from django.db import connections

        connections.close_all()
        phases = serve_and_run(args, env, codes, creds, n)
    label = "PostgreSQL" if args.db else "SQLite"
    if args.redis:
        label += " + Redis channel layer"
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    report(phases, args.rate, f"{label}, one Daphne process per checkout, load average {load} "
           f"on {os.cpu_count()} CPUs at the end")


def serve_and_run(args: argparse.Namespace, env: dict[str, str], codes: list[Path],
                  creds: Credentials, n: int) -> list[Phase]:
    """Start the fake model and one Daphne per checkout, run the phases, stop them all."""
    fake = subprocess.Popen([sys.executable, __file__, "--fake-model", "--rate", str(args.rate)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=ROOT)
    daphnes: list[subprocess.Popen[bytes]] = []
    try:
        url = fake.stdout.readline().decode().strip()  # type: ignore[union-attr]
        server_env = {**env, "KBQA_PROVIDER": "anthropic", "ANTHROPIC_API_KEY": "bench",
                      "KBQA_ANTHROPIC_BASE_URL": url, "KBQA_ANTHROPIC_MAX_RETRIES": "0"}
        servers = []
        for j, code in enumerate(codes):
            port = free_port()
            daphnes.append(start_server(server_env, port, code))
            servers.append(Server(commit(code), port, psutil.Process(daphnes[-1].pid), n + j))
        phases = asyncio.run(run_phases(args, servers, creds, url, psutil.Process(fake.pid)))
        if any(not r.ok for p in phases for r in p.results):
            for server in servers:
                lines = server_log(server_env, server.port)
                # the access log drowns the failure: its lines that are not requests
                told = [ln for ln in lines if not ln.startswith("127.0.0.1:")]
                print(f"server log of {server.code} (last 60 lines but the access log):",
                      *told[-60:], sep="\n")
        return phases
    finally:
        for daphne in daphnes:
            daphne.terminate()
            daphne.wait(timeout=30)
        fake.stdin.close()  # type: ignore[union-attr]
        fake.wait(timeout=30)


if __name__ == "__main__":
    main()
