"""The global overwrite keeps an Activity's Entry Point command (`bot.discord.entry_point`)."""

from __future__ import annotations

from bot.discord.entry_point import kept_entry_points

LAUNCH = {
    "id": "11",
    "application_id": "5",
    "version": "7",
    "type": 4,
    "name": "launch",
    "description": "",
    "handler": 2,
}
TABLE = {"id": "12", "application_id": "5", "version": "8", "type": 1, "name": "table"}


def test_the_entry_point_is_carried_without_its_read_only_fields() -> None:
    kept = kept_entry_points([TABLE, LAUNCH], [{"name": "table", "type": 1}])
    assert kept == [{"id": "11", "type": 4, "name": "launch", "description": "", "handler": 2}]


def test_nothing_is_carried_without_an_entry_point_or_when_the_payload_has_it() -> None:
    assert kept_entry_points([TABLE], [{"name": "table"}]) == []
    assert kept_entry_points([LAUNCH], [{"name": "launch", "type": 4, "handler": 1}]) == []
