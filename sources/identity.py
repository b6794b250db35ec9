"""Which stored document an ingested file would replace or repeat (README: Using it).

- **Replacing.** A file whose doc_id (from front matter, an override or its file name) is a
  stored document's, but that comes from another source file, replaces that document only
  when asked (``replace=True``: the upload form's "Replace existing documents", ``ingest
  --replace``); otherwise ingesting it fails with a message naming the document, and nothing
  stored changes. Uploading the same file name again is how a document is updated, title
  changes included. A document stored without its file name is told apart by its title.
- **Repeating.** A new file whose doc_id comes from its file name and whose text is a stored
  document's (the same chunk fingerprints: normalised text, punctuation and spaces aside)
  is not added: the upload names that document. Two copies would drift apart when one is
  updated. A file with its own doc_id is a deliberate copy: it is added, with a warning.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.utils.translation import gettext

from sources.chunking import ChunkDraft
from sources.models import Chunk, Document


def another_source(document: Document, *, name: str, title: str) -> bool:
    """Whether ingesting the file ``name`` titled ``title`` as ``document`` would replace a
    document that came from another file (by file name; by title when none is stored)."""
    if document.original_name:
        return document.original_name != name
    return document.title != title


def replace_refusal(document: Document, *, name: str, title: str) -> str:
    """Why ``name`` was not ingested over ``document`` (safe to show, names both; in the
    active language)."""
    return gettext(
        "%(name)s: not ingested; its doc_id %(doc_id)s belongs to “%(title)s”%(source)s. "
        "Nothing was changed. To replace that document with “%(new_title)s”, upload again with "
        "“Replace existing documents” ticked (manage.py ingest --replace), or give this file "
        "its own doc_id"
    ) % {**_stored(document), "name": name, "new_title": title}


def fingerprints(drafts: Sequence[ChunkDraft]) -> list[tuple[int, str]]:
    """``(ordinal, fingerprint)`` of each chunk draft, sorted: a text's identity."""
    return sorted((d.ordinal, d.fingerprint) for d in drafts)


def same_text_document(drafts: Sequence[ChunkDraft], *, other_than: str = "") -> Document | None:
    """A current document (doc_id not ``other_than``) whose current chunks are ``drafts``'
    text, chunk for chunk (``fingerprints``); None when there is none. One query on the
    first chunk's fingerprint, then the candidates' chunks are compared."""
    wanted = fingerprints(drafts)
    first_ordinal, first = wanted[0]
    candidates = Document.objects.filter(
        retired_at__isnull=True,
        chunks__is_current=True,
        chunks__ordinal=first_ordinal,
        chunks__fingerprint=first,
    ).exclude(doc_id=other_than)
    for document in candidates.distinct().order_by("doc_id"):
        stored = document.chunks.filter(is_current=True).values_list("ordinal", "fingerprint")
        if sorted(stored) == wanted:
            return document
    return None


def stored_first_fingerprints(firsts: Iterable[str]) -> set[str]:
    """Which of these first-chunk fingerprints a current chunk of a current document has
    (one query for a group of files: ``sources.bulk``)."""
    return set(
        Chunk.objects.filter(
            fingerprint__in=list(firsts), is_current=True, document__retired_at__isnull=True
        ).values_list("fingerprint", flat=True)
    )


def duplicate_warning(name: str, document: Document) -> str:
    """What a deliberate copy's upload says (its file has its own doc_id)."""
    return gettext(
        "%(name)s: same text as %(doc_id)s “%(title)s”%(source)s; both are kept, and an update "
        "to one will not change the other"
    ) % {**_stored(document), "name": name}


def duplicate_refusal(name: str, document: Document) -> str:
    """What an upload of a stored text under another file name says (it was not added)."""
    return gettext(
        "%(name)s: not added; %(doc_id)s “%(title)s”%(source)s has the same text. To update it, "
        "upload the file under that document's name; to keep a separate copy, give the file "
        "its own doc_id in its front matter"
    ) % {**_stored(document, bracketed=True), "name": name}


def _stored(document: Document, *, bracketed: bool = False) -> dict[str, str]:
    """The stored document as the messages above name it: doc_id, title and `` from
    file.md`` (`` (from file.md)`` when ``bracketed``) when its file name is known."""
    form = gettext(" (from %(file)s)") if bracketed else gettext(" from %(file)s")
    source = form % {"file": document.original_name}
    return {
        "doc_id": document.doc_id,
        "title": document.title,
        "source": source if document.original_name else "",
    }
