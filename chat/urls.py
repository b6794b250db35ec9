"""Chat URLs: the chat pages (here), the HTTP API and the reviewer pages (their own modules).

``/favicon.ico`` redirects to the SVG icon that ``base.html`` links, for clients that ask
for the old path anyway (no 404 in the logs).
"""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, include, path

from chat import views

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.chat_home, name="chat_home"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("c/new/", views.conversation_new, name="chat_conversation_new"),
    path("c/<int:conversation_id>/", views.conversation_detail, name="chat_conversation"),
    path(
        "c/<int:conversation_id>/rename/",
        views.conversation_rename,
        name="chat_conversation_rename",
    ),
    path(
        "c/<int:conversation_id>/delete/",
        views.conversation_delete,
        name="chat_conversation_delete",
    ),
    path("feedback/<str:trace_id>/", views.feedback_give, name="chat_feedback"),
    path("", include("chat.urls_api")),
    path("", include("chat.urls_reviewer")),
]
