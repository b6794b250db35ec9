"""Chunk view routes. ``reverse("sources:chunk-detail", args=["doc-010#c02"])`` gives
``/chunks/doc-010%23c02/`` (Django percent-encodes ``#``; the resolver decodes it)."""

from __future__ import annotations

from django.urls import URLPattern, path

from sources import views

app_name = "sources"

urlpatterns: list[URLPattern] = [
    path("chunks/<str:chunk_id>/", views.chunk_detail, name="chunk-detail"),
    path("api/chunks/<str:chunk_id>", views.chunk_api, name="chunk-api"),
    # Clients copy the HTML view's trailing slash; without this they got Django's HTML 404.
    path("api/chunks/<str:chunk_id>/", views.chunk_api),
]
