"""What ingesting takes and gives back: the overrides an ingester sets and the outcome of
each file (``IngestResult``, ``IngestFailure``) and of a batch (``IngestSummary``).

Plain frozen values shared by ``sources.services`` (which produces them), the bulk
ingester, the admin, the upload form and the ``ingest`` command.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from django.utils.translation import gettext, ngettext, pgettext_lazy

from kbqa.core.grounding.instructions import instructions_in

# "duplicate": not added, the text is a stored document's (``sources.identity``)
IngestStatus = Literal["added", "updated", "unchanged", "restored", "duplicate"]
# What an ingest is doing, in order: parsing the file, cutting it into chunks and finding
# their index terms, storing the rows (one transaction), updating the search index.
IngestStage = Literal["reading", "chunking", "storing", "indexing"]
# Called with the stage and the fraction of it done (0.0 to 1.0; "chunking" reports as it goes).
IngestProgress = Callable[[IngestStage, float], None]


@dataclass(frozen=True)
class IngestOverrides:
    """Metadata set by whoever ingests; each non-empty value beats what the file says.

    ``updated`` is an ISO date (``2025-06-30``); ``authority`` one of ``Authority``;
    ``language`` ``en`` or ``zh``; ``visibility`` "everyone" or comma-separated names of
    existing Django groups (README: Who may read what).
    """

    doc_id: str = ""
    title: str = ""
    authority: str = ""
    language: str = ""
    updated: str = ""
    source_url: str = ""
    visibility: str = ""  # "everyone", or comma-separated group names

    def as_dict(self) -> dict[str, str]:
        """Only the values that were set."""
        return {k: v for k, v in self.__dict__.items() if v}

    def stored(self) -> dict[str, str]:
        """What ``Document.overrides`` keeps (the doc_id is the document's own)."""
        return {k: v for k, v in self.as_dict().items() if k != "doc_id"}


@dataclass(frozen=True)
class IngestResult:
    """Outcome of one stored document; chunk counts are chunks of this document."""

    name: str
    doc_id: str
    title: str
    status: IngestStatus
    chunks: int  # current chunks after ingest
    chunks_added: int = 0  # new chunk rows (new ids)
    chunks_kept: int = 0  # current chunks whose ids were kept or revived
    chunks_superseded: int = 0  # chunks marked not current (kept for old citations)
    doc_id_from_name: bool = False  # no doc_id in front matter or overrides: from the file name
    previous_name: str = ""  # original file name of the document before this ingest, if any
    warnings: tuple[str, ...] = ()  # content of the file that could not be read (safe to show)
    previous_title: str = ""  # the document's title before this ingest, when it changed
    replaced: bool = False  # a document from another file was replaced (``sources.identity``)
    authority_change: tuple[str, str] | None = None  # (old, new) when this ingest changed it
    path: str = ""  # the file as a batch named it (``sources.bulk``); "" for one file


@dataclass(frozen=True)
class IngestFailure:
    """A file that was not ingested; ``reason`` is safe to show and names the file."""

    name: str
    reason: str


@dataclass(frozen=True)
class IngestSummary:
    """Outcome of ingesting many files, in the order they were processed."""

    results: tuple[IngestResult, ...] = ()
    failures: tuple[IngestFailure, ...] = ()

    def count(self, status: IngestStatus | Literal["failed"]) -> int:
        if status == "failed":
            return len(self.failures)
        return sum(1 for r in self.results if r.status == status)

    def line(self) -> str:
        """One-line summary, e.g. ``documents: 2 added, 0 updated, 1 unchanged, 1 failed;
        chunks: 9 current, 9 added, 0 superseded``."""
        statuses: list[IngestStatus | Literal["failed"]] = ["added", "updated", "unchanged"]
        for rare in ("restored", "duplicate"):  # only then, so the usual line keeps its shape
            if self.count(rare):  # type: ignore[arg-type]
                statuses.append(rare)  # type: ignore[arg-type]
        docs = ", ".join(f"{self.count(s)} {s}" for s in [*statuses, "failed"])
        current = sum(r.chunks for r in self.results)
        added = sum(r.chunks_added for r in self.results)
        superseded = sum(r.chunks_superseded for r in self.results)
        return (
            f"documents: {docs}; chunks: {current} current, {added} added, {superseded} superseded"
        )


# Chunks read for the warning: finding instructions costs about 1 ms a chunk (measured
# 2026-12-05 on 2,000 synthetic English+Chinese chunks), twice what storing one costs in a
# bulk ingest, so a larger file is not read for it; its instructions are still never
# evidence (the answer-time check, ``grounding.evidence``).
MAX_WARNING_CHUNKS = 200


def with_warnings(result: IngestResult, warnings: tuple[str, ...]) -> IngestResult:
    """``result`` with the file's parse ``warnings`` before its own; a duplicate keeps its
    own alone: nothing of the file was stored, so what its text holds ("sentences addressed
    to the assistant are stored but never quoted") is about no document, and only hid the
    "not added" line behind it."""
    if not warnings or result.status == "duplicate":
        return result
    return replace(result, warnings=warnings + result.warnings)


def instructions_warning(name: str, texts: Sequence[str]) -> tuple[str, ...]:
    """A warning when the file's chunk ``texts`` (up to ``MAX_WARNING_CHUNKS``; () for more)
    hold sentences that address the assistant (``kbqa.core.grounding.instructions``: a
    prompt injection or a pasted prompt), with the first of them: they are stored, but never
    quoted nor used as evidence. () when none."""
    if len(texts) > MAX_WARNING_CHUNKS:
        return ()
    found = [s for text in texts for s in instructions_in(text)]
    if not found:
        return ()
    first = " ".join(found[0].split())
    first = first if len(first) <= 120 else first[:117] + "…"
    return (ngettext(
        "%(name)s: %(n)d sentence reads as an instruction to the assistant (“%(first)s”); "
        "it is stored, but never quoted nor used as evidence",
        "%(name)s: %(n)d sentences read as instructions to the assistant (“%(first)s”, …); "
        "they are stored, but never quoted nor used as evidence",
        len(found)) % {"name": name, "n": len(found), "first": first},)


def chunks_phrase(n: int) -> str:
    """``1 chunk`` / ``2 chunks`` (ngettext, so translations get their plural forms)."""
    return ngettext("%(n)d chunk", "%(n)d chunks", n) % {"n": n}


def retitled(result: IngestResult) -> str:
    """``; replaced “Annual leave policy” (from leave.md) -> “My leave notes”`` when the
    ingest replaced a document from another file, ``; title “A” -> “B”`` when it changed
    the title, else ``""``."""
    if result.replaced:
        source = gettext(" (from %(file)s)") % {"file": result.previous_name}
        return gettext("; replaced “%(old)s”%(source)s -> “%(new)s”") % {
            "old": result.previous_title or result.title,
            "source": source if result.previous_name else "",
            "new": result.title,
        }
    if result.previous_title:
        return gettext("; title “%(old)s” -> “%(new)s”") % {
            "old": result.previous_title,
            "new": result.title,
        }
    return ""


def changes(result: IngestResult) -> str:
    """What the ingest changed in the document besides its text, for its outcome line: the
    title or the replaced document (``retitled``), then ``; authority archived -> manual``
    when the authority changed (a re-ingest whose front matter states another one), else
    ``""``."""
    text = retitled(result)
    if result.authority_change:
        old, new = result.authority_change
        text += gettext("; authority %(old)s -> %(new)s") % {"old": old, "new": new}
    return text


# What each status is called in messages (the status itself stays the English word in JSON
# output and the command line's summary line).
STATUS_WORDS = {
    "added": pgettext_lazy("ingest status", "added"),
    "updated": pgettext_lazy("ingest status", "updated"),
    "unchanged": pgettext_lazy("ingest status", "unchanged"),
    "restored": pgettext_lazy("ingest status", "restored"),
    "duplicate": pgettext_lazy("ingest status", "duplicate"),
}


def ingest_message(name: str, result: IngestResult, *, same_upload: bool = False) -> str:
    """``travel.md: added doc-010 (3 chunks, 3 new, 0 superseded)``; names kept as written.

    When the file name gave the doc_id of an existing document and updated it (re-upload to
    update), the message says so; not when ``same_upload`` (an earlier file of this upload,
    told apart by a warning). A replaced document from another file, a changed title and a
    changed authority are named old -> new (``changes``).
    """
    counts = gettext("%(chunks)s, %(new)d new, %(superseded)d superseded") % {
        "chunks": chunks_phrase(result.chunks),
        "new": result.chunks_added,
        "superseded": result.chunks_superseded,
    }
    renamed = same_upload or result.replaced  # told by a warning, or by ``retitled``
    if result.status == "updated" and result.doc_id_from_name and not renamed:
        counts = gettext("same file name as an existing document; %(counts)s") % {
            "counts": counts
        }
    return gettext("%(name)s: %(status)s %(doc_id)s (%(counts)s)%(retitled)s") % {
        "name": name,
        "status": STATUS_WORDS[result.status],
        "doc_id": result.doc_id,
        "counts": counts,
        "retitled": changes(result),
    }


def outcome_lines(name: str, result: IngestResult,
                  earlier: Mapping[str, str]) -> list[tuple[str, str]]:
    """How ingesting file ``name`` went, as ``(level, text)`` lines, alike for a file told
    at once and one ingested in the background: the outcome (``ingest_message``), a warning
    when an earlier file of the same upload (``earlier``: doc_id -> file name) had the same
    doc_id, then the ingest's warnings; a copy of a stored text (``duplicate``) has only
    its warnings, which say which document it copies."""
    warnings = [("warning", w) for w in result.warnings]
    if result.status == "duplicate":
        return warnings
    lines = [("success", ingest_message(name, result, same_upload=result.doc_id in earlier))]
    if result.doc_id in earlier:
        lines.append(("warning", gettext(
            "%(name)s: has the same doc_id (%(doc_id)s) as %(other)s in this upload and "
            "replaced its text"
        ) % {"name": name, "doc_id": result.doc_id, "other": earlier[result.doc_id]}))
    return lines + warnings
