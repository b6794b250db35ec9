"""Per-user limits on asking (issue 15, item 3): the counting and the conversation slot.

The front ends' answers to a refusal (websocket alert, API 429 + Retry-After, no model call)
are tested with them in test_consumer.py and test_api.py.
"""

from __future__ import annotations

import pytest

from chat.limits import (
    LimitRefusal,
    TurnSlot,
    question_admit,
    turn_admit_sync,
    turn_release_sync,
)
from tests.chat.support import limit_clock_fixture  # noqa: F401  (the fixture)


@pytest.fixture(autouse=True)
def _limits(settings, limit_clock) -> None:
    settings.KBQA_QUESTIONS_PER_MINUTE = 3
    settings.KBQA_TOKEN_QUESTIONS_PER_MINUTE = 2


def test_a_user_may_ask_the_limit_per_minute_then_is_told_how_long_to_wait() -> None:
    assert [question_admit(user_id=1) for _ in range(3)] == [None, None, None]
    refusal = question_admit(user_id=1)
    assert isinstance(refusal, LimitRefusal)
    assert 1 <= refusal.retry_after <= 60
    assert refusal.message == (
        "You have asked 3 questions in a minute, the most allowed. "
        f"Try again in {refusal.retry_after} second{'s' if refusal.retry_after != 1 else ''}."
    )
    assert question_admit(user_id=2) is None  # another user is not affected


def test_an_api_token_has_its_own_limit(settings) -> None:
    settings.KBQA_QUESTIONS_PER_MINUTE = 10
    assert question_admit(user_id=1, token_id=7) is None
    assert question_admit(user_id=1, token_id=7) is None
    assert question_admit(user_id=1, token_id=7) is not None  # the token's 2 a minute
    assert question_admit(user_id=1, token_id=8) is None  # another token of the same user


def test_zero_turns_a_limit_off(settings) -> None:
    settings.KBQA_QUESTIONS_PER_MINUTE = 0
    assert all(question_admit(user_id=1) is None for _ in range(50))


def test_one_answer_in_flight_per_conversation() -> None:
    first = turn_admit_sync(user_id=1, conversation_id=10)
    assert isinstance(first, TurnSlot)
    busy = turn_admit_sync(user_id=1, conversation_id=10)
    assert busy == LimitRefusal(
        "Another answer is still being written in this conversation (in another tab, window "
        "or API call); ask again when it has finished.",
        5,
        "busy",
    )
    assert isinstance(turn_admit_sync(user_id=1, conversation_id=11), TurnSlot)
    turn_release_sync(first)
    assert isinstance(turn_admit_sync(user_id=1, conversation_id=10), TurnSlot)


def test_a_busy_conversation_costs_no_quota_and_a_refusal_holds_no_slot() -> None:
    slot = turn_admit_sync(user_id=1, conversation_id=10)
    assert isinstance(slot, TurnSlot)
    for _ in range(5):
        assert isinstance(turn_admit_sync(user_id=1, conversation_id=10), LimitRefusal)
    turn_release_sync(slot)
    # 1 question counted so far: two more fit, the fourth is over the limit of 3
    for _ in range(2):
        taken = turn_admit_sync(user_id=1, conversation_id=10)
        assert isinstance(taken, TurnSlot)
        turn_release_sync(taken)
    over = turn_admit_sync(user_id=1, conversation_id=10)
    assert isinstance(over, LimitRefusal) and "3 questions in a minute" in over.message
    assert isinstance(turn_admit_sync(user_id=2, conversation_id=10), TurnSlot)  # slot free


@pytest.mark.parametrize("start", [0.0, 0.9, 17.5, 59.99])
def test_a_client_that_waits_retry_after_is_admitted_on_its_next_try(
    settings, monkeypatch: pytest.MonkeyPatch, start: float
) -> None:
    # An integrator's report: a token client obeying Retry-After got four 429s in a row
    # (the user's and the token's windows end at different seconds, and a window still
    # counts during its last second).
    from types import SimpleNamespace

    settings.KBQA_QUESTIONS_PER_MINUTE = settings.KBQA_TOKEN_QUESTIONS_PER_MINUTE = 20
    clock = [1_000_000.0 + start]
    monkeypatch.setattr("django_ratelimit.core.time", SimpleNamespace(time=lambda: clock[0]))
    assert all(question_admit(user_id=5, token_id=9) is None for _ in range(20))
    clock[0] += 0.4
    refusal = question_admit(user_id=5, token_id=9)
    assert refusal is not None and refusal.retry_after <= 61
    clock[0] += refusal.retry_after
    assert question_admit(user_id=5, token_id=9) is None
