"""The other sockets on a conversation: turns stored, and answers shown live while they run.

Every admitted chat socket joins its conversation's channel-layer group (Redis when
``KBQA_REDIS_URL`` is set, so across server processes). Four group events:

- ``turn.opened`` (once per turn, by the asking socket): another page on the conversation
  (another tab, another device) appends the question with an "Answering…" bubble and asks to
  watch it (``turn.watch``).
- ``turn.watch``: the asking socket sends the answer so far at once, then after each shown
  sentence (``turn.progress``).
- ``turn.progress``: ``{"question_id", "sentences", "blocks", "dropped", "notices",
  "language"}``, the sentences the asking page was shown (each one verified, with its
  citations and only the blocks they cite). A watching page redraws that bubble with them,
  still marked running.
- ``turn.stored`` (``turn_announce``): the turn is stored; a watching page replaces the
  bubble with the stored turn, any other page appends it.
- ``turn.stop``: a page showing the answer running pressed Stop; the asking socket stops it
  (a page reloaded in the same process stops it directly: ``consumers.RUNNING``).
- ``conversation.renamed`` and ``conversation.deleted`` (``conversation_notify``, from the
  views): the title follows; a deleted conversation says so and its running answer ends.

Joining and leaving the group, and a channel layer that is down (Redis stopped: the socket
stays open and answers its own page), are ``chat.layer_outage``'s.

A socket whose page went away (a reload, a dropped connection) relays every sentence without
being asked: Channels stops a closed socket's consumer, so the page's new socket, which learns
of the running answer from its ``sync`` frame (``chat.turn_sync``), cannot reach the detached
turn to ask. A relay costs nothing when nobody watches: the asking socket sends progress only
when watched or gone.
"""

from __future__ import annotations

import asyncio
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import DatabaseError
from django.utils import translation
from django.utils.translation import gettext_lazy

from chat.fragment_html import footer_html
from chat.layer_outage import conversation_group, layer_answered, layer_failed
from chat.models import Conversation, Message
from chat.outcomes import AnswerOutcome
from chat.rendering import message_turn_view, turn_view
from chat.turn_sync import turns_settle
from chat.turns import TurnOpened
from kbqa.core.types import Dropped, Event, Notice, Sentence

# Seconds between looks at the turns a page watches whose end may never be announced (their
# server died): a bubble says "Answering…" at most about this long after its turn ended.
RECHECK_SECONDS = 5.0
# Lazy: rendered in the socket's language (``render``).
FREE = gettext_lazy("The other answer is finished: you can send your question now.")
ANSWER_DELETED = gettext_lazy("The conversation was deleted before this answer was finished.")
DELETED = gettext_lazy(
    "This conversation has been deleted (perhaps in another tab). "
    "Press “New conversation” to keep asking."
)


def conversation_notify(conversation_id: int, kind: str, **fields: Any) -> None:
    """Send ``kind`` to every socket on the conversation, in any process, from sync code (a
    view: ``conversation.renamed``, ``conversation.deleted``). A channel layer that is down
    costs the other tabs the update, nothing else (``chat.layer_outage``)."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(
            conversation_group(conversation_id), {"type": kind, **fields})
    except Exception as exc:
        layer_failed("group_send", exc)
    else:
        layer_answered()


def progress_payload(outcome: AnswerOutcome) -> dict[str, Any]:
    """What a watching page needs to draw the answer so far (JSON- and msgpack-safe)."""
    return {
        "sentences": list(outcome.sentences),
        "blocks": outcome.citations(),
        "dropped": outcome.dropped,
        "notices": list(outcome.notices),
        "language": outcome.language,
    }


class ConversationSockets:
    """Mixin of ``chat.consumers.ChatConsumer``: the group events above.

    Expects ``channel_layer``, ``channel_name``, ``conversation``, ``tab``, ``language``, ``gone``,
    ``alerted``, ``watching`` (question id -> the bubble key it redraws), ``turn_task``, ``render``,
    ``send_html`` and ``turn_load`` from the consumer."""

    conversation: Conversation
    channel_layer: Any
    channel_name: str
    tab: str
    language: str
    gone: bool
    alerted: bool
    watching: dict[int, str]
    recheck: asyncio.Future[None] | None = None  # ``watched_recheck`` while it runs
    turn_task: Any
    refused_busy = False  # this page's last question was refused: another answer ran
    turn_key = ""  # the bubble of the turn this socket runs or ran last
    # The turn this socket asks: its question id, what it showed so far, whether watched.
    relay_question = 0
    relay_outcome: AnswerOutcome | None = None
    relay_watched = False

    def render(self, name: str, **context: Any) -> str:
        raise NotImplementedError

    async def send_html(self, html: str) -> None:
        raise NotImplementedError

    async def turn_load(self, question_id: int) -> tuple[Message, Message] | None:
        raise NotImplementedError

    async def group_event(self, kind: str, **fields: Any) -> None:
        """Send ``kind`` to the conversation's group, marked as this socket's and page's. A
        channel layer that is down costs the other tabs their live updates, nothing else
        (``chat.layer_outage``)."""
        event = {"type": kind, "sender": self.channel_name, "tab": self.tab, **fields}
        try:
            await self.channel_layer.group_send(conversation_group(self.conversation.pk), event)
        except Exception as exc:
            layer_failed("group_send", exc)
        else:
            layer_answered()

    def from_elsewhere(self, event: dict[str, Any]) -> bool:
        return event.get("sender") != self.channel_name

    # ------------------------------------------------------------- the asking socket

    async def relay(self, item: TurnOpened | Event, outcome: AnswerOutcome) -> None:
        """After ``item`` was rendered to this page: announce a turn that opened, relay
        the answer so far after a sentence (or a withheld one, or a notice) when watched
        or when this page is gone."""
        if isinstance(item, TurnOpened):
            if item.message is not None:
                self.relay_question, self.relay_outcome = item.message.pk, outcome
                self.relay_watched = False
                title = item.conversation.title if item.conversation is not None else ""
                await self.group_event("turn.opened", question_id=item.message.pk, title=title)
        elif isinstance(item, Sentence | Dropped | Notice) and (self.gone or self.relay_watched):
            await self.progress_send(outcome)

    async def progress_send(self, outcome: AnswerOutcome) -> None:
        await self.group_event(
            "turn.progress", question_id=self.relay_question, **progress_payload(outcome)
        )

    async def turn_watch(self, event: dict[str, Any]) -> None:
        """Another page shows this socket's running answer: send it what was shown so far,
        and each sentence from now on."""
        running = self.turn_task is not None and not self.turn_task.done()
        if not running or event.get("question_id") != self.relay_question:
            return
        self.relay_watched = True
        if self.relay_outcome is not None and self.relay_outcome.sentences:
            await self.progress_send(self.relay_outcome)

    async def turn_stop(self, event: dict[str, Any]) -> None:
        """Another page on the conversation pressed Stop on this socket's running answer."""
        if self.from_elsewhere(event) and event.get("question_id") == self.relay_question:
            await self.answer_stop(self.relay_question, relayed=True)

    async def answer_stop(self, question_id: int = 0, *, relayed: bool = False) -> None:
        raise NotImplementedError

    async def conversation_renamed(self, event: dict[str, Any]) -> None:
        """The conversation was renamed in another tab: its title here follows."""
        await self.send_html(self.title_follow(str(event.get("title") or "")))

    def title_follow(self, title: str) -> str:
        """The sidebar link (and, through ``chat.js``, the heading) with ``title``; "" when
        the page has it already."""
        if title == self.conversation.title:
            return ""
        self.conversation.title = title
        return self.render("conversation-link", item=self.conversation, current=True,
                           oob="true")

    async def conversation_deleted(self, event: dict[str, Any]) -> None:
        """The conversation was deleted in another tab: end the answer this socket is
        writing into it (stored "cancelled"; its trace stays for reviewers), end every
        running bubble the page shows (never "Answering…" for ever, nor a Stop that stops
        nothing), drop the conversation from the list and say so."""
        keys = list(self.watching.values())
        self.watching.clear()
        if self.turn_task is not None and not self.turn_task.done():
            self.turn_task.cancel()
            keys.append(self.turn_key)
        with translation.override(self.language):
            html = "".join(
                self.render("error", key=key, error=ANSWER_DELETED, status="cancelled",
                            oob="true") + footer_html(key=key, status="cancelled", oob="true")
                for key in keys)
            html += self.render("conversation-link", item=self.conversation, oob="delete")
            await self.send_html(html)
            await self.alert(str(DELETED))

    async def alert(self, message: str) -> None:
        raise NotImplementedError

    async def turn_announce(self, question_id: int, key: str) -> None:
        """Tell the conversation's other sockets, in any server process, that a turn is
        stored. ``key`` is the streamed bubble's, ``tab`` this page's: a socket the same page
        reopened after a drop puts the stored answer in that bubble instead of appending the
        turn again."""
        await self.group_event("turn.stored", question_id=question_id, key=key)

    # ------------------------------------------------------------ the other pages

    async def turn_opened(self, event: dict[str, Any]) -> None:
        """Another page asked on this conversation: append its question with a running
        bubble and watch it. A socket of the asking page itself (reopened) shows it already."""
        if not self.from_elsewhere(event) or (self.tab and event.get("tab") == self.tab):
            return
        stored = await self.turn_load(int(event["question_id"]))
        if stored is None or stored[1].status != "pending":
            return  # over already: its ``turn.stored`` appends it
        question, answer = stored
        turn = message_turn_view(answer)
        self.watching[question.pk] = turn["key"]
        title = str(event.get("title") or "")  # the first question names the conversation
        html = self.render("turn-start", message=question, turn=turn)
        await self.send_html(html + (self.title_follow(title) if title else ""))
        await self.group_event("turn.watch", question_id=question.pk)

    async def turn_progress(self, event: dict[str, Any]) -> None:
        """The answer so far of a turn this page shows running: redraw its bubble."""
        key = self.watching.get(int(event["question_id"])) if self.from_elsewhere(event) else ""
        if not key:
            return
        turn = turn_view(
            key=key,
            sentences=event.get("sentences") or (),
            blocks=event.get("blocks") or (),
            dropped=int(event.get("dropped") or 0),
            notices=event.get("notices") or (),
            status="pending",
            language=str(event.get("language") or ""),
        )
        await self.send_html(self.render("turn-replace", turn=turn, replaces=key))

    async def turn_stored(self, event: dict[str, Any]) -> None:
        """A turn finished on another socket. Another page appends it as stored (question and
        answer); a page that shows it running (reconnected since it asked, reloaded, told by
        ``turns_sync`` or ``turn.opened``) gets the stored answer in place of that bubble."""
        if not self.from_elsewhere(event):
            return
        stored = await self.turn_load(int(event["question_id"]))
        if stored is None:
            return
        question, answer = stored
        turn = message_turn_view(answer)
        replaces = self.watching.pop(question.pk, "")
        if not replaces and self.tab and event.get("tab") == self.tab:
            replaces = str(event.get("key", ""))
        if replaces:
            html = self.render("turn-replace", turn=turn, replaces=replaces)
        else:
            html = self.render("turn-start", message=question, turn=turn)
        if self.alerted:  # the conversation is free again: "still being written" no longer holds
            # a question refused as busy was not sent: say it can be now (an alert cleared
            # at once after a fast answer looked as if the question had vanished)
            html += self.render("composer-alert", message=FREE if self.refused_busy else "",
                                oob="true")
            self.alerted = self.refused_busy
            self.refused_busy = False
        await self.send_html(html)

    async def turns_sync(self, wanted: list[tuple[str, int]]) -> None:
        """The page's "Answering…" bubbles (``chat.turn_sync``): each ended turn replaces its
        bubble now; each running one is watched (its sentences as they come, the stored turn
        when it ends)."""
        running = self.turn_task is not None and not self.turn_task.done()
        over, pending = await turns_settle(conversation=self.conversation, wanted=wanted)
        for key, answer in over:
            html = self.render("turn-replace", turn=message_turn_view(answer), replaces=key)
            await self.send_html(html)
        if running:
            return  # this socket's own answer is streaming into its bubble already
        for question_id, key in pending.items():
            self.watching[question_id] = key
            await self.group_event("turn.watch", question_id=question_id)
        if pending and (self.recheck is None or self.recheck.done()):
            self.recheck = asyncio.ensure_future(self.watched_recheck())

    async def watched_recheck(self) -> None:
        """Every ``RECHECK_SECONDS`` while the page shows watched bubbles: replace those whose
        turn ended without a ``turn.stored`` reaching this socket (its server died, or was
        still stopping at the sync: the next look finds the turn interrupted)."""
        while self.watching and not self.gone:
            await asyncio.sleep(RECHECK_SECONDS)
            wanted = [(key, question_id) for question_id, key in self.watching.items()]
            try:
                over, _ = await turns_settle(conversation=self.conversation, wanted=wanted)
            except DatabaseError:
                continue  # the database is out of reach a moment: look again later
            ended = {key for key, _ in over}
            for question_id in [q for q, key in self.watching.items() if key in ended]:
                self.watching.pop(question_id, None)
            for key, answer in over:
                if not self.gone:
                    await self.send_html(self.render(
                        "turn-replace", turn=message_turn_view(answer), replaces=key))
