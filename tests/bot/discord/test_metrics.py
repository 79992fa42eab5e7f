"""Metric labels: REST routes as templates (no ids, no interaction or webhook tokens), and
the interaction's moment read from its snowflake."""

from __future__ import annotations

import pytest

from bot.discord.metrics import route_of, sent_at


@pytest.mark.parametrize(
    ("path", "route"),
    [
        ("/api/v10/channels/123/messages", "/channels/{id}/messages"),
        ("/api/v10/channels/123/messages/456", "/channels/{id}/messages/{id}"),
        ("/api/v10/interactions/99/s3cr3t-token/callback", "/interactions/{id}/{token}/callback"),
        (
            "/api/v10/webhooks/7/aW50ZXJhY3Rpb24/messages/@original",
            "/webhooks/{id}/{token}/messages/@original",
        ),
        ("/api/v10/users/@me/channels", "/users/@me/channels"),
        ("/api/v10/gateway/bot", "/gateway/bot"),
    ],
)
def test_routes_are_templates(path: str, route: str) -> None:
    assert route_of(path) == route


def test_an_interaction_id_says_when_discord_received_it() -> None:
    # Discord's documented example: 175928847299117063 was created at 1462015105796 ms.
    assert sent_at(175928847299117063) == pytest.approx(1462015105.796)
