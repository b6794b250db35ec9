"""Ingestion benchmark: chunks stored (and indexed) per second, sequential vs parallel.

Usage: ``.venv/bin/python bench/ingest.py [--files 1000] [--processes 0] [--against DIR]``
or ``.venv/bin/python bench/ingest.py --big 15 [--runs 2] [--against DIR]``

Writes ``--files`` synthetic Markdown files (70% English, 30% Chinese, 3-6 sections of
1-2 paragraphs: about 4.5 chunks per file, like the issue's corpus; deterministic) to a
temporary folder, then ingests them twice into fresh SQLite databases in temporary data
folders, in one run: with one process, and with ``--processes`` worker processes (0: one
per CPU) for parsing, chunking and tokenising. Each run includes storing rows and files
and committing the index deltas. ``--against DIR`` (another checkout, e.g. ``git worktree
add /tmp/kbqa-main main``) runs the same two ingests with that checkout's code too, in the
same run, for a before/after table.

``--big MB`` measures one large file instead, as an administrator uploads it: a plain-text
file of about MB megabytes (paragraphs of English and Chinese, 30% Chinese; deterministic)
is posted to the admin upload page (Django's test client, in a fresh data folder). It
prints when the upload request answered, when the document was stored and searchable, and
(where the code reports them, ``sources.jobs``) when each ingest stage began; ``--runs``
alternates the checkouts run by run, since the machine is shared.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# --big runs this script's child against another checkout's code (which may not have it)
sys.path.insert(0, os.environ.get("KBQA_BENCH_CODE", str(ROOT)))
sys.path.insert(1, str(ROOT))

from bench.checkout import commit  # noqa: E402
from bench.retrieval import ZH_WORDS, english_vocabulary, zipf_pick  # noqa: E402


def write_corpus(folder: Path, files: int, seed: int = 5) -> None:
    rng = random.Random(seed)
    vocab = english_vocabulary(5000, rng)
    for i in range(files):
        zh = rng.random() < 0.3
        parts = [f"# Document {i}\n"]
        for s in range(rng.randint(3, 6)):
            parts.append(f"## Section {s + 1}\n")
            for _ in range(rng.randint(1, 2)):
                if zh:
                    parts.append("".join(rng.choice(ZH_WORDS) for _ in range(30)) + "。\n")
                else:
                    parts.append(" ".join(zipf_pick(rng, vocab, rng.randint(40, 70))) + ".\n")
        (folder / f"doc-{i:05d}.md").write_text("\n".join(parts), encoding="utf-8")


def child_ingest(corpus: str, processes: int) -> None:
    """In a fresh data folder: ingest ``corpus``; print figures as JSON."""
    import resource

    import django

    django.setup()
    from django.core.management import call_command

    from kbqa.core.text.terms import terms
    from kbqa.core.text.tokens import count_tokens
    from sources.services import documents_ingest_paths

    call_command("migrate", verbosity=0)
    terms("预热 warm"), count_tokens("warm")
    start, cpu = time.perf_counter(), time.process_time()
    summary = documents_ingest_paths(paths=[corpus], processes=processes)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    workers = resource.getrusage(resource.RUSAGE_CHILDREN)
    figures = {
        "chunks": sum(r.chunks for r in summary.results),
        "seconds": seconds,
        "failed": len(summary.failures),
        "main_cpu": cpu,
        "workers_cpu": workers.ru_utime + workers.ru_stime,
        "seen_ms": update_seen_ms(),
    }
    print(json.dumps(figures), flush=True)


def update_seen_ms() -> float:
    """Another process (its own Django, as a second worker would be) searches for a new
    word while this one ingests a file holding it: ms from the ingest call to the hit."""
    from sources.services import document_ingest

    watcher = subprocess.Popen(
        [sys.executable, __file__, "--child", "watch"], stdout=subprocess.PIPE, text=True
    )
    assert watcher.stdout is not None
    assert watcher.stdout.readline().strip() == "ready"
    path = Path(os.environ["KBQA_DATA_DIR"]) / "marker.md"
    path.write_text("# Marker\n\nThe zzmarker policy is new.", encoding="utf-8")
    time.sleep(0.2)
    start = time.time()
    document_ingest(path=path)
    found = float(watcher.stdout.readline())
    watcher.wait()
    return (found - start) * 1000


def child_watch() -> None:
    import django

    django.setup()
    from sources.selectors import chunks_search

    chunks_search(query="warm", k=1)
    print("ready", flush=True)
    while not chunks_search(query="zzmarker", k=1):
        time.sleep(0.001)
    print(time.time(), flush=True)


def big_text(megabytes: float, seed: int = 7) -> str:
    """Paragraphs of English (70%) and Chinese (30%) sentences, with a heading-like line
    every 20 paragraphs, until the UTF-8 text holds ``megabytes`` MB."""
    rng = random.Random(seed)
    vocab = english_vocabulary(5000, rng)
    parts: list[str] = []
    size = 0
    while size < megabytes * 1024 * 1024:
        if len(parts) % 20 == 0:
            part = f"Section {len(parts) // 20 + 1}: rules and figures"
        elif rng.random() < 0.3:
            part = "".join(
                "".join(rng.choice(ZH_WORDS) for _ in range(rng.randint(8, 20))) + "。"
                for _ in range(rng.randint(2, 5))
            )
        else:
            part = " ".join(
                " ".join(zipf_pick(rng, vocab, rng.randint(8, 20))).capitalize() + "."
                for _ in range(rng.randint(2, 6))
            )
        parts.append(part)
        size += len(part.encode("utf-8")) + 2
    return "\n\n".join(parts)


def child_upload(path: str) -> None:
    """In a fresh data folder: post ``path`` to the admin upload page; print JSON figures:
    seconds until the request answered, until the document was stored and searchable, and
    until each stage began (codes with background uploads)."""
    import django

    django.setup()
    from django.apps import apps
    from django.contrib.auth.models import User
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.core.management import call_command
    from django.test import Client

    from kbqa.core.text.terms import terms
    from kbqa.core.text.tokens import count_tokens
    from sources.models import Document
    from sources.selectors import chunks_search

    call_command("migrate", verbosity=0)
    terms("预热 warm"), count_tokens("warm")
    client = Client()
    client.force_login(User.objects.create_superuser("bench", "b@example.com", "pw-bench-123"))
    upload = SimpleUploadedFile(Path(path).name, Path(path).read_bytes())
    client.get("/admin/sources/document/")  # the page an administrator uploads from
    cpu = _DescendantsCpu()
    cpu.start()
    start, main_cpu = time.perf_counter(), time.process_time()
    response = client.post("/admin/sources/document/upload/", {"files": [upload]})
    answered = time.perf_counter() - start
    assert response.status_code == 302, response.status_code
    stages: dict[str, float] = {}
    jobs = (
        apps.get_model("sources", "IngestJob")
        if "ingestjob" in apps.all_models["sources"]
        else None
    )
    while jobs is not None and jobs.objects.filter(finished_at__isnull=True).exists():
        stage = jobs.objects.values_list("stage", flat=True).first() or "queued"
        stages.setdefault(stage, time.perf_counter() - start)
        time.sleep(0.05)
    done, main_cpu = time.perf_counter() - start, time.process_time() - main_cpu
    cpu.stop()
    assert chunks_search(query="rules and figures", k=1), "the document is not searchable"
    chunks = Document.objects.get().chunks.count()
    figures = {"answered": answered, "done": done, "chunks": chunks, "stages": stages}
    print(json.dumps({**figures, "main_cpu": main_cpu, "others_cpu": cpu.others()}))


class _DescendantsCpu(threading.Thread):
    """CPU seconds of this process's descendants (the parsing fork server's children, the
    terms workers), which ``RUSAGE_CHILDREN`` misses: they are not our children, or not
    reaped. Sampled from /proc every 20 ms while the ingest runs; the most seen per process
    is kept, less what it had used when the measure began."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.seen: dict[int, float] = {}
        self.tick = os.sysconf("SC_CLK_TCK")
        self.halt = threading.Event()
        self.sample()
        self.before = dict(self.seen)

    def run(self) -> None:
        while not self.halt.wait(0.02):
            self.sample()

    def stop(self) -> None:
        self.halt.set()
        self.join()
        self.sample()

    def sample(self) -> None:
        parents: dict[int, int] = {}
        times: dict[int, float] = {}
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents[int(entry.name)] = int(fields[1])
            times[int(entry.name)] = (int(fields[11]) + int(fields[12])) / self.tick
        mine = {os.getpid()}
        for pid in sorted(parents):  # parents start before their children (pids grow)
            if parents[pid] in mine:
                mine.add(pid)
        for pid in mine - {os.getpid()}:
            self.seen[pid] = max(self.seen.get(pid, 0.0), times[pid])

    def others(self) -> float:
        return sum(t - self.before.get(pid, 0.0) for pid, t in self.seen.items())


def _child(code: Path, script: str, args: list[str], **extra: str) -> dict[str, Any]:
    """Run ``script --child ARGS`` with ``code`` as the working directory, a throwaway data
    folder and DEBUG off (Django keeps no query log); its last output line is the figures
    (JSON)."""
    with tempfile.TemporaryDirectory(prefix="kbqa-bench-ingest-") as data:
        env = {
            **os.environ,
            "KBQA_DATA_DIR": data,
            "KBQA_SECRET_KEY": "bench-only",
            "DJANGO_SETTINGS_MODULE": "kbqa.settings",
            "KBQA_LOG_LEVEL": "WARNING",
            **extra,
        }
        out = subprocess.run(
            [sys.executable, script, "--child", *args],
            cwd=code, env=env, check=True, capture_output=True, text=True,
        ).stdout
    figures: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return figures


def run_upload(path: Path, code: Path) -> dict[str, Any]:
    return _child(
        code, __file__, ["upload", str(path)],
        KBQA_ALLOWED_HOSTS="testserver",
        KBQA_MAX_UPLOAD_MB="100",
        KBQA_PARSE_SECONDS="120",  # the file's parse is measured, not stopped
        KBQA_BENCH_CODE=str(code),
    )


def big_main(megabytes: float, runs: int, against: Path | None) -> None:
    """One large upload per checkout and run, alternating (module docstring)."""
    codes = [ROOT] + ([against.resolve()] if against else [])
    with tempfile.TemporaryDirectory(prefix="kbqa-bench-big-") as folder:
        path = Path(folder) / "big.txt"
        path.write_text(big_text(megabytes), encoding="utf-8")
        size = path.stat().st_size / 1024 / 1024
        print(f"Uploading one {size:.1f} MB English+Chinese text file ({os.cpu_count()} CPUs)")
        print(
            "| code | run | chunks | request answered (s) | stored and searchable (s) "
            "| stages began at (s) | CPU: server process, parse and terms processes (s) "
            "| load average |"
        )
        print("|---|---|---|---|---|---|---|---|")
        done: dict[Path, list[float]] = {code: [] for code in codes}
        for n in range(1, runs + 1):
            for code in codes:
                r = run_upload(path, code)
                done[code].append(r["done"])
                stages = ", ".join(f"{k} {v:.1f}" for k, v in r["stages"].items()) or "-"
                print(
                    f"| {commit(code)} | {n} | {r['chunks']:,} | {r['answered']:.2f} "
                    f"| {r['done']:.1f} | {stages} | {r['main_cpu']:.1f}, {r['others_cpu']:.1f} "
                    f"| {load().split(' ', 2)[2]} |",
                    flush=True,
                )
        if against:
            best = min(done[ROOT]), min(done[codes[1]])
            print(
                f"{commit(codes[1])} / {commit(ROOT)} (stored and searchable, best of "
                f"{runs}): {best[1]:.1f} s / {best[0]:.1f} s = {best[1] / best[0]:.2f}x"
            )


def run(corpus: Path, processes: int, code: Path = ROOT) -> dict[str, float]:
    figures = _child(code, str(code / "bench" / "ingest.py"),
                     ["ingest", str(corpus), str(processes)])
    assert figures["failed"] == 0, f"{figures['failed']} files failed"
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--processes", type=int, default=0)
    parser.add_argument("--against", type=Path, help="another checkout to compare with")
    parser.add_argument("--big", type=float, help="upload one text file of this many MB")
    parser.add_argument("--runs", type=int, default=2, help="--big: runs per checkout")
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        if args.child[0] == "ingest":
            child_ingest(args.child[1], int(args.child[2]))
        elif args.child[0] == "upload":
            child_upload(args.child[1])
        else:
            child_watch()
        return
    if args.big:
        big_main(args.big, args.runs, args.against)
        return
    with tempfile.TemporaryDirectory(prefix="kbqa-bench-corpus-") as corpus:
        write_corpus(Path(corpus), args.files)
        parallel = args.processes or os.cpu_count() or 1
        print(f"Ingesting {args.files} Markdown files ({os.cpu_count()} CPUs), {load()}")
        codes = [ROOT] + ([args.against.resolve()] if args.against else [])
        print(
            "| code | processes | chunks | wall (s) | chunks/s | main CPU (s) "
            "| workers CPU (s) | chunks/s if the CPUs were ours |"
        )
        print("|---|---|---|---|---|---|---|---|")
        rates = {}
        for code in codes:
            for processes in (1, parallel):
                r = run(Path(corpus), processes, code)
                rates[code, processes] = int(r["chunks"]) / r["seconds"]
                print(row(code, processes, r))
        for code in codes:
            ratio = rates[code, parallel] / rates[code, 1]
            print(f"{commit(code)}: parallel / sequential (wall): {ratio:.2f}x")
        if args.against:
            ratio = rates[ROOT, parallel] / rates[codes[1], parallel]
            print(f"{commit(ROOT)} / {commit(codes[1])} (parallel, wall): {ratio:.1f}x")
        print(
            f"{load()}; a file ingested here, found by a search in another process: "
            f"{r['seen_ms']:.0f} ms"
        )


def row(code: Path, processes: int, r: dict[str, float]) -> str:
    chunks, seconds = int(r["chunks"]), r["seconds"]
    # the busier of: this process, or all work spread over `processes` CPUs
    bound = max(r["main_cpu"], (r["main_cpu"] + r["workers_cpu"]) / processes)
    return (
        f"| {commit(code)} | {processes} | {chunks:,} | {seconds:.2f} | {chunks / seconds:,.0f} "
        f"| {r['main_cpu']:.2f} | {r['workers_cpu']:.2f} | {chunks / bound:,.0f} |"
    )


def load() -> str:
    """The machine's load average: other work competes for the CPUs (shared machine)."""
    return "load average " + " ".join(f"{x:.1f}" for x in os.getloadavg())


if __name__ == "__main__":
    main()
