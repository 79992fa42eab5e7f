"""Access-log lines without the sign-ins' secrets.

A browser link carries its token in the path (``/link/<token>``), the table page may carry a
link or an Activity session in its query (``?link=``, ``?session=``), and whoever holds one
sees a member's cards: aiohttp's default access log writes the whole request line, so every
such token would land in the logs. `RedactingAccessLogger` writes the same facts (client,
method, path, status, size, time) with those values replaced; the web server passes it as
``access_log_class`` (`aiohttp.web.AppRunner`, `aiohttp.web.run_app`).
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlencode

from aiohttp import web
from aiohttp.abc import AbstractAccessLogger

HIDDEN = "(hidden)"
SECRET_QUERY = frozenset({"link", "session", "code", "access_token", "token"})
"""Query parameters whose values are never logged."""
_LINK_PATH = re.compile(r"^(.*?/link/)[^/?]+")


def redact(path_qs: str) -> str:
    """`path_qs` (a request's path and query) with every token replaced by `HIDDEN`."""
    path, mark, query = path_qs.partition("?")
    path = _LINK_PATH.sub(lambda m: m.group(1) + HIDDEN, path)
    if not mark:
        return path
    pairs = parse_qsl(query, keep_blank_values=True)
    safe = [(k, HIDDEN if k.lower() in SECRET_QUERY else v) for k, v in pairs]
    return f"{path}?{urlencode(safe, safe='()')}"


class RedactingAccessLogger(AbstractAccessLogger):
    """aiohttp's access log, one line a request, with tokens hidden (`redact`); never the
    headers (``Authorization: Bearer`` carries a session, ``Cookie`` a link)."""

    def log(self, request: web.BaseRequest, response: web.StreamResponse, time: float) -> None:
        """Write one line for `request` answered by `response` in `time` seconds."""
        self.logger.info(
            '%s "%s %s" %s %s %.3fs',
            request.remote,
            request.method,
            redact(request.path_qs),
            response.status,
            response.body_length,
            time,
        )
