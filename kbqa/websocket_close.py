"""Under Daphne, a websocket the server fails is closed with a code and a reason, not dropped.

Daphne's websocket layer is autobahn, which refuses a message or frame over Daphne's
``--websocket-max-message-size`` / ``--websocket-max-frame-size`` (1 MB each by default)
before the application sees it, and fails the connection the same way on a protocol error
or text that is not UTF-8. autobahn's ``failByDrop`` option, on by default and not among
the options Daphne sets (``daphne.server.Server.run``), fails it by dropping the TCP
connection: a client that sent a 3 MB question saw close code 1006 (abnormal, no reason).
With it off, autobahn sends the close frame first (RFC 6455 section 7.1.7, "Fail the
WebSocket Connection"): 1009 "message too big" with its reason ("received WebSocket
message size 3000000 exceeds payload limit of 1048576 octets"), 1002 or 1007 for the others.

The option is set through autobahn's public ``setProtocolOptions`` on Daphne's websocket
factory; Daphne builds that factory itself, so ``daphne.server.WebSocketFactory`` (the name
``Server.run`` builds it from) is rebound to a subclass, as ``kbqa.bodylimit`` rebinds
Daphne's request class. Where that name or that option is missing (another Daphne or
autobahn), nothing changes.
"""

from __future__ import annotations

import inspect
import logging
import sys
from typing import Any

log = logging.getLogger(__name__)


def install_daphne_close_frames() -> bool:
    """Make Daphne's websocket factory fail a connection with a close frame (module doc).

    Does nothing unless ``daphne.server`` is already imported (it is, under the ``daphne``
    command and Daphne's ``runserver``, before they load the application): importing it
    would install Twisted's reactor in a process that another server runs. Returns whether
    the factory fails with a close frame; calling it again is harmless.
    """
    server = sys.modules.get("daphne.server")
    factory = getattr(server, "WebSocketFactory", None)
    if server is None or factory is None:
        return False
    if getattr(factory, "kbqa_close_frames", False):
        return True
    options = getattr(factory, "setProtocolOptions", None)
    if options is None or "failByDrop" not in inspect.signature(options).parameters:
        log.warning("Daphne's websocket factory has no failByDrop option: an oversized "
                    "message still drops its connection (close code 1006)")
        return False

    class ClosingWebSocketFactory(factory):  # type: ignore[misc,valid-type]
        kbqa_close_frames = True

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.setProtocolOptions(failByDrop=False)

    server.WebSocketFactory = ClosingWebSocketFactory
    return True
