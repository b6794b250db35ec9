"""A PDF's metadata title titles its document only when an author wrote it: a file name or an
Office print title ("Microsoft Word - Doc1.docx") gives way to the first heading (README:
front matter title, else first level-1 heading, else file name)."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from sources.models import Document
from sources.services import document_ingest
from tests.sources.conftest import pdf_styled

pytestmark = pytest.mark.django_db
LINES = [("Helvetica-Bold", 18, "Remote work policy"),
         ("Helvetica", 11, "Staff may work from home two days a week.")]


@pytest.mark.parametrize("metadata_title", [
    "pdfsrc.html", "Microsoft Word - Doc1.docx", "Microsoft PowerPoint - deck.pptx",
    "remote-work.PDF"])
def test_a_file_name_in_the_metadata_gives_way_to_the_first_heading(metadata_title: str) -> None:
    data = pdf_styled(LINES, title=metadata_title)
    document_ingest(file=SimpleUploadedFile("remote.pdf", data))
    assert Document.objects.get().title == "Remote work policy"
