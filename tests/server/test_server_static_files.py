"""The page's files and the JSON answers on a phone's data: compressed when the client
asks for gzip, kept by the browser for as long as they are the same (a version in
their addresses), asked again otherwise, ``304`` when unchanged (server/webfiles.py)."""

from __future__ import annotations

import gzip
import json
import mimetypes
import re
import threading
import zlib
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette
from starlette.middleware import gzip as gzip_middleware
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Mount, Route

from domeng.server import webfiles
from domeng.server.app import WEB_DIR
from domeng.server.webfiles import (
    COMPRESS_FROM,
    IMMUTABLE,
    REVALIDATE,
    WebFiles,
    compressed,
)

from .conftest import run_apart

GZIP = {"accept-encoding": "gzip"}
PLAIN = {"accept-encoding": "identity"}
PREFIX = re.compile(r'src="(/web/v/([0-9a-f]+)/)js/main\.js"')


def versioned(page: str) -> tuple[str, str]:
    """The versioned folder of a start page's addresses, and its version."""
    found = PREFIX.search(page)
    assert found, page
    return found.group(1), found.group(2)


def raw(response: httpx.Response) -> bytes:
    """The bytes as sent (httpx decodes gzip when it reads; the stream is not)."""
    return b"".join(response.iter_raw())


# -- the real service: its page, its files, its JSON ---------------------------------------


def test_text_is_gzipped_when_asked_and_only_then(service: Any) -> None:
    http: httpx.Client = service.http
    prefix, _ = versioned(http.get("/").text)
    for path in ("/", f"{prefix}js/table.js", f"{prefix}style.css", "/web/i18n/en.json"):
        with http.stream("GET", path, headers=GZIP) as packed:
            body = raw(packed)
        plain = http.get(path, headers=PLAIN)
        assert packed.headers["content-encoding"] == "gzip", path
        assert "content-encoding" not in plain.headers, path
        for r in (packed, plain):
            assert r.status_code == 200
            assert "accept-encoding" in r.headers["vary"].lower(), path
        assert gzip.decompress(body) == plain.content
        assert len(body) < len(plain.content) / 2, path  # text shrinks to well under half
    # a JSON answer of the API above the threshold, too
    with http.stream("GET", "/api/protocol.schema.json", headers=GZIP) as schema:
        body = raw(schema)
    assert schema.headers["content-encoding"] == "gzip"
    assert json.loads(gzip.decompress(body)) == http.get("/api/protocol.schema.json").json()


def test_the_devanagari_font_is_sent_as_it_is_and_kept(service: Any) -> None:
    """The font is a woff2, compressed already: gzip would only make it longer."""
    http: httpx.Client = service.http
    prefix, _ = versioned(http.get("/").text)
    shipped = (WEB_DIR / "fonts" / "Lohit-Devanagari.woff2").read_bytes()
    with http.stream("GET", f"{prefix}fonts/Lohit-Devanagari.woff2", headers=GZIP) as font:
        body = raw(font)
    assert font.status_code == 200 and body == shipped and len(body) > COMPRESS_FROM
    assert font.headers["content-type"] == "font/woff2"
    assert "content-encoding" not in font.headers
    assert font.headers["cache-control"] == IMMUTABLE
    # the style sheet names it relative to itself, so under the same version
    style = http.get(f"{prefix}style.css").text
    assert 'url("fonts/Lohit-Devanagari.woff2") format("woff2")' in style


def test_a_short_answer_is_sent_as_it_is(service: Any) -> None:
    info = service.http.get("/api/tables/nothere", headers=GZIP)
    assert info.status_code == 404 and len(info.content) < COMPRESS_FROM
    assert "content-encoding" not in info.headers


def test_a_part_of_a_file_is_sent_as_it_is(service: Any) -> None:
    part = service.http.get("/web/js/table.js", headers={**GZIP, "range": "bytes=0-1999"})
    assert part.status_code == 206 and "content-encoding" not in part.headers
    assert part.content == (WEB_DIR / "js" / "table.js").read_bytes()[:2000]


def test_versioned_files_are_immutable_and_the_rest_revalidated(service: Any) -> None:
    http: httpx.Client = service.http
    page = http.get("/")
    prefix, version = versioned(page.text)
    assert page.headers["cache-control"] == REVALIDATE and page.headers["etag"]
    pinned = http.get(f"{prefix}js/table.js")
    plain = http.get("/web/js/table.js")
    other = http.get(f"/web/v/{'0' * len(version)}/js/table.js")  # not this release's
    assert pinned.headers["cache-control"] == IMMUTABLE == "public, max-age=31536000, immutable"
    assert plain.headers["cache-control"] == other.headers["cache-control"] == "no-cache"
    assert pinned.content == plain.content == other.content
    assert http.get(f"{prefix}js/nothere.js").status_code == 404
    assert "cache-control" not in http.get(f"{prefix}js/nothere.js").headers


def test_an_unchanged_file_or_page_is_answered_304(service: Any) -> None:
    http: httpx.Client = service.http
    prefix, _ = versioned(http.get("/").text)
    for path in ("/", "/web/js/table.js", f"{prefix}style.css"):
        first = http.get(path, headers=GZIP)
        tag = first.headers["etag"]
        again = http.get(path, headers={**GZIP, "if-none-match": f'"other", {tag}'})
        assert again.status_code == 304, path
        assert again.content == b""
        assert again.headers["etag"] == tag
        assert again.headers["cache-control"] == first.headers["cache-control"]
        assert again.headers["vary"] == "Accept-Encoding"
        changed = http.get(path, headers={**GZIP, "if-none-match": '"other"'})
        assert changed.status_code == 200 and changed.content == first.content, path


def test_the_start_page_points_at_this_release(service: Any) -> None:
    page = service.http.get("/").text
    prefix, _ = versioned(page)
    assert 'href="/web/' not in page.replace(f'href="{prefix}', "")
    assert f'<link rel="stylesheet" href="{prefix}style.css">' in page
    # the map for absolute imports: to the same modules, with the version
    imports = re.search(r'<script type="importmap">(.*?)</script>', page)
    assert imports and json.loads(imports.group(1)) == {"imports": {"/web/js/": f"{prefix}js/"}}
    assert page.index("importmap") < page.index('<script type="module"')
    # the service's info asked for with the page, not after its modules
    assert '<link rel="preload" href="/api" as="fetch" crossorigin>' in page
    # the language file is asked relative to the module, so with the same version
    assert "new URL(`../i18n/" in (WEB_DIR / "js" / "language.js").read_text()
    # the module that asks for it runs on its own, at once
    assert f'<script type="module" async src="{prefix}js/language.js">' in page


def test_a_replay_streamed_from_a_file_is_compressed_piece_by_piece(service: Any) -> None:
    from .test_server_replays import long_record

    record = json.dumps(long_record(120))
    headers = {"content-type": "application/json", **GZIP}
    # 120 rounds replayed by the worker: more than the usual 10 s on a busy machine
    stream = service.http.stream("POST", "/api/replay", content=record, headers=headers, timeout=60)
    with stream as r:
        body = raw(r)
    assert r.status_code == 200 and r.headers["content-encoding"] == "gzip"
    assert "content-length" not in r.headers  # sent as it is compressed
    assert json.loads(gzip.decompress(body))["round_count"] == 120


# -- WebFiles on a folder of its own: a new release --------------------------------------


class Client:
    """GET on an ASGI application, in a loop of its own (httpx's ASGI transport)."""

    def __init__(self, app: Starlette) -> None:
        self.app = app

    def get(self, path: str, headers: dict[str, str] | None = None) -> httpx.Response:
        async def get() -> httpx.Response:
            transport = httpx.ASGITransport(app=self.app)
            async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
                return await c.get(path, headers=headers)

        return run_apart(get)


def write(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")


INDEX = """<!doctype html><html><head>
<link rel="stylesheet" href="/web/style.css">
<script type="module" src="/web/js/main.js"></script>
</head><body><img src="/web/logo.svg" alt=""></body></html>"""


@pytest.fixture
def site(tmp_path: Path) -> tuple[Path, WebFiles, Client]:
    write(
        tmp_path,
        {
            "index.html": INDEX,
            "style.css": "body { color: black; }\n" * 40,
            "logo.svg": "<svg/>",
            "js/main.js": 'import { b } from "./b.js";\nb();\n',
            "js/b.js": "export function b() {}\n",
        },
    )
    # files compressed already, long enough to be compressed were they text
    (tmp_path / "fonts").mkdir()
    (tmp_path / "fonts" / "face.woff2").write_bytes(b"wOF2" + b"\0" * 4000)
    (tmp_path / "photo.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 4000)
    web, client = serve(tmp_path)
    return tmp_path, web, client


def serve(folder: Path) -> tuple[WebFiles, Client]:
    """The files of ``folder`` served as the service serves web/, its start page and a
    streamed answer, behind the same compression."""
    web = WebFiles(folder)

    async def page(request: Request) -> Response:
        answer = web.start_page(request)
        assert answer is not None
        return answer

    async def stream(request: Request) -> Response:
        size = int(request.query_params.get("size", "50"))
        parts = [json.dumps({"n": i}).encode() * size for i in range(5)]

        async def pieces() -> Any:
            for p in parts:
                yield p

        loop = {"x-loop-thread": str(threading.get_ident())}  # where the loop runs
        return StreamingResponse(pieces(), media_type="application/json", headers=loop)

    app = Starlette(
        routes=[Route("/", page), Route("/stream", stream), Mount("/web", app=web)],
        middleware=[compressed()],
    )
    return web, Client(app)


def test_a_changed_file_makes_a_new_version_at_the_next_visit(
    site: tuple[Path, WebFiles, Client],
) -> None:
    folder, web, client = site
    old_prefix, old = versioned(client.get("/").text)
    assert client.get(f"{old_prefix}js/b.js").headers["cache-control"] == IMMUTABLE
    assert versioned(client.get("/").text)[1] == old  # nothing changed: the same
    write(folder, {"js/b.js": "export function b() { return 2; }\n"})
    new_prefix, new = versioned(client.get("/").text)
    assert new != old and web.version == new
    # the old release's address now gets today's file, to be asked for again
    stale = client.get(f"{old_prefix}js/b.js")
    assert "return 2" in stale.text and stale.headers["cache-control"] == REVALIDATE
    assert client.get(f"{new_prefix}js/b.js").headers["cache-control"] == IMMUTABLE
    # a file added is a change too
    write(folder, {"js/new.js": "export {};\n"})
    assert versioned(client.get("/").text)[1] not in (old, new)


def test_the_page_names_every_file_under_the_version(
    site: tuple[Path, WebFiles, Client],
) -> None:
    _, web, client = site
    page = client.get("/").text
    prefix = web.prefix()
    assert f'src="{prefix}logo.svg"' in page and f'href="{prefix}style.css"' in page
    assert f'src="{prefix}js/main.js"' in page and "/web/js/main.js" not in page
    assert page.index('<script type="importmap">') < page.index('<script type="module"')


def test_compression_of_files_streams_and_small_answers(
    site: tuple[Path, WebFiles, Client],
) -> None:
    _, _, client = site
    css = client.get("/web/style.css", headers=GZIP)
    assert css.headers["content-encoding"] == "gzip" and css.headers["vary"] == "Accept-Encoding"
    assert "content-encoding" not in client.get("/web/style.css", headers=PLAIN).headers
    small = client.get("/web/logo.svg", headers=GZIP)
    assert "content-encoding" not in small.headers
    streamed = client.get("/stream", headers=GZIP)
    assert streamed.headers["content-encoding"] == "gzip"
    assert streamed.text == "".join(json.dumps({"n": i}) * 50 for i in range(5))


def test_a_font_or_an_image_is_never_compressed(
    site: tuple[Path, WebFiles, Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Neither the files' own gzip nor the middleware's touch a woff2 font or a PNG, even
    on a system whose mimetypes know no font type (a slim container has no mime.types):
    Python's own table alone, then WebFiles told."""
    folder, _, _ = site
    for alone in (False, True):
        if alone:  # Python's own table only, as on a system without a mime.types
            monkeypatch.setattr(mimetypes, "_db", mimetypes.MimeTypes())
            assert mimetypes.guess_type("a.woff2")[0] is None
        _, client = serve(folder)
        font = client.get("/web/fonts/face.woff2", headers=GZIP)
        photo = client.get("/web/photo.png", headers=GZIP)
        assert font.headers["content-type"] == "font/woff2"
        assert photo.headers["content-type"] == "image/png"
        for answer in (font, photo):
            assert answer.status_code == 200 and len(answer.content) > 4000
            assert "content-encoding" not in answer.headers


def test_a_long_answers_pieces_are_compressed_off_the_event_loop(
    site: tuple[Path, WebFiles, Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A replay comes from its file in pieces of 64 KiB: gzip in a worker thread, so
    that the other tables do not wait for it (small answers stay on the loop)."""
    _, _, client = site
    where: list[tuple[int, int]] = []  # (thread, bytes) of each piece compressed
    real = zlib.compressobj

    class Watched:
        def __init__(self, *args: Any) -> None:
            self.inner = real(*args)

        def compress(self, data: bytes) -> bytes:
            where.append((threading.get_ident(), len(data)))
            return self.inner.compress(data)

        def flush(self, *mode: int) -> bytes:
            return self.inner.flush(*mode)

    monkeypatch.setattr(gzip_middleware.zlib, "compressobj", Watched)
    size = 65_536 // len(json.dumps({"n": 0}))  # pieces of 64 KiB, as FileResponse's
    streamed = client.get(f"/stream?size={size}", headers=GZIP)
    loop = int(streamed.headers["x-loop-thread"])
    assert streamed.headers["content-encoding"] == "gzip"
    big = [thread for thread, n in where if n >= 65_536]
    assert len(big) == 5 and loop not in big
    where.clear()
    small = client.get("/stream?size=50", headers=GZIP)  # 250 bytes a piece: on the loop
    assert small.headers["content-encoding"] == "gzip"
    assert {thread for thread, _ in where} == {int(small.headers["x-loop-thread"])}


def test_a_file_is_compressed_once_per_version_and_sent_whole(
    site: tuple[Path, WebFiles, Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder, _, client = site
    made: list[int] = []
    real = webfiles.gzip.compress

    def counted(data: bytes, **options: Any) -> bytes:
        made.append(len(data))
        return real(data, **options)

    monkeypatch.setattr(webfiles.gzip, "compress", counted)
    for _ in range(2):
        css = client.get("/web/style.css", headers=GZIP)
        assert css.headers["content-encoding"] == "gzip"
        assert int(css.headers["content-length"]) < len(css.content)  # sent whole, packed
    assert made == [len((folder / "style.css").read_bytes())]
    write(folder, {"style.css": "body { color: red; }\n" * 40})
    assert "red" in client.get("/web/style.css", headers=GZIP).text and len(made) == 2
    # a part of it is sent as it is
    part = client.get("/web/style.css", headers={**GZIP, "range": "bytes=0-9"})
    assert part.status_code == 206 and "content-encoding" not in part.headers


def test_every_block_of_the_style_sheet_is_closed() -> None:
    """A block left open (a ``@media`` without its ``}``) takes in every rule after it, as
    the browser closes it only at the end of the sheet: the tournaments' styles applied
    only on a narrow screen so, and the players' ones once joined to the sheet."""
    depth = 0
    text = re.sub(r"/\*.*?\*/", "", (WEB_DIR / "style.css").read_text(), flags=re.S)
    for number, line in enumerate(text.splitlines(), 1):
        for char in line:
            depth += {"{": 1, "}": -1}.get(char, 0)
            assert depth >= 0, f"style.css line {number}: a }} closes nothing"
    assert depth == 0, "style.css: a block is never closed"
