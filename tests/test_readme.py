"""README's links within the page (its contents list, "see Production") lead to a heading."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def anchors(markdown: str) -> set[str]:
    """The ids GitHub gives the headings: lower case, punctuation but ``-`` and ``_`` dropped,
    spaces as ``-``; a repeated heading gets ``-1``, ``-2``..."""
    text = re.sub(r"```.*?```", "", markdown, flags=re.S)  # a "# comment" in code is no heading
    seen: Counter[str] = Counter()
    ids = set()
    for heading in re.findall(r"^#{1,6} +(.+?) *$", text, flags=re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        ids.add(f"{slug}-{seen[slug]}" if seen[slug] else slug)
        seen[slug] += 1
    return ids


def test_every_link_to_a_section_names_a_heading() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\(#([^)\s]+)\)", readme)
    assert len(links) >= 15  # the contents list at least
    assert sorted(set(links) - anchors(readme)) == []
