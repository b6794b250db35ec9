"""``manage.py ask "QUESTION"``: answer one question in the terminal, as it streams.

Plain output: each verified sentence with its ``[n]`` chips as it arrives, a refusal's
message, then one "(N sentences withheld: ...)" note counting the dropped sentences (never
their text, as in the browser), the sources cited (``[n] title (updated) chunk_id``) and the
trace id. ``--json``: one ``{"event", "data"}`` object per line, ``done`` last. Exit status 1
when the answer ends in an error. A question over ``KBQA_MAX_QUESTION_CHARS`` is refused with
the browser's message before anything runs.
"""

from __future__ import annotations

import json
from contextlib import aclosing
from typing import Any

from asgiref.sync import async_to_sync
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.management.base import BaseCommand, CommandError, CommandParser

from chat.models import Conversation
from chat.questions import question_clean, question_too_long
from chat.services import (
    AnswerOutcome,
    answer_run,
    conversation_history,
    message_record_answer,
    message_record_user,
    provider_from_settings,
)
from kbqa.core.errors import KbqaError
from kbqa.core.providers.base import Provider
from kbqa.core.types import Error, Event, Refusal, Sentence, Turn, event_payload


def render_plain(ev: Event, notices: tuple[str, ...] = ()) -> str | None:
    """The terminal line for one event (None: nothing to print now); pass ``notices`` (from
    ``Meta``) with the answer's first sentence only, so a refusal never shows them."""
    if isinstance(ev, Sentence):
        chips = "".join(f"[{n}]" for n in ev.citations)
        notes = [f"Note: {n}" for n in notices]
        return "\n".join([*notes, f"{ev.text} {chips}".rstrip()])
    if isinstance(ev, Refusal):
        return ev.message
    if isinstance(ev, Error):
        return f"Error: {ev.message}"
    return None


def withheld_line(dropped: int) -> str | None:
    """The one note for ``dropped`` withheld sentences (None when nothing was dropped)."""
    if dropped <= 0:
        return None
    if dropped == 1:
        return "(1 sentence withheld: its citation could not be verified)"
    return f"({dropped} sentences withheld: their citations could not be verified)"


def sources_lines(outcome: AnswerOutcome) -> list[str]:
    """``[n] title (updated) chunk_id`` for each block a shown sentence cited."""
    lines = []
    for b in outcome.citations():
        updated = f" ({b['updated']})" if b.get("updated") else ""
        lines.append(f"[{b['n']}] {b.get('title', '')}{updated} {b['chunk_id']}")
    return lines


class Command(BaseCommand):
    help = "Answer a question from the knowledge base, printing verified sentences as they stream."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("question")
        parser.add_argument("--json", action="store_true", help="one JSON event per line")
        parser.add_argument("--provider", help="provider name (default: KBQA_PROVIDER)")
        parser.add_argument(
            "--fabricate",
            action="store_true",
            help="inject a fabricated citation to show the verifier dropping it",
        )
        parser.add_argument("--conversation", type=int, help="continue this stored conversation")
        parser.add_argument(
            "--user", help="username recorded on the trace (and conversation owner)"
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        question = question_clean(opts["question"])
        if not question:
            raise CommandError("The question is empty.")
        too_long = question_too_long(question)
        if too_long is not None:
            raise CommandError(too_long)
        user = self._user(opts["user"])
        conversation, history = self._conversation(opts["conversation"], user)
        user = user or self._owner(conversation)
        try:
            provider = provider_from_settings(opts["provider"])
        except KbqaError as exc:
            raise CommandError(f"Provider unavailable: {exc}") from None
        if conversation is not None:
            message_record_user(conversation=conversation, text=question)
        outcome = AnswerOutcome()
        try:
            async_to_sync(self._stream)(
                question=question,
                user=user,
                conversation=conversation,
                history=history,
                provider=provider,
                fabricate=True if opts["fabricate"] else None,
                as_json=opts["json"],
                outcome=outcome,
            )
        finally:
            if conversation is not None:
                message_record_answer(conversation=conversation, outcome=outcome)
        if not opts["json"]:
            self._summary(outcome)
        if outcome.status == "error":
            raise CommandError(outcome.error or "The answer ended in an error.", returncode=1)

    def _user(self, username: str | None) -> AbstractBaseUser | None:
        if not username:
            return None
        try:
            return get_user_model().objects.get_by_natural_key(username)
        except get_user_model().DoesNotExist:
            raise CommandError(f"No user named {username!r}.") from None

    def _conversation(
        self, conversation_id: int | None, user: AbstractBaseUser | None
    ) -> tuple[Conversation | None, tuple[Turn, ...]]:
        if conversation_id is None:
            return None, ()
        conversation = Conversation.objects.filter(pk=conversation_id).first()
        if conversation is None:
            raise CommandError(f"Conversation {conversation_id} does not exist.")
        if user is not None and conversation.owner_id != user.pk:
            raise CommandError(f"Conversation {conversation_id} belongs to another user.")
        return conversation, conversation_history(conversation=conversation)

    def _owner(self, conversation: Conversation | None) -> AbstractBaseUser | None:
        return conversation.owner if conversation is not None else None

    async def _stream(
        self,
        *,
        question: str,
        user: AbstractBaseUser | None,
        conversation: Conversation | None,
        history: tuple[Turn, ...],
        provider: Provider,
        fabricate: bool | None,
        as_json: bool,
        outcome: AnswerOutcome,
    ) -> None:
        try:
            async with aclosing(
                answer_run(
                    question=question,
                    user=user,
                    conversation=conversation,
                    history=history,
                    provider=provider,
                    fabricate=fabricate,
                )
            ) as events:
                async for ev in events:
                    outcome.add(ev)
                    line = (
                        json.dumps(event_payload(ev), ensure_ascii=False)
                        if as_json
                        else render_plain(
                            ev, outcome.notices if len(outcome.sentences) == 1 else ()
                        )
                    )
                    if line is not None:
                        self.stdout.write(line)
                        self.stdout.flush()
        finally:
            await provider.aclose()

    def _summary(self, outcome: AnswerOutcome) -> None:
        withheld = withheld_line(outcome.dropped)
        if withheld is not None:
            self.stdout.write(withheld)
        sources = sources_lines(outcome)
        if sources:
            self.stdout.write("\nSources:")
            for line in sources:
                self.stdout.write(f"  {line}")
        self.stdout.write(f"\nTrace: {outcome.trace_id} ({outcome.status})")
