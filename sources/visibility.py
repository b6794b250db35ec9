"""Writes for document visibility: which Django groups may read a document (README: Who may
read what). A document visible to everyone has no groups and ``restricted`` False; the
reads (who may read what) are ``sources.selectors.audience_for`` and ``chunk_readable``.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import Group

from kbqa.core.errors import IngestError, gettext_noop
from sources.front_matter import EVERYONE_WORD
from sources.indexing import index_documents
from sources.models import Document

__all__ = ["Group", "document_visibility_set", "visibility_changed", "visibility_groups"]


def visibility_groups(name: str, visibility: str) -> tuple[Group, ...]:
    """The groups ``visibility`` names ("everyone" -> ()), in name order.

    Raises ``IngestError`` naming the file and every unknown group: a typo must not make a
    restricted document public, nor create a group nobody belongs to.
    """
    names = sorted({n.strip() for n in visibility.split(",") if n.strip()})
    if not names or names == [EVERYONE_WORD]:
        return ()
    found = {g.name: g for g in Group.objects.filter(name__in=names)}
    if missing := [n for n in names if n not in found]:
        raise IngestError(
            gettext_noop(
                "%(name)s: unknown group(s) %(groups)s in visibility; create them in admin "
                "first, or use '%(everyone)s'"
            ),
            name=name,
            groups=", ".join(missing),
            everyone=EVERYONE_WORD,
        )
    return tuple(found[n] for n in names)


def document_visibility_set(
    *, document: Document, groups: Sequence[Group], everyone: bool | None = None
) -> None:
    """Limit ``document`` to ``groups`` and give the retrieval index its chunks with the new
    access labels, so every process sees the change within a second.

    ``everyone`` None: visible to everyone exactly when ``groups`` is empty (ingestion, where
    "everyone" was stated). ``everyone`` False with no groups keeps the document to document
    administrators only; True opens it to everyone (``groups`` must then be empty).
    """
    if everyone and groups:
        raise ValueError("a document visible to everyone has no groups")
    document.restricted = bool(groups) if everyone is None else not everyone
    document.save(update_fields=["restricted", "updated_at"])
    document.groups.set(groups)
    index_documents(doc_keys=[document.pk])  # its chunks' access labels in the index


def visibility_changed(doc: Document, groups: tuple[Group, ...] | None) -> bool:
    """Whether storing ``groups`` (None: not stated) would change ``doc``'s visibility."""
    if groups is None:
        return False
    if doc.pk is None:
        return bool(groups)
    current = set(doc.groups.values_list("pk", flat=True))
    return doc.restricted != bool(groups) or current != {g.pk for g in groups}
