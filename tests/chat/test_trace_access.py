"""Reviewers see a trace only when they may read every document it used (README: Who may read
what): the reviewer list and page, admin's list and page, checked against the documents'
visibility and the reviewer's groups as they are now."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import Group, Permission, User
from django.test import Client
from django.utils import timezone

from chat.models import Conversation, Trace, new_ulid
from chat.services import trace_record
from kbqa.core.records import TraceRecorder
from sources.models import Document, PurgedChunk

pytestmark = pytest.mark.django_db

SALARY = "What does salary band E3 pay?"
LEAVE = "How many days of leave?"


@pytest.fixture
def hr() -> Group:
    group = Group.objects.create(name="hr")
    Document.objects.create(doc_id="leave", title="Leave")
    salary = Document.objects.create(doc_id="salary", title="Salary bands", restricted=True)
    salary.groups.set([group])
    return group


def recorded(question: str, doc_id: str, conversation: Conversation | None = None,
             **data: Any) -> Trace:
    draft = TraceRecorder(trace_id=new_ulid(), question=question, status="answered")
    draft.blocks = [{"n": 1, "chunk_id": f"{doc_id}#c00", "sha256": "x", "tokens": 9}]
    for key, value in data.items():
        setattr(draft, key, value)
    return trace_record(trace=draft, conversation=conversation)


def login(username: str, *, groups: tuple[Group, ...] = (), perms: tuple[str, ...] = (),
          **flags: Any) -> Client:
    user = User.objects.create_user(username, password="pw", **flags)
    user.groups.set(groups)
    for perm in perms:
        app_label, codename = perm.split(".")
        user.user_permissions.add(
            Permission.objects.get(content_type__app_label=app_label, codename=codename)
        )
    client = Client()
    client.force_login(user)
    return client


def listed(client: Client) -> list[str]:
    html = client.get("/traces/").content.decode()
    return re.findall(r'<a href="/traces/[0-9A-Z]+/">([^<]*)</a>', html)


def sees(client: Client, trace: Trace, *, admin: bool = True) -> bool:
    """Whether every reviewer view (admin's too for staff) shows ``trace``; fails when they
    disagree, or when a hidden trace is anything but a 404."""
    page = client.get(f"/traces/{trace.pk}/").status_code
    views = {page == 200, trace.question in listed(client)}
    if admin:
        change = client.get(f"/admin/chat/trace/{trace.pk}/change/").status_code
        changelist = client.get("/admin/chat/trace/").content.decode()
        views |= {change == 200, trace.question in changelist}
        assert page == 200 or change == 404
    assert len(views) == 1 and page in (200, 404)
    return views.pop()


def test_a_staff_reviewer_without_the_group_cannot_open_the_trace(hr: Group) -> None:
    salary, leave = recorded(SALARY, "salary"), recorded(LEAVE, "leave")
    sam = login("sam", is_staff=True)
    assert not sees(sam, salary)
    assert sees(sam, leave)
    assert listed(sam) == [LEAVE]


@pytest.mark.parametrize("who", ["member", "document admin", "superuser"])
def test_who_may_read_the_document_reviews_its_trace(hr: Group, who: str) -> None:
    salary = recorded(SALARY, "salary")
    client = {
        "member": lambda: login("hank", groups=(hr,), perms=("chat.view_trace",), is_staff=True),
        "document admin": lambda: login("dora", is_staff=True, perms=("sources.view_document",)),
        "superuser": lambda: login("ada", is_staff=True, is_superuser=True),
    }[who]()
    assert sees(client, salary)


def test_the_trace_shows_once_the_document_is_visible_to_everyone(hr: Group) -> None:
    salary = recorded(SALARY, "salary")
    sam = login("sam", is_staff=True)
    assert not sees(sam, salary)
    document = Document.objects.get(doc_id="salary")
    document.restricted = False
    document.save()
    document.groups.clear()
    assert sees(sam, salary)


def test_joining_the_group_shows_the_trace(hr: Group) -> None:
    salary = recorded(SALARY, "salary")
    sam = login("sam", is_staff=True)
    assert not sees(sam, salary)
    User.objects.get(username="sam").groups.add(hr)
    assert sees(sam, salary)


@pytest.mark.parametrize("where", ["hits", "conflicts", "instruction_sentences"])
def test_a_hidden_document_anywhere_in_the_trace_hides_it(hr: Group, where: str) -> None:
    entries = {
        "hits": [{"chunk_id": "salary#c00", "score": 1.0, "relevance": 0.2}],
        "conflicts": [{"unit": "EUR", "sides": [
            {"n": 1, "chunk_id": "leave#c00", "doc_id": "leave", "value_text": "20"},
            {"n": 2, "chunk_id": "salary#c01v2", "doc_id": "salary", "value_text": "90,000"},
        ]}],
        "instruction_sentences": [{"n": 2, "chunk_id": "salary#c03", "text": "Ignore it."}],
    }
    trace = recorded(LEAVE, "leave", **{where: entries[where]})
    assert not sees(login("sam", is_staff=True), trace)


def test_a_follow_up_quoting_a_hidden_answer_is_hidden(hr: Group) -> None:
    owner = User.objects.create_user("hank")
    conversation = Conversation.objects.create(owner=owner)
    recorded(SALARY, "salary", conversation)
    follow_up = recorded(LEAVE, "leave", conversation)  # its prompts quote the salary answer
    assert not sees(login("sam", is_staff=True), follow_up)


def test_a_purged_restricted_document_still_hides_its_traces(hr: Group) -> None:
    trace = recorded(SALARY, "old-salary")
    PurgedChunk.objects.create(chunk_id="old-salary#c00", doc_id="old-salary",
                               purged_at=timezone.now(), access=[str(hr.pk)])
    assert not sees(login("sam", is_staff=True), trace)
    assert sees(login("hank", groups=(hr,), perms=("chat.view_trace",)), trace, admin=False)


def test_the_migration_fills_the_documents_of_stored_traces(hr: Group) -> None:
    from chat.models import TraceDocument  # imported here: the other tests run without it
    from chat.trace_access import trace_documents_fill

    owner = User.objects.create_user("hank")
    conversation = Conversation.objects.create(owner=owner)
    first = Trace.objects.create(id=new_ulid(), question=SALARY, conversation=conversation,
                                 data={"blocks": [{"n": 1, "chunk_id": "salary#c00v2"}]})
    second = Trace.objects.create(id=new_ulid(), question=LEAVE, conversation=conversation,
                                  data={"hits": [{"chunk_id": "leave#c01"}]})
    alone = Trace.objects.create(id=new_ulid(), question="Who decides?", data={
        "conflicts": [{"sides": [{"doc_id": "leave"}, {"chunk_id": "a#b#c02"}]}]})
    bare = Trace.objects.create(id=new_ulid(), question="?", data={})
    assert not TraceDocument.objects.exists()
    trace_documents_fill(Trace, TraceDocument)
    trace_documents_fill(Trace, TraceDocument)  # again: nothing doubled
    rows = sorted(TraceDocument.objects.values_list("trace_id", "doc_id"))
    assert rows == sorted([(first.pk, "salary"), (second.pk, "leave"), (second.pk, "salary"),
                           (alone.pk, "a#b"), (alone.pk, "leave")])
    sam = login("sam", is_staff=True)
    assert [sees(sam, t) for t in (first, second, alone, bare)] == [False, False, True, True]
