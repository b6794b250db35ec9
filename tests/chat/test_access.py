"""Who may read what, end to end: users (no group, hr, hr+finance, staff, document admin) ×
documents (everyone, hr-only, finance-only) over every front end (websocket, JSON, SSE,
``ask``, ``evaluate``), conflict cards with a hidden side, and a follow-up after access is
withdrawn. The fake provider records what the model was shown: a hidden passage must never be
among the blocks, whatever the front end."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth.models import Group, Permission, User
from django.core.management import call_command
from django.test import Client

from chat.auth import api_token_create
from chat.evaluation import case_knowledge_base
from chat.models import Conversation
from kbqa.core.errors import KbqaError
from kbqa.core.evaluation.cases import parse_case
from sources.ingest_types import IngestOverrides
from sources.models import Document
from sources.services import document_ingest
from sources.visibility import document_visibility_set
from tests.chat.support import chat_socket, conversation_make, receive_turn
from tests.chat.test_api import sse
from tests.fakes.provider import FakeProvider

pytestmark = pytest.mark.django_db(transaction=True)

DOCS = {
    "leave": ("everyone", "Full-time employees get 20 days of annual leave each calendar year."),
    "salary": ("hr", "Salary band E3 pays 90,000 EUR a year before tax."),
    "budget": ("finance", "The team outing budget is 50 EUR per person per quarter."),
    "uploads": ("everyone", "Uploads: the maximum upload size is 200 MB per file."),
    "uploads-hr": ("hr", "Uploads: the maximum upload size is 100 MB per file."),
}
SALARY_Q = "What does salary band E3 pay a year?"
SALARY_A = "Salary band E3 pays 90,000 EUR a year [1]."
UPLOAD_Q = "What is the maximum upload size per file?"
USERS = {  # username -> (groups, flags)
    "nora": ((), {}),
    "hank": (("hr",), {}),
    "fay": (("hr", "finance"), {}),
    "sam": ((), {"is_staff": True}),
    "ada": ((), {"is_staff": True, "is_superuser": True}),
}
READS_SALARY = {"nora": False, "hank": True, "fay": True, "sam": False, "ada": True}


@pytest.fixture
def kb(tmp_path: Path) -> None:
    for name in ("hr", "finance"):
        Group.objects.create(name=name)
    for doc_id, (visibility, text) in DOCS.items():
        path = tmp_path / f"{doc_id}.md"
        path.write_text(f"# {doc_id.title()}\n\n{text}\n", encoding="utf-8")
        document_ingest(
            path=path,
            overrides=IngestOverrides(doc_id=doc_id, authority="policy", visibility=visibility),
        )
    for username, (groups, flags) in USERS.items():
        user = User.objects.create_user(username, password="pw-123456789", **flags)
        user.groups.set(Group.objects.filter(name__in=groups))


def shown_doc_ids(fake: FakeProvider) -> set[str]:
    """Documents of every block the model was shown in this test."""
    return {b.chunk.doc_id for p in fake.prompts for b in p.blocks}


def test_the_model_is_never_shown_a_passage_its_asker_may_not_read(
    kb: None, fake_provider: FakeProvider
) -> None:
    for username, reads in READS_SALARY.items():
        fake_provider.prompts.clear()
        fake_provider.add(SALARY_A)
        out = StringIO()
        call_command("ask", SALARY_Q, "--user", username, "--json", stdout=out)
        events = [json.loads(line) for line in out.getvalue().splitlines()]
        refusal = [e["data"]["reason"] for e in events if e["event"] == "refusal"]
        assert ("salary" in shown_doc_ids(fake_provider)) is reads, username
        assert refusal == ([] if reads else ["low_score"]), username
        if not reads:
            fake_provider.outputs.clear()


def test_ask_without_a_user_reads_documents_visible_to_everyone_only(
    kb: None, fake_provider: FakeProvider
) -> None:
    out = StringIO()
    call_command("ask", SALARY_Q, "--json", stdout=out)
    assert '"reason": "low_score"' in out.getvalue() and fake_provider.prompts == []


@pytest.mark.parametrize(("username", "reads"), [("nora", False), ("hank", True)])
def test_api_tokens_act_as_their_user_in_json_and_sse(
    kb: None, fake_provider: FakeProvider, username: str, reads: bool
) -> None:
    _token, key = api_token_create(user=User.objects.get(username=username))
    auth = {"HTTP_AUTHORIZATION": f"Bearer {key}"}
    fake_provider.add(json.dumps({"claims": [{"text": SALARY_A[:-5] + ".", "citations": [1]}]}))
    body = Client().post(
        "/api/answer", {"question": SALARY_Q}, content_type="application/json", **auth
    ).json()
    assert (body["status"] == "answered") is reads
    assert ("90,000" in body["answer"]) is reads
    assert [s["chunk_id"].split("#")[0] for s in body["sources"]] == (["salary"] if reads else [])
    fake_provider.add(SALARY_A)
    _response, text = sse({"Authorization": f"Bearer {key}"}, {"question": SALARY_Q})
    assert ("90,000" in text) is reads and ("salary#" in text) is reads
    assert ("salary" in shown_doc_ids(fake_provider)) is reads


@pytest.mark.parametrize(("username", "reads"), [("nora", False), ("fay", True)])
async def test_websocket_answers_from_what_the_user_may_read(
    kb: None, fake_provider: FakeProvider, username: str, reads: bool
) -> None:
    user = await sync_to_async(User.objects.get)(username=username)
    conversation = await conversation_make(user)
    fake_provider.add(SALARY_A)
    async with chat_socket(conversation.pk, user) as comm:
        await comm.send_to(text_data=json.dumps({"question": SALARY_Q}))
        html = "".join(await receive_turn(comm))
    assert ("90,000" in html) is reads
    assert ("salary%23" in html) is reads
    assert ("salary" in shown_doc_ids(fake_provider)) is reads


def _grant_through_group(user: User, allow: bool) -> None:
    """``sources.view_document`` given to (or taken from) a group ``user`` is in."""
    admins, _ = Group.objects.get_or_create(name="document admins")
    admins.permissions.set(Permission.objects.filter(codename="view_document") if allow else [])
    user.groups.add(admins)


ACCESS_CHANGES = {  # how nora comes to read the hr document, and loses it again
    "group": lambda u, allow: u.groups.set(Group.objects.filter(name="hr") if allow else []),
    "permission": lambda u, allow: u.user_permissions.set(
        Permission.objects.filter(codename="view_document") if allow else []
    ),
    "permission through a group": _grant_through_group,
    "superuser": lambda u, allow: User.objects.filter(pk=u.pk).update(is_superuser=allow),
}


@pytest.mark.parametrize("change", ACCESS_CHANGES)
async def test_a_change_of_access_applies_to_the_next_question_on_an_open_socket(
    kb: None, fake_provider: FakeProvider, change: str
) -> None:
    """Documented in README (Who may read what): nothing about what a user may read is kept
    per session or socket; the socket's user was loaded when it opened."""
    nora = await sync_to_async(User.objects.get)(username="nora")
    conversation = await conversation_make(nora)
    read = []
    async with chat_socket(conversation.pk, nora) as comm:
        for allow in (False, True, False):
            await sync_to_async(ACCESS_CHANGES[change])(nora, allow)
            fake_provider.prompts.clear()
            fake_provider.add(SALARY_A)
            await comm.send_to(text_data=json.dumps({"question": SALARY_Q}))
            html = "".join(await receive_turn(comm))
            read.append(("90,000" in html, "salary" in shown_doc_ids(fake_provider)))
    assert read == [(False, False), (True, True), (False, False)]


def test_a_conflict_with_a_hidden_side_answers_the_visible_value_without_revealing_the_other(
    kb: None, fake_provider: FakeProvider
) -> None:
    fake_provider.add("The maximum upload size is 200 MB per file [1].")
    out = StringIO()
    call_command("ask", UPLOAD_Q, "--user", "nora", "--json", stdout=out)
    assert "200 MB" in out.getvalue()
    assert "100 MB" not in out.getvalue() and "uploads-hr" not in out.getvalue()
    assert "uploads-hr" not in shown_doc_ids(fake_provider)
    out = StringIO()
    call_command("ask", UPLOAD_Q, "--user", "hank", "--json", stdout=out)
    assert '"reason": "conflict"' in out.getvalue() and "100 MB" in out.getvalue()


def test_a_follow_up_never_draws_on_a_document_access_was_withdrawn_from(
    kb: None, fake_provider: FakeProvider
) -> None:
    hank = User.objects.get(username="hank")
    fake_provider.add(SALARY_A)
    out = StringIO()
    call_command("ask", SALARY_Q, "--user", "hank", "--json", stdout=out)
    assert "90,000" in out.getvalue()
    hank.groups.clear()
    fake_provider.prompts.clear()
    out = StringIO()
    call_command("ask", "And what does salary band E3 pay before tax?", "--user", "hank",
                 "--json", stdout=out)
    assert "90,000" not in out.getvalue() and "salary" not in shown_doc_ids(fake_provider)


def test_withdrawing_a_document_from_a_group_reaches_the_next_question(
    kb: None, fake_provider: FakeProvider
) -> None:
    document_visibility_set(document=Document.objects.get(doc_id="salary"),
                            groups=[Group.objects.get(name="finance")])
    out = StringIO()
    call_command("ask", SALARY_Q, "--user", "hank", "--json", stdout=out)
    assert '"reason": "low_score"' in out.getvalue()


@pytest.mark.parametrize(("groups", "found"), [([], set()), (["hr"], {"salary"})])
async def test_evaluation_cases_name_the_asking_users_groups(
    kb: None, groups: list[str], found: set[str]
) -> None:
    case = parse_case({"id": "a", "question": SALARY_Q, "expect": "answer", "groups": groups,
                       "answer_contains": "salary"})
    hits = await case_knowledge_base(case).retriever.search(SALARY_Q, 5)
    assert {h.chunk.doc_id for h in hits} & {"salary"} == found


async def test_evaluation_case_documents_can_be_limited_to_groups() -> None:
    docs = [{"doc_id": "s", "text": DOCS["salary"][1], "visibility": ["hr"]},
            {"doc_id": "l", "text": DOCS["leave"][1]}]
    outsider = parse_case({"id": "a", "question": SALARY_Q, "expect": "refuse",
                           "documents": docs})
    member = parse_case({"id": "b", "question": SALARY_Q, "expect": "answer",
                         "documents": docs, "groups": ["hr"], "answer_contains": "salary"})
    hits = await case_knowledge_base(outsider).retriever.search(SALARY_Q, 5)
    assert "s" not in {h.chunk.doc_id for h in hits}
    hits = await case_knowledge_base(member).retriever.search(SALARY_Q, 5)
    assert hits[0].chunk.doc_id == "s"




async def test_an_evaluation_case_naming_an_unknown_group_fails_by_name(kb: None) -> None:
    case = parse_case({"id": "a", "question": SALARY_Q, "expect": "answer",
                       "groups": ["nosuchgroup"], "answer_contains": "salary"})
    with pytest.raises(KbqaError, match="unknown group.*nosuchgroup"):
        await case_knowledge_base(case).retriever.search(SALARY_Q, 5)


def test_the_operator_continuing_a_conversation_reads_what_everyone_may(
    kb: None, fake_provider: FakeProvider
) -> None:
    hank = User.objects.get(username="hank")
    conversation = Conversation.objects.create(owner=hank)
    out = StringIO()
    call_command("ask", SALARY_Q, "--conversation", str(conversation.pk), "--json", stdout=out)
    assert '"reason": "low_score"' in out.getvalue() and fake_provider.prompts == []
