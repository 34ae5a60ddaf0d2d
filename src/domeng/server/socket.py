"""A table's WebSocket (``/ws/tables/{id}``): reading a client's messages, writing the
service's, and handing each message to the table it is at.

A connection has a reader (each frame is read as JSON, its ``type`` looked up in
:data:`~domeng.server.messages.CLIENT`, checked by its model and handed to the
:class:`~domeng.server.tables.Table` the registry found for it, one message at a time,
in order) and a writer
(its outbox, written in order). A refusal is an ``error`` message to that
connection alone (:func:`answer`); nothing changes and the connection stays open.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable

from starlette.websockets import WebSocket, WebSocketDisconnect

from .connection import Connection
from .documents import Error
from .errors import TableError
from .hub import Hub
from .limits import Place
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
from .registry import MOVED
from .tables import Table

log = logging.getLogger("domeng.server")

HELLO_TIMEOUT = 10.0
"""Seconds a new connection has to say hello before it is closed."""
SEND_TIMEOUT = 20.0
"""Seconds a client may take to accept one message before the service gives it up (a
client that stops reading would otherwise hold its writer, and count as watching)."""
SEAT_ELSEWHERE = 4409
"""The close code of a seat's connection let go because the seat opened elsewhere."""
CLOSE_GRACE = 1.0
"""Seconds a connection's last messages may take to go out once its client has left."""


async def table_socket(ws: WebSocket) -> None:
    hub: Hub = ws.app.state.hub
    await ws.accept()
    address = ws.client.host if ws.client is not None else "unknown"
    try:
        place = hub.connections.open(address)
    except TableError as e:
        with contextlib.suppress(Exception):
            refused: Error = {"type": "error", **e.json(), "reply_to": None}
            await ws.send_json(refused)
            await ws.close(code=1013)  # try again later
        return
    try:
        await _serve(ws, hub, place)
    finally:
        hub.connections.closed(place)


async def _serve(ws: WebSocket, hub: Hub, place: Place) -> None:
    t: Table | None = None
    try:  # a finished game is read from the database
        t = await hub.attend(ws.path_params["id"])
    except TableError as e:
        if e.code == "busy":  # taken over by another process meanwhile: come again
            with contextlib.suppress(Exception):
                await ws.send_json({"type": "error", **e.json(), "reply_to": None})
                await ws.close(code=MOVED)
            return
    if t is None:
        message = f"there is no table {ws.path_params['id']!r}"
        err: Error = {
            "type": "error",
            "code": "unknown_table",
            "message": message,
            "reply_to": None,
        }
        with contextlib.suppress(Exception):
            await ws.send_json(err)
            await ws.close(code=4404)
        return
    c = Connection(ws.scope.get("extensions", {}).get(FRAMES), address=place.address)
    c.place = place
    c.member = getattr(ws.scope.get("state", {}).get("member"), "id", None)  # a club's (gate.py)
    loop = asyncio.get_running_loop()
    writer = loop.create_task(_write(ws, c))
    reader = loop.create_task(_read(ws, hub, t, c))
    try:
        # Whichever ends first ends the connection: the client leaving, or the writer
        # giving up on a client that does not read (SEND_TIMEOUT) or fell too far behind.
        await asyncio.wait({reader, writer}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        reader.cancel()
        t.disconnect(c)
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
    """One frame from ``c`` (None: a binary one): checked, then done by the table."""
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
    """The table's work for ``msg``."""
    if isinstance(msg, Hello):
        if msg.token is None and not c.hello and c.place is not None:
            hub.connections.watch(c.place)  # a spectator's place, from their share
        t.hello(c, msg.token)
        if c.seat is not None:
            if c.place is not None:
                hub.connections.seat(c.place)  # a seat's place: kept for the seated
            let_go_elsewhere(t, c)
    elif isinstance(msg, Ping):
        c.send({"type": "pong", "reply_to": msg.id, "state": t.state})
    elif isinstance(msg, Play):
        await t.play(c, msg)
    elif isinstance(msg, Ready):
        await t.ready(c, msg)
    elif isinstance(msg, Back):
        await t.back(c, msg)
    elif isinstance(msg, Chat):
        await t.say(c, msg)
    elif isinstance(msg, Hint):
        await t.hint(c, msg)
    else:
        assert isinstance(msg, Sync)
        t.sync(c)


def let_go_elsewhere(t: Table, c: Connection) -> None:
    """``c`` opened its seat on another page or device: the seat's older connections are
    told so (``seat_elsewhere``) and closed with :data:`SEAT_ELSEWHERE`; the newest
    plays it. (A page let go may come back to watch, or take the seat back with a
    hello of its own, which lets this one go in turn.)"""
    for old in [o for o in t.seated if o.seat == c.seat and o is not c and not o.closed]:
        words = "this seat was opened on another page or device, which plays it now"
        old.send({"type": "error", "code": "seat_elsewhere", "message": words, "reply_to": None})
        old.close_code = SEAT_ELSEWHERE
        old.close()


def _refuse(c: Connection, e: TableError, reply_to: str | int | None) -> None:
    c.send({"type": "error", **e.json(), "reply_to": reply_to})
    if e.code == "too_many_spectators":  # told why, then closed: try again later
        c.close_code = 1013
        c.close()


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
