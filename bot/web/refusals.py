"""Refused sign-ins as the page shows them: the reason's code and its words in the viewer's
language (catalog keys `web.auth.<code>`, en/fr/uk)."""

from __future__ import annotations

import html

from aiohttp import web

from bot.i18n import LANGUAGES, normalise_language, t


def request_language(request: web.Request, hint: str | None = None) -> str:
    """The language to refuse `request` in: `hint` (what a token says) when it is one of
    ours, else the first of ours in `Accept-Language`, else English."""
    if hint in LANGUAGES:
        return str(hint)
    for part in request.headers.get("Accept-Language", "").split(","):
        tag = part.split(";")[0].strip().lower()
        if tag[:2] in LANGUAGES:
            return normalise_language(tag[:2])
    return "en"


def refusal_text(code: str, lang: str) -> str:
    """What a page says for the refusal `code` in `lang`."""
    return t(f"web.auth.{code}", lang)


def refusal_page(code: str, lang: str, status: int = 403) -> web.Response:
    """A small HTML page saying why the sign-in was refused."""
    text = html.escape(refusal_text(code, lang))
    body = (
        f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>Deucebot</title></head><body><main><p role="alert">{text}</p></main>'
        "</body></html>"
    )
    return web.Response(
        status=status, text=body, content_type="text/html", headers={"X-Deucebot-Refusal": code}
    )


def refusal_json(code: str, lang: str, status: int) -> web.Response:
    """A JSON refusal (`{"error": code, "message": words}`) for the page's own requests."""
    return web.json_response({"error": code, "message": refusal_text(code, lang)}, status=status)
