"""Reviewer URLs (namespace ``reviewer``), included from ``chat.urls`` at the site root."""

from __future__ import annotations

from django.urls import path

from chat import reviewer

app_name = "reviewer"

urlpatterns = [
    path("traces/", reviewer.trace_list, name="trace-list"),
    path("traces/<str:trace_id>/", reviewer.trace_detail, name="trace-detail"),
]
