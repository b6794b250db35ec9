"""The admin upload form: many files at once plus optional metadata overrides."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.files.uploadedfile import UploadedFile

from sources.models import Authority, Language
from sources.parsers import SUPPORTED_SUFFIXES
from sources.services import IngestOverrides


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
        single = super().clean
        if isinstance(data, list | tuple) and data:
            return [single(d, initial) for d in data]
        return [single(None if isinstance(data, list | tuple) else data, initial)]


class UploadForm(forms.Form):
    files = MultipleFileField(help_text="Markdown, text, HTML, PDF or DOCX; several at once.")
    authority = forms.ChoiceField(
        choices=[("", "(from the file)"), *Authority.choices], required=False
    )
    language = forms.ChoiceField(
        choices=[("", "(from the file / detected)"), *Language.choices], required=False
    )
    updated = forms.DateField(required=False, help_text="Updated/effective date, YYYY-MM-DD.")
    source_url = forms.URLField(required=False, assume_scheme="https")

    def overrides(self) -> IngestOverrides:
        """The metadata overrides chosen (empty values mean "take it from the file")."""
        data = self.cleaned_data
        return IngestOverrides(
            authority=data.get("authority") or "",
            language=data.get("language") or "",
            updated=data["updated"].isoformat() if data.get("updated") else "",
            source_url=data.get("source_url") or "",
        )
