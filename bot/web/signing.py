"""Signed tokens: a small JSON payload and its HMAC-SHA256, for the web front's sign-ins.

A token is ``<payload>.<signature>``, both base64url without padding; the signature covers
a purpose word and the payload, so a token made for one purpose (a `/hand` link, an
Activity session) is never accepted for another. Checked in constant time
(`hmac.compare_digest`). What the payload means (who, which table, until when) is the
caller's business; this module only says whether the secret's holder made it.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
from typing import Any

from bot.web.identity import WebAuthError

FORGED = "forged"
"""`WebAuthError.code` of a token that is not one the secret's holder made (or is garbled)."""


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _mac(secret: str, purpose: str, body: str) -> bytes:
    message = f"{purpose}\n{body}".encode()
    return hmac.new(secret.encode(), message, hashlib.sha256).digest()


def sign(secret: str, purpose: str, payload: dict[str, Any]) -> str:
    """A token carrying `payload` (JSON-able), signed with `secret` for `purpose`."""
    if not secret:
        raise ValueError("signing needs a secret")
    # UTF-8 rather than \u escapes: a name in Cyrillic costs a third of the URL's length.
    text = json.dumps(payload, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
    body = _b64(text.encode())
    return f"{body}.{_b64(_mac(secret, purpose, body))}"


def unsign(secret: str, purpose: str, token: str) -> dict[str, Any]:
    """The payload of `token` if `secret` signed it for `purpose`; `WebAuthError("forged")`
    otherwise (a wrong signature, another purpose, a garbled token)."""
    body, dot, signature = token.partition(".")
    if not secret or not dot or not body or not signature:
        raise WebAuthError(FORGED)
    # The signature's text is compared (not its decoded bytes): base64's spare bits make
    # several texts decode alike, and a token must have exactly one spelling.
    expected = _b64(_mac(secret, purpose, body))
    if not hmac.compare_digest(signature.encode("ascii", "replace"), expected.encode()):
        raise WebAuthError(FORGED)
    try:
        payload = json.loads(_unb64(body))
    except (binascii.Error, ValueError):
        raise WebAuthError(FORGED) from None
    if not isinstance(payload, dict):
        raise WebAuthError(FORGED)
    return payload
