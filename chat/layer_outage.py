"""A channel layer that is down (Redis stopped): the chat socket stays open and says so.

Every admitted chat socket joins its conversation's group (``chat.turn_relay``) and waits on
the layer for the group's events. Under channels' own consumer loop a layer read that failed
ended the consumer: Daphne closed the socket with 1011 right after "connected", the ws
extension opened it again within a second (its backoff starts over at every open), a question
sent meanwhile was lost, and every attempt logged two tracebacks (a tester's B5: 16 reopens
in 11 s per tab). Here:

- The socket stays open. Its layer reads (``layer_receive``) wait and try again instead of
  raising. A socket that is out of its group (the join failed, or a read did: Redis may come
  back empty) joins it again in the background (``group_rejoin``). Both wait
  ``backoff_delays()`` between attempts.
- The page is told in its composer alert, in its language (``LAYER_DOWN``), and again when
  the group is joined (``LAYER_BACK``, with the "connected" fragment, on which the page names
  its "Answering…" bubbles again: group events sent meanwhile were lost).
- Questions are still answered: the socket itself carries the answer to its page; what is
  lost is the live copy on the conversation's other tabs and processes. A turn that cannot
  run is refused before anything is stored, its question kept in the box: ``chat.limits``
  keeps its counts in the same Redis (reason "unavailable").
- The log says it once per outage and process: one warning line when a layer call first
  fails (the exception's message, no traceback), one info line when a call succeeds again;
  the failures in between are logged at debug.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import Any

from channels.exceptions import StopConsumer
from channels.layers import get_channel_layer
from channels.utils import await_many_dispatch
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from chat.models import Conversation

logger = logging.getLogger(__name__)

# Lazy: rendered in the socket's language (``render``).
LAYER_DOWN = gettext_lazy(
    "The chat service is temporarily unavailable. It will reconnect by itself; until then "
    "a question that cannot be answered stays in the box."
)
LAYER_BACK = gettext_lazy("The chat service is available again: you can send your question now.")

# Backoff between attempts, in seconds: the first wait, doubled after each failure up to the
# last. Each wait is drawn from the upper half of its bound ("equal jitter", Marc Brooker,
# "Exponential Backoff And Jitter", AWS Architecture Blog, 2015), so that a process's sockets
# do not all ask Redis at the same moment when it comes back.
REJOIN_FIRST_SECONDS = 1.0
REJOIN_MAX_SECONDS = 15.0  # a page is back within this of Redis coming back


def backoff_delays() -> Iterator[float]:
    """Seconds to wait before each next attempt: about 1, 2, 4, 8, then 15 for ever (the
    module's bounds as they are when each wait is drawn)."""
    bound = REJOIN_FIRST_SECONDS
    while True:
        yield random.uniform(bound / 2, bound)
        bound = min(bound * 2, REJOIN_MAX_SECONDS)


@dataclass
class Outage:
    """This process's current outage of the layer: ``since`` (``time.monotonic()`` of its
    first failed call; None while the layer answers) and how many calls failed in it."""

    since: float | None = None
    failures: int = 0


OUTAGE = Outage()


def layer_failed(operation: str, exc: BaseException) -> None:
    """Note a failed layer call (``operation``: "group_add", "receive", …): the first of an
    outage is logged as one warning line, the others at debug."""
    OUTAGE.failures += 1
    if OUTAGE.since is not None:
        logger.debug("channel layer %s failed again: %s", operation, exc)
        return
    OUTAGE.since, OUTAGE.failures = time.monotonic(), 1
    logger.warning(
        "channel layer unavailable (%s failed: %s: %s); chat sockets stay open and answer "
        "their own page, without live updates to other tabs, and retry with backoff",
        operation, type(exc).__name__, exc,
    )


def layer_answered() -> None:
    """A layer call succeeded: an outage in progress is over (logged once, at info)."""
    since = OUTAGE.since
    if since is None:
        return
    OUTAGE.since = None
    logger.info(
        "channel layer available again after %.0f s (%d failed calls)",
        time.monotonic() - since, OUTAGE.failures,
    )


def conversation_group(conversation_id: int) -> str:
    """The channel-layer group of every open socket on one conversation."""
    return f"conversation.{conversation_id}"


class GroupMembership:
    """Mixin of ``chat.consumers.ChatConsumer``: its conversation's group, kept through an
    outage of the channel layer (the module docstring).

    Expects ``channel_layer_alias``, ``dispatch``, ``conversation``, ``admitted``, ``gone``,
    ``render``, ``send_html`` and ``notice`` from the consumer."""

    channel_layer_alias: str
    channel_layer: Any
    channel_name: str
    scope: dict[str, Any]
    base_send: Callable[[dict[str, Any]], Awaitable[None]]
    dispatch: Callable[[dict[str, Any]], Awaitable[None]]  # channels' (a stub here would win)
    conversation: Conversation
    admitted: bool
    gone: bool
    grouped = False  # this socket is in its conversation's group now
    rejoining: asyncio.Task[None] | None = None
    outage_shown = False  # the page shows that the chat service is unavailable

    def render(self, name: str, **context: Any) -> str:
        raise NotImplementedError

    async def send_html(self, html: str) -> None:
        raise NotImplementedError

    async def notice(self, message: str | Promise) -> None:
        raise NotImplementedError

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Channels' ``AsyncConsumer.__call__`` (channels 4.3), the layer read through
        ``layer_receive``: channels' own read raised when the layer failed, which ended the
        consumer and closed the socket."""
        self.scope = scope
        self.channel_layer = get_channel_layer(self.channel_layer_alias)
        reads = [receive]
        if self.channel_layer is not None:
            self.channel_name = await self.channel_layer.new_channel()
            reads.append(self.layer_receive)
        self.base_send = send
        with contextlib.suppress(StopConsumer):
            await await_many_dispatch(reads, self.dispatch)

    async def layer_receive(self) -> dict[str, Any]:
        """The next group event for this socket. While the layer fails it reads again
        instead of raising: once the group is rejoined (``group_lost`` told the page and
        started rejoining), or, on a socket not admitted (yet), after ``backoff_delays``.
        Reading again only after a wait of its own left events sent to the rejoined socket
        unread for up to ``REJOIN_MAX_SECONDS``."""
        delays = backoff_delays()
        while True:
            try:
                message: dict[str, Any] = await self.channel_layer.receive(self.channel_name)
            except Exception as exc:
                layer_failed("receive", exc)
                await self.group_lost()
                rejoining = self.rejoining
                if rejoining is not None and not rejoining.done():
                    await asyncio.wait({rejoining})  # ends when joined, or the socket closed
                else:
                    await asyncio.sleep(next(delays))
                continue
            return message

    async def group_join(self) -> bool:
        """Join the conversation's group; False when the layer failed (noted, not raised)."""
        try:
            await self.channel_layer.group_add(
                conversation_group(self.conversation.pk), self.channel_name)
        except Exception as exc:
            layer_failed("group_add", exc)
            return False
        layer_answered()
        self.grouped = True
        return True

    async def group_leave(self) -> None:
        """Leave the group (the socket closed): stop rejoining; a layer that is down costs
        nothing here, the membership expires with the group (channels-redis: a day)."""
        if self.rejoining is not None:
            self.rejoining.cancel()
        if not self.grouped:
            return
        self.grouped = False
        try:
            await self.channel_layer.group_discard(
                conversation_group(self.conversation.pk), self.channel_name)
        except Exception as exc:
            layer_failed("group_discard", exc)

    async def group_lost(self) -> None:
        """The layer failed for this admitted socket: it is out of its group until
        ``group_rejoin`` gets it back in; the page says so (once until then)."""
        if not self.admitted or self.gone:
            return
        self.grouped = False
        if self.rejoining is None or self.rejoining.done():
            self.rejoining = asyncio.create_task(self.group_rejoin())
        if not self.outage_shown:
            await self.notice(LAYER_DOWN)  # lazy: rendered in the page's language
            self.outage_shown = True

    async def group_rejoin(self) -> None:
        """Join the group again, waiting ``backoff_delays()`` before each attempt; then send
        "connected" again (the page names its running bubbles: ``chat.turn_sync``) and, if
        the page says the service is unavailable, that it is back."""
        for delay in backoff_delays():
            await asyncio.sleep(delay)
            if self.gone:
                return
            if await self.group_join():
                break
        html = self.render("connection-state", state="open", oob="true")
        if self.outage_shown:
            html += self.render("composer-alert", message=LAYER_BACK, notice=True, oob="true")
            self.outage_shown = False
        await self.send_html(html)
