"""What ``kindling serve`` refuses before a request costs anything: slow clients, deep JSON.

uvicorn bounds idle keep-alive connections (``timeout_keep_alive``) and the size of an
*incomplete* request head (``h11_max_incomplete_event_size``) but has no read timeout: a client
sending one byte a second holds a connection for as long as it likes, and a head that arrives
whole is taken at any size. ``HeadTimeoutProtocol`` (uvicorn's own h11 protocol):

- closes a connection whose request head is not complete ``read_timeout_s`` after the
  connection opened or the previous response ended; the body has the same time, counted by the
  app (``app.read_json``);
- answers a head over ``MAX_HEAD_BYTES`` (request line, headers and the blank line) with a 400
  error object, counted on the bytes as they arrive, however they are split;
- after an answer sent before the request's body was all read (an early 401, 408 or 413), gives
  the body ``read_timeout_s`` to end (uvicorn throws it away; the connection then goes on, so a
  client that sent its whole body may use it again), and otherwise ends the connection: it
  sends its end of stream, throws away what still arrives, and closes ``read_timeout_s`` later
  at most (closing at once, with unread bytes, could reset the connection before the client
  reads the answer).

What a body may hold once it has arrived (its JSON depth) is ``bodies``' to check.

Must not import the CLI or other adapters.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import h11
from uvicorn.config import Config
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.server import ServerState

from kindling.errors import InvalidInputError

READ_TIMEOUT_S = 10.0  # a request head, and then its body, must arrive within this
MAX_HEAD_BYTES = 16 << 10  # request line and headers
KEEP_ALIVE_S = 5  # an idle connection between requests


def _head_too_large() -> bytes:
    body = json.dumps(
        {
            "error": {
                "code": InvalidInputError.code,
                "message": f"the request head is over {MAX_HEAD_BYTES} bytes",
            }
        }
    ).encode()
    head = (
        "HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\nconnection: close\r\n"
        f"content-length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


class HeadTimeoutProtocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline and a size bound for each request head, and an
    end to connections whose answer went out before their body came in."""

    read_timeout_s = READ_TIMEOUT_S

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self._head_timer: asyncio.TimerHandle | None = None
        self._head = b""  # the request head so far (at most MAX_HEAD_BYTES + 4 bytes of it)
        self._ending = False  # answered: what arrives now is thrown away until the close
        self._draining = False  # answered before the body ended: waiting for its end

    def _arm(self) -> None:
        self._disarm()
        self._head_timer = self.loop.call_later(self.read_timeout_s, self._head_late)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_late(self) -> None:
        self._head_timer = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.close()  # half a request head: nothing to answer

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def _end(self, answer: bytes = b"") -> None:
        """Send ``answer`` and the end of the stream; close once the client has had time to
        read it (``read_timeout_s`` at most), whatever it keeps sending."""
        self._disarm()
        self._ending = True
        if answer:
            self.transport.write(answer)
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self.loop.call_later(self.read_timeout_s, self.transport.close)

    def data_received(self, data: bytes) -> None:
        if self._ending:
            return  # an answer went out; the connection is closing
        if self.conn.their_state is h11.IDLE:  # a request head is arriving: count it
            self._head += data[: MAX_HEAD_BYTES + 4 - len(self._head)]
            end = self._head.find(b"\r\n\r\n")
            if (end < 0 and len(self._head) > MAX_HEAD_BYTES) or end + 4 > MAX_HEAD_BYTES:
                self._end(_head_too_large())
                return
        super().data_received(data)
        if self._draining:
            if self.conn.their_state is not h11.SEND_BODY:  # the body ended: the next request
                self._draining = False
                self._head = b""
                self._arm()
            return
        if self.conn.their_state is not h11.IDLE:
            self._disarm()
            self._head = b""

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self.transport.is_closing():
            return
        if self.conn.their_state is h11.SEND_BODY:  # answered before the body came in
            self._disarm()
            self._draining = True
            self._head_timer = self.loop.call_later(self.read_timeout_s, self._body_late)
        elif self.conn.their_state is h11.IDLE:
            self._arm()

    def _body_late(self) -> None:
        """The body of an answered request did not end in time: end the connection."""
        self._head_timer = None
        if self._draining and not self.transport.is_closing():
            self._draining = False
            self._end()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


def uvicorn_options(read_timeout_s: float = READ_TIMEOUT_S) -> dict[str, Any]:
    """``uvicorn.run`` keyword arguments: the protocol above and uvicorn's own bounds."""
    protocol = type(
        "KindlingH11Protocol", (HeadTimeoutProtocol,), {"read_timeout_s": read_timeout_s}
    )
    return {
        "http": protocol,
        "timeout_keep_alive": KEEP_ALIVE_S,
        "h11_max_incomplete_event_size": MAX_HEAD_BYTES,
    }
