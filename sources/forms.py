"""The admin upload form: many files at once plus optional metadata overrides.

Files are checked one by one, never as a whole: an empty file goes on to ingestion (which
names it and says it contains no text), and a file without a name or selected twice is
reported by ``UploadForm.screened_uploads`` while the other files are still ingested.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth.models import Group
from django.core.files.uploadedfile import UploadedFile
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from sources.ingest_types import IngestOverrides
from sources.metadata import SourceURLField
from sources.models import Authority, Document, Language
from sources.parsers import SUPPORTED_SUFFIXES
from sources.uploads import upload_size_problem, upload_type_problem


class _Limit:
    """``settings.KBQA_MAX_UPLOAD_MB`` when shown (read then, so overrides apply)."""

    def __str__(self) -> str:
        return str(settings.KBQA_MAX_UPLOAD_MB)


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """A file field that accepts several files (Django docs: "Uploading multiple files")."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault(
            "widget", MultipleFileInput(attrs={"accept": ",".join(sorted(SUPPORTED_SUFFIXES))})
        )
        super().__init__(*args, **kwargs)

    def clean(self, data: Any, initial: Any = None) -> list[UploadedFile]:
        """Every submitted file, unchecked (``screen_uploads`` reports bad ones by name);
        "This field is required." only when there is no file at all."""
        items = data if isinstance(data, list | tuple) else [data]
        files = [d for d in items if isinstance(d, UploadedFile)]  # nameless ones too
        if not files:
            super().clean(None, initial)  # raises the "required" error
        return files


@dataclass(frozen=True)
class ScreenedUpload:
    """One uploaded file; ``problem`` (safe to show, names the file) when it is skipped."""

    upload: UploadedFile
    problem: str = ""
    failed: bool = False  # True: an error (the file cannot go in), False: a warning


def screen_uploads(files: list[UploadedFile]) -> list[ScreenedUpload]:
    """The files in upload order, each with the reason it is skipped, if it is.

    Skipped: a file without a name, a file over ``settings.KBQA_MAX_UPLOAD_MB`` or of a type
    no parser reads (errors, ``failed``: told at once, never queued to fail later), and a
    second file with a name already seen in this upload (it would overwrite the first one's
    document).
    """
    seen: dict[str, str] = {}  # file name -> SHA-256 of its bytes
    screened: list[ScreenedUpload] = []
    for upload in files:
        name = PurePath(upload.name or "").name.strip()
        if not name:
            problem = "(a file without a name): skipped; give it a name and upload it again"
        elif refused := (upload_size_problem(name=name, size=upload.size or 0)
                         or upload_type_problem(name=name)):
            screened.append(ScreenedUpload(upload, refused, failed=True))
            continue
        elif name in seen:
            same = seen[name] == _digest(upload)
            problem = (
                f"{name}: selected twice in this upload; ingested once"
                if same
                else f"{name}: another file with this name is in this upload; only the first "
                "was ingested. Rename one and upload it again"
            )
        else:
            seen[name], problem = _digest(upload), ""
        screened.append(ScreenedUpload(upload, problem))
    return screened


def _digest(upload: UploadedFile) -> str:
    digest = hashlib.sha256()
    for part in upload.chunks():
        digest.update(part)
    upload.seek(0)
    return digest.hexdigest()


class UploadForm(forms.Form):
    files = MultipleFileField(
        label=_("Files"),
        help_text=format_lazy(
            _(
                "Markdown, text, HTML, PDF or DOCX, at most {mb} MB each; several at once. A "
                "file whose front matter has no doc_id takes it from the file name (Travel "
                "Policy.pdf becomes travel-policy), so uploading a file with the same name "
                "again updates that document; rename the file to add a separate one."
            ),
            mb=_Limit(),
        ),
    )
    authority = forms.ChoiceField(
        label=_("Authority"),
        choices=[("", _("(from the file)")), *Authority.choices],
        required=False,
        help_text=_(
            "Left empty, authority, updated date and source URL come from the file; a new "
            "version of a stored document keeps its own when the file does not state them."
        ),
    )
    language = forms.ChoiceField(
        label=_("Language"),
        choices=[("", _("(from the file / detected)")), *Language.choices],
        required=False,
    )
    updated = forms.DateField(
        label=_("Updated"),
        required=False,
        help_text=_("Updated/effective date, YYYY-MM-DD."),
    )
    source_url = SourceURLField(label=_("Source URL"), required=False)
    groups = forms.ModelMultipleChoiceField(
        label=_("Visible to"),
        queryset=Group.objects.order_by("name"),
        required=False,
        help_text=_(
            "Leave empty to take it from the file (front matter 'visibility: [hr]'); a new "
            "document without it is visible to everyone."
        ),
    )

    replace = forms.BooleanField(
        label=_("Replace existing documents"),
        required=False,
        help_text=_(
            "A file whose doc_id is that of a document from another file is refused unless "
            "this is ticked; then it replaces that document (its old versions stay readable "
            "for stored citations). Uploading a file under the same name always updates its "
            "document."
        ),
    )

    def screened_uploads(self) -> list[ScreenedUpload]:
        """The valid form's files, each with the reason it is skipped (if any)."""
        return screen_uploads(self.cleaned_data["files"])

    def overrides(self) -> IngestOverrides:
        """The metadata overrides chosen (empty values mean "take it from the file")."""
        data = self.cleaned_data
        return IngestOverrides(
            authority=data.get("authority") or "",
            language=data.get("language") or "",
            updated=data["updated"].isoformat() if data.get("updated") else "",
            source_url=data.get("source_url") or "",
            visibility=",".join(g.name for g in data.get("groups") or ()),
        )


class DocumentVisibilityForm(forms.ModelForm):
    """Who may read a stored document (its admin page): everyone, or chosen groups.

    Nothing is implied by an empty group list: opening a document to everyone is an explicit
    tick, so saving a document whose groups were deleted keeps it to document administrators.
    """

    everyone = forms.BooleanField(
        label=_("Visible to everyone"),
        required=False,
        help_text=_("Untick and choose groups to limit who gets answers from this document."),
    )

    class Meta:
        model = Document
        fields = ["groups"]
        labels = {"groups": _("Visible to")}
        help_texts = {
            "groups": _(
                "Who may read it when it is not visible to everyone. With no group left, only "
                "document administrators can read it."
            )
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["everyone"].initial = not (self.instance.pk and self.instance.restricted)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("everyone") and data.get("groups"):
            raise forms.ValidationError(
                _("Choose either 'Visible to everyone' or groups, not both.")
            )
        return data
