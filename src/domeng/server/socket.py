"""A table's WebSocket (``/ws/tables/{id}``): reading a client's messages, writing the
service's, and handing each message to the hub.

A connection has a reader (each frame is read as JSON, its ``type`` looked up in
:data:`~domeng.server.messages.CLIENT`, checked by its model and handed to the
:class:`~domeng.server.hub.Hub`, one message at a time, in order) and a writer
(its outbox, written in order). A refusal is an ``error`` message to that
connection alone (:func:`answer`); nothing changes and the connection stays open.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable

from starlette.websockets import WebSocket, WebSocketDisconnect

from .hub import Hub
from .messages import (
    Back,
    Chat,
    ClientMessage,
    Hello,
    Hint,
    Ping,
    Play,
    Ready,
    Refused,
    Sync,
    kind_of,
    read_frame,
    read_message,
    reply_id,
)
from .protocols import FRAMES
from .tables import Connection, Table, TableError

log = logging.getLogger("domeng.server")

HELLO_TIMEOUT = 10.0
"""Seconds a new connection has to say hello before it is closed."""
SEND_TIMEOUT = 20.0
"""Seconds a client may take to accept one message before the service gives it up (a
client that stops reading would otherwise hold its writer, and count as watching)."""
CLOSE_GRACE = 1.0
"""Seconds a connection's last messages may take to go out once its client has left."""


async def table_socket(ws: WebSocket) -> None:
    hub: Hub = ws.app.state.hub
    await ws.accept()
    address = ws.client.host if ws.client is not None else "unknown"
    try:
        hub.connections.open(address)
    except TableError as e:
        with contextlib.suppress(Exception):
            await ws.send_json({"type": "error", **e.json(), "reply_to": None})
            await ws.close(code=1013)  # try again later
        return
    try:
        await _serve(ws, hub)
    finally:
        hub.connections.closed(address)


async def _serve(ws: WebSocket, hub: Hub) -> None:
    t = hub.tables.get(ws.path_params["id"])
    if t is None:  # a finished game, read from the database while someone watches it
        with contextlib.suppress(TableError):
            t = hub.tables.setdefault(ws.path_params["id"], await hub.find(ws.path_params["id"]))
    if t is None:
        message = f"there is no table {ws.path_params['id']!r}"
        err = {"type": "error", "code": "unknown_table", "message": message, "reply_to": None}
        with contextlib.suppress(Exception):
            await ws.send_json(err)
            await ws.close(code=4404)
        return
    c = Connection(ws.scope.get("extensions", {}).get(FRAMES))
    loop = asyncio.get_running_loop()
    writer = loop.create_task(_write(ws, c))
    reader = loop.create_task(_read(ws, hub, t, c))
    try:
        # Whichever ends first ends the connection: the client leaving, or the writer
        # giving up on a client that does not read (SEND_TIMEOUT) or fell too far behind.
        await asyncio.wait({reader, writer}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        reader.cancel()
        hub.disconnect(t, c)
        c.outbox.put_nowait(None)
        # What is queued still goes out to a client that reads; one that does not is not
        # waited for (at a stop of the service it would outlast the grace uvicorn gives).
        done, _ = await asyncio.wait({writer}, timeout=CLOSE_GRACE)
        if not done:
            writer.cancel()
        for task in (reader, writer):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


async def _read(ws: WebSocket, hub: Hub, t: Table, c: Connection) -> None:
    loop = asyncio.get_running_loop()
    hello_by = loop.time() + ws.app.state.hello_timeout
    try:
        while not c.closed:
            try:
                async with asyncio.timeout_at(None if c.hello else hello_by):
                    incoming = await ws.receive()
            except TimeoutError:
                seconds = ws.app.state.hello_timeout
                words = f"say hello within {seconds:g} s of connecting"
                c.send(
                    {"type": "error", "code": "hello_timeout", "message": words, "reply_to": None}
                )
                c.close_code = 1008
                c.close()
                break
            if incoming["type"] == "websocket.disconnect":
                break
            await handle(hub, t, c, incoming.get("text"))
            await asyncio.sleep(0)  # a flood of messages waits its turn like everyone
    except (WebSocketDisconnect, RuntimeError):
        pass


async def _write(ws: WebSocket, c: Connection) -> None:
    try:
        while True:
            framed = await c.outbox.get()
            if framed is None:
                break
            c.busy = True  # what comes meanwhile waits behind it (connection.py)
            async with asyncio.timeout(SEND_TIMEOUT):  # in this task (wait_for would start one)
                if c.sink is not None:
                    await c.sink.send_frame(framed)
                else:
                    await ws.send_text(framed.text)
            c.busy = False
            c.sent(framed)
    except Exception:
        c.closed = True
        c.close_code = 1008
    with contextlib.suppress(Exception):
        async with asyncio.timeout(SEND_TIMEOUT):
            await ws.close(code=c.close_code)


async def handle(hub: Hub, t: Table, c: Connection, text: str | None) -> None:
    """One frame from ``c`` (None: a binary one): checked, then done by the hub."""
    reply_to: str | int | None = None
    try:
        doc = read_frame(text)
        reply_to = reply_id(doc.get("id"))
        hub.limits.message(c, doc["type"] if isinstance(doc.get("type"), str) else "other")
        model = kind_of(doc)
        if not (model.before_hello or c.hello):
            message = 'say hello first: {"type": "hello", "token": ...}'
            raise TableError("hello_first", message)
        if model.spectator_refused is not None and c.seat is None:
            raise TableError("not_seated", model.spectator_refused)
        await answer(_do(hub, t, c, read_message(doc, model)), c, reply_to)
    except Refused as e:
        _refuse(c, e, e.reply_to)
    except TableError as e:
        _refuse(c, e, reply_to)


async def _do(hub: Hub, t: Table, c: Connection, msg: ClientMessage) -> None:
    """The hub's work for ``msg``."""
    if isinstance(msg, Hello):
        hub.hello(t, c, msg.token)
    elif isinstance(msg, Ping):
        c.send({"type": "pong", "reply_to": msg.id, "state": t.state})
    elif isinstance(msg, Play):
        await hub.play(t, c, msg)
    elif isinstance(msg, Ready):
        await hub.ready(t, c, msg)
    elif isinstance(msg, Back):
        await hub.back(t, c, msg)
    elif isinstance(msg, Chat):
        await hub.say(t, c, msg)
    elif isinstance(msg, Hint):
        await hub.hint(t, c, msg)
    else:
        assert isinstance(msg, Sync)
        hub.sync(t, c)


def _refuse(c: Connection, e: TableError, reply_to: str | int | None) -> None:
    c.send({"type": "error", **e.json(), "reply_to": reply_to})


async def answer(action: Awaitable[None], c: Connection, reply_to: str | int | None) -> None:
    """Do ``action`` for a connection; a refusal becomes an ``error`` message to it alone."""
    try:
        await action
    except TableError as e:
        _refuse(c, e, reply_to)
    except Exception:  # a fault of the service, not of the request: say so, keep serving
        log.exception("unexpected failure answering a message")
        message = "the service failed to answer this message"
        c.send({"type": "error", "code": "internal", "message": message, "reply_to": reply_to})
