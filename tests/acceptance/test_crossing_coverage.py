"""An answer found through a translation covers the whole question (demo knowledge base).

The reader's cross-language fallback reads a question word no block has as the other
language's words. "conference" is 会议 in CC-CEDICT, so a question about a conference budget
met the meeting-room booking rule (会议室…) while "budget" stayed uncovered: a wrong answer in
another language. A translation is weaker evidence than the asker's own word, so such an
answer must leave nothing of the question uncovered.
"""

from __future__ import annotations

import pytest

from kbqa.core.types import Refusal
from tests.acceptance.test_follow_ups import converse, shown

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("demo_kb")]


def test_a_translated_word_alone_does_not_answer_the_question() -> None:
    events = converse("crossing", ["Is there a yearly budget for conferences and training?"])
    assert "会议室" not in shown(events)
    assert any(isinstance(ev, Refusal) for ev in events)

