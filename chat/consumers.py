"""The chat websocket: one question at a time, answered as htmx out-of-band fragments.

Protocol (``/ws/chat/<conversation_id>/``): the htmx ws extension sends the composer form as
JSON, ``{"question": str, "fabricate"?: "1", "HEADERS": {...}}``. Each answer runs in its own
task so the socket keeps listening: a second question while one streams is refused with an
alert (never interleaved). A disconnect does not cancel the answer (a reload must not lose
the answer the reader asked for): it is written to its end and stored, and the reloaded page
gets it (``chat.turn_sync``). ``{"type": "stop"}`` (the Stop button, Esc) cancels the
streaming answer (the provider stream with it); the socket stays and the turn ends "stopped"
with the sentences already shown.
The consumer only renders the turn service's stream (``chat.turns.answer_turn``), which
stores the question, the answer and the trace whatever happens.

Close codes: 4401 not logged in, 4403 not the owner of the conversation (or it does not
exist). Ownership is checked before ``accept``; a refused socket is still accepted so the
browser sees the code and the ws extension does not reconnect (it only retries
1006/1011/1012/1013). Frames that reach a refused socket before the browser sees the close
are ignored: only an admitted socket answers. Once admitted, the consumer sends the
``connection-state`` fragment marked open, so the page says "connected" only when this
conversation can really be asked (not merely when the TCP handshake succeeded).

Every frame is checked again before it is answered: a socket whose user has since logged out
(or whose session expired, or whose password changed) is closed with 4401. The turn service
applies ``chat.limits`` (``limited``): over a limit the user gets an alert saying how long to
wait, and no answer starts.

Every admitted socket joins its conversation's channel-layer group (``chat.turn_relay``): the
other sockets on the conversation (another tab, another device, another server process when
the layer is Redis) show a question asked elsewhere with its sentences as they are shown, and
the turn as stored when it ends. With the in-memory layer that reaches only sockets of the
same process. A layer that is down (Redis stopped) neither closes the socket nor stops its
answers: the page is told, and the socket rejoins the group with backoff
(``chat.layer_outage``). A question that cannot run without Redis (``chat.limits``: reason
"unavailable") is refused with an alert, and the page gives the question back to the box.

``fabricate`` (ask the provider to add two unsupported sentences, to see the verifier drop
them) is honoured only when ``settings.DEBUG`` or ``KBQA_FABRICATE`` is on, or for staff;
otherwise it is ignored and the answer runs normally.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from typing import Any
from urllib.parse import urlencode

from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import reverse
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from chat.auth import fabricate_allowed, session_logs_in
from chat.frames import InputRejected, question_parse, stop_requested
from chat.layer_outage import GroupMembership
from chat.models import Conversation, Message
from chat.outcomes import AnswerOutcome
from chat.rendering import (
    event_fragment,
    footer_fragment,
    fragment,
    turn_view,
)
from chat.selectors import conversation_visible
from chat.socket_scope import scope_language, socket_tab
from chat.turn_relay import DELETED, ConversationSockets
from chat.turn_sync import sync_parse
from chat.turns import TurnOpened, TurnRejected, TurnRequest, answer_turn
from kbqa.core.types import Done, Event
from kbqa.db import db_async

logger = logging.getLogger(__name__)

CLOSE_UNAUTHENTICATED = 4401
CLOSE_FORBIDDEN = 4403
# Lazy: rendered inside ``translation.override`` of the socket's language.
SESSION_ENDED = gettext_lazy("Your session has ended. Log in again to keep asking.")
NOT_AVAILABLE = gettext_lazy("This conversation is not available.")
# Answers whose socket went away: referenced here until they are stored (asyncio keeps only
# a weak reference to a task).
# Keyed by the page (``tab``) that asked, with the Stop event, so the same page's reopened
# socket can still stop it.
DETACHED: dict[str, tuple[asyncio.Task[None], asyncio.Event | None]] = {}
# Every running answer of this process by its question id, with its conversation, so any
# page on that conversation (reloaded, another tab) can stop it.
RUNNING: dict[int, tuple[int, asyncio.Task[None], asyncio.Event]] = {}


def answer_finished(question_id: int | None) -> None:
    """The running answer (this task's) reached ``done``: it is stored and shown, so a Stop
    arriving now (a page that still showed it streaming) must not cancel what is left of the
    turn (announcing it to the other pages). Cancelled there, it showed "Stopped" over the
    whole answer while the stored turn said "Answered" (a tester pressed Esc as a 50 ms
    answer ended). Its registrations stay (``DETACHED`` keeps the task referenced) without
    their Stop event."""
    task = asyncio.current_task()
    if question_id is not None:
        RUNNING.pop(question_id, None)
    for key, (detached, _stop) in list(DETACHED.items()):
        if detached is task:
            DETACHED[key] = (detached, None)


class ChatConsumer(GroupMembership, ConversationSockets, AsyncWebsocketConsumer):
    """One browser tab's chat socket for one conversation."""

    conversation: Conversation
    # Set by ``connect`` once the user is known to own the conversation; until then (and
    # forever on a refused socket) incoming frames are ignored.
    admitted = False
    turn_task: asyncio.Task[None] | None = None
    # True while the answer still streams; after ``done`` a disconnect lets the turn finish
    # storing its message instead of cancelling it.
    streaming = False
    # Set by Stop for the running turn; the turn then ends "stopped", keeping what was shown.
    stop: asyncio.Event | None = None
    # Set by ``disconnect``: the answer still running renders nothing more.
    gone = False

    async def connect(self) -> None:
        self.watching: dict[int, str] = {}  # question id -> the running bubble's key
        self.alerted = False  # a composer alert is on screen (cleared when a turn is stored)
        self.language = scope_language(self.scope)
        self.tab = socket_tab(self.scope)
        self.user = self.scope.get("user")
        if self.user is None or not self.user.is_authenticated:
            await self.accept()  # to say why (``refuse``), with the way back in
            await self.session_end()
            return
        conversation_id = self.scope["url_route"]["kwargs"]["conversation_id"]
        conversation = await self.conversation_load(conversation_id)
        if conversation is None:
            await self.refuse(NOT_AVAILABLE, CLOSE_FORBIDDEN)
            return
        self.conversation = conversation
        self.admitted = True
        await self.accept()
        joined = await self.group_join()
        await self.send_html(self.render("connection-state", state="open", oob="true"))
        if not joined:  # the layer is down: answered all the same, the page told so
            await self.group_lost()

    async def refuse(self, message: Promise, code: int) -> None:
        """Accept only to say why and close with ``code`` (see the module docstring)."""
        await self.accept()
        await self.send_html(self.render("composer-alert", message=message, oob="true"))
        await self.close(code=code)

    async def disconnect(self, code: int) -> None:
        """Leave the group; a running answer goes on to its end and is stored (a reload
        must not cancel it), then announced to the conversation's sockets."""
        self.gone = True
        if self.recheck is not None:
            self.recheck.cancel()
        await self.group_leave()
        task = self.turn_task
        if task is not None and not task.done():
            key = self.tab or f"socket:{id(self)}"
            DETACHED[key] = (task, self.stop if self.streaming else None)  # done: no Stop
            task.add_done_callback(lambda _t: DETACHED.pop(key, None))

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not self.admitted:
            # Sent before the browser saw our close: nothing to answer, nothing to report.
            logger.debug("frame ignored on a refused chat socket")
            return
        # a question's session is checked in its turn's first database trip (``session_key``)
        asks = stop_requested(text_data) is None and sync_parse(text_data) is None
        if not asks and not await self.session_current():
            await self.session_end()
            return
        # The answer task copies this context, so it renders in the same language.
        with translation.override(self.language):
            await self.guarded(self.question_receive(text_data))

    async def question_receive(self, text_data: str | None) -> None:
        stopped = stop_requested(text_data)
        if stopped is not None:
            await self.answer_stop(stopped)
            return
        wanted = sync_parse(text_data)
        if wanted is not None:
            await self.turns_sync(wanted)
            return
        try:
            question, fabricate = question_parse(text_data)
        except InputRejected as exc:
            await self.alert(str(exc))
            return
        previous = self.turn_task
        if previous is not None and not previous.done():
            if self.streaming:
                await self.alert(
                    _("Please wait for the current answer to finish before asking again.")
                )
                return
            # Past ``done`` the turn only stores its answer: let it, so messages stay in order.
            await asyncio.shield(previous)
        honoured = True if fabricate and fabricate_allowed(self.user) else None
        self.streaming = True  # from now: a second question is refused, a disconnect cancels
        self.turn_task = asyncio.create_task(self.guarded(self.turn_run(question, honoured)))

    async def answer_stop(self, question_id: int = 0, *, relayed: bool = False) -> None:
        """Stop the running answer to ``question_id`` (0: this page's own): cancel its task
        (the provider call with it). The sentences already shown stay; the turn service
        stores the turn as "stopped" and every page shows it so. The answer may run for
        this socket, for a socket this page had before a drop, for a page since reloaded
        (``RUNNING``, this process), or for another tab's socket in any process (the
        group's ``turn.stop``, unless this stop came from there: ``relayed``). Nothing
        running: nothing to do."""
        task, stop = None, None
        if question_id in (0, self.relay_question) and self.streaming:
            task, stop = self.turn_task, self.stop
        if (task is None or task.done()) and not question_id and self.tab:
            task, stop = DETACHED.get(self.tab, (None, None))
        if (task is None or task.done()) and question_id:
            conversation_id, task, stop = RUNNING.get(question_id, (0, None, None))
            if conversation_id != self.conversation.pk:
                task = None
        if task is not None and not task.done() and stop is not None:
            stop.set()
            task.cancel()
        elif question_id and not relayed:
            await self.group_event("turn.stop", question_id=question_id)

    def running_register(self, question_id: int, stop: asyncio.Event) -> None:
        task = asyncio.current_task()
        if task is None:
            return
        RUNNING[question_id] = (self.conversation.pk, task, stop)  # type: ignore[assignment]
        task.add_done_callback(lambda _t: RUNNING.pop(question_id, None))

    async def guarded(self, coro: Any) -> None:
        """The one catch boundary: an unexpected failure becomes an alert, not a dropped socket."""
        try:
            await coro
        except asyncio.CancelledError:
            raise
        except Exception:
            logger.exception("chat consumer failed")
            await self.alert(_("Something went wrong on our side. Please try again."))

    async def turn_run(self, question: str, fabricate: bool | None) -> None:
        """Render one turn of the turn service as out-of-band fragments."""
        key = self.turn_key = f"t{uuid.uuid4().hex[:12]}"
        outcome = AnswerOutcome()
        self.stop = stop = asyncio.Event()
        request = TurnRequest(
            question=question,
            user=self.user,
            conversation_id=self.conversation.pk,
            fabricate=fabricate,
            limited=True,
            stop=stop,
            session_key=self.session_key(),
        )
        question_id = None
        try:
            async with contextlib.aclosing(answer_turn(request, outcome)) as items:
                async for item in items:
                    self.streaming = not isinstance(item, Done)
                    if not self.streaming:
                        answer_finished(question_id)
                    if isinstance(item, TurnOpened):
                        self.outage_shown = False  # its fragment clears the composer alert
                    if isinstance(item, TurnOpened) and item.message is not None:
                        question_id = item.message.pk
                        self.running_register(question_id, stop)
                    await self.send_html(self.render_item(item, key, outcome))
                    await self.relay(item, outcome)
        except TurnRejected as exc:
            if exc.reason == "session_ended":
                await self.session_end()
                return
            await self.alert(str(DELETED) if exc.reason == "not_found" else str(exc))
            self.refused_busy = exc.reason == "busy"  # told "ask again when it has finished"
            # told "not sent": a rejoined group says the service is back (``group_rejoin``)
            self.outage_shown = exc.reason == "unavailable"
        except asyncio.CancelledError:
            if not stop.is_set():
                # This socket went away (the turn service stored the turn "cancelled"): the
                # page, if it reconnected meanwhile, gets it in the bubble left streaming.
                if question_id is not None:
                    await asyncio.shield(self.turn_announce(question_id, key))
                raise
            # Stopped by the reader: the turn service has stored it; the socket lives on.
            asyncio.current_task().uncancel()  # type: ignore[union-attr]
            with translation.override(self.language):
                footer = footer_fragment(key=key, status="stopped", outcome=outcome)
            await self.send_html(footer)
        finally:
            self.streaming = False
        if question_id is not None and outcome.status != "pending":
            await self.turn_announce(question_id, key)

    # ----------------------------------------------------------------- rendering, sending

    def render(self, name: str, **context: Any) -> str:
        with translation.override(self.language):
            return fragment(name, **context)

    def render_item(self, item: TurnOpened | Event, key: str, outcome: AnswerOutcome) -> str:
        with translation.override(self.language):
            if not isinstance(item, TurnOpened):
                return event_fragment(item, key=key, outcome=outcome)
            return (
                fragment("turn-start", message=item.message, turn=turn_view(key=key))
                + fragment("composer-alert", message="", oob="true")
                # the first question names the conversation: refresh its sidebar link
                + fragment("conversation-link", item=item.conversation, current=True, oob="true")
            )

    async def alert(self, message: str | Promise, login_url: str = "") -> None:
        """Show ``message`` in the composer alert: a question refused or failed (the page
        gives the question it sent back to the box); with ``login_url``, a "Log in" link."""
        self.alerted = True
        self.outage_shown = False
        await self.send_html(self.render(
            "composer-alert", message=message, login_url=login_url, oob="true"))

    async def notice(self, message: str | Promise) -> None:
        """Show ``message`` in the composer alert as news about the service, not about the
        question just sent: the page leaves the question box as it is."""
        self.alerted = True
        await self.send_html(
            self.render("composer-alert", message=message, notice=True, oob="true"))

    async def send_html(self, html: str) -> None:
        if html and not self.gone:
            await self.send(text_data=html)

    # ----------------------------------------------------------------------- database

    @db_async
    def turn_load(self, question_id: int) -> tuple[Message, Message] | None:
        """The question ``question_id`` of this conversation and the answer stored after it."""
        messages = Message.objects.filter(conversation=self.conversation)
        question = messages.filter(pk=question_id, role=Message.Role.USER).first()
        answer = (
            messages.select_related("trace")
            .filter(pk__gt=question_id, role=Message.Role.ASSISTANT)
            .order_by("pk")
            .first()
        )
        return (question, answer) if question is not None and answer is not None else None

    def session_key(self) -> str:
        return getattr(self.scope.get("session"), "session_key", None) or ""

    @db_async
    def session_current(self) -> bool:
        """Whether the socket's session still logs in its user (not logged out since)."""
        return session_logs_in(self.session_key(), self.user)

    async def session_end(self) -> None:
        """The session no longer logs the user in: say so, with a link to the login page that
        comes back to this conversation, and close with 4401."""
        self.admitted = False
        conversation_id = self.scope["url_route"]["kwargs"]["conversation_id"]
        page = reverse("chat_conversation", kwargs={"conversation_id": conversation_id})
        login_url = f"{reverse('login')}?{urlencode({'next': page})}"
        await self.alert(SESSION_ENDED, login_url=login_url)
        await self.close(code=CLOSE_UNAUTHENTICATED)

    @db_async
    def conversation_load(self, conversation_id: int) -> Conversation | None:
        return conversation_visible(conversation_id=int(conversation_id), user=self.user)
