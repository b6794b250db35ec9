"""A segment's vocabulary finds every term it holds, and no other, however often asked."""

from __future__ import annotations

from pathlib import Path

import pytest

from kbqa.core.retrieval import segment as segment_module
from kbqa.core.retrieval.index import IndexSnapshot
from kbqa.core.retrieval.segment import StringTable, build_segment, open_segment, write_segment

WORDS = sorted({"api", "file", "upload", "回收站", "删除", "文件", "2.1.0", "200", "mb", "ünïcode"})


@pytest.mark.parametrize("remembered", [1, 3, 1000])
def test_every_term_is_found_at_its_place_and_others_are_not(
    monkeypatch: pytest.MonkeyPatch, remembered: int
) -> None:
    monkeypatch.setattr(segment_module, "FOUND_TERMS", remembered)  # forgets as it goes
    table = StringTable.of(WORDS)
    for _ in range(2):  # asked again: the remembered answer is the same
        assert [table.find(w) for w in WORDS] == list(range(len(WORDS)))
        assert [table.find(w) for w in ("", "aaa", "files", "回收", "zzz")] == [-1] * 5
    assert list(table) == WORDS and table[3] == WORDS[3] and table[-1] == WORDS[-1]


def test_a_segment_read_from_disk_finds_the_same_terms(tmp_path: Path) -> None:
    write_segment(build_segment(["a#c01", "b#c01"], [1, 2], [["file", "upload"], ["文件"]]),
                  tmp_path / "seg")
    snapshot = IndexSnapshot([open_segment(tmp_path / "seg")])
    assert [snapshot.knows(t) for t in ("file", "文件", "upload", "files", "file")] == [
        True, True, True, False, True]
    assert snapshot.doc_freq("file") == 1
