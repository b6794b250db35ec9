"""``manage.py ask``: plain and --json output, errors, and continuing a conversation."""

from __future__ import annotations

import json
from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from chat.models import Conversation, Message, Trace
from tests.chat.scripted import (
    LEAVE,
    SECRET_DROPPED,
    ListRetriever,
    ScriptedAnswer,
    answered,
    failed,
    refused,
    scripted,
)

__all__ = ["scripted"]
pytestmark = pytest.mark.django_db


def ask(*args: str) -> str:
    out = StringIO()
    call_command("ask", *args, stdout=out)
    return out.getvalue()


def test_plain_output(scripted: ScriptedAnswer) -> None:
    output = ask("How much leave?")
    trace = Trace.objects.get()
    assert output == (
        "Employees get 20 days of leave. [1]\n"
        "(1 sentence withheld: its citation could not be verified)\n"
        "\nSources:\n"
        "  [1] Leave policy (2025-06-30) doc-001#c01\n"
        f"\nTrace: {trace.pk} (answered)\n"
    )
    assert SECRET_DROPPED not in output
    assert scripted.requests[0].mode == "stream"


def test_refusal_is_printed_with_its_message(scripted: ScriptedAnswer) -> None:
    scripted.script = refused
    output = ask("Who won the match?")
    assert output.splitlines()[:1] == ["The knowledge base has nothing on this; ask HR."]
    assert "Sources:" not in output
    assert output.endswith(f"Trace: {Trace.objects.get().pk} (refused_low_score)\n")


def test_json_output_one_event_per_line_done_last(scripted: ScriptedAnswer) -> None:
    lines = [json.loads(line) for line in ask("How much leave?", "--json").splitlines()]
    assert [line["event"] for line in lines] == ["meta", "sentence", "dropped", "done"]
    assert lines[1]["data"] == {
        "index": 1,
        "text": "Employees get 20 days of leave.",
        "citations": [1],
        "kind": "claim",
    }
    assert lines[2]["data"] == {
        "index": 1,
        "citations": [2],
        "reasons": ["[2] does not support it"],
    }
    assert lines[3]["data"]["trace_id"] == Trace.objects.get().pk
    assert SECRET_DROPPED not in json.dumps(lines)


def test_error_exits_non_zero(scripted: ScriptedAnswer) -> None:
    scripted.script = failed
    out = StringIO()
    with pytest.raises(CommandError) as excinfo:
        call_command("ask", "q", "--json", stdout=out)
    assert excinfo.value.returncode == 1
    assert str(excinfo.value) == "The model provider is overloaded; try again."
    assert [json.loads(x)["event"] for x in out.getvalue().splitlines()] == [
        "meta",
        "error",
        "done",
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["  "], "The question is empty."),
        (["\x00\x1b "], "The question is empty."),
        (["q", "--conversation", "999"], "Conversation 999 does not exist."),
        (["q", "--user", "nobody"], "No user named 'nobody'."),
    ],
)
def test_bad_arguments(scripted: ScriptedAnswer, args: list[str], message: str) -> None:
    with pytest.raises(CommandError, match=message):
        ask(*args)
    assert scripted.requests == []


def test_unknown_provider_is_an_error() -> None:
    with pytest.raises(CommandError, match="Provider unavailable: unknown provider 'nope'"):
        ask("q", "--provider", "nope")


def test_fabricate_flag_reaches_the_pipeline(scripted: ScriptedAnswer) -> None:
    ask("q", "--fabricate")
    ask("q")
    assert [r.fabricate for r in scripted.requests] == [True, False]


def test_conversation_continues_with_history(
    scripted: ScriptedAnswer, django_user_model: Any
) -> None:
    alice = django_user_model.objects.create_user("alice", password="pw")
    conversation = Conversation.objects.create(owner=alice, title="Leave")
    Message.objects.create(conversation=conversation, role="user", text="How much leave?")
    Message.objects.create(conversation=conversation, role="assistant", text="20 days.")
    ask("And for part-timers?", "--conversation", str(conversation.pk))
    assert [(t.role, t.text) for t in scripted.requests[0].history] == [
        ("user", "How much leave?"),
        ("assistant", "20 days."),
    ]
    assert list(conversation.messages.values_list("role", "text"))[2:] == [
        ("user", "And for part-timers?"),
        ("assistant", "Employees get 20 days of leave."),
    ]
    trace = Trace.objects.get()
    assert (trace.conversation_id, trace.user_id) == (conversation.pk, alice.pk)


def test_conversation_of_another_user_is_refused(
    scripted: ScriptedAnswer, django_user_model: Any
) -> None:
    alice = django_user_model.objects.create_user("alice", password="pw")
    django_user_model.objects.create_user("bob", password="pw")
    conversation = Conversation.objects.create(owner=alice)
    with pytest.raises(
        CommandError, match=f"Conversation {conversation.pk} belongs to another user."
    ):
        ask("q", "--conversation", str(conversation.pk), "--user", "bob")


def test_json_through_the_real_pipeline_and_offline_provider(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("chat.services.default_retriever", lambda: ListRetriever(LEAVE))
    lines = [
        json.loads(x)
        for x in ask("How much annual leave?", "--json", "--provider", "extractive").splitlines()
    ]
    assert lines[0]["event"] == "meta"
    assert lines[-1]["event"] == "done"
    assert [x["event"] for x in lines].count("done") == 1
    assert lines[-1]["data"]["trace_id"] == Trace.objects.get().pk


def test_authority_notice_is_printed_before_the_answer(scripted: ScriptedAnswer) -> None:
    from dataclasses import replace

    def with_notice(trace, request):  # type: ignore[no-untyped-def]
        events = answered(trace, request)
        notice = "Answered from the policy “Leave policy”; an archived page says 15 days."
        return [replace(events[0], notices=(notice,)), *events[1:]]

    scripted.script = with_notice
    output = ask("How much leave?")
    assert output.splitlines()[0] == (
        "Note: Answered from the policy “Leave policy”; an archived page says 15 days."
    )


def two_dropped(trace: Any, request: Any) -> list[Any]:
    from kbqa.core.types import Dropped

    events = answered(trace, request)
    dropped = Dropped(index=1, text=SECRET_DROPPED, citations=(5,), reasons=("[5] was not issued",))
    return [*events[:3], dropped, events[3]]


def test_withheld_sentences_are_counted_on_one_line(scripted: ScriptedAnswer) -> None:
    scripted.script = two_dropped
    lines = ask("How much leave?").splitlines()
    assert lines[:3] == [
        "Employees get 20 days of leave. [1]",
        "(2 sentences withheld: their citations could not be verified)",
        "",
    ]
    assert sum("withheld" in line for line in lines) == 1
    assert SECRET_DROPPED not in "\n".join(lines)


def test_nothing_withheld_prints_no_note(scripted: ScriptedAnswer) -> None:
    scripted.script = refused
    assert "withheld" not in ask("Who won the match?")


def test_a_question_over_the_limit_gets_the_browsers_message(
    scripted: ScriptedAnswer, settings: Any
) -> None:
    from chat.consumers import InputRejected, question_parse

    settings.KBQA_MAX_QUESTION_CHARS = 20
    question = "How many days of leave do I get?"
    with pytest.raises(InputRejected) as web:
        question_parse(json.dumps({"question": question}))
    with pytest.raises(CommandError) as cli:
        ask(question)
    assert (
        str(cli.value)
        == str(web.value)
        == ("Your question is 32 characters long; the limit is 20. Shorten it and send it again.")
    )
    assert scripted.requests == []
    assert Trace.objects.count() == 0


def test_control_characters_are_stripped_from_the_question(scripted: ScriptedAnswer) -> None:
    ask("How much\x00 leave?\x1b")
    assert [r.question for r in scripted.requests] == ["How much leave?"]
    assert Trace.objects.get().question == "How much leave?"
