"""Discord's REST rate limits, as the stand-in enforces them.

Two kinds, as Discord documents them:

- **The global limit**: at most `global_per_second` requests in any one second per bot
  token, across every route. Interaction callbacks and their follow-up webhooks are
  exempt. Past it: 429 with `"global": true` and `X-RateLimit-Global: true`.
- **Per-route buckets**: a fixed window per bucket and major parameter (the channel).
  Creating messages in one channel: 5 per 5 s; editing messages in one channel: 5 per 5 s.
  Every answer on such a route carries the `X-RateLimit-*` headers discord.py reads to pace
  itself; past the limit: 429 with `"global": false` and the bucket's scope.
- **Interaction webhooks** (follow-ups and their edits, `/webhooks/{app}/{token}...`):
  outside the global limit, but bucketed by their major parameter, the webhook and its
  token (Discord lists `webhook_id + webhook_token` as a major parameter and publishes no
  figure; answers observed: 5 per 2 s per webhook). Callbacks have no bucket here.

Every 429 has a JSON body with `retry_after` (seconds) and a `Via` header, as Discord's
do (discord.py treats a 429 without `Via` as a Cloudflare ban).
"""

from __future__ import annotations

import re
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

EXEMPT = re.compile(r"^/api/v10/(interactions|webhooks)/")
WEBHOOK = re.compile(r"^/api/v10/webhooks/\d+/([^/]+)")
"""An interaction webhook's route; its group is the token (the bucket's major parameter)."""
BUCKETS: tuple[tuple[str, re.Pattern[str], str], ...] = (
    ("POST", re.compile(r"^/api/v10/channels/(\d+)/messages$"), "message-create"),
    ("PATCH", re.compile(r"^/api/v10/channels/(\d+)/messages/\d+$"), "message-edit"),
)
"""(method, path, bucket name): the routes with their own per-channel bucket."""


@dataclass(frozen=True)
class Verdict:
    """What the limits say of one request: its extra headers, and a 429 body when refused."""

    headers: dict[str, str]
    refusal: dict[str, object] | None = None


@dataclass
class _Window:
    start: float
    used: int = 0


@dataclass
class DiscordLimits:
    """The limits of one bot token; `check` is called once for every REST request."""

    global_per_second: int = 50
    bucket_size: int = 5
    bucket_seconds: float = 5.0
    clock: Callable[[], float] = time.monotonic
    enabled: bool = True
    webhook_size: int = 5
    webhook_seconds: float = 2.0
    channel_buckets: bool = True
    """Off: only the global limit, no per-route bucket (neither a channel's nor an
    interaction webhook's): tests that play long matches in one channel quickly."""
    refused: list[tuple[str, str, bool]] = field(default_factory=list)
    """Every 429 answered: (method, path, global)."""
    _recent: deque[float] = field(default_factory=deque)
    _windows: dict[tuple[str, str], _Window] = field(default_factory=dict)

    def check(self, method: str, path: str) -> Verdict:
        """Count the request; refuse it (429) when it is over a limit."""
        if not self.enabled:
            return Verdict({})
        if EXEMPT.match(path):
            hook = WEBHOOK.match(path)
            if hook is None or method == "GET" or not self.channel_buckets:
                return Verdict({})
            return self._take(
                method, path, ("webhook", hook.group(1)), self.webhook_size, self.webhook_seconds
            )
        now = self.clock()
        while self._recent and self._recent[0] <= now - 1.0:
            self._recent.popleft()
        if len(self._recent) >= self.global_per_second:
            retry = round(self._recent[0] + 1.0 - now, 3)
            return self._refuse(method, path, retry, scope="global")
        bucket = self._bucket(method, path) if self.channel_buckets else None
        verdict = Verdict({})
        if bucket is not None:
            verdict = self._take(method, path, bucket, self.bucket_size, self.bucket_seconds)
            if verdict.refusal is not None:
                return verdict
        self._recent.append(now)
        return verdict

    def _take(
        self, method: str, path: str, bucket: tuple[str, str], size: int, seconds: float
    ) -> Verdict:
        """One request from `bucket` (a fixed window of `size` per `seconds`)."""
        now = self.clock()
        window = self._windows.get(bucket)
        if window is None or now >= window.start + seconds:
            window = self._windows[bucket] = _Window(now)
        reset_after = window.start + seconds - now
        if window.used >= size:
            return self._refuse(
                method, path, round(reset_after, 3), scope="user", bucket=bucket, size=size
            )
        window.used += 1
        return Verdict(self._bucket_headers(bucket, size - window.used, reset_after, size))

    def _bucket(self, method: str, path: str) -> tuple[str, str] | None:
        for bucket_method, pattern, name in BUCKETS:
            match = pattern.match(path)
            if match and method == bucket_method:
                return name, match.group(1)
        return None

    def _bucket_headers(
        self, bucket: tuple[str, str], remaining: int, reset_after: float, size: int
    ) -> dict[str, str]:
        return {
            "X-RateLimit-Limit": str(size),
            "X-RateLimit-Remaining": str(remaining),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": bucket[0],
        }

    def _refuse(
        self,
        method: str,
        path: str,
        retry_after: float,
        *,
        scope: str,
        bucket: tuple[str, str] | None = None,
        size: int = 0,
    ) -> Verdict:
        is_global = scope == "global"
        self.refused.append((method, path, is_global))
        headers = {
            "Retry-After": str(max(1, round(retry_after + 0.5))),
            "X-RateLimit-Scope": scope,
            "Via": "1.1 google",
        }
        if is_global:
            headers["X-RateLimit-Global"] = "true"
        elif bucket is not None:
            headers.update(self._bucket_headers(bucket, 0, retry_after, size))
        body: dict[str, object] = {
            "message": "You are being rate limited.",
            "retry_after": max(retry_after, 0.001),
            "global": is_global,
            "code": 0,
        }
        return Verdict(headers, body)
