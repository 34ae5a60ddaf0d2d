"""A club (``domeng serve --club``): members only, signed in; their links, passwords,
sessions, the throttle of guesses, other sites' pages, roles and moderation.

Each test has a club service of its own (a SQLite file, a fake clock: the sign-in
throttle's locks last as long as the test), and adds members as the owner's command
line does, on the same file.
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from domeng.server.clock import FakeClock
from domeng.server.club.members import add_member
from domeng.server.club.sessions import COOKIE
from domeng.server.club.throttle import ACCOUNT_FREE, ADDRESS_FREE
from domeng.storage import ADMIN, GUEST, MEMBER, OWNER, SQLiteStorage

from .conftest import TIMEOUT, Service, ServiceFaults, start_service

Json = dict[str, Any]
PASSWORD = "kapal-pinisi-7"
COMPUTERS = [{"kind": "computer", "level": "random"}] * 4


class Club(Service):
    def __init__(self, base: str, db: Path) -> None:
        super().__init__(base)
        self.db = db
        self.clients: list[httpx.Client] = []

    def add(self, name: str, role: str = MEMBER, table: str | None = None) -> str:
        """Add a member on the database, as ``domeng members add`` does: their code."""
        s = SQLiteStorage(self.db)
        try:
            return add_member(s, name, role, 1_800_000_000.0, table=table).code
        finally:
            s.close()

    def client(self) -> httpx.Client:
        c = httpx.Client(base_url=self.base, timeout=TIMEOUT)
        self.clients.append(c)
        return c

    def member(self, name: str, role: str = MEMBER) -> httpx.Client:
        """A browser of a new member who claimed their link: signed in."""
        code = self.add(name, role)
        c = self.client()
        r = c.post("/api/members/claim", json={"code": code, "password": PASSWORD})
        assert r.status_code == 200, r.text
        return c


@pytest.fixture
def club(tmp_path: Path) -> Iterator[Club]:
    db = tmp_path / "club.sqlite3"
    faults = ServiceFaults()
    logging.getLogger().addHandler(faults)
    server, thread, base = start_service(db, club=True, clock=FakeClock(), watched=faults)
    c = Club(base, db)
    try:
        yield c
    finally:
        for client in [c.http, *c.clients]:
            client.close()
        server.should_exit = True
        thread.join(TIMEOUT)
        logging.getLogger().removeHandler(faults)
    assert not faults.faults, faults.faults


def code_of(r: httpx.Response) -> str:
    code: str = r.json()["error"]["code"]
    return code


def new_table(c: httpx.Client, **more: Any) -> Json:
    r = c.post(
        "/api/tables", json={"seats": [{"kind": "person", "name": "Ann"}, *COMPUTERS], **more}
    )
    assert r.status_code == 201, r.text
    body: Json = r.json()
    return body


# -- 1. club mode ----------------------------------------------------------------------


def test_at_home_there_is_no_club(service: Service) -> None:
    assert service.http.get("/api/session").json() == {
        "club": False,
        "member": None,
        "signup": False,
    }
    assert service.http.get("/api/tables").status_code == 200
    assert service.http.get("/api/members").status_code == 404


def test_only_the_start_page_and_signing_in_answer_a_stranger(club: Club) -> None:
    assert club.http.get("/").status_code == 200
    assert club.http.get("/api").status_code == 200
    assert club.http.get("/api/session").json() == {"club": True, "member": None, "signup": False}
    for path in (
        "/api/tables", "/api/tables/x", "/api/tables/x/record", "/api/profiles",
        "/api/leaderboard", "/api/members", "/api/audit", "/api/qr.svg?data=x",
    ):  # fmt: skip
        r = club.http.get(path)
        assert (r.status_code, code_of(r)) == (401, "not_signed_in"), path
    r = club.http.post("/api/tables", json={"seats": COMPUTERS})
    assert (r.status_code, code_of(r)) == (401, "not_signed_in")
    with pytest.raises(InvalidStatus) as refused:
        connect(f"{club.ws_base}/ws/tables/x", open_timeout=TIMEOUT).close()
    assert refused.value.response.status_code == 403


def test_a_member_sets_a_password_by_their_link_once_and_is_signed_in(club: Club) -> None:
    code = club.add("Besse")
    c = club.client()
    r = c.post("/api/members/claim", json={"code": code, "password": PASSWORD})
    assert r.status_code == 200, r.text
    assert r.json()["member"]["name"] == "Besse" and r.json()["member"]["claimed"]
    cookie = r.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie
    assert "secure" not in cookie  # plain http: a Secure cookie would never come back
    assert c.get("/api/tables").status_code == 200
    assert c.get("/api/session").json()["member"]["name"] == "Besse"
    again = club.client().post("/api/members/claim", json={"code": code, "password": PASSWORD})
    assert (again.status_code, code_of(again)) == (410, "spent_link")
    unknown = club.http.post("/api/members/claim", json={"code": "x" * 24, "password": PASSWORD})
    assert (unknown.status_code, code_of(unknown)) == (404, "unknown_link")


@pytest.mark.parametrize(
    "password", ["123456789", "password123", "qwertyuiop", "besse-besse", "aaaaabbbbb"]
)
def test_a_weak_password_is_refused_and_the_link_still_works(club: Club, password: str) -> None:
    code = club.add("Besse")
    r = club.http.post("/api/members/claim", json={"code": code, "password": password})
    assert (r.status_code, code_of(r)) == (422, "weak_password")
    r = club.http.post("/api/members/claim", json={"code": code, "password": PASSWORD})
    assert r.status_code == 200


def test_a_password_of_the_shortest_length_is_taken(club: Club) -> None:
    code = club.add("Besse")
    short = club.http.post("/api/members/claim", json={"code": code, "password": "kp7-xq2-w"})
    assert code_of(short) == "weak_password"  # 9 characters
    r = club.http.post("/api/members/claim", json={"code": code, "password": "kp7-xq2-wz"})
    assert r.status_code == 200, r.text


def test_signing_in_and_out(club: Club) -> None:
    club.member("Besse")
    c = club.client()
    r = c.post("/api/session", json={"name": "besse", "password": "not-the-password"})
    assert (r.status_code, code_of(r)) == (401, "wrong_password")
    r = c.post("/api/session", json={"name": "Daeng", "password": PASSWORD})
    assert (r.status_code, code_of(r)) == (401, "unknown_member")
    r = c.post("/api/session", json={"name": "besse", "password": PASSWORD})
    assert r.status_code == 200 and r.json()["member"]["name"] == "Besse"
    token = c.cookies[COOKIE]
    assert c.get("/api/tables").status_code == 200
    assert c.delete("/api/session").status_code == 200
    stale = club.client()
    stale.cookies.set(COOKIE, token)
    r = stale.get("/api/tables")
    assert (r.status_code, code_of(r)) == (401, "not_signed_in")  # the session ended


def _set_cookie(r: httpx.Response) -> dict[str, str]:
    """The attributes of the response's ``Set-Cookie`` (lower case), and its value."""
    value, *rest = r.headers["set-cookie"].split("; ")
    return {"value": value} | {k.lower(): v for k, _, v in (a.partition("=") for a in rest)}


def test_the_cookie_lasts_as_the_session_does_and_signing_out_clears_it(club: Club) -> None:
    c = club.client()
    r = c.post("/api/members/claim", json={"code": club.add("Besse"), "password": PASSWORD})
    cookie = _set_cookie(r)
    assert cookie["max-age"] == str(30 * 24 * 3600)  # SESSION_DAYS, not the browser's life
    assert cookie["path"] == "/"  # the pages, the API and the WebSockets
    assert c.cookies.get(COOKIE)
    r = c.delete("/api/session")
    cookie = _set_cookie(r)
    assert cookie["value"] == f'{COOKIE}=""' and cookie["max-age"] == "0"
    assert cookie["path"] == "/"
    assert c.cookies.get(COOKIE) is None


def test_a_member_without_a_password_yet_is_told_to_open_their_link(club: Club) -> None:
    club.add("Besse")
    r = club.http.post("/api/session", json={"name": "Besse", "password": PASSWORD})
    assert (r.status_code, code_of(r)) == (401, "not_claimed")


# -- 3. attacks ------------------------------------------------------------------------


def test_guesses_at_one_account_are_throttled(club: Club) -> None:
    club.member("Besse")
    c = club.client()
    for _ in range(ACCOUNT_FREE + 1):  # the free ones, and the one that locks
        r = c.post("/api/session", json={"name": "Besse", "password": "wrong-guess-1"})
        assert code_of(r) == "wrong_password"
    r = c.post("/api/session", json={"name": "Besse", "password": PASSWORD})
    assert (r.status_code, code_of(r)) == (429, "too_many_guesses")
    assert int(r.headers["Retry-After"]) >= 1
    assert c.get("/api/tables").status_code == 401  # not signed in


def test_the_last_free_guess_is_answered(club: Club) -> None:
    club.member("Besse")
    c = club.client()
    for _ in range(ACCOUNT_FREE):
        c.post("/api/session", json={"name": "Besse", "password": "wrong-guess-1"})
    r = c.post("/api/session", json={"name": "Besse", "password": PASSWORD})
    assert r.status_code == 200, r.text


def test_guesses_from_one_address_are_throttled(club: Club) -> None:
    club.member("Besse")
    for n in range(ADDRESS_FREE + 1):
        r = club.http.post("/api/session", json={"name": f"Nobody {n}", "password": "x" * 10})
        assert code_of(r) == "unknown_member"
    r = club.http.post("/api/session", json={"name": "Besse", "password": PASSWORD})
    assert (r.status_code, code_of(r)) == (429, "too_many_guesses")


def test_another_sites_page_changes_nothing_even_with_a_valid_cookie(club: Club) -> None:
    c = club.member("Besse")
    body = {"seats": [{"kind": "person", "name": "Ann"}, *COMPUTERS]}
    for site in ("cross-site", "same-site"):
        r = c.post("/api/tables", json=body, headers={"Sec-Fetch-Site": site})
        assert (r.status_code, code_of(r)) == (403, "cross_site")
    r = c.post("/api/tables", json=body, headers={"Origin": "https://evil.example"})
    assert (r.status_code, code_of(r)) == (403, "bad_origin")
    assert c.get("/api/tables").json()["tables"] == []
    r = c.post("/api/tables", json=body, headers={"Sec-Fetch-Site": "same-origin"})
    assert r.status_code == 201


def test_a_member_acting_as_admin_is_refused(club: Club) -> None:
    c = club.member("Besse")
    for method, path, body in (
        ("GET", "/api/members", None),
        ("POST", "/api/members", {"name": "Daeng"}),
        ("GET", "/api/audit", None),
        ("GET", "/api/reports", None),
    ):
        r = c.request(method, path, json=body)
        assert (r.status_code, code_of(r)) == (403, "not_admin"), path
    assert club.client().get("/api/session").json()["member"] is None


def test_a_profile_is_picked_by_its_member_only_and_nobody_signs_up(club: Club) -> None:
    besse = club.member("Besse")
    daeng = club.member("Daeng")
    mine = besse.get("/api/session").json()["member"]["id"]
    theirs = daeng.get("/api/session").json()["member"]["id"]
    assert besse.post(f"/api/profiles/{mine}/pick").status_code == 200
    r = besse.post(f"/api/profiles/{theirs}/pick")
    assert (r.status_code, code_of(r)) == (403, "not_your_profile")
    r = besse.post("/api/profiles", json={"name": "Another"})
    assert (r.status_code, code_of(r)) == (403, "signup_closed")
    # a profile's token from elsewhere (a home's) does not count a seat for another
    theirs_token = daeng.post(f"/api/profiles/{theirs}/pick").json()["token"]
    t = besse.post(
        "/api/tables", json={"seats": [{"kind": "person", "open": True}, *COMPUTERS]}
    ).json()
    r = besse.post(f"/api/tables/{t['id']}/seats/0", json={"name": "B", "profile": theirs_token})
    assert (r.status_code, code_of(r)) == (403, "not_your_profile")
    mine_token = besse.post(f"/api/profiles/{mine}/pick").json()["token"]
    r = besse.post(f"/api/tables/{t['id']}/seats/0", json={"name": "B", "profile": mine_token})
    assert r.status_code == 201, r.text


def test_a_guest_plays_at_its_one_table_only(club: Club) -> None:
    admin = club.member("Ani", ADMIN)
    table = new_table(admin)
    other = new_table(admin)
    r = admin.post("/api/guests", json={"name": "Tamu", "table": table["id"]})
    assert r.status_code == 201, r.text
    code = r.json()["link"].split("?guest=")[1]
    guest = club.client()
    r = guest.post("/api/members/claim", json={"code": code})
    assert r.status_code == 200 and r.json()["member"]["role"] == GUEST
    assert guest.get(f"/api/tables/{table['id']}").status_code == 200
    for path in ("/api/tables", f"/api/tables/{other['id']}", "/api/leaderboard"):
        r = guest.get(path)
        assert (r.status_code, code_of(r)) == (403, "guest_outside_table"), path
    with pytest.raises(InvalidStatus):
        connect(
            f"{club.ws_base}/ws/tables/{other['id']}",
            open_timeout=TIMEOUT,
            additional_headers={"Cookie": f"{COOKIE}={guest.cookies[COOKIE]}"},
        ).close()
    r = guest.post("/api/session", json={"name": "Tamu", "password": PASSWORD})
    assert code_of(r) == "unknown_member"  # a guest has no password to sign in with


# -- 2. roles and moderation -----------------------------------------------------------


def test_an_admin_adds_resets_and_suspends_and_the_audit_log_says_so(club: Club) -> None:
    admin = club.member("Ani", ADMIN)
    r = admin.post("/api/members", json={"name": "Daeng"})
    assert r.status_code == 201, r.text
    daeng_id, first = r.json()["id"], r.json()["link"].split("claim=")[1]
    r = admin.post(f"/api/members/{daeng_id}/link")
    second = r.json()["link"].split("claim=")[1]
    old = club.http.post("/api/members/claim", json={"code": first, "password": PASSWORD})
    assert code_of(old) == "spent_link"  # the new link replaced it
    daeng = club.client()
    r = daeng.post("/api/members/claim", json={"code": second, "password": PASSWORD})
    assert r.status_code == 200
    r = admin.post(f"/api/members/{daeng_id}/suspend", json={"suspended": True})
    assert r.status_code == 200 and r.json()["suspended"]
    r = daeng.get("/api/tables")
    assert r.status_code == 401  # the session ended at once
    r = club.http.post("/api/session", json={"name": "Daeng", "password": PASSWORD})
    assert (r.status_code, code_of(r)) == (403, "member_suspended")
    r = admin.post(f"/api/members/{daeng_id}/suspend", json={"suspended": False})
    r = club.http.post("/api/session", json={"name": "Daeng", "password": PASSWORD})
    assert r.status_code == 200
    actions = [
        (e["action"], e["target"], e["actor"]) for e in admin.get("/api/audit").json()["audit"]
    ]
    assert actions == [
        ("restore", "Daeng", "Ani"),
        ("suspend", "Daeng", "Ani"),
        ("link", "Daeng", "Ani"),
        ("add", "Daeng", "Ani"),
        ("add", "Ani", "owner"),
    ]


def test_a_suspended_members_session_is_refused(club: Club) -> None:
    c = club.member("Daeng")
    s = SQLiteStorage(club.db)
    try:
        m = s.member(name="Daeng")
        assert m is not None
        m.suspended = True  # as another process of the club would
        s.save_member(m)
    finally:
        s.close()
    r = c.get("/api/tables")
    assert (r.status_code, code_of(r)) == (403, "member_suspended")


def test_an_admin_acts_on_those_below_only(club: Club) -> None:
    club.add("Owner", OWNER)
    admin = club.member("Ani", ADMIN)
    club.member("Bau", ADMIN)
    members = {m["name"]: m["id"] for m in admin.get("/api/members").json()["members"]}
    for name in ("Owner", "Bau", "Ani"):
        r = admin.post(f"/api/members/{members[name]}/suspend", json={"suspended": True})
        assert (r.status_code, code_of(r)) == (403, "outranked"), name
    r = admin.post("/api/members", json={"name": "Cici", "role": "admin"})
    assert (r.status_code, code_of(r)) == (403, "outranked")
    r = admin.delete(f"/api/members/{members['Owner']}")
    assert code_of(r) == "outranked"


def test_report_hide_mute_and_suspend_at_a_table(club: Club) -> None:
    admin = club.member("Ani", ADMIN)
    besse = club.member("Besse")
    me = besse.get("/api/session").json()["member"]["id"]
    profile = besse.post(f"/api/profiles/{me}/pick").json()["token"]
    r = besse.post(
        "/api/tables",
        json={"seats": [{"kind": "person", "name": "Besse", "profile": profile}, *COMPUTERS]},
    )
    assert r.status_code == 201, r.text
    t, token = r.json()["id"], r.json()["tokens"]["0"]
    headers = {"Cookie": f"{COOKIE}={besse.cookies[COOKIE]}"}
    with contextlib.ExitStack() as stack:
        ws = stack.enter_context(
            connect(f"{club.ws_base}/ws/tables/{t}", open_timeout=TIMEOUT,
                    additional_headers=headers, ping_interval=None)
        )  # fmt: skip

        def until(kind: str) -> Json:
            while True:
                m: Json = json.loads(ws.recv(timeout=TIMEOUT))
                if m["type"] in (kind, "error"):
                    return m

        ws.send(json.dumps({"type": "hello", "token": token}))
        until("state")
        ws.send(json.dumps({"type": "chat", "text": "rude words"}))
        said = until("chat")
        assert said["text"] == "rude words"
        r = admin.post(f"/api/tables/{t}/chat/report", json={"at": said["at"]})
        assert r.status_code == 201
        again = admin.post(f"/api/tables/{t}/chat/report", json={"at": said["at"]})
        assert code_of(again) == "already_reported"
        nothing = admin.post(f"/api/tables/{t}/chat/report", json={"at": 1.0})
        assert code_of(nothing) == "unknown_message"
        reports = admin.get("/api/reports").json()["reports"]
        assert [(x["name"], x["text"]) for x in reports] == [("Besse", "rude words")]
        r = besse.post(f"/api/tables/{t}/chat/hide", json={"at": said["at"]})
        assert code_of(r) == "not_admin"
        r = admin.post(f"/api/tables/{t}/chat/hide", json={"at": said["at"]})
        assert r.status_code == 200
        assert until("chat_hidden") == {"type": "chat_hidden", "at": said["at"]}
        assert admin.get("/api/reports").json()["reports"] == []
        ws.send(json.dumps({"type": "sync"}))
        assert until("state")["chat"] == []
        r = admin.post(f"/api/members/{me}/mute", json={"minutes": 10})
        assert r.status_code == 200
        ws.send(json.dumps({"type": "chat", "text": "more"}))
        assert until("chat")["code"] == "muted"
        r = admin.post(f"/api/members/{me}/suspend", json={"suspended": True})
        assert r.status_code == 200
        with pytest.raises(ConnectionClosed):
            while True:
                ws.recv(timeout=TIMEOUT)
    seat = admin.get(f"/api/tables/{t}").json()["seats"][0]
    assert seat["name"] == "Seat 0"  # the stand-in plays it now


def test_the_leaderboard_counts_members_and_shows_computers_apart(club: Club) -> None:
    c = club.member("Besse")
    s = SQLiteStorage(club.db)
    try:
        from domeng.storage import PERSON, Figures, StoredProfile

        s.create_profile(
            StoredProfile("p-home", "Home", "en", "blue", PERSON, "tok", 1.0, Figures(40.0, 1.0, 9))
        )
    finally:
        s.close()
    players = c.get("/api/leaderboard").json()["players"]
    assert "Home" not in [p["name"] for p in players]
    assert {p["kind"] for p in players} == {"computer"}  # Besse has played no game yet
    assert [p["place"] for p in players] == list(range(1, len(players) + 1))


def test_sign_up_is_off_until_an_admin_opens_it(club: Club) -> None:
    admin = club.member("Ani", ADMIN)
    member = club.member("Besse")
    body = {"name": "Cici", "password": PASSWORD}
    r = club.http.post("/api/members/signup", json=body)
    assert (r.status_code, code_of(r)) == (403, "signup_closed")
    r = member.post("/api/club/signup", json={"open": True})
    assert (r.status_code, code_of(r)) == (403, "not_admin")
    assert admin.post("/api/club/signup", json={"open": True}).status_code == 200
    assert club.http.get("/api/session").json()["signup"] is True
    weak = club.http.post(
        "/api/members/signup", json={"name": "Cici", "password": "cici-cici-cici"}
    )
    assert (weak.status_code, code_of(weak)) == (422, "weak_password")
    newcomer = club.client()
    r = newcomer.post("/api/members/signup", json=body)
    assert r.status_code == 201, r.text
    assert r.json()["member"]["role"] == MEMBER
    assert newcomer.get("/api/tables").status_code == 200  # signed in at once
    again = club.client().post("/api/members/signup", json={**body, "name": "CICI"})
    assert (again.status_code, code_of(again)) == (409, "name_taken")
    assert admin.post("/api/club/signup", json={"open": False}).status_code == 200
    r = club.http.post("/api/members/signup", json={"name": "Dodi", "password": PASSWORD})
    assert code_of(r) == "signup_closed"
    actions = [(e["action"], e["target"]) for e in admin.get("/api/audit").json()["audit"][:3]]
    assert actions == [("signup", "closed"), ("add", "Cici"), ("signup", "open")]


def test_behind_tls_the_cookie_is_secure(tmp_path: Path) -> None:
    """Behind a trusted proxy that says the request came over TLS."""
    import threading
    import time

    import uvicorn

    from domeng.server import create_app, protocols
    from domeng.server.limits import generous

    db = tmp_path / "club.sqlite3"
    s = SQLiteStorage(db)
    code = add_member(s, "Besse", MEMBER, 1_800_000_000.0).code
    s.close()
    app = create_app(SQLiteStorage(db), club=True, clock=FakeClock(), shares=generous())
    config = protocols.config(
        app, host="127.0.0.1", port=0, log_config=None, lifespan="on",
        trusted_proxies=("127.0.0.1",),
    )  # fmt: skip
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + TIMEOUT
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=TIMEOUT) as c:
            tls = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.9"}
            r = c.post("/api/members/claim", json={"code": code, "password": PASSWORD}, headers=tls)
            assert r.status_code == 200, r.text
            cookie = r.headers["set-cookie"].lower()
            assert "secure" in cookie and "httponly" in cookie and "samesite=strict" in cookie
    finally:
        server.should_exit = True
        thread.join(TIMEOUT)


def test_a_muted_member_is_muted_as_a_spectator_too(club: Club) -> None:
    admin = club.member("Ani", ADMIN)
    besse = club.member("Besse")
    me = besse.get("/api/session").json()["member"]["id"]
    table = new_table(admin, spectator_chat=True)
    headers = {"Cookie": f"{COOKIE}={besse.cookies[COOKIE]}"}
    with connect(
        f"{club.ws_base}/ws/tables/{table['id']}",
        open_timeout=TIMEOUT,
        additional_headers=headers,
        ping_interval=None,
    ) as ws:

        def until(kind: str) -> Json:
            while True:
                m: Json = json.loads(ws.recv(timeout=TIMEOUT))
                if m["type"] in (kind, "error"):
                    return m

        ws.send(json.dumps({"type": "hello"}))
        until("state")
        ws.send(json.dumps({"type": "chat", "text": "from the rail"}))
        assert until("chat")["text"] == "from the rail"
        assert admin.post(f"/api/members/{me}/mute", json={"minutes": 5}).status_code == 200
        ws.send(json.dumps({"type": "chat", "text": "more"}))
        assert until("chat")["code"] == "muted"


@pytest.mark.parametrize(
    ("path", "body", "code"),
    [
        ("/api/session", {"name": "", "password": PASSWORD}, "bad_name"),
        ("/api/session", {"name": "Ani", "password": "x" * 201}, "bad_password"),
        ("/api/members/claim", {"code": "", "password": PASSWORD}, "bad_code"),
        ("/api/members", {"name": "Cici", "role": "owner"}, "bad_role"),
        ("/api/guests", {"name": "Tamu", "table": ""}, "bad_table"),
        ("/api/members/{me}/mute", {"minutes": 7 * 24 * 60 + 1}, "bad_field"),
    ],
)
def test_a_bad_field_is_refused_by_its_code(club: Club, path: str, body: Json, code: str) -> None:
    admin = club.member("Ani", ADMIN)
    me = admin.get("/api/session").json()["member"]["id"]
    r = admin.post(path.replace("{me}", me), json=body)
    assert (r.status_code, code_of(r)) == (422, code), r.text
    assert "xxxx" not in r.text  # a password is never said back


def seat_profiles(club: Club, table_id: str) -> list[str | None]:
    """The profile each seat of a table counts for, as stored."""
    s = SQLiteStorage(club.db)
    try:
        stored = s.load_table(table_id)
        assert stored is not None
        return [st.profile for st in stored.seats]
    finally:
        s.close()


def test_a_suspension_passes_every_seat_of_the_member_to_the_stand_in_at_once(
    club: Club,
) -> None:
    admin = club.member("Ani", ADMIN)
    besse = club.member("Besse")
    me = besse.get("/api/session").json()["member"]["id"]
    seats = [{"kind": "person", "open": True}, {"kind": "person", "open": True}, *COMPUTERS[:3]]
    t = admin.post("/api/tables", json={"seats": seats}).json()["id"]
    r = besse.post(f"/api/tables/{t}/seats/1", json={"name": "Besse"})  # no profile said
    assert r.status_code == 201, r.text
    # made by Besse: her seat named without a profile, and her little brother's beside it
    # (his seat counts for no profile, but its token was handed to her)
    two = [{"kind": "person", "name": "Besse"}, {"kind": "person", "name": "Adik"}]
    made = besse.post("/api/tables", json={"seats": [*two, *COMPUTERS[:3]]}).json()["id"]
    assert seat_profiles(club, t)[1] == me and seat_profiles(club, made)[:2] == [me, None]
    r = admin.post(f"/api/members/{me}/suspend", json={"suspended": True})
    assert r.status_code == 200
    assert admin.get(f"/api/tables/{t}").json()["seats"][1]["name"] == "Seat 1"
    names = [x["name"] for x in admin.get(f"/api/tables/{made}").json()["seats"][:2]]
    assert names == ["Seat 0", "Seat 1"]


@dataclass
class SeatedGuest:
    """A guest invited by an admin to a new table, seated at its seat 0."""

    admin: httpx.Client
    table: str
    guest_id: str
    guest: httpx.Client
    token: str
    """The seat's token."""


def seated_guest(club: Club) -> SeatedGuest:
    """The admin Ani makes a table of one open seat and four computers and invites the
    guest Tamu to it, who claims the invitation and takes seat 0."""
    admin = club.member("Ani", ADMIN)
    seats = [{"kind": "person", "open": True}, *COMPUTERS]
    t = admin.post("/api/tables", json={"seats": seats}).json()["id"]
    r = admin.post("/api/guests", json={"name": "Tamu", "table": t})
    guest_id, code = r.json()["id"], r.json()["link"].split("?guest=")[1]
    guest = club.client()
    assert guest.post("/api/members/claim", json={"code": code}).status_code == 200
    r = guest.post(f"/api/tables/{t}/seats/0", json={"name": "Tamu"})
    assert r.status_code == 201, r.text
    return SeatedGuest(admin, t, guest_id, guest, r.json()["token"])


def test_a_suspended_guests_seat_passes_to_the_stand_in_at_once(club: Club) -> None:
    seated = seated_guest(club)
    admin, t, guest_id = seated.admin, seated.table, seated.guest_id
    assert seat_profiles(club, t)[0] is None  # a guest counts for no profile
    r = admin.post(f"/api/members/{guest_id}/suspend", json={"suspended": True})
    assert r.status_code == 200
    assert admin.get(f"/api/tables/{t}").json()["seats"][0]["name"] == "Seat 0"


def test_a_guests_seat_outlives_a_restart_and_a_suspension_after_it_passes_it_on(
    tmp_path: Path,
) -> None:
    """The seat a guest was handed is kept with the seat in the storage, not in the
    service's memory: after a restart the guest plays it on, and a suspension then
    passes it to the stand-in at once (before, a restart forgot whose it was)."""
    db = tmp_path / "club.sqlite3"
    faults = ServiceFaults()
    logging.getLogger().addHandler(faults)
    server, thread, base = start_service(db, club=True, clock=FakeClock(), watched=faults)
    first = Club(base, db)
    try:
        seated = seated_guest(first)
        admin, t, guest_id = seated.admin, seated.table, seated.guest_id
        guest, token = seated.guest, seated.token
    finally:
        server.should_exit = True
        thread.join(TIMEOUT)
    server, thread, base = start_service(
        db, club=True, clock=FakeClock(), watched=faults
    )  # started anew
    again = Club(base, db)
    try:
        for browser in (admin, guest):  # the same browsers, their cookies kept
            browser.base_url = httpx.URL(base)
        headers = {"Cookie": f"{COOKIE}={guest.cookies[COOKIE]}"}
        with connect(
            f"{again.ws_base}/ws/tables/{t}", open_timeout=TIMEOUT,
            additional_headers=headers, ping_interval=None,
        ) as ws:  # fmt: skip
            ws.send(json.dumps({"type": "hello", "token": token}))
            while (m := json.loads(ws.recv(timeout=TIMEOUT)))["type"] not in ("state", "error"):
                pass
            assert m["type"] == "state" and m["view"]["seat"] == 0  # still the guest's seat
            r = admin.post(f"/api/members/{guest_id}/suspend", json={"suspended": True})
            assert r.status_code == 200
            with pytest.raises(ConnectionClosed):
                while True:
                    ws.recv(timeout=TIMEOUT)
        seat = admin.get(f"/api/tables/{t}").json()["seats"][0]
        assert seat["name"] == "Seat 0"  # the stand-in plays it now
        s = SQLiteStorage(db)
        try:
            stored = s.load_table(t)
            assert stored is not None and stored.seats[0].member is None
            assert stored.seats[0].token_hash is None
        finally:
            s.close()
    finally:
        for client in [first.http, again.http, *first.clients]:
            client.close()
        server.should_exit = True
        thread.join(TIMEOUT)
        logging.getLogger().removeHandler(faults)
    assert not faults.faults, faults.faults


def test_in_a_club_the_admins_direct_tournaments_of_members(club: Club) -> None:
    admin = club.member("Ani", ADMIN)
    besse = club.member("Besse")
    me = besse.get("/api/session").json()["member"]["id"]
    plain = new_table(admin)
    assert "tournament" not in plain["links"]  # only a tournament's table links to it
    guest = admin.post("/api/guests", json={"name": "Tamu", "table": plain["id"]})
    bot = {"kind": "computer", "level": "random"}
    body: Json = {"name": "Malam", "rounds": 1, "deals": 1, "table": {"pace_ms": 0}}
    body["entrants"] = [{"kind": "person", "profile_id": me}, bot]
    r = besse.post("/api/tournaments", json=body)
    assert (r.status_code, code_of(r)) == (403, "not_admin")
    for pid in (guest.json()["id"], "p-nobody"):  # a guest is no member to enter
        wrong = {**body, "entrants": [{"kind": "person", "profile_id": pid}]}
        r = admin.post("/api/tournaments", json=wrong)
        assert (r.status_code, code_of(r)) == (404, "unknown_member"), pid
    r = admin.post("/api/tournaments", json=body)
    assert r.status_code == 201, r.text
    tid, director, mine = r.json()["id"], r.json()["director_token"], r.json()["entrant_tokens"]
    assert r.json()["entrants"][0]["name"] == "Besse" and list(mine) == ["e1"]
    r = besse.post(f"/api/tournaments/{tid}/next", json={"token": director})
    assert (r.status_code, code_of(r)) == (403, "not_admin")  # a member, even with the token
    other = club.member("Bau", ADMIN)  # any admin directs, without a token
    assert other.get(f"/api/tournaments/{tid}").json()["entrant_tokens"] == mine
    assert "entrant_tokens" not in besse.get(f"/api/tournaments/{tid}").json()  # admins only
    r = other.post(f"/api/tournaments/{tid}/next", json={})
    assert r.status_code == 200, r.text
    table = r.json()["rounds"][0]["tables"][0]["id"]
    assert me in seat_profiles(club, table)  # her games count for her account
    links = admin.get(f"/api/tables/{table}").json()["links"]
    assert links["tournament"] == f"/#/tournament/{tid}"
