"""An answer quoting an archived document carries a notice on every wire: the JSON answer's
``notices``, and a ``notice`` event on SSE (whose ``meta`` cannot know it yet)."""

from __future__ import annotations

from typing import Any

from django.test import Client

from tests.chat.kb import claims_json, kb_store
from tests.chat.test_api import bearer, fake, parse_frames, post, sse, token, user
from tests.fakes.provider import FakeProvider

__all__ = ["fake", "token", "user"]  # the fixtures this module uses

OLD_ONLY = (
    ("doc-081", "Phone policy (2021)", "archived", "2021-02-01",
     "Sales staff receive a company phone with an unlimited data plan."),
    ("doc-082", "Travel FAQ", "faq", "", "Book trains through the travel desk."),
)
QUESTION = "What phone do sales staff receive?"
SHOWN = "Sales staff receive a company phone with an unlimited data plan."


def test_an_archived_source_brings_a_notice_on_json_and_sse(
    fake: FakeProvider, token: str, tmp_path: Any
) -> None:
    kb_store(tmp_path, OLD_ONLY)
    fake.add(claims_json((SHOWN, [1])), f"{SHOWN} [1]")
    body = post(Client(), "/api/answer", {"question": QUESTION}, **bearer(token)).json()
    assert body["answer"] == SHOWN
    assert len(body["notices"]) == 1
    assert body["notices"][0].startswith("This answer quotes “Phone policy (2021)” (updated "
                                         "2021-02-01), an archived document")
    _response, text = sse({"Authorization": f"Bearer {token}"}, {"question": QUESTION})
    frames = parse_frames(text)
    assert [name for name, _ in frames] == ["meta", "notice", "sentence", "done"]
    assert frames[0][1]["notices"] == []
    assert frames[1][1]["notices"] == body["notices"]
