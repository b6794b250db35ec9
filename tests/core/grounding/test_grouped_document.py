"""A document's groups found part by part are the groups of the whole text.

``bindings.grouped_document`` finds each passage's groups once per process and adds those
across two passages; a user would notice a difference as a conflict shown or missed, so
the result must be what reading the joined text finds, for any combination of passages
and after a passage changes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kbqa.core.grounding import bindings
from kbqa.core.grounding.bindings import GroupedDocument, grouped_document
from kbqa.core.grounding.passage_terms import document_parts
from kbqa.core.text.normalise import normalise

DOCS = Path(__file__).resolve().parents[3] / "sources/demo/docs"


def _whole(parts: tuple[str, ...]) -> GroupedDocument:
    """What the gate read before: the parts joined by newlines, normalised, cut at once."""
    text = normalise("\n".join(parts))
    kinds = frozenset((bindings._word_terms(m), h) for m, h, _ in bindings._groups(text))
    return GroupedDocument(text, kinds)


def _paragraphs(name: str) -> list[str]:
    return [p for p in (DOCS / name).read_text(encoding="utf-8").split("\n\n")]


@pytest.mark.parametrize(
    "names",
    [
        ("doc-063-leave-policy.md",),
        ("doc-062-leave-policy-zh.md",),
        ("doc-060-expense-reimbursement-policy.md", "doc-061-baoxiao-policy-zh.md"),
        ("doc-010-upload-files-manual.md", "doc-012-upload-files-manual-zh.md"),
    ],
)
def test_parts_give_the_groups_of_the_joined_text(names: tuple[str, ...]) -> None:
    paragraphs = [p for name in names for p in _paragraphs(name)]
    for parts in (tuple(paragraphs), tuple(paragraphs[::2]), tuple(reversed(paragraphs)),
                  ("", paragraphs[0], "   ", *paragraphs[3:6])):
        assert grouped_document(document_parts(parts)) == _whole(parts)


def test_groups_across_two_parts_count() -> None:
    # "annual" ends one part, "leave" begins the next: the joined text names "annual leave"
    parts = ("Paid annual", "leave is 25 days.", "Sick leave needs a note.")
    document = grouped_document(document_parts(parts))
    assert document == _whole(parts)
    assert (frozenset({"annual"}), "leave") in document.kinds


def test_a_changed_passage_is_read_anew() -> None:
    before = grouped_document(document_parts(("Sick leave needs a note.",)))
    after = grouped_document(document_parts(("Parental leave needs a note.",)))
    assert (frozenset({"sick"}), "leave") in before.kinds
    assert (frozenset({"sick"}), "leave") not in after.kinds
    assert (frozenset({"parental"}), "leave") in after.kinds
