"""A document's source URL is checked by one rule on every way in (front matter, ``ingest
--source-url``, the upload form): only http and https addresses; a bad one refuses the file
and leaves what is stored as it was."""

from __future__ import annotations

from collections.abc import Callable
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from kbqa.core.errors import IngestError
from sources.models import Chunk, Document
from sources.services import document_ingest

pytestmark = pytest.mark.django_db
WriteFile = Callable[[str, bytes | str], Path]

FAQ = "---\ndoc_id: rb-faq\nsource_url: {url}\n---\n# FAQ\n\n{text}\n"


def stored(write_file: WriteFile) -> Document:
    document_ingest(path=write_file("faq.md", FAQ.format(
        url="https://intranet.example.com/faq", text="Ask the service desk.")))
    return Document.objects.get(doc_id="rb-faq")


@pytest.mark.parametrize("url", ['"javascript:alert(12)"', "not a url at all",
                                 "ftp://files.example.com/faq"])
def test_front_matter_with_a_bad_source_url_is_refused_and_changes_nothing(
    write_file: WriteFile, url: str
) -> None:
    before = stored(write_file)
    edited = write_file("faq.md", FAQ.format(url=url, text="Ask the help desk instead."))
    with pytest.raises(IngestError, match="faq.md: bad source_url .*; use an http:// or https://"):
        document_ingest(path=edited)
    after = Document.objects.get(doc_id="rb-faq")
    assert after.source_url == "https://intranet.example.com/faq"
    assert after.content_hash == before.content_hash
    assert list(Chunk.objects.values_list("text", flat=True)) == ["Ask the service desk."]


@pytest.mark.parametrize("url", ["javascript:alert(1)", "not a url at all"])
def test_ingest_source_url_option_is_checked_by_the_same_rule(
    write_file: WriteFile, url: str
) -> None:
    path = write_file("guide.md", "# Guide\n\nPrinters are on floor 2.\n")
    err = StringIO()
    with pytest.raises(CommandError, match="none was ingested"):
        call_command("ingest", str(path), "--source-url", url, stdout=StringIO(), stderr=err,
                     skip_checks=True)
    assert f"FAILED {path}: bad source_url {url!r}; use an http:// or https:// address" in (
        err.getvalue())
    assert not Document.objects.exists()


def test_an_address_without_a_scheme_is_stored_as_https_as_the_form_does(
    write_file: WriteFile,
) -> None:
    document_ingest(path=write_file("faq.md", FAQ.format(url="intranet.example.com/faq",
                                                         text="Ask the service desk.")))
    assert Document.objects.get().source_url == "https://intranet.example.com/faq"


def test_the_chunk_api_never_serves_a_refused_url(write_file: WriteFile, client: Client) -> None:
    stored(write_file)
    with pytest.raises(IngestError):
        document_ingest(path=write_file("faq.md", FAQ.format(url='"javascript:alert(12)"',
                                                             text="Ask the service desk.")))
    client.force_login(User.objects.create_user("ann", password="pw-123456789"))
    chunk_id = Chunk.objects.get().chunk_id.replace("#", "%23")
    assert client.get(f"/api/chunks/{chunk_id}").json()["source_url"] == (
        "https://intranet.example.com/faq")
