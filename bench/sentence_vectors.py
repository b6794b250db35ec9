"""What storing sentence vectors at ingestion saves per answer (README: Semantic recall).

Usage: ``KBQA_DATA_DIR=DIR .venv/bin/python bench/sentence_vectors.py [--cases FILE] [--n 12]``

Needs the ``semantic`` extra and a knowledge base ingested with it in ``DIR`` (e.g.
``manage.py demo_setup``). Answers the first ``--n`` single-turn cases of ``--cases`` that
use the stored knowledge base, one after another, in two fresh processes over the same
index: with the sentence vectors the index stores, and encoding them per question as
before (the index's store answering nothing). Each process first loads the encoder, jieba and
the index (start-up work ``index_warm`` does before a server listens), so the first answer
is a cold process's first answer. Prints per mode: the first answer's latency, the median
of the others, the sentences encoded, and the ratios; and the index's size on disk.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.checkout import commit  # noqa: E402

MODES = ("stored", "per-question")


def child(mode: str, cases_file: str, n: int) -> dict[str, object]:
    import django

    django.setup()
    from chat.evaluation import load_cases, run_cases
    from chat.pipeline_settings import pipeline_config_from_settings, provider_from_settings
    from kbqa.core.text.terms import terms
    from sources import vectors
    from sources.selectors import index_snapshot
    from sources.vectors import current_encoder

    encoder = current_encoder()
    if encoder is None:
        raise SystemExit("the semantic extra is not installed or KBQA_SEMANTIC is off")
    encoder.query("预热 warm")
    terms("预热 warm")
    index_snapshot()
    encoded = [0]
    passages = encoder.passages

    def counting(texts: object) -> object:
        encoded[0] += len(texts)  # type: ignore[arg-type]
        return passages(texts)  # type: ignore[arg-type]

    encoder.passages = counting  # type: ignore[method-assign]
    if mode == "per-question":  # what current_encoder registers for the reader: nothing
        vectors.index_sentences = lambda model, texts: {}  # type: ignore[assignment]
    cases = [c for c in load_cases([cases_file])[0] if not c.documents and not c.history][:n]
    provider, config = provider_from_settings(None), pipeline_config_from_settings()
    latencies = []
    for case in cases:
        start = time.perf_counter()
        asyncio.run(run_cases([case], provider=provider, config=config, progress=False))
        latencies.append((time.perf_counter() - start) * 1000)
    return {"first_ms": latencies[0], "rest_p50_ms": statistics.median(latencies[1:]),
            "encoded": encoded[0], "answers": len(latencies)}


def index_size(folder: Path) -> tuple[int, int]:
    """(bytes of the whole index, bytes of its sentence files)."""
    files = [p for p in folder.rglob("*") if p.is_file()]
    return (sum(p.stat().st_size for p in files),
            sum(p.stat().st_size for p in files if p.name.startswith("sentence_")))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", default=str(ROOT / "sources/demo/questions.jsonl"))
    parser.add_argument("--n", type=int, default=12)
    parser.add_argument("--child", choices=MODES)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kbqa.settings")
    if args.child:
        print(json.dumps(child(args.child, args.cases, args.n)))
        return
    env = {**os.environ, "KBQA_LOG_LEVEL": "WARNING"}
    rows = {}
    for mode in MODES:
        out = subprocess.run([sys.executable, __file__, "--child", mode, "--cases", args.cases,
                              "--n", str(args.n)], env=env, check=True, capture_output=True,
                             text=True, cwd=ROOT)
        rows[mode] = json.loads(out.stdout.strip().splitlines()[-1])
    print(f"commit {commit(ROOT)}; {rows['stored']['answers']} answers from {args.cases}")
    print(f"{'':24}{'stored':>10}{'per-question':>14}{'ratio':>8}")
    for key, label in (("first_ms", "first answer (ms)"), ("rest_p50_ms", "later answers p50"),
                       ("encoded", "sentences encoded")):
        a, b = float(rows["stored"][key]), float(rows["per-question"][key])  # type: ignore[arg-type]
        print(f"{label:24}{a:>10.0f}{b:>14.0f}{(a / b if b else 0):>8.2f}")
    data = Path(os.environ.get("KBQA_DATA_DIR", ROOT / "var"))
    total, sentences = index_size(Path(os.environ.get("KBQA_INDEX_DIR", data / "index")))
    print(f"index on disk: {total / 1e6:.2f} MB, sentence files {sentences / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
