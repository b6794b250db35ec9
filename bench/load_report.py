"""Measuring one phase of ``bench/load.py`` and printing the table.

A phase is a set of answers run at once against one server process: ``measured`` gathers
them while sampling the server's peak RSS every 0.1 s, and reads the server's CPU time
(user + system, psutil) before and after, in total and for its main thread alone (the event
loop: Daphne, Channels and every turn's pipeline run there; the rest is the database
threads of ``kbqa.db``).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable
from dataclasses import dataclass, field

import psutil

from bench.fake_model import TOKENS
from bench.load_clients import Result


@dataclass
class Phase:
    name: str
    code: str = ""  # the checkout's commit, with --against
    results: list[Result] = field(default_factory=list)
    cpu_percent: float = 0.0
    cpu_ms_per_answer: float = 0.0
    loop_ms_per_answer: float = 0.0
    peak_rss_mb: float = 0.0
    lost_traces: int = 0
    lost_messages: int = 0
    wall_s: float = 0.0
    measures_server: bool = True
    rig_ms_per_answer: tuple[float, float] = (0.0, 0.0)  # the bench's clients, the fake model


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def cpu_seconds(server: psutil.Process) -> tuple[float, float]:
    """(the whole process, its main thread) CPU seconds so far, user + system."""
    total = server.cpu_times()
    main = next((t for t in server.threads() if t.id == server.pid), None)
    return total.user + total.system, (main.user_time + main.system_time) if main else 0.0


async def measured(
    name: str, server: psutil.Process, runs: list[Awaitable[Result | list[Result]]],
    rig: tuple[psutil.Process, psutil.Process],
) -> Phase:
    """Run ``runs`` at once (each one answer, or a list of answers one after another);
    ``rig`` is the measuring rig's processes (this one with the clients, the fake model),
    whose CPU shares the machine with the server's."""
    (before, loop_before), started, peak = cpu_seconds(server), time.perf_counter(), 0
    rig_before = [p.cpu_times() for p in rig]

    async def sample() -> None:
        nonlocal peak
        while True:
            peak = max(peak, server.memory_info().rss)
            await asyncio.sleep(0.1)

    sampler = asyncio.create_task(sample())
    gathered = await asyncio.gather(*runs)
    results = [r for g in gathered for r in (g if isinstance(g, list) else [g])]
    sampler.cancel()
    wall = time.perf_counter() - started
    after, loop_after = cpu_seconds(server)
    n = max(len(results), 1)
    rig_ms = [(a.user + a.system - b.user - b.system) * 1000 / n
              for a, b in zip([p.cpu_times() for p in rig], rig_before, strict=True)]
    return Phase(name, results=results, cpu_percent=(after - before) / wall * 100,
                 cpu_ms_per_answer=(after - before) * 1000 / n,
                 loop_ms_per_answer=(loop_after - loop_before) * 1000 / n,
                 peak_rss_mb=peak / 2**20, wall_s=wall, rig_ms_per_answer=(rig_ms[0], rig_ms[1]))


def report(phases: list[Phase], rate: float, label: str) -> None:
    pace_ms = len(TOKENS) / rate * 1000
    print(f"\n{label}: model pace {pace_ms:.0f} ms ({len(TOKENS)} tokens at {rate:g}/s)")
    print("| code | phase | answers | errors | lost traces | first sentence p50/p95 (ms) "
          "| total/pace p50/p95 | overhead p50 (ms) | server CPU | CPU ms/answer "
          "(event loop) | peak RSS (MB) | rig CPU ms/answer: clients, fake model |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for p in phases:
        ok = [r for r in p.results if r.ok]
        firsts, totals = [r.first_ms for r in ok], [r.total_ms / pace_ms for r in ok]
        overhead = pct([r.total_ms - pace_ms for r in ok], 0.5)
        cpu = (f"{p.cpu_percent:.0f}% | {p.cpu_ms_per_answer:.1f} ({p.loop_ms_per_answer:.1f})"
               if p.measures_server else "n/a | n/a")
        print(f"| {p.code} | {p.name} | {len(p.results)} | {len(p.results) - len(ok)} | "
              f"{p.lost_traces} (+{p.lost_messages} messages) | "
              f"{pct(firsts, .5):.0f} / {pct(firsts, .95):.0f} | "
              f"{pct(totals, .5):.2f} / {pct(totals, .95):.2f} | {overhead:.0f} | "
              f"{cpu} | {p.peak_rss_mb:.0f} | "
              f"{p.rig_ms_per_answer[0]:.1f}, {p.rig_ms_per_answer[1]:.1f} |")
        errors = sorted({r.error for r in p.results if not r.ok})
        if errors:
            print(f"  errors in {p.code} {p.name}: {', '.join(errors)}")
