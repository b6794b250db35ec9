"""Readers' thumbs up/down and comments: stored with the trace, shown to reviewers."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from chat.models import Conversation, Feedback, Message, Trace

pytestmark = pytest.mark.django_db


def logged_in(username: str, *, staff: bool = False) -> tuple[Client, object]:
    user = get_user_model().objects.create_user(
        username=username, password="pw-123456", is_staff=staff
    )
    client = Client()
    client.force_login(user)
    return client, user


@pytest.fixture
def asked() -> tuple[Client, Trace]:
    client, user = logged_in("ann")
    conversation = Conversation.objects.create(owner=user, title="Refunds")
    trace = Trace.objects.create(
        question="Refunds?", conversation=conversation, user=user, status="answered"
    )
    Message.objects.create(conversation=conversation, role="user", text="Refunds?")
    Message.objects.create(
        conversation=conversation, role="assistant", text="Refunds take 14 days.",
        sentences=[{"index": 1, "text": "Refunds take 14 days.", "citations": []}],
        status="answered", trace=trace,
    )
    return client, trace


def test_thumbs_down_with_a_comment_is_stored_and_shown_pressed(asked) -> None:
    client, trace = asked
    htmx = {"HX-Request": "true"}
    first = client.post(f"/feedback/{trace.pk}/", {"rating": "down"}, headers=htmx)
    second = client.post(
        f"/feedback/{trace.pk}/",
        {"rating": "down", "comment": "It missed the exceptions."},
        headers={"HX-Request": "true"},
    )
    page = client.get(f"/c/{trace.conversation_id}/").content.decode()

    assert first.status_code == 200 and 'aria-pressed="true"' in first.content.decode()
    assert "Thank you" in second.content.decode()
    feedback = Feedback.objects.get()
    assert (feedback.trace_id, feedback.rating, feedback.comment) == (
        trace.pk, "down", "It missed the exceptions."
    )
    assert 'class="feedback-down icon-button" aria-pressed="true"' in page
    assert "It missed the exceptions." in page


def test_feedback_on_someone_elses_answer_is_not_found(asked) -> None:
    _client, trace = asked
    other, _ = logged_in("bob")
    assert other.post(f"/feedback/{trace.pk}/", {"rating": "up"}).status_code == 404
    assert not Feedback.objects.exists()


def test_a_rating_other_than_up_or_down_is_refused(asked) -> None:
    client, trace = asked
    assert client.post(f"/feedback/{trace.pk}/", {"rating": "meh"}).status_code == 400


def test_reviewers_filter_by_feedback_and_see_it_on_the_trace_page(asked) -> None:
    client, trace = asked
    client.post(f"/feedback/{trace.pk}/", {"rating": "down", "comment": "Wrong period."})
    Trace.objects.create(question="Unrated?", status="answered")
    reviewer, _ = logged_in("rita", staff=True)

    down = reviewer.get("/traces/", {"feedback": "down"}).content.decode()
    up = reviewer.get("/traces/", {"feedback": "up"}).content.decode()
    commented = reviewer.get("/traces/", {"feedback": "comment"}).content.decode()
    detail = reviewer.get(f"/traces/{trace.pk}/").content.decode()

    assert "Refunds?" in down and "Unrated?" not in down
    assert "Refunds?" not in up
    assert "Refunds?" in commented
    assert 'id="feedback-rating">not helpful</span>' in detail
    assert "Wrong period." in detail


def test_a_deleted_conversations_feedback_stays_for_reviewers(asked) -> None:
    client, trace = asked
    client.post(f"/feedback/{trace.pk}/", {"rating": "up"})
    client.post(f"/c/{trace.conversation_id}/delete/")
    assert Feedback.objects.get().trace_id == trace.pk


def test_admin_lists_feedback_and_shows_it_on_the_trace(asked, admin_client: Client) -> None:
    client, trace = asked
    client.post(f"/feedback/{trace.pk}/", {"rating": "up", "comment": "Clear."})
    listing = admin_client.get("/admin/chat/feedback/").content.decode()
    traces = admin_client.get("/admin/chat/trace/", {"feedback__rating": "up"}).content.decode()
    change = admin_client.get(f"/admin/chat/trace/{trace.pk}/change/").content.decode()

    assert "Clear." in listing
    assert "Refunds?" in traces and "helpful" in traces
    assert "Clear." in change

