"""Ingestion benchmark: chunks stored (and indexed) per second, sequential vs parallel.

Usage: ``.venv/bin/python bench/ingest.py [--files 1000] [--processes 0] [--against DIR]``

Writes ``--files`` synthetic Markdown files (70% English, 30% Chinese, 3-6 sections of
1-2 paragraphs: about 4.5 chunks per file, like the issue's corpus; deterministic) to a
temporary folder, then ingests them twice into fresh SQLite databases in temporary data
folders, in one run: with one process, and with ``--processes`` worker processes (0: one
per CPU) for parsing, chunking and tokenising. Each run includes storing rows and files
and committing the index deltas. ``--against DIR`` (another checkout, e.g. ``git worktree
add /tmp/kbqa-main main``) runs the same two ingests with that checkout's code too, in the
same run, for a before/after table.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

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


def run(corpus: Path, processes: int, code: Path = ROOT) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="kbqa-bench-ingest-") as data:
        env = {
            **os.environ,
            "KBQA_DATA_DIR": data,
            "KBQA_SECRET_KEY": "bench-only",  # DEBUG off: Django keeps no query log
            "DJANGO_SETTINGS_MODULE": "kbqa.settings",
            "KBQA_LOG_LEVEL": "WARNING",
        }
        out = subprocess.run(
            [
                sys.executable,
                str(code / "bench" / "ingest.py"),
                *("--child", "ingest", str(corpus), str(processes)),
            ],
            cwd=code,
            env=env,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    figures: dict[str, float] = json.loads(out.strip().splitlines()[-1])
    assert figures["failed"] == 0, f"{figures['failed']} files failed"
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--processes", type=int, default=0)
    parser.add_argument("--against", type=Path, help="another checkout to compare with")
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        if args.child[0] == "ingest":
            child_ingest(args.child[1], int(args.child[2]))
        else:
            child_watch()
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
