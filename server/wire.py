"""How an answer goes on the wire: JSON with markup escaped, and the headers every answer carries."""

from __future__ import annotations

from typing import Any

from litestar import Response

#: On every answer: never sniffed as a page, never kept by a cache (it may hold a seat's view).
HEADERS = {"X-Content-Type-Options": "nosniff", "Cache-Control": "no-store"}


def escape(body: bytes) -> bytes:
    """JSON with ``<``, ``>`` and ``&`` as ``\\u003c``, ``\\u003e``, ``\\u0026``: the same data, and no
    markup even where something mistakes it for a page. (In JSON these characters can stand only
    inside strings, where the escapes mean the same.)"""
    return body.replace(b"<", b"\\u003c").replace(b">", b"\\u003e").replace(b"&", b"\\u0026")


class SafeResponse(Response):
    """Every JSON answer escaped (``escape``): a name or a note that holds markup stays data."""

    def render(self, content: Any, media_type: str, enc_hook: Any = None) -> bytes:  # type: ignore[override]
        body = super().render(content, media_type, enc_hook) if enc_hook is not None else super().render(content, media_type)
        return escape(body) if "json" in media_type else body
