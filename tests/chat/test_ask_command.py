"""``manage.py ask``: plain and --json output, errors, and continuing a conversation.

Every test runs the real turn service and pipeline over a stored knowledge base
(``tests.chat.kb``); the registered fake provider says what the model says.
"""

from __future__ import annotations

import json
from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from chat.frames import InputRejected, question_parse
from chat.models import Conversation, Message, Trace
from kbqa.core.errors import ProviderError
from tests.chat.kb import (
    ANSWER,
    LAPTOP_ANSWER,
    LAPTOP_QUESTION,
    OFF_TOPIC,
    QUESTION,
    SECRET_DROPPED,
    SHOWN,
    laptop_kb,
    leave_kb,
)
from tests.fakes.provider import FakeProvider

__all__ = ["laptop_kb", "leave_kb"]
pytestmark = pytest.mark.django_db
SECRET = SECRET_DROPPED.removesuffix(" [2].")


def ask(*args: str) -> str:
    out = StringIO()
    call_command("ask", *args, stdout=out)
    return out.getvalue()


@pytest.fixture
def fake(fake_provider: FakeProvider, leave_kb: None) -> FakeProvider:
    """The registered fake provider over the leave knowledge base, nothing queued yet."""
    return fake_provider


def test_plain_output(fake: FakeProvider) -> None:
    fake.add(f"{ANSWER} {SECRET_DROPPED}")
    output = ask(QUESTION)
    trace = Trace.objects.get()
    assert output == (
        f"{SHOWN} [1]\n"
        "(1 sentence withheld: its citation could not be verified)\n"
        "\nSources:\n"
        "  [1] Leave policy (2025-06-30) doc-001#c01\n"
        f"\nTrace: {trace.pk} (answered)\n"
    )
    assert SECRET not in output
    assert fake.prompts[0].task == "answer"


def test_refusal_is_printed_with_its_message(fake: FakeProvider) -> None:
    output = ask(OFF_TOPIC)
    assert output.startswith("No passage in the knowledge base matched")
    assert "Sources:" not in output and "withheld" not in output
    assert output.endswith(f"Trace: {Trace.objects.get().pk} (refused_low_score)\n")


def test_json_output_one_event_per_line_done_last(fake: FakeProvider) -> None:
    fake.add(f"{ANSWER} {SECRET_DROPPED}")
    lines = [json.loads(line) for line in ask(QUESTION, "--json").splitlines()]
    assert [line["event"] for line in lines] == ["meta", "sentence", "dropped", "done"]
    assert lines[1]["data"] == {
        "index": 1,
        "text": SHOWN,
        "citations": [1],
        "kind": "claim",
        "paragraph": False,
    }
    assert set(lines[2]["data"]) == {"index", "citations", "reasons"}
    assert lines[3]["data"]["trace_id"] == Trace.objects.get().pk
    assert SECRET not in json.dumps(lines)


def test_error_exits_non_zero(fake: FakeProvider) -> None:
    fake.add(ProviderError("The model provider is overloaded; try again.", retryable=True))
    out = StringIO()
    with pytest.raises(CommandError) as excinfo:
        call_command("ask", QUESTION, "--json", stdout=out)
    assert excinfo.value.returncode == 1
    assert str(excinfo.value) == "The model provider is overloaded; try again."
    assert [json.loads(x)["event"] for x in out.getvalue().splitlines()] == [
        "meta",
        "error",
        "done",
    ]
    assert (Trace.objects.get().status, fake.closed) == ("error", True)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["  "], "The question is empty."),
        (["\x00\x1b "], "The question is empty."),
        (["q", "--conversation", "999"], "Conversation 999 does not exist."),
        (["q", "--user", "nobody"], "No user named 'nobody'."),
    ],
)
def test_bad_arguments(fake: FakeProvider, args: list[str], message: str) -> None:
    with pytest.raises(CommandError, match=message):
        ask(*args)
    assert (fake.prompts, Trace.objects.count()) == ([], 0)


def test_unknown_provider_is_an_error() -> None:
    with pytest.raises(
        CommandError, match="The answer provider is unavailable: unknown provider 'nope'"
    ):
        ask("q", "--provider", "nope")


def test_fabricate_flag_adds_sentences_the_verifier_withholds(fake: FakeProvider) -> None:
    fake.add(ANSWER, ANSWER)
    fabricated = ask(QUESTION, "--fabricate")
    plain = ask(QUESTION)
    assert "(2 sentences withheld: their citations could not be verified)" in fabricated
    assert "withheld" not in plain


def test_conversation_continues_with_history(fake: FakeProvider, django_user_model: Any) -> None:
    alice = django_user_model.objects.create_user("alice", password="pw")
    conversation = Conversation.objects.create(owner=alice, title="Leave")
    Message.objects.create(conversation=conversation, role="user", text=QUESTION)
    Message.objects.create(conversation=conversation, role="assistant", text="20 days.")
    fake.supports_rewrite = True  # type: ignore[misc]
    fake.add("How many days of annual leave do part-time employees get?", ANSWER)
    ask("And for part-timers?", "--conversation", str(conversation.pk))
    assert [(t.role, t.text) for t in fake.prompts[0].history] == [
        ("user", QUESTION),
        ("assistant", "20 days."),
    ]
    assert list(conversation.messages.values_list("role", "text"))[2:] == [
        ("user", "And for part-timers?"),
        ("assistant", SHOWN),
    ]
    trace = Trace.objects.get()
    assert (trace.conversation_id, trace.user_id) == (conversation.pk, alice.pk)


def test_conversation_of_another_user_is_not_found(
    fake: FakeProvider, django_user_model: Any
) -> None:
    alice = django_user_model.objects.create_user("alice", password="pw")
    django_user_model.objects.create_user("bob", password="pw")
    conversation = Conversation.objects.create(owner=alice)
    with pytest.raises(CommandError, match=f"Conversation {conversation.pk} does not exist."):
        ask("q", "--conversation", str(conversation.pk), "--user", "bob")
    assert conversation.messages.count() == 0


def test_json_through_the_offline_provider(leave_kb: None) -> None:
    output = ask(QUESTION, "--json", "--provider", "extractive")
    lines = [json.loads(x) for x in output.splitlines()]
    assert lines[0]["event"] == "meta"
    assert [x["event"] for x in lines].count("done") == 1
    assert lines[-1]["data"]["trace_id"] == Trace.objects.get().pk
    assert lines[-1]["data"]["status"] == "answered"


def test_authority_notice_is_printed_before_the_answer(
    fake_provider: FakeProvider, laptop_kb: None
) -> None:
    fake_provider.add(LAPTOP_ANSWER)
    lines = ask(LAPTOP_QUESTION).splitlines()
    assert lines[0].startswith("Note: ") and "Equipment policy (2022)" in lines[0]
    assert lines[1] == "Company laptops are replaced every 4 years. [1]"


def test_withheld_sentences_are_counted_on_one_line(fake: FakeProvider) -> None:
    fake.add(f"{ANSWER} {SECRET_DROPPED} The moon is made of cheese [5].")
    lines = ask(QUESTION).splitlines()
    assert lines[:3] == [
        f"{SHOWN} [1]",
        "(2 sentences withheld: their citations could not be verified)",
        "",
    ]
    assert sum("withheld" in line for line in lines) == 1
    assert SECRET not in "\n".join(lines) and "cheese" not in "\n".join(lines)


def test_a_question_over_the_limit_gets_the_browsers_message(
    fake: FakeProvider, settings: Any
) -> None:
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
    assert (fake.prompts, Trace.objects.count()) == ([], 0)


def test_control_characters_are_stripped_from_the_question(fake: FakeProvider) -> None:
    fake.add(ANSWER)
    ask("How much\x00annual\x1b\x01leave?\x1b")
    assert fake.prompts[0].question == "How much annual leave?"
    assert Trace.objects.get().question == "How much annual leave?"


LEAVE_AND_TRAVEL = (
    "How many days of annual leave do full-time employees get, "
    "and how many days ahead must travel be booked?"
)


def test_sources_are_numbered_as_the_browser_numbers_them(fake: FakeProvider) -> None:
    """Block 2 cited first is source [1], as the chat's chips show it; --json keeps the
    block numbers of the trace and the API."""
    draft = (
        "Travel must be booked through the travel desk at least 14 days ahead [2]. "
        "Full-time employees get 20 days of annual leave each calendar year [1]."
    )
    fake.add(draft)
    output = ask(LEAVE_AND_TRAVEL)
    assert "travel desk at least 14 days ahead. [1]\n" in output
    assert "each calendar year. [2]\n" in output
    assert "  [1] Travel FAQ doc-002#c01\n  [2] Leave policy (2025-06-30) doc-001#c01\n" in output

    fake.add(draft)
    lines = ask(LEAVE_AND_TRAVEL, "--json").splitlines()
    events = [json.loads(line) for line in lines]
    assert [e["data"]["citations"] for e in events if e["event"] == "sentence"] == [[2], [1]]


def test_a_user_starts_a_conversation_and_is_told_how_to_continue_it(
    fake: FakeProvider, django_user_model: Any
) -> None:
    alice = django_user_model.objects.create_user("alice", password="pw")
    fake.add(ANSWER)
    out = ask(QUESTION, "--user", "alice")
    conversation = Conversation.objects.get(owner=alice)
    fake.supports_rewrite = True  # type: ignore[misc]
    fake.add("How many days of annual leave do part-time employees get?", ANSWER)
    ask("And for part-timers?", "--conversation", str(conversation.pk), "--user", "alice")

    told = f"Conversation: {conversation.pk} (continue it with --conversation {conversation.pk}"
    assert f"{told} --user alice)" in out
    assert conversation.messages.count() == 4
    # continued without --user, the conversation is its owner's: the hint names no user
    # (it said "--user None", which then failed as a user name)
    fake.add("How many days of annual leave do interns get?", ANSWER)
    again = ask("And for interns?", "--conversation", str(conversation.pk))
    assert f"{told})" in again and "None" not in again


def test_a_chinese_question_gets_chinese_labels(fake: FakeProvider) -> None:
    # the answer and the refusals speak the question's language; the labels do too
    output = ask("公司的年会在哪里举办？")
    assert output.endswith(f"追踪记录：{Trace.objects.get().pk}（refused_low_score）\n")
    assert "Trace:" not in output


def test_json_output_names_the_conversation_it_started_as_the_stream_does(
    fake: FakeProvider, django_user_model: Any
) -> None:
    # An integrator's report: --json --user started a conversation and never said which
    alice = django_user_model.objects.create_user("alice", password="pw")
    fake.add(ANSWER)
    lines = [json.loads(x) for x in ask(QUESTION, "--user", "alice", "--json").splitlines()]
    conversation = Conversation.objects.get(owner=alice).pk
    by_event = {line["event"]: line["data"] for line in lines}
    assert by_event["meta"]["conversation"] == by_event["done"]["conversation"] == conversation
    assert "conversation" not in by_event["sentence"]
