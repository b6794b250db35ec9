"""CPU time per answering turn, in process, through the real turn service.

Run: ``.venv/bin/python bench/turn_cpu.py [--rounds 3] [--against /work/main] [--profile]``.

What one answer costs the server's cores, without a server's noise: ``chat.turns.answer_turn``
(what the websocket consumer and the SSE API render) answers each question of the demo
sets, read at run time (the ``question`` fields of ``sources/demo/questions.jsonl`` and
``natural.jsonl``; ``--questions N`` keeps the first N), one turn at a time, on the demo
knowledge base (``sources/demo/docs`` ingested into a throwaway ``KBQA_DATA_DIR`` under
``var/``, SQLite), each turn in a conversation of its own (its start and end stored as a chat
turn is) with the limits checked (``limited``), as ``bench/load.py`` asks. The provider is the
one ``bench/load.py`` exercises: the Anthropic provider through the real SDK against a local
fake model in another process (``bench/fake_model.py``'s timer wheel, ``--rate`` tokens per
second), which answers every question by quoting the first sentences of the first source it
was given, cited ``[1]``: a grounded answer for each question, so the verifier and the
conflict gate do their whole work. Turn CPU (``time.process_time``: the event loop and the
database threads) is measured around each turn; the fake model's CPU is its own process's.

Printed: median and p90 CPU ms per turn, the median wall ms of each stage the trace records
(``retrieval_ms``, ``conflicts_ms``, ``first_sentence_ms``, ``total_ms``), and the turns'
outcomes. The first turns of a process pay imports and loading (jieba, tiktoken, WordNet,
CC-CEDICT), and each passage's and each word's first reading: ``--warm N`` questions of
the other demo sets (``natural_holdout``, ``natural_holdout2``, ``natural3``; 190, all of
them, by default; none is asked again) are answered first, unmeasured, as by a server that
has answered for a while; ``--warm 0`` warms with three of the measured questions only
(a server's first answers: each passage's work is then paid by the first question that
retrieves it).

``--same N`` asks ``bench/load.py``'s one question N times instead: the work that bench
measures per answer (with the caches its repeated question fills), to profile it in process.

``--against DIR`` (another checkout) runs both checkouts' code, each in child processes of
its own with its own data dir, alternately for ``--rounds`` rounds, and prints the medians
side by side with their ratio (this / DIR). ``--profile`` runs this checkout once under
cProfile (the event loop and every database thread) and prints the top functions by
cumulative and by own time (the whole profile is left in ``var/turn_cpu.prof``);
``--spy FILE`` samples the same run with py-spy instead (collapsed stacks, every thread),
which weighs small functions as they cost, not as cProfile's per-call overhead makes them.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# ``--code DIR`` (a child): import kbqa from that checkout instead of this one
CODE = Path(sys.argv[sys.argv.index("--code") + 1]) if "--code" in sys.argv else ROOT
sys.path.insert(0, str(CODE))

from bench.fake_model import QUESTION  # noqa: E402

SETS = ("questions.jsonl", "natural.jsonl")
# Other questions asked first, unmeasured: a server that has answered for a while has read
# most passages and most question words already; none of these is asked again.
WARM_SETS = ("natural_holdout.jsonl", "natural_holdout2.jsonl", "natural3.jsonl")
STAGES = ("retrieval_ms", "conflicts_ms", "first_sentence_ms", "total_ms")


def questions(limit: int, sets: tuple[str, ...] = SETS) -> list[str]:
    """The ``question`` field of every case of ``sets``, in file order (first ``limit``)."""
    out: list[str] = []
    for name in sets:
        lines = (ROOT / "sources/demo" / name).read_text(encoding="utf-8").splitlines()
        out += [json.loads(line)["question"] for line in lines if line.strip()]
    return out[:limit] if limit else out


# ----------------------------------------------------------------------------- the fake model


def quoted_answer(body: dict[str, Any]) -> str:
    """What the fake model answers: the first three sentences of source 1 of the last user
    message, each cited ``[1]``; no source, a sentence without a citation."""
    import html
    import re

    content = body.get("messages", [{}])[-1].get("content", "")
    if isinstance(content, list):
        content = "".join(part.get("text", "") for part in content)
    found = re.search(r'<source n="1"[^>]*>\n(.*?)\n</source>', str(content), re.S)
    if not found:
        return "The documents do not say."
    text = html.unescape(found.group(1))
    lines = [ln.strip() for ln in text.splitlines() if ln.strip() and ln.strip()[0] not in "#|"]
    sentences = re.findall(r"[^.!?。！？]+[.!?。！？]", " ".join(lines))[:3]
    cited = [s.strip()[:-1] + (" [1]" + s.strip()[-1]) for s in sentences if s.strip()]
    return " ".join(cited) or "The documents do not say."


def serve_quoting_model(rate: float) -> None:
    """Subprocess entry: the fake Messages API quoting its sources; prints its URL first."""
    import asyncio
    import re
    import time

    from bench.fake_model import PacedModel, Stream, encode, respond_json, stream_head
    from tests.fakes.anthropic_server import MODELS, StatusReply, StreamReply

    class QuotingModel(PacedModel):
        async def request(self, reader: asyncio.StreamReader,
                          writer: asyncio.StreamWriter) -> bool:
            head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").lower()
            length = re.search(r"content-length:\s*(\d+)", head)
            data = await reader.readexactly(int(length.group(1)) if length else 0)
            body = json.loads(data or b"{}")
            model = str(body.get("model", ""))
            if model not in MODELS:
                return respond_json(writer, StatusReply(404, "not_found_error", model))
            answer = quoted_answer(body)
            deltas = tuple(answer[i:i + 8] for i in range(0, len(answer), 8))
            encoded = encode(StreamReply(deltas=deltas), MODELS[model], self.rate)
            writer.write(stream_head() + encoded.head)
            stream = Stream(writer, encoded, len(encoded.steps), time.monotonic(),
                            asyncio.get_running_loop().create_future())
            self.schedule(stream)
            await stream.done
            return True

    async def main() -> None:
        print(await QuotingModel(rate).serve(), flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)

    asyncio.run(main())


# ----------------------------------------------------------------------------- one checkout


def env_for(data_dir: Path, url: str) -> dict[str, str]:
    env = {**os.environ, "KBQA_DATA_DIR": str(data_dir), "KBQA_SECRET_KEY": "bench-only",
           "KBQA_DEBUG": "0", "KBQA_LOG_LEVEL": "WARNING",
           "DJANGO_SETTINGS_MODULE": "kbqa.settings", "KBQA_PROVIDER": "anthropic",
           "ANTHROPIC_API_KEY": "bench", "KBQA_ANTHROPIC_BASE_URL": url,
           "KBQA_ANTHROPIC_MAX_RETRIES": "0"}
    for name in ("DATABASE_URL", "KBQA_REDIS_URL"):
        env.pop(name, None)
    return env


def prepare(code: Path, data_dir: Path, url: str) -> None:
    """Migrate and ingest the demo documents with ``code``'s own manage.py."""
    env = env_for(data_dir, url)
    for cmd in (["migrate", "--verbosity", "0"], ["ingest", str(ROOT / "sources/demo/docs")]):
        subprocess.run([sys.executable, "manage.py", *cmd], cwd=code, env=env, check=True,
                       stdout=subprocess.DEVNULL)


def measure(asked: list[str], warm: list[str], profile: bool) -> dict[str, Any]:
    """In a child: each question answered once through ``answer_turn``; CPU ms per turn."""
    import asyncio
    import time
    from contextlib import aclosing

    import django

    django.setup()
    from django.contrib.auth.models import User

    from chat.models import Conversation, Trace
    from chat.outcomes import AnswerOutcome
    from chat.turns import TurnRequest, answer_turn

    profiles = _profiled_db_threads() if profile else []
    users = [User.objects.create(username=f"turn-cpu-{os.getpid()}-{i}")
             for i in range(len(warm) + len(asked))]
    talks = [Conversation.objects.create(owner=u).pk for u in users]

    shown = {"sentences shown": 0, "sentences dropped": 0}

    async def turn(question: str, i: int) -> tuple[float, str]:
        request = TurnRequest(question=question, user=users[i], conversation_id=talks[i],
                              limited=True)
        started = time.process_time()
        outcome = AnswerOutcome()
        async with aclosing(answer_turn(request, outcome)) as items:
            async for _ in items:
                pass
        ms = (time.process_time() - started) * 1000
        shown["sentences shown"] += len(outcome.sentences)
        shown["sentences dropped"] += outcome.dropped
        return ms, outcome.trace_id

    async def run() -> tuple[list[float], list[str]]:
        for i, question in enumerate(warm):
            await turn(question, i)
        shown.update(dict.fromkeys(shown, 0))
        if profile:
            profiles[0].measuring = True
            profiles[0].enable()
        cpu, ids = [], []
        for i, question in enumerate(asked, len(warm)):
            ms, trace_id = await turn(question, i)
            cpu.append(ms)
            ids.append(trace_id)
        if profile:
            profiles[0].disable()
            profiles[0].measuring = False
        return cpu, ids

    cpu, ids = asyncio.run(run())
    traces = {t.id: t for t in Trace.objects.filter(id__in=ids)}
    stages = {s: [float(traces[i].data.get("timings", {}).get(s, 0.0)) for i in ids if i in traces]
              for s in STAGES}
    if profile:
        _print_profile(profiles)
    outcomes: dict[str, int] = dict(shown)
    for t in traces.values():
        outcomes[t.status] = outcomes.get(t.status, 0) + 1
    return {"cpu_ms": cpu, "stages": stages, "outcomes": outcomes}


def _profiled_db_threads() -> list[Any]:
    """cProfile profiles one thread: the event loop's (the first, enabled by the caller) and
    one per database thread, each call on those threads run under its thread's profile."""
    import cProfile
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from django.conf import settings

    import kbqa.db

    profiles = [cProfile.Profile()]
    mine = threading.local()

    def profiled(fn: Any, *args: Any, **kwargs: Any) -> Any:
        if not profiles[0].measuring:  # the warm-up's calls: not profiled
            return fn(*args, **kwargs)
        if not hasattr(mine, "profile"):
            mine.profile = cProfile.Profile()
            profiles.append(mine.profile)
        return mine.profile.runcall(fn, *args, **kwargs)

    class Executor(ThreadPoolExecutor):
        def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
            return super().submit(profiled, fn, *args, **kwargs)

    profiles[0].measuring = False  # type: ignore[attr-defined]
    kbqa.db._pool = Executor(max_workers=max(1, settings.KBQA_DB_THREADS),
                             thread_name_prefix="kbqa-db")
    return profiles


def _print_profile(profiles: list[Any], top: int = 30) -> None:
    import pstats

    stats = pstats.Stats(profiles[0])
    for more in profiles[1:]:
        stats.add(more)
    stats.dump_stats(str(ROOT / "var/turn_cpu.prof"))
    print(f"(the whole profile: {ROOT / 'var/turn_cpu.prof'}, for pstats)")
    stats.strip_dirs()
    for order in ("cumulative", "tottime"):
        print(f"\n--- top {top} by {order} (all turns, event loop + database threads) ---")
        stats.sort_stats(order).print_stats(top)


# ----------------------------------------------------------------------------- the parent


def summary(result: dict[str, Any]) -> dict[str, float]:
    cpu = sorted(result["cpu_ms"])
    out = {"CPU ms per turn, median": statistics.median(cpu),
           "CPU ms per turn, p90": cpu[int(0.9 * (len(cpu) - 1))],
           "CPU ms per turn, mean": statistics.fmean(cpu)}
    for stage, values in result["stages"].items():
        if values:
            out[f"  wall {stage}, median"] = statistics.median(values)
    return out


def child(code: Path, data_dir: Path, url: str, args: argparse.Namespace,
          profile: bool = False) -> dict[str, Any]:
    cmd = [sys.executable, __file__, "--code", str(code), "--json",
           "--questions", str(args.questions), "--warm", str(args.warm),
           "--same", str(args.same)]
    cmd += ["--profile"] if args.profile else []
    if args.spy:
        spy = Path(sys.executable).with_name("py-spy")
        cmd = [str(spy), "record", "--format", "raw", "--rate", "250", "--output",
               str(Path(args.spy).resolve()), "--", *cmd]
    env = env_for(data_dir, url)
    out = subprocess.run(cmd, cwd=code, env=env, check=True, capture_output=not profile,
                         text=True).stdout
    if profile:
        return {}
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", type=Path, help="another checkout to measure as well")
    parser.add_argument("--rounds", type=int, default=3, help="child runs per checkout")
    parser.add_argument("--questions", type=int, default=0, help="the first N questions only")
    parser.add_argument("--same", type=int, default=0,
                        help="ask bench/load.py's one question N times instead (what that"
                        " bench measures, question-keyed caches included)")
    parser.add_argument("--warm", type=int, default=190,
                        help="unmeasured questions of the other sets first (0: 3 of the set)")
    parser.add_argument("--rate", type=float, default=1000.0, help="fake model tokens/s")
    parser.add_argument("--profile", action="store_true", help="cProfile this checkout once")
    parser.add_argument("--spy", default="", help="py-spy this checkout once: collapsed stacks"
                        " into this file (sampling: no cProfile overhead on small calls)")
    parser.add_argument("--code", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--fake-model", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.fake_model:
        serve_quoting_model(args.rate)
        return
    if args.json:
        warm = questions(args.warm, WARM_SETS) if args.warm else questions(3)
        asked = [QUESTION] * args.same if args.same else questions(args.questions)
        result = measure(asked, warm, args.profile)
        print(json.dumps(result))
        return
    codes = [ROOT] + ([args.against.resolve()] if args.against else [])
    (ROOT / "var").mkdir(exist_ok=True)
    fake = subprocess.Popen([sys.executable, __file__, "--fake-model", "--rate", str(args.rate)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=ROOT)
    try:
        url = fake.stdout.readline().decode().strip()  # type: ignore[union-attr]
        with tempfile.TemporaryDirectory(prefix="turn-cpu-", dir=ROOT / "var") as tmp:
            dirs = {code: Path(tmp) / f"kb{j}" for j, code in enumerate(codes)}
            for code, data_dir in dirs.items():
                data_dir.mkdir()
                prepare(code, data_dir, url)
            if args.profile or args.spy:
                child(ROOT, dirs[ROOT], url, args, profile=True)
                return
            compare(codes, dirs, url, args)
    finally:
        fake.stdin.close()  # type: ignore[union-attr]
        fake.wait(timeout=30)


def compare(codes: list[Path], dirs: dict[Path, Path], url: str,
            args: argparse.Namespace) -> None:
    """Every checkout once per round, alternately; the medians over rounds side by side."""
    from bench.checkout import commit

    runs: dict[Path, list[dict[str, Any]]] = {code: [] for code in codes}
    for _ in range(args.rounds):
        for code in codes:
            runs[code].append(child(code, dirs[code], url, args))
    figures = {code: [summary(r) for r in results] for code, results in runs.items()}
    n = len(runs[ROOT][0]["cpu_ms"])
    head = f"median over {args.rounds} rounds of {n} turns"
    names = [commit(code) for code in codes]
    print(f"{head:40s} " + " ".join(f"{name:>10s}" for name in names)
          + (" ratio" if len(codes) > 1 else ""))
    for key in figures[ROOT][0]:
        values = [statistics.median(f[key] for f in figures[code]) for code in codes]
        ratio = f" {values[0] / values[1]:5.2f}" if len(values) > 1 and values[1] else ""
        print(f"{key:40s} " + " ".join(f"{v:10.2f}" for v in values) + ratio)
    for code in codes:
        print(f"outcomes {commit(code)} (last round): {runs[code][-1]['outcomes']}  ({code})")
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"provider: anthropic (real SDK) against the quoting fake model at {args.rate:g} "
          f"tokens/s; SQLite; load average {load} on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
