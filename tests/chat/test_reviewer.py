"""Reviewer pages: who may see traces, list filters, and the evidence chain of one trace."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.contrib.auth.models import Group, Permission
from django.test import Client

from chat.models import Trace, new_ulid
from chat.services import trace_record
from kbqa.core.records import CallError, ModelCall, ModelUsage, TraceRecorder

pytestmark = pytest.mark.django_db


def trace_make(
    question: str,
    *,
    status: str = "answered",
    provider: str = "extractive",
    day: dt.date | None = None,
    **data: Any,
) -> Trace:
    draft = TraceRecorder(trace_id=new_ulid(), question=question, status=status, provider=provider)
    for key, value in data.items():
        setattr(draft, key, value)
    trace = trace_record(trace=draft)
    if day is not None:
        when = dt.datetime.combine(day, dt.time(12, 0), tzinfo=dt.UTC)
        Trace.objects.filter(pk=trace.pk).update(created_at=when)
    return trace


@pytest.fixture
def staff_client(django_user_model: Any) -> Client:
    client = Client()
    client.force_login(django_user_model.objects.create_user("sam", password="pw", is_staff=True))
    return client


def listed_questions(client: Client, query: str = "") -> list[str]:
    html = client.get(f"/traces/{query}").content.decode()
    return re.findall(r'<a href="/traces/[0-9A-Z]+/">([^<]*)</a>', html)


# ----------------------------------------------------------------------------- permissions


@pytest.mark.parametrize("url", ["/traces/", "/traces/{id}/"])
def test_anonymous_is_sent_to_login(url: str) -> None:
    trace = trace_make("q")
    response = Client().get(url.format(id=trace.pk))
    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next={url.format(id=trace.pk)}"


@pytest.mark.parametrize("url", ["/traces/", "/traces/{id}/"])
def test_ordinary_user_is_forbidden_with_a_page_that_says_why(
    url: str, django_user_model: Any
) -> None:
    trace = trace_make("q")
    client = Client()
    client.force_login(django_user_model.objects.create_user("olga", password="pw"))
    response = client.get(url.format(id=trace.pk))
    html = response.content.decode()
    assert response.status_code == 403
    assert "You do not have access to this page" in html
    assert "ask an administrator for the reviewer permission" in html
    assert '<a class="button-primary" href="/">Back to the chat</a>' in html
    assert "<title>No access · kbqa</title>" in html


@pytest.mark.parametrize("url", ["/traces/", "/traces/{id}/"])
def test_staff_and_reviewer_group_may_review(
    url: str, staff_client: Client, django_user_model: Any
) -> None:
    trace = trace_make("q")
    reviewers = Group.objects.create(name="Reviewers")
    reviewers.permissions.add(Permission.objects.get(codename="view_trace"))
    rita = django_user_model.objects.create_user("rita", password="pw")
    rita.groups.add(reviewers)
    client = Client()
    client.force_login(rita)
    assert client.get(url.format(id=trace.pk)).status_code == 200
    assert staff_client.get(url.format(id=trace.pk)).status_code == 200


def test_inactive_staff_has_no_reviewer_permission(django_user_model: Any) -> None:
    user = django_user_model.objects.create_user(
        "ex", password="pw", is_staff=True, is_active=False
    )
    assert user.has_perm("chat.view_trace") is False


def test_staff_sees_traces_link_in_nav(staff_client: Client) -> None:
    assert '<a href="/traces/">' in staff_client.get("/traces/").content.decode()


def test_unknown_trace_is_404(staff_client: Client) -> None:
    assert staff_client.get("/traces/01ZZZZZZZZZZZZZZZZZZZZZZZZ/").status_code == 404


# ----------------------------------------------------------------------------- list


@pytest.fixture
def traces() -> None:
    trace_make("How much annual leave?", day=dt.date(2025, 1, 10))
    trace_make("Who won the match?", status="refused_low_score", day=dt.date(2025, 2, 10))
    trace_make(
        "Upload limit for the portal?",
        status="refused_conflict",
        provider="anthropic",
        day=dt.date(2025, 3, 10),
    )
    trace_make("Parental leave for part-timers?", provider="anthropic", day=dt.date(2025, 4, 10))


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        (
            "",
            [
                "Parental leave for part-timers?",
                "Upload limit for the portal?",
                "Who won the match?",
                "How much annual leave?",
            ],
        ),
        ("?status=refused_low_score", ["Who won the match?"]),
        (
            "?provider=anthropic",
            ["Parental leave for part-timers?", "Upload limit for the portal?"],
        ),
        ("?status=answered&provider=anthropic", ["Parental leave for part-timers?"]),
        # every status given, not the last one only
        (
            "?status=answered&status=refused_low_score",
            ["Parental leave for part-timers?", "Who won the match?", "How much annual leave?"],
        ),
        ("?status=&status=refused_conflict", ["Upload limit for the portal?"]),
        (
            "?from=2025-02-10",
            [
                "Parental leave for part-timers?",
                "Upload limit for the portal?",
                "Who won the match?",
            ],
        ),
        ("?to=2025-02-10", ["Who won the match?", "How much annual leave?"]),
        ("?from=2025-02-01&to=2025-03-31", ["Upload limit for the portal?", "Who won the match?"]),
        ("?q=LEAVE", ["Parental leave for part-timers?", "How much annual leave?"]),
        ("?q=leave&to=2025-01-31", ["How much annual leave?"]),
        (
            "?from=not-a-date",
            [
                "Parental leave for part-timers?",
                "Upload limit for the portal?",
                "Who won the match?",
                "How much annual leave?",
            ],
        ),
        ("?q=nothing+like+this", []),
    ],
)
def test_list_filters(traces: None, staff_client: Client, query: str, expected: list[str]) -> None:
    assert listed_questions(staff_client, query) == expected


def field_errors(html: str) -> dict[str, str]:
    """``{field name: error text}`` of the filter form."""
    pattern = r'<span class="rv-field-error" id="([a-z]+)-error">([^<]*)</span>'
    return dict(re.findall(pattern, html))


@pytest.mark.parametrize(
    ("query", "errors", "expected"),
    [
        (
            "?q=leave&from=garbage&to=2026-13-45",
            {
                "from": "“garbage” is not a date: use YYYY-MM-DD, for example 2026-03-31.",
                "to": "“2026-13-45” is not a date: use YYYY-MM-DD, for example 2026-03-31.",
            },
            ["Parental leave for part-timers?", "How much annual leave?"],
        ),
        (
            "?from=2025-03-01&to=2025-02-01",
            {"to": "“To” (2025-02-01) is before “From” (2025-03-01): pick a later date."},
            ["Parental leave for part-timers?", "Upload limit for the portal?"],
        ),
        (
            "?status=bogus&provider=anthropic",
            {"status": "Select a valid choice. bogus is not one of the available choices."},
            ["Parental leave for part-timers?", "Upload limit for the portal?"],
        ),
        (
            "?provider=%3Cx%3E&q=upload",
            {"provider": "Select a valid choice. &lt;x&gt; is not one of the available choices."},
            ["Upload limit for the portal?"],
        ),
        (
            "?feedback=sideways&q=upload",
            {"feedback": "Select a valid choice. sideways is not one of the available choices."},
            ["Upload limit for the portal?"],
        ),
        (
            "?status=answered&status=bogus&q=leave",
            {"status": "Select a valid choice. bogus is not one of the available choices."},
            ["Parental leave for part-timers?", "How much annual leave?"],
        ),
        (
            "?user=%00&q=upload",
            {"user": "Null characters are not allowed."},
            ["Upload limit for the portal?"],
        ),
        (
            "?q=up%00load&status=answered",
            {"q": "Null characters are not allowed."},
            ["Parental leave for part-timers?", "How much annual leave?"],
        ),
    ],
    ids=[
        "bad-dates", "from-after-to", "bad-status", "unknown-provider", "bad-feedback",
        "one-bad-status-of-two", "nul-user", "nul-question",
    ],
)
def test_a_bad_filter_field_is_named_and_the_rest_still_filters(
    traces: None, staff_client: Client, query: str, errors: dict[str, str], expected: list[str]
) -> None:
    html = staff_client.get(f"/traces/{query}").content.decode()
    assert {k: v.replace("&#x27;", "'") for k, v in field_errors(html).items()} == errors
    assert "Some filters could not be used and were left out" in html
    assert listed_questions(staff_client, query) == expected


def test_good_filters_show_no_error(traces: None, staff_client: Client) -> None:
    html = staff_client.get("/traces/?from=2025-02-01&to=2025-03-31").content.decode()
    assert field_errors(html) == {}
    assert "aria-invalid" not in html
    assert 'name="from" value="2025-02-01"' in html


def test_several_statuses_stay_selected_for_the_next_filter(
    traces: None, staff_client: Client
) -> None:
    """A single drop-down would show one of them, and pressing Filter would drop the other."""
    html = staff_client.get("/traces/?status=answered&status=refused_low_score").content.decode()
    select = html.split('<select name="status"')[1].split("</select>")[0]
    assert select.startswith(" multiple>")
    assert re.findall(r'<option value="([a-z_]*)" selected>', select) == [
        "answered", "refused_low_score"
    ]
    one = staff_client.get("/traces/?status=answered").content.decode()
    assert '<select name="status">' in one


def test_list_shows_status_provider_and_time(traces: None, staff_client: Client) -> None:
    html = staff_client.get("/traces/?q=upload").content.decode()
    assert "refused: conflict" in html
    assert "anthropic" in html
    assert "2025-03-10 12:00:00" in html


def test_list_is_paginated_and_keeps_filters(staff_client: Client) -> None:
    for i in range(30):
        trace_make(f"leave question {i:02d}", day=dt.date(2025, 1, 1) + dt.timedelta(days=i))
    first = staff_client.get("/traces/?q=leave").content.decode()
    assert len(re.findall(r'class="trace-row"', first)) == 25
    assert "Page 1 of 2" in first
    assert 'href="?q=leave&amp;page=2"' in first
    assert listed_questions(staff_client, "?q=leave&page=2") == [
        f"leave question {i:02d}" for i in (4, 3, 2, 1, 0)
    ]


# ----------------------------------------------------------------------------- detail


@pytest.fixture
def evidence_trace() -> Trace:
    return trace_make(
        "How much leave <script>alert(1)</script>?",
        standalone_query="annual leave days",
        min_relevance=0.3,
        hits=[
            {"chunk_id": "doc-001#c01", "score": 7.5, "relevance": 0.92},
            {"chunk_id": "doc-009#c04", "score": 1.2, "relevance": 0.11},
        ],
        blocks=[
            {"n": 1, "chunk_id": "doc-001#c01", "sha256": "ab" * 32, "tokens": 40},
            {"n": 2, "chunk_id": "doc-002#c03", "sha256": "cd" * 32, "tokens": 35},
        ],
        compression={"tokens_before": 400, "tokens_after": 100, "reverted": []},
        calls=[
            ModelCall(
                purpose="rewrite", model_requested="fake-fast", model_reported="",
                prompt={"task": "rewrite", "system": "Rewrite.", "messages": []}, output="",
                stop_reason="", usage=ModelUsage(), duration_ms=5000.2, request_id="req_011CVr",
                error=CallError(type="overloaded_error", status=529, message="Overloaded",
                                request_id="req_011CVr", shown="overloaded"),
            ),
            ModelCall(
                purpose="answer", model_requested="fake-model", model_reported="fake-model-2025",
                prompt={
                    "task": "answer",
                    "system": "Answer only from the numbered sources.",
                    "messages": [{"role": "user", "content": "[1] <b>Leave</b> policy..."}],
                },
                output="Employees get 20 days [1]. Employees get 99 days [2].",
                stop_reason="end_turn", usage=ModelUsage(512, 64, 300, 20), duration_ms=120.0,
                request_id="req_011CVa",
            ),
        ],
        verdicts=[
            {
                "draft": 1,
                "text": "Employees get 20 days.",
                "kind": "claim",
                "citations": [1],
                "ok": True,
                "verified": [1],
                "overlaps": {"1": 0.83},
                "issues": [],
            },
            {
                "draft": 1,
                "text": "Employees get 99 days.",
                "kind": "claim",
                "citations": [2],
                "ok": False,
                "verified": [],
                "overlaps": {"2": 0.12},
                "issues": [
                    "[2]: only 12% of the sentence's terms appear in the source (needs 30%)"
                ],
            },
        ],
        dropped=[
            {
                "draft": 1,
                "text": "Employees get 99 days.",
                "reasons": [
                    "[2]: only 12% of the sentence's terms appear in the source (needs 30%)"
                ],
            }
        ],
        emitted=[{"index": 1, "text": "Employees get 20 days.", "citations": [1], "kind": "claim"}],
        model="fake-model",
        model_version="fake-model-2025",
        timings={"retrieval_ms": 12.5, "first_sentence_ms": 80.0, "total_ms": 140.2},
        errors=["ProviderError: <overloaded>"],
    )


def test_detail_lays_out_the_evidence_chain(evidence_trace: Trace, staff_client: Client) -> None:
    html = staff_client.get(f"/traces/{evidence_trace.pk}/").content.decode()
    for expected in [
        "annual leave days",  # standalone query
        'href="/chunks/doc-001%23c01/">doc-001#c01</a>',  # hit and block link to chunk view
        'href="/chunks/doc-009%23c04/">doc-009#c04</a>',
        "relevance ≥ 0.3",
        '<span class="rv-fail">below</span>',  # second hit under the threshold
        "ab" * 32,  # block text hash
        "400 → 100 tokens (saving 75.0%)",  # compression figures
        "<summary>Prompt as sent (answer)</summary>",
        "Employees get 20 days [1]. Employees get 99 days [2].",  # raw draft
        "[1] 0.83",  # overlap per citation
        "only 12% of the sentence&#x27;s terms appear in the source (needs 30%)",
        "Reviewer only: this text was NOT shown to the user.",
        "fake-model-2025",
        "<code>fake-model-2025</code>: input 512 · output 64 · cache read 300 · cache write 20",
        # the rewrite failed before the API said its usage: not "input 0 · output 0"
        "<code>fake-fast</code>: not reported by the model's API",
        "overloaded_error (HTTP 529): Overloaded",  # the failed rewrite, recorded whole
        "<code>req_011CVr</code>",
        '<code class="stop-reason">end_turn</code>',
        "512 / 64 / 300 / 20",
        "retrieval 12.5 ms",
        "first sentence 80.0 ms",
        "total 140.2 ms",
    ]:
        assert expected in html, expected
    assert len(re.findall(r'class="verdict verdict-ok"', html)) == 1
    assert len(re.findall(r'class="verdict verdict-dropped"', html)) == 1


def test_detail_escapes_everything(evidence_trace: Trace, staff_client: Client) -> None:
    html = staff_client.get(f"/traces/{evidence_trace.pk}/").content.decode()
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<b>Leave</b>" not in html
    assert "&lt;b&gt;Leave&lt;/b&gt;" in html
    assert "ProviderError: &lt;overloaded&gt;" in html


def test_detail_of_a_refusal(staff_client: Client) -> None:
    trace = trace_make(
        "Who won?",
        status="refused_low_score",
        refusal_reason="low_score",
        hits=[{"chunk_id": "doc-1#c1", "score": 0.4, "relevance": 0.05}],
        min_relevance=0.3,
    )
    html = staff_client.get(f"/traces/{trace.pk}/").content.decode()
    assert '<dd id="refusal-reason">low score</dd>' in html
    assert 'id="final-status">refused: low score</span>' in html
    assert "The model was not asked." in html


def test_detail_of_a_trace_without_data(staff_client: Client) -> None:
    trace = Trace.objects.create(question="old", status="cancelled", data={})
    response = staff_client.get(f"/traces/{trace.pk}/")
    assert response.status_code == 200
    # a tester could not tell "cancelled" from "stopped by the user"
    assert "Not by the asker&#x27;s Stop" in response.content.decode() or (
        "Not by the asker's Stop" in response.content.decode())


@pytest.mark.parametrize(
    ("provider", "model", "shown"),
    [
        ("extractive", "extractive", "offline extractive"),  # as the chat names it
        ("extractive", "", "offline extractive"),
        ("anthropic", "claude-sonnet-4-5", "anthropic claude-sonnet-4-5"),
        ("", "", "–"),
    ],
)
def test_list_names_provider_and_model_once_each(
    staff_client: Client, provider: str, model: str, shown: str
) -> None:
    trace_make("How much annual leave?", provider=provider, model=model)
    html = staff_client.get("/traces/").content.decode()
    cells = re.findall(r'<td data-label="Provider" class="trace-provider">(.*?)</td>', html)
    assert [" ".join(re.sub(r"<[^>]+>", " ", c).split()) for c in cells] == [shown]


def test_list_cells_carry_their_column_name_for_the_phone_layout(
    traces: None, staff_client: Client
) -> None:
    html = staff_client.get("/traces/?q=upload").content.decode()
    labels = re.findall(r'<td data-label="([^"]+)"', html)
    assert labels == ["Time", "Status", "User", "Provider", "Question", "Feedback", "Total ms"]
    assert '<div class="rv-scroll">' in html


def test_the_trace_page_maps_block_numbers_to_what_the_reader_saw(
    db: None, admin_client: Client
) -> None:
    trace = Trace.objects.create(
        question="Refunds?",
        status="answered",
        data={"emitted": [
            {"index": 1, "text": "A.", "citations": [5]},
            {"index": 2, "text": "B.", "citations": [2, 5]},
        ]},
    )
    html = admin_client.get(f"/traces/{trace.pk}/").content.decode()
    mapping = html.split('id="reader-numbers"')[1].split("</p>")[0]
    assert "[5] → [1], [2] → [2]" in mapping


def test_chinese_detail_translates_verdicts_purposes_stop_reasons_and_units(
    evidence_trace: Trace, staff_client: Client
) -> None:
    evidence_trace.data = {
        **evidence_trace.data,
        "conflicts": [{"unit": "day", "context": ["leave"], "sides": []}],
    }
    evidence_trace.save(update_fields=["data"])
    html = staff_client.get(f"/traces/{evidence_trace.pk}/?lang=zh-hans").content.decode()
    html = re.sub(r"<code[^>]*>.*?</code>|<pre[^>]*>.*?</pre>", "", html, flags=re.S)

    assert '<span class="rv-ok">已验证</span>' in html
    assert '<td data-purpose="answer">回答</td>' in html
    assert "正常结束" in html and "单位: 天" in html
    for untranslated in (">ok<", ">answer<", "end_turn", "单位: day"):
        assert untranslated not in html, untranslated


@pytest.mark.parametrize(
    ("relevance", "blocks", "said"),
    [(0.09, True, True), (0.3, True, False), (0.09, False, False)],
)
def test_an_answer_below_the_threshold_says_which_gate_let_it_through(
    staff_client: Client, relevance: float, blocks: bool, said: bool
) -> None:
    # a tester read "below" beside an answered question as a gate that was skipped
    hit = {"chunk_id": "doc-010#c01", "score": 4.2, "relevance": relevance}
    block = {"n": 1, "chunk_id": "doc-010#c01", "sha256": "ab", "tokens": 40}
    trace = trace_make("How many days do deleted files stay in the bin?", min_relevance=0.15,
                       hits=[hit], blocks=[block] if blocks else [],
                       status="answered" if blocks else "refused_low_score")
    html = staff_client.get(f"/traces/{trace.pk}/").content.decode()
    assert ('id="typed-gate"' in html) is said
    if said:
        chinese = staff_client.get(f"/traces/{trace.pk}/?lang=zh-hans").content.decode()
        assert "没有命中达到阈值" in chinese


def test_a_reviewer_finds_one_persons_questions(staff_client: Client,
                                                django_user_model: Any) -> None:
    # a tester had to search question texts to find what one colleague asked
    alice = django_user_model.objects.create_user("alice", password="pw")
    bob = django_user_model.objects.create_user("bob", password="pw")
    for user, question in ((alice, "How long are files kept?"), (bob, "Who approves claims?")):
        trace = trace_make(question)
        Trace.objects.filter(pk=trace.pk).update(user=user)
    html = staff_client.get("/traces/").content.decode()
    assert re.findall(r'class="trace-user"><a href="\?user=(\w+)">', html) == ["bob", "alice"]
    assert listed_questions(staff_client, "?user=ALICE") == ["How long are files kept?"]
    assert listed_questions(staff_client, "?user=carol") == []


def test_the_offline_provider_is_named_in_the_reviewers_language(staff_client: Client) -> None:
    # a tester's Chinese trace list said "extractive" where the chat says 离线抽取式
    trace = trace_make("How long are files kept?")
    listing = staff_client.get("/traces/?lang=zh-hans").content.decode()
    detail = staff_client.get(f"/traces/{trace.pk}/?lang=zh-hans").content.decode()
    assert 'class="trace-provider">离线抽取式' in listing
    assert 'value="extractive">离线抽取式</option>' in listing
    assert '<dd id="provider">离线抽取式</dd>' in detail


@pytest.mark.parametrize(
    ("lang", "label"),
    [
        ("en", "Opposite polarity: it negates what its source states, or the reverse"),
        ("zh-hans", "肯定与否定相反：句子否定了来源所肯定的内容，或反之"),
    ],
)
def test_a_clause_drop_names_its_kind_in_the_reviewers_language(
    staff_client: Client, lang: str, label: str
) -> None:
    reason = ("denies what [1] states: “company laptops are replaced every 4 years” (the "
              "sentence adds a negation; keep the source's polarity)")
    trace = trace_make("How often are laptops replaced?", dropped=[
        {"draft": 1, "text": "Company laptops are not replaced every 4 years.",
         "reasons": [reason, "[1] has only 0.03 substantive overlap with this sentence"]},
    ])
    html = staff_client.get(f"/traces/{trace.pk}/?lang={lang}").content.decode()
    assert f'<strong class="drop-kind">{label}</strong>: denies what [1] states' in html
    # a reason of another kind is shown as it is, without a label
    assert "<li>[1] has only 0.03 substantive overlap with this sentence</li>" in html


def test_drops_that_never_streamed_are_not_called_none(staff_client: Client) -> None:
    """A refusal after two drafts whose gap statements failed: the verdicts show them
    dropped, so the dropped-sentences section must not say "None." as if nothing was."""
    gap = {"kind": "gap", "citations": [], "ok": False, "verified": [], "overlaps": {},
           "issues": ["a gap statement with no answer beside it"]}
    trace = trace_make(
        "How are webhook deliveries verified?",
        status="refused_no_support",
        verdicts=[{**gap, "draft": 1, "text": "Not covered."},
                  {**gap, "draft": 2, "text": "Not covered."}],
    )
    html = staff_client.get(f"/traces/{trace.pk}/").content.decode()
    section = html.split('id="dropped"', 1)[1].split("</section>", 1)[0]
    assert "None." not in section
    assert "The 2 sentences the verdicts above drop were never sent" in section


def test_the_trace_says_which_words_were_spelled_anew(staff_client: Client) -> None:
    trace = trace_make("how long do i have to submit an expence claim?",
                       spelling={"expence": "expense"})
    html = staff_client.get(f"/traces/{trace.pk}/").content.decode()
    assert "Read another way before the search (spelling corrected" in html
    assert "<q>expence</q> → <q>expense</q>" in html


def test_a_forbidden_page_is_one_log_line_without_a_traceback(
    django_user_model: Any, caplog: pytest.LogCaptureFixture
) -> None:
    client = Client()
    client.force_login(django_user_model.objects.create_user("otto", password="pw"))
    with caplog.at_level("WARNING", logger="django.request"):
        assert client.get("/traces/").status_code == 403
    records = [r for r in caplog.records if r.name == "django.request"]
    assert [r.getMessage() for r in records] == ["Forbidden (Permission denied): /traces/"]
    assert records[0].exc_info is None


def test_a_model_call_error_without_a_message_reads_without_a_dangling_colon(
    db: None, admin_client: Client
) -> None:
    # a tester's stopped answer read "cancelled: · after text was shown"
    trace = Trace.objects.create(question="Refunds?", status="stopped", data={"calls": [
        {"purpose": "answer", "error": {"type": "cancelled", "message": "", "started": True}},
    ]})
    html = admin_client.get(f"/traces/{trace.pk}/").content.decode()
    cell = html.split('class="rv-fail call-error">')[1].split("</td>")[0]
    assert cell.startswith("cancelled</span>")
