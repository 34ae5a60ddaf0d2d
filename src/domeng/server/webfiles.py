"""The browser table's files, cached by browsers for as long as they are the same.

The page has no build step (plain ES modules, ``web/js``), so the service gives its
files addresses that change with their content:

- ``/web/v/<version>/<path>``: the file, where ``<version>`` is a hash of the content
  of every file under ``web/``; sent with ``Cache-Control: public, max-age=31536000,
  immutable``: a browser keeps it and never asks again. Asked with another version (a
  page of an earlier release still open, or a made-up one), the file of today is sent,
  revalidated, never to be kept as immutable.
- ``/web/<path>``: the same file, sent with ``Cache-Control: no-cache`` and its ETag: a
  browser asks each time and gets ``304 Not Modified`` while it is unchanged.
- ``/``: ``index.html`` with its ``/web/`` addresses made ``/web/v/<version>/``
  (:meth:`WebFiles.start_page`), sent with ``no-cache`` and an ETag of its bytes, so a
  new release is seen at the next visit. Everything the page loads then carries the
  version without being rewritten: a module imports another by a relative address
  (``./api.js``), which the browser resolves against the importing module's own
  address; the style sheet names its font relative to itself; ``language.js`` asks for
  a language file relative to ``import.meta.url``. An import map sends an absolute
  ``/web/js/...`` import to the same versioned modules (one instance of each module).

No ``<link rel="modulepreload">``: over HTTP/1.1 (uvicorn's), six connections at a time,
the thirty modules asked for at once came no sooner than by their imports, and held
back the first drawing (Lighthouse: the start page's First Contentful Paint 1.8 s with
them, 1.6 s without; its Largest Contentful Paint the same).

The version is worked out when the service starts and again when a file under ``web/``
has changed (its size or time), which the start page checks on each visit: editing a
file while the service runs shows at the next reload, as a release does.

Compression: a text file (HTML, CSS, JavaScript, JSON, SVG) asked for with
``Accept-Encoding: gzip`` is sent gzipped whole, with its length, compressed once
(level 9) per version of the file and kept in memory (:meth:`WebFiles.file_response`);
a part of a file (``Range``) is sent as it is, and so is a file compressed already (the
Devanagari font, a woff2; an image other than SVG). Everything else the service answers
(the JSON of the API, a long replay streamed from its file) is compressed by Starlette's
``GZipMiddleware``, which :func:`compressed` wraps the whole application in (it too
leaves woff2 fonts and images as they are).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import mimetypes
import os
import re
from os import PathLike
from pathlib import Path

from starlette.datastructures import Headers
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

IMMUTABLE = "public, max-age=31536000, immutable"
"""The cache policy of a file asked for with the current version."""
REVALIDATE = "no-cache"
"""The cache policy of everything else: kept, but asked again (an ETag) before each use."""
VERSIONED = "v"
"""``/web/v/<version>/<path>``: the folder a version is named under."""
COMPRESS_FROM = 500
"""Answers of fewer bytes are sent as they are: gzip would save less than a packet."""
COMPRESS_LEVEL = 6
"""gzip's level: within a few per cent of level 9's size at a fraction of its time."""
COMPRESS_IN_THREAD_FROM = 16_384
"""A piece of an answer this long or longer is compressed in a worker thread (zlib lets
go of the GIL), not on the event loop: a long replay comes from its file in pieces of
64 KiB, a few milliseconds of gzip each, which the other tables would wait for."""


def compressed() -> Middleware:
    """gzip for every HTTP answer of :data:`COMPRESS_FROM` bytes or more whose client
    asks for it (``Accept-Encoding: gzip``), with ``Vary: Accept-Encoding``; streamed
    answers (a long replay) are compressed a piece at a time, in a worker thread from
    :data:`COMPRESS_IN_THREAD_FROM` bytes; a part of a file (``Range``, ``206``) is sent
    as it is. WebSockets are left alone (they have permessage-deflate, :mod:`.frames`).
    Starlette 1.5 or later (pyproject.toml): before, a streamed answer was not flushed
    piece by piece and a ``206`` was compressed."""
    return Middleware(
        GZipMiddleware,
        minimum_size=COMPRESS_FROM,
        compresslevel=COMPRESS_LEVEL,
        thread_minimum_size=COMPRESS_IN_THREAD_FROM,
    )


FONT_TYPES = {".woff2": "font/woff2", ".ttf": "font/ttf"}
"""The fonts' types, told to :mod:`mimetypes` (which the file's answer is typed by):
Python's own table (3.11) has neither, so on a system without a mime.types naming them
(a slim container) a font went out as application/octet-stream, and the middleware
compressed it."""


def _compressible(media_type: str) -> bool:
    """Text, which gzip shrinks; not what is compressed already (a woff2 font, an image
    other than SVG), which it would only make longer."""
    kind = media_type.split(";")[0].strip().lower()
    return kind.startswith("text/") or kind in (
        "application/javascript",
        "application/json",
        "image/svg+xml",
        "font/ttf",
    )


def _etag(data: bytes) -> str:
    return '"' + hashlib.sha256(data).hexdigest()[:32] + '"'


def _matches(etag: str, if_none_match: str) -> bool:
    if if_none_match.strip() == "*":
        return True
    return etag in (tag.strip().removeprefix("W/") for tag in if_none_match.split(","))


class WebFiles(StaticFiles):
    """``web/`` served under ``/web`` with the cache policy above (an ASGI app to
    mount), and the start page."""

    def __init__(self, directory: Path) -> None:
        super().__init__(directory=directory, check_dir=False)
        for suffix, kind in FONT_TYPES.items():
            mimetypes.add_type(kind, suffix)
        self.root = directory
        self._signature: tuple[tuple[str, int, int], ...] | None = None
        self._version = ""
        self._page: bytes | None = None
        self._packed: dict[tuple[str, int, int], bytes] = {}
        self.refresh()

    @property
    def version(self) -> str:
        """The current version: a hash of every file's path and content."""
        return self._version

    def _files(self) -> list[Path]:
        if not self.root.is_dir():
            return []
        return sorted(p for p in self.root.rglob("*") if p.is_file())

    def refresh(self) -> str:
        """Work the version out again if a file was added, removed or changed (its size
        or modification time) since; the version."""
        files = self._files()
        signature = tuple(
            (str(p.relative_to(self.root)), st.st_mtime_ns, st.st_size)
            for p in files
            for st in (p.stat(),)
        )
        if signature != self._signature:
            digest = hashlib.sha256()
            for p in files:
                digest.update(p.relative_to(self.root).as_posix().encode() + b"\0")
                digest.update(hashlib.sha256(p.read_bytes()).digest())
            self._version = digest.hexdigest()[:16]
            self._signature = signature
            self._page = None
        return self._version

    def prefix(self) -> str:
        """The address every file of this version is under."""
        return f"/web/{VERSIONED}/{self._version}/"

    # -- the start page --------------------------------------------------------------

    def page(self) -> bytes | None:
        """``index.html`` as the start page sends it (None when there is none): its
        ``/web/`` addresses with the version, and the import map."""
        self.refresh()
        if self._page is None:
            index = self.root / "index.html"
            if not index.is_file():
                return None
            self._page = self._rewrite(index.read_text(encoding="utf-8")).encode()
        return self._page

    def _rewrite(self, text: str) -> str:
        prefix = self.prefix()
        text = re.sub(r"""(\b(?:href|src)=["'])/web/""", rf"\g<1>{prefix}", text)
        imports = {"imports": {"/web/js/": f"{prefix}js/"}}
        head = f'<script type="importmap">{json.dumps(imports)}</script>\n  '
        # before the first script, so that the map comes before any module
        at = text.find("<script")
        at = at if at >= 0 else text.find("</head>")
        return text if at < 0 else text[:at] + head + text[at:]

    def start_page(self, request: Request) -> Response | None:
        """The start page's answer (None when there is no ``index.html``): ``no-cache``
        with the ETag of its bytes, ``304`` when the browser has them already."""
        body = self.page()
        if body is None:
            return None
        etag = _etag(body)
        headers = {"ETag": etag, "Cache-Control": REVALIDATE}
        if _matches(etag, request.headers.get("if-none-match", "")):
            # the Vary the whole page carries (GZipMiddleware adds it there), RFC 9110
            return Response(status_code=304, headers={**headers, "Vary": "Accept-Encoding"})
        return Response(body, media_type="text/html", headers=headers)

    # -- the files -------------------------------------------------------------------

    def file_response(  # the file gzipped, whole, when the client asks for gzip
        self,
        full_path: PathLike[str] | str,
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        headers = Headers(scope=scope)
        if (
            response.status_code != 200
            or "gzip" not in headers.get("accept-encoding", "")
            or "range" in headers
            or not _compressible(response.media_type or "")
            or stat_result.st_size < COMPRESS_FROM
        ):
            return response
        # a whole answer, with its length, compressed once per version of the file
        key = (str(full_path), stat_result.st_mtime_ns, stat_result.st_size)
        packed = self._packed.get(key)
        if packed is None:
            packed = gzip.compress(Path(full_path).read_bytes(), compresslevel=9, mtime=0)
            self._packed[key] = packed
        kept = {k: response.headers[k] for k in ("etag", "last-modified") if k in response.headers}
        headers_out = {**kept, "Content-Encoding": "gzip", "Vary": "Accept-Encoding"}
        return Response(packed, media_type=response.media_type, headers=headers_out)

    async def get_response(self, path: str, scope: Scope) -> Response:
        pinned = False
        head, sep, rest = path.partition(os.sep)
        if head == VERSIONED and sep:
            version, _, path = rest.partition(os.sep)
            pinned = version == self._version
        response = await super().get_response(path, scope)
        if response.status_code in (200, 304):
            response.headers["Cache-Control"] = IMMUTABLE if pinned else REVALIDATE
        if response.status_code == 304:  # the Vary a 200 would have carried (RFC 9110)
            response.headers["Vary"] = "Accept-Encoding"
        return response
