"""HTTP API URLs (namespace ``api``), included from ``chat.urls`` at the site root."""

from __future__ import annotations

from django.urls import path

from chat import api, api_feedback

app_name = "api"

urlpatterns = [
    path("api/answer", api.answer_json, name="answer"),
    path("api/answer/stream", api.answer_stream, name="answer-stream"),
    path("api/feedback/<str:trace_id>", api_feedback.feedback_give, name="feedback"),
]
