"""The protocol's JSON Schema (``GET /api/protocol.schema.json``) is the truth of
docs/protocol.md: every example there, every message a played game sends, and every
answer about its players, fits it."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from domeng.server.schema import KINDS, protocol_schema

from .test_server_players import new_profile, play_game

Json = dict[str, Any]
PROTOCOL = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
CLIENT_TYPES = {"hello", "play", "ready", "sync", "ping", "back"}
SERVICE_TYPES = {"welcome", "state", "update", "seats", "ok", "left", "pong", "error", "again"}
ELIDED = "..."


def strict(schema: Json, *, required: bool = True) -> Json:
    """The schema with no field beyond those it names (the published one lets a client
    read a newer service's fields); without ``required`` when an example leaves some out."""
    s = copy.deepcopy(schema)

    def walk(node: object) -> None:
        if isinstance(node, dict):
            if node.get("type") == "object" and "properties" in node:
                node["additionalProperties"] = False
                if not required:
                    node.pop("required", None)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(s)
    return s


def validator(kind: str, *, required: bool = True) -> Draft202012Validator:
    schema = strict(protocol_schema(), required=required)
    return Draft202012Validator({**schema, "anyOf": [{"$ref": f"#/$defs/{kind}"}]})


def without_elisions(doc: object) -> object:
    """An example with its ``"...": "..."`` keys and ``"..."`` items taken out."""
    if isinstance(doc, dict):
        return {k: without_elisions(v) for k, v in doc.items() if k != ELIDED}
    if isinstance(doc, list):
        return [without_elisions(v) for v in doc if v != ELIDED]
    return doc


def kind_of(doc: Json) -> str | None:
    kind = doc.get("type")
    if kind == "chat":  # both ways: the service's names its speaker
        return "service_message" if "name" in doc else "client_message"
    if kind == "hint":  # both ways: the service's holds the moves
        return "service_message" if "moves" in doc else "client_message"
    if kind in CLIENT_TYPES:
        return "client_message"
    if kind in SERVICE_TYPES:
        return "service_message"
    keys = set(doc)
    if "entrants" in keys:  # a tournament's
        return "tournament" if "id" in keys else "new_tournament"
    if {"entrant", "status", "table"} <= keys:
        return "entrant_view"
    if "seats" in keys and "links" not in keys and "id" not in keys:
        return "new_table"
    if "tokens" in keys:
        return "new_table_answer"
    if {"table_id", "token"} <= keys:
        return "taken_seat"
    if {"kind", "rating", "uncertainty"} <= keys:
        return "picked_profile" if "token" in keys else "profile"
    if "links" in keys or ("id" in keys and "status" in keys):
        return "table"
    if {"players", "rounds"} <= keys:
        return "replay"
    if "decisions" in keys:
        return "review"
    if keys == {"error"}:
        return "http_error"
    if "name" in keys and keys <= {"name", "language", "mark"} and keys & {"language", "mark"}:
        return "new_profile"
    if "name" in keys and keys <= {"name", "invite"}:
        return "take_seat"
    if keys == {"token"}:
        return "leave_seat"
    if {"token", "action"} <= keys:
        return "host_action"
    if keys == {"tables", "next"}:
        return "tables"
    return None


NOT_MODELLED = {
    # GET /api's answer: service info, read by the start page; no client sends it
    frozenset(
        {"name", "version", "levels", "default_level", "variants", "max_message", "addresses"}
    ),
    # bits of a body shown alone in the text (a field's value, not a document)
    frozenset({"rounds"}),
    frozenset({"titles"}),
    frozenset({"table"}),
    frozenset({"2"}),  # the invitation links of a table, shown alone
}


def examples() -> list[tuple[str, Json]]:
    """Every JSON object in protocol.md's code blocks and inline code that parses."""
    text = PROTOCOL.read_text(encoding="utf-8")
    found: list[tuple[str, Json]] = []
    blocks = re.findall(r"```json\n(.*?)```", text, flags=re.S)
    inline = re.findall(r"`(\{[^`]*\})`", re.sub(r"```.*?```", "", text, flags=re.S))
    for source in blocks + inline:
        try:
            doc = json.loads(source)
        except ValueError:
            continue
        if isinstance(doc, dict):
            found.append((source.strip().splitlines()[0][:60], doc))
    return found


def test_the_schema_is_served_and_names_every_kind(service: Any) -> None:
    r = service.http.get("/api/protocol.schema.json")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/json")
    schema = r.json()
    assert schema == json.loads(json.dumps(protocol_schema()))
    assert set(KINDS) <= set(schema["$defs"])
    Draft202012Validator.check_schema(schema)


def test_every_example_of_the_protocol_fits_the_schema() -> None:
    checked: dict[str, int] = {}
    for where, doc in examples():
        kind = kind_of(doc)
        if kind is None:
            assert frozenset(doc) in NOT_MODELLED, f"protocol.md: which kind is {where!r}?"
            continue
        elided = json.dumps(doc) != json.dumps(without_elisions(doc))
        v = validator(kind, required=not elided)
        errors = [e.message for e in v.iter_errors(without_elisions(doc))]
        assert not errors, f"protocol.md's example {where!r} ({kind}): {errors}"
        checked[kind] = checked.get(kind, 0) + 1
    # the examples of every kind of message and body are among them
    assert checked.get("client_message", 0) >= 5
    assert checked.get("service_message", 0) >= 6
    for kind in ("new_table", "table", "new_table_answer", "taken_seat", "replay"):
        assert checked.get(kind), kind
    for kind in ("new_profile", "profile"):
        assert checked.get(kind), kind


def test_a_wrong_example_would_be_caught() -> None:
    play = {"type": "play", "tile": "6-4", "end": "left", "state": 12}
    v = validator("client_message")
    assert not list(v.iter_errors(play))
    assert list(v.iter_errors({**play, "state": "12"}))
    assert list(v.iter_errors({**play, "colour": "red"}))
    assert list(validator("service_message").iter_errors({"type": "ok", "reply_to": 1}))


def test_every_message_of_a_played_game_fits_the_schema(service: Any) -> None:
    level = service.level()
    seats = [{"kind": "person", "name": "Ann"}] + [{"kind": "computer", "level": level}] * 4
    created = service.new_table(seats, pace_ms=0, stand_in=None, end={"rounds": 2})
    assert not list(validator("new_table_answer").iter_errors(created))
    sock = service.socket(created["id"])
    watcher = service.socket(created["id"])
    watcher.hello()
    last = sock.hello(created["tokens"]["0"])
    sock.send({"type": "ping", "id": "p"})
    sock.send({"type": "dance", "id": 3})  # an error, too
    sock.send({"type": "sync"})
    while last["table"]["status"] != "finished":
        view = last.get("view")
        if (
            last["type"] in ("state", "update")
            and view
            and view["turn"] == 0
            and view["legal_moves"]
        ):
            move = view["legal_moves"][0]
            sock.send({"type": "play", **move, "state": last["state"]})
        elif last["table"]["status"] == "between" and not last["table"]["seats"][0]["ready"]:
            sock.send({"type": "ready"})
        last = sock.until(lambda m: m["type"] in ("state", "update", "seats"))
    for kind, doc in [
        ("table", service.http.get(f"/api/tables/{created['id']}").json()),
        ("replay", service.http.get(f"/api/tables/{created['id']}/replay").json()),
        ("http_error", service.http.get("/api/tables/nope").json()),
    ]:
        errors = [e.message for e in validator(kind).iter_errors(doc)]
        assert not errors, (kind, errors)
    watcher.until(lambda m: m["type"] == "update" and m["table"]["status"] == "finished")
    v = validator("service_message")
    sent = sock.received + watcher.received
    assert {m["type"] for m in sent} >= {
        "welcome",
        "state",
        "update",
        "seats",
        "ok",
        "pong",
        "error",
    }
    for m in sent:
        errors = [e.message for e in v.iter_errors(m)]
        assert not errors, (m["type"], errors[:3])
    sock.close()
    watcher.close()


def test_every_answer_about_players_fits_the_schema(service: Any) -> None:
    made = new_profile(service, "Daeng Schema", language="hi", mark="teal")
    answers: list[tuple[str, object]] = [("picked_profile", made)]
    seats = [{"kind": "person", "name": "Daeng", "profile": made["token"]}]
    seats += [{"kind": "computer", "level": "random"}] * 4
    tables = []
    for _ in range(5):  # the games a player needs to be on the leaderboard
        t = service.new_table(seats, pace_ms=0, stand_in=None, end={"rounds": 1})
        play_game(service, t, t["tokens"]["0"])
        tables.append(t["id"])
    page = service.http.get(f"/api/profiles/{made['id']}").json()
    assert page["recent"] and page["head_to_head"] and page["series"]["rating"]
    board = service.http.get("/api/leaderboard").json()
    assert made["id"] in {p["id"] for p in board["players"]}
    answers += [
        ("picked_profile", service.http.post(f"/api/profiles/{made['id']}/pick").json()),
        ("profiles", service.http.get("/api/profiles").json()),
        ("player_page", page),
        ("player_page", service.http.get("/api/profiles/random").json()),
        ("leaderboard", board),
        ("table_stones", service.http.get(f"/api/tables/{tables[0]}/stones").json()),
        ("http_error", service.http.get("/api/profiles/p-nobody").json()),
        ("http_error", service.http.post("/api/profiles", json={"name": "Daeng Schema"}).json()),
    ]
    for kind, doc in answers:
        errors = [e.message for e in validator(kind).iter_errors(doc)]
        assert not errors, (kind, errors[:3])
    # the schema tells them apart: a profile is not a page, a page's charts are pairs
    assert list(validator("profile").iter_errors(page))
    broken = {**page, "series": {**page["series"], "stones": [[1.0]]}}
    assert list(validator("player_page").iter_errors(broken))
