"""Chat pages: the chat screen of one conversation, and starting a new conversation.

Views stay thin: the page renders ``templates/chat/chat.html`` (its turns come from the
partials shared with the websocket consumer via ``chat.rendering``); answering happens over
the websocket (``chat.consumers``).
"""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.db.models import Exists, OuterRef, Q
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponsePermanentRedirect,
)
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.utils.translation import gettext_lazy as _

from chat import services, turn_records
from chat.auth import fabricate_allowed
from chat.models import Conversation, Message, Trace
from chat.pipeline_settings import provider_label_from_settings
from chat.rendering import message_turn_view
from chat.selectors import conversation_visible
from chat.turn_relay import conversation_notify
from kbqa.core.errors import KbqaError
from kbqa.post_forms import login_required_post
from sources.selectors import audience_for, documents_readable

CONVERSATION_LIST_SIZE = 50
# The core names providers in English (it has no Django); the status line translates the
# labels it knows at render time. Others ("anthropic claude-…") are names, shown as they are.
PROVIDER_LABELS = {"offline extractive": _("offline extractive")}


def provider_label() -> tuple[str, bool]:
    """``(label, ok)`` for the status line in the active language, e.g.
    ``("offline extractive", True)``; ``(the configuration error, False)`` when it is bad."""
    try:
        label = provider_label_from_settings()
    except KbqaError as exc:
        return str(exc), False
    return str(PROVIDER_LABELS.get(label, label)), True


def messages_view(conversation: Conversation) -> list[dict[str, Any]]:
    """The conversation's messages as ``{"role", "message"}`` or ``{"role", "turn"}`` items."""
    rows = conversation.messages.select_related("trace__feedback").order_by("created_at", "id")
    return [
        {"role": "user", "message": m}
        if m.role == Message.Role.USER
        else {"role": "assistant", "turn": message_turn_view(m)}
        for m in rows
    ]


@login_required
def chat_home(request: HttpRequest) -> HttpResponse:
    """The latest conversation; a first visit creates one so the message box is ready."""
    conversation = Conversation.objects.filter(owner=request.user, via_api=False).first()
    if conversation is None:
        conversation = Conversation.objects.create(owner=request.user)
    return chat_page(request, conversation)


@login_required
def conversation_detail(request: HttpRequest, conversation_id: int) -> HttpResponse:
    """One of the user's conversations; 404 for another user's or a missing one."""
    conversation = conversation_visible(conversation_id=conversation_id, user=request.user)
    if conversation is None:
        raise Http404("No such conversation.")
    return chat_page(request, conversation)


@login_required_post
def conversation_new(request: HttpRequest) -> HttpResponse:
    """Start a conversation (reusing one still empty, so none piles up) and open it."""
    empty = (Conversation.objects.filter(owner=request.user, via_api=False)
             .exclude(_has_messages()).first())
    if empty is not None:
        return redirect("chat_conversation", conversation_id=empty.pk)
    conversation = Conversation.objects.create(owner=request.user)
    return redirect("chat_conversation", conversation_id=conversation.pk)


@login_required_post
def conversation_rename(request: HttpRequest, conversation_id: int) -> HttpResponse:
    """``POST title=``: rename one of the user's conversations (404 for anyone else's)."""
    conversation = get_object_or_404(Conversation, pk=conversation_id, owner=request.user)
    services.conversation_rename(conversation=conversation, title=request.POST.get("title", ""))
    conversation_notify(conversation.pk, "conversation.renamed", title=conversation.title)
    return redirect("chat_conversation", conversation_id=conversation.pk)


@login_required_post
def conversation_delete(request: HttpRequest, conversation_id: int) -> HttpResponse:
    """Delete one of the user's conversations (404 for anyone else's) and open the latest
    remaining one; reviewers keep its traces."""
    conversation = get_object_or_404(Conversation, pk=conversation_id, owner=request.user)
    services.conversation_delete(conversation=conversation)
    conversation_notify(conversation_id, "conversation.deleted")
    return redirect("chat_home")


@login_required_post
def feedback_give(request: HttpRequest, trace_id: str) -> HttpResponse:
    """``POST rating=up|down&comment=``: the asker's feedback on one answer.

    Answers the htmx form with its ``feedback`` partial (the choice pressed, the comment
    box); a plain form post is redirected back to the conversation. 404 for a trace the user
    did not ask (never "forbidden": the id alone must not reveal that it exists), 400 for a
    rating other than up/down.
    """
    trace = get_object_or_404(Trace, pk=trace_id, user=request.user)
    try:
        feedback = services.feedback_record(
            trace=trace,
            user=request.user,
            rating=request.POST.get("rating", ""),
            comment=request.POST.get("comment", ""),
        )
    except ValueError:
        return HttpResponseBadRequest(_("Choose thumbs up or thumbs down."))
    if getattr(request, "htmx", False):
        context = {"trace_id": trace.pk, "feedback": feedback, "saved": True}
        # a control of the footer: in the page's language (chat.fragment_html.footer_html)
        return render(request, "chat/_fragments.html#feedback", context)
    if trace.conversation_id is not None:
        return redirect("chat_conversation", conversation_id=trace.conversation_id)
    return redirect("chat_home")


def favicon(request: HttpRequest) -> HttpResponse:
    """``/favicon.ico``: a permanent redirect to the SVG icon (no login needed)."""
    return HttpResponsePermanentRedirect(static("favicon.svg"))


def _has_messages() -> Exists:
    """A conversation filter: it has at least one message."""
    return Exists(Message.objects.filter(conversation=OuterRef("pk")))


def chat_page(request: HttpRequest, conversation: Conversation) -> HttpResponse:
    """The chat screen for ``conversation``: its turns, the conversation list, provider status."""
    label, provider_ok = provider_label()
    turn_records.turns_interrupted_close(conversation=conversation)
    own = Conversation.objects.filter(owner=request.user)
    # an empty conversation is listed only while it is open ("New conversation" entries
    # with nothing in them were left behind in the list)
    listed = own.filter(via_api=False).filter(_has_messages() | Q(pk=conversation.pk))
    context = {
        "conversation": conversation,
        "conversations": listed[:CONVERSATION_LIST_SIZE],
        "conversations_total": listed.count(),
        # started by POST /api/answer: listed apart, under the browser's own
        "api_conversations": own.filter(via_api=True)[:CONVERSATION_LIST_SIZE],
        "api_conversations_total": own.filter(via_api=True).count(),
        "items": messages_view(conversation),
        "provider_label": label,
        "provider_ok": provider_ok,
        "max_question_chars": settings.KBQA_MAX_QUESTION_CHARS,
        "can_fabricate": fabricate_allowed(request.user),
        # nothing to ask about: the page says so before anyone types (README: Chat)
        "knowledge_base_empty": not documents_readable(audience=audience_for(request.user)),
        # Names this page's socket across reconnects (chat.socket_scope.socket_tab).
        "tab": uuid.uuid4().hex,
    }
    return render(request, "chat/chat.html", context)
