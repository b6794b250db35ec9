"""``manage.py ask "QUESTION"``: answer one question in the terminal, as it streams.

Plain output: each verified sentence with its ``[n]`` chips as it arrives, a refusal's
message, then one "(N sentences withheld: ...)" note counting the dropped sentences (never
their text, as in the browser), the sources cited (``[n] title (updated) chunk_id``) and the
trace id. Sources are numbered as the browser numbers them, 1, 2, 3… in order of first
citation (``reader_numbers``). ``--json``: one ``{"event", "data"}`` object per line, ``done``
last, with the block numbers of the trace and the API. Exit status 1 when the answer ends in
an error. A question over ``KBQA_MAX_QUESTION_CHARS`` is refused with
the browser's message before anything runs. With ``--user`` and no ``--conversation`` the
question starts a stored conversation owned by that user, and the summary says how to
continue it (``Conversation: N``); without ``--user`` the turn is stored in none.
"""

from __future__ import annotations

import json
from contextlib import aclosing
from typing import Any

from asgiref.sync import async_to_sync
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import translation
from django.utils.translation import gettext, ngettext

from chat.api import wire_payload
from chat.outcomes import AnswerOutcome
from chat.rendering import answer_locale
from chat.selectors import reader_numbers
from chat.turns import TurnOpened, TurnRejected, TurnRequest, answer_turn
from kbqa.arguments import whole_number
from kbqa.core.text.normalise import detect_language
from kbqa.core.types import Error, Event, Meta, Notice, Refusal, Sentence


def render_plain(ev: Event, numbers: dict[int, int] | None = None) -> str | None:
    """The terminal line for one event (None: nothing to print for it); ``numbers`` maps block
    numbers to the reader's (``reader_numbers``; a block missing from it keeps its own)."""
    numbers = numbers or {}
    if isinstance(ev, Notice):
        return "\n".join(gettext("Note: %(text)s") % {"text": n} for n in ev.notices)
    if isinstance(ev, Sentence):
        chips = "".join(f"[{numbers.get(n, n)}]" for n in ev.citations)
        return f"{ev.text} {chips}".rstrip()
    if isinstance(ev, Refusal):
        return ev.message
    if isinstance(ev, Error):
        return gettext("Error: %(text)s") % {"text": ev.message}
    return None


def withheld_line(dropped: int) -> str | None:
    """The one note for ``dropped`` withheld sentences (None when nothing was dropped)."""
    if dropped <= 0:
        return None
    return ngettext("(%(n)d sentence withheld: its citation could not be verified)",
                    "(%(n)d sentences withheld: their citations could not be verified)",
                    dropped) % {"n": dropped}


def sources_lines(outcome: AnswerOutcome) -> list[str]:
    """``[n] title (updated) chunk_id`` for each block a shown sentence cited, by the reader's
    number ``n``."""
    numbers = reader_numbers(outcome.sentences)
    lines = []
    for b in sorted(outcome.citations(), key=lambda b: numbers[b["n"]]):
        updated = f" ({b['updated']})" if b.get("updated") else ""
        lines.append(f"[{numbers[b['n']]}] {b.get('title', '')}{updated} {b['chunk_id']}")
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
        parser.add_argument("--conversation", type=whole_number(1),
                            help="continue this stored conversation")
        parser.add_argument(
            "--user", help="username recorded on the trace (and conversation owner)"
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        user = self._user(opts["user"])
        request = TurnRequest(
            question=opts["question"],
            user=user,
            conversation_id=opts["conversation"],
            start_conversation=user is not None and opts["conversation"] is None,
            fabricate=True if opts["fabricate"] else None,
            # One turn per run: the turn builds its own provider and closes it.
            provider_name=opts["provider"] or settings.KBQA_PROVIDER,
        )
        outcome = AnswerOutcome()
        # the labels speak the question's language, as its answer does
        with translation.override(answer_locale(detect_language(opts["question"]))):
            try:
                async_to_sync(self._stream)(request, outcome, as_json=opts["json"])
            except TurnRejected as exc:
                message = "The question is empty." if exc.reason == "empty" else str(exc)
                raise CommandError(message) from None
            if not opts["json"]:
                self._summary(outcome)
                if self.conversation_id is not None:
                    # continued without --user, the conversation is its owner's ("--user
                    # None" was printed, and failed as a user name)
                    user = f" --user {opts['user']}" if opts["user"] else ""
                    self.stdout.write(gettext(
                        "Conversation: %(id)s (continue it with --conversation %(id)s%(user)s)")
                        % {"id": self.conversation_id, "user": user})
        if outcome.status == "error":
            raise CommandError(outcome.error or "The answer ended in an error.", returncode=1)

    def _user(self, username: str | None) -> AbstractBaseUser | None:
        if not username:
            return None
        try:
            return get_user_model().objects.get_by_natural_key(username)
        except get_user_model().DoesNotExist:
            raise CommandError(f"No user named {username!r}.") from None

    async def _stream(self, request: TurnRequest, outcome: AnswerOutcome, *, as_json: bool) -> None:
        known: tuple[str, ...] = ()
        self.conversation_id: int | None = None
        async with aclosing(answer_turn(request, outcome)) as items:
            async for ev in items:
                if isinstance(ev, TurnOpened) and ev.conversation is not None:
                    self.conversation_id = ev.conversation.pk
                known = ev.notices if isinstance(ev, Meta) else known
                if not isinstance(ev, Event) or (as_json and isinstance(ev, Notice)
                                                 and set(ev.notices) <= set(known)):
                    continue  # TurnOpened; --json keeps the SSE wire (meta's notices)
                line = (
                    json.dumps(wire_payload(ev, conversation=self.conversation_id),
                               ensure_ascii=False)
                    if as_json
                    else render_plain(ev, reader_numbers(outcome.sentences))
                )
                if line is not None:
                    self.stdout.write(line)
                    self.stdout.flush()

    def _summary(self, outcome: AnswerOutcome) -> None:
        withheld = withheld_line(outcome.dropped)
        if withheld is not None:
            self.stdout.write(withheld)
        sources = sources_lines(outcome)
        if sources:
            self.stdout.write("\n" + gettext("Sources:"))
            for line in sources:
                self.stdout.write(f"  {line}")
        self.stdout.write("\n" + gettext("Trace: %(id)s (%(status)s)") % {
            "id": outcome.trace_id, "status": outcome.status})
