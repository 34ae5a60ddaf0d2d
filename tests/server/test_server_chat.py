"""Talk at the table (domeng.server.chat) at its bounds, on a fake clock: a message of
200 characters is said and one of 201 refused (spaces around do not count); printable
words only; five messages in ten seconds and the sixth refused until the first is ten
seconds old; spectators only where the table allows it. A refusal keeps nothing."""

from __future__ import annotations

import random
from typing import Any

import pytest

from domeng.server.bodies import NewTable
from domeng.server.chat import MAX_TEXT, PHRASES, RATE
from domeng.server.clock import FakeClock
from domeng.server.hub import Hub
from domeng.server.messages import Chat
from domeng.server.tables import Connection, Table, TableError
from domeng.storage import MemoryStorage

from .conftest import drain, run_apart
from .test_server_clock import InlineRunner

Said = dict[str, Any]


async def _table(**settings: Any) -> tuple[Hub, FakeClock, Table, Connection, Connection]:
    """Ann at seat 0 (connected), four computer players, a spectator."""
    clock = FakeClock()
    hub = Hub(MemoryStorage(), InlineRunner(), clock, deals=random.Random(2))
    seats = [{"kind": "person", "name": "Ann"}] + [{"kind": "computer", "level": "random"}] * 4
    body = NewTable.model_validate({"seats": seats, "pace_ms": 800, **settings})
    created = await hub.create_table(body)
    ann, watcher = Connection(), Connection()
    hub.hello(created.table, ann, created.tokens[0])
    hub.hello(created.table, watcher, None)
    drain(ann)
    drain(watcher)
    return hub, clock, created.table, ann, watcher


def _chat(**fields: Any) -> Chat:
    return Chat.model_validate({"type": "chat", **fields})


async def _refused(hub: Hub, t: Table, c: Connection, msg: Chat, code: str) -> None:
    before = list(t.chat)
    kept = await hub.store.load_table(t.id)
    assert kept is not None
    with pytest.raises(TableError) as refused:
        await hub.say(t, c, msg)
    assert refused.value.code == code
    assert list(t.chat) == before
    now = await hub.store.load_table(t.id)
    assert now is not None and now.chat == kept.chat


def test_a_message_of_the_longest_length_is_said_and_one_more_character_refused() -> None:
    async def main() -> None:
        hub, _, t, ann, watcher = await _table()
        assert MAX_TEXT == 200
        await hub.say(t, ann, _chat(text="x" * MAX_TEXT))
        heard = [m for m in drain(watcher) if m["type"] == "chat"]
        assert [len(m["text"]) for m in heard] == [MAX_TEXT]
        await _refused(hub, t, ann, _chat(text="y" * (MAX_TEXT + 1)), "too_long")
        await hub.say(t, ann, _chat(text="  " + "z" * MAX_TEXT + "\n "))  # spaces around
        assert t.chat[-1]["text"] == "z" * MAX_TEXT
        await hub.close()

    run_apart(main)


@pytest.mark.parametrize("text", ["", "   ", "bell\x07", "two\nlines", "tab\there", "\u200b"])
def test_only_printable_words_are_said(text: str) -> None:
    async def main() -> None:
        hub, _, t, ann, _ = await _table()
        await _refused(hub, t, ann, _chat(text=text), "bad_field")
        await hub.close()

    run_apart(main)


def test_a_quick_phrase_is_kept_as_its_key_and_an_unknown_one_refused() -> None:
    async def main() -> None:
        hub, _, t, ann, _ = await _table()
        for phrase in PHRASES:
            await hub.say(t, ann, _chat(phrase=phrase))
            assert t.chat[-1]["phrase"] == phrase and t.chat[-1].get("text") is None
            t.talk = type(t.talk)(hub.clock)  # a fresh rate for every phrase
        await _refused(hub, t, ann, _chat(phrase="dance"), "bad_field")
        await hub.close()

    run_apart(main)


def test_five_messages_in_ten_seconds_to_the_millisecond() -> None:
    async def main() -> None:
        hub, clock, t, ann, _ = await _table()
        count, seconds = RATE
        assert (count, seconds) == (5, 10.0)
        for n in range(count):
            await hub.say(t, ann, _chat(text=f"m{n}"))
            clock.advance(0.5)  # the first at 0 s, the fifth at 2 s
        await _refused(hub, t, ann, _chat(text="one too many"), "rate_limited")
        clock.advance(seconds - 2.5 - 0.001)  # 9.999 s after the first: still five
        await _refused(hub, t, ann, _chat(text="still too many"), "rate_limited")
        clock.advance(0.001)  # the first is 10 s old: one more may be said, no more
        await hub.say(t, ann, _chat(text="m5"))
        await _refused(hub, t, ann, _chat(text="m6"), "rate_limited")
        clock.advance(0.5)  # the second is 10 s old
        await hub.say(t, ann, _chat(text="m6"))
        assert [m["text"] for m in t.chat] == [f"m{n}" for n in range(7)]
        await hub.close()

    run_apart(main)


@pytest.mark.parametrize("allowed", [False, True])
def test_spectators_talk_only_where_the_table_allows_it(allowed: bool) -> None:
    async def main() -> None:
        hub, _, t, ann, watcher = await _table(spectator_chat=allowed)
        if allowed:
            await hub.say(t, watcher, _chat(text="hello"))
            assert (t.chat[-1]["seat"], t.chat[-1]["name"]) == (None, "Spectator")
        else:
            await _refused(hub, t, watcher, _chat(text="hello"), "not_seated")
        await hub.say(t, ann, _chat(text="hi"))  # the seat talks either way
        assert (t.chat[-1]["seat"], t.chat[-1]["name"]) == (0, "Ann")
        await hub.close()

    run_apart(main)
