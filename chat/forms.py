"""Forms of the chat app's pages: the reviewer's trace-list filter.

The filter is a GET form: a bad field is reported next to itself and left out of the query,
while every valid field still filters (a typo in one date does not throw the others away).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any, cast

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from chat.models import Trace


class IsoDateField(forms.DateField):
    """A ``YYYY-MM-DD`` date (what ``<input type="date">`` sends); the error quotes the value."""

    input_formats = ["%Y-%m-%d"]

    def to_python(self, value: Any) -> dt.date | None:
        try:
            return super().to_python(value)
        except ValidationError:
            raise ValidationError(
                _("“%(value)s” is not a date: use YYYY-MM-DD, for example 2026-03-31."),
                code="invalid",
                params={"value": value},
            ) from None


class StatusesField(forms.MultipleChoiceField):
    """Every ``status`` given (``?status=answered&status=refused_low_score``: either); the
    drop-down's "any" (an empty value) adds none. An unknown status makes the field bad."""

    def to_python(self, value: Any) -> list[str]:
        return [status for status in super().to_python(value) if status]


FEEDBACK_CHOICES = [
    ("", _("any")),
    ("any", _("rated")),
    ("up", _("helpful")),
    ("down", _("not helpful")),
    ("comment", _("with a comment")),
]


class TraceFilterForm(forms.Form):
    """``?q=&user=&status=&provider=&feedback=&from=YYYY-MM-DD&to=YYYY-MM-DD`` of
    ``/traces/``; ``status`` may be repeated. ``q`` and ``user`` holding a NUL are bad
    fields (Django's CharField refuses null characters), named as the others are."""

    q = forms.CharField(required=False)
    user = forms.CharField(required=False)
    status = StatusesField(required=False, choices=Trace.Status.choices)
    provider = forms.ChoiceField(required=False)
    feedback = forms.ChoiceField(required=False, choices=FEEDBACK_CHOICES)

    def __init__(self, *args: Any, providers: Sequence[str] = (), **kwargs: Any) -> None:
        """``providers``: the provider names on stored traces (``trace_providers``); any other
        value is named as an error, as a bad status is, instead of silently listing nothing."""
        super().__init__(*args, **kwargs)
        provider = cast(forms.ChoiceField, self.fields["provider"])
        provider.choices = [("", ""), *((name, name) for name in providers)]
        # "from" is a Python keyword, so the date fields cannot be class attributes.
        self.fields["from"] = IsoDateField(required=False)
        self.fields["to"] = IsoDateField(required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        start, end = data.get("from"), data.get("to")
        if start and end and start > end:
            self.add_error(
                "to",
                ValidationError(
                    _("“To” (%(to)s) is before “From” (%(from)s): pick a later date."),
                    code="range",
                    params={"to": end.isoformat(), "from": start.isoformat()},
                ),
            )
        return data

    @property
    def chosen_statuses(self) -> list[str]:
        """The statuses the request gave, valid or not (the drop-down selects them); with
        more than one the page shows a multiple select, so filtering again keeps them all."""
        return [status for status in self["status"].value() or [] if status]

    def filters(self) -> dict[str, Any]:
        """Keyword arguments of ``chat.selectors.traces_filter`` from the valid fields only."""
        self.is_valid()
        data = self.cleaned_data
        return {
            "statuses": data.get("status") or [],
            "provider": data.get("provider") or "",
            "date_from": data.get("from"),
            "date_to": data.get("to"),
            "search": data.get("q") or "",
            "user": (data.get("user") or "").strip(),
            "feedback": data.get("feedback") or "",
        }
