"""Per-server settings (`/config`, migration 010) on both backends: stored, changed,
cleared, every change logged with who made it, kept across a reopen."""

from __future__ import annotations

from storage import SettingChange
from storage.backend import make_storage


def change(guild: str, name: str, value: object, at: float, who: str = "Ana") -> SettingChange:
    return SettingChange(guild, name, value, f"id-{who}", who, at)


async def test_settings_are_kept_changed_cleared_and_logged(target: str) -> None:
    storage = make_storage(target)
    await storage.open()
    try:
        assert await storage.guild_settings() == {}
        await storage.set_guild_setting(change("g1", "language", "fr", 1.0))
        await storage.set_guild_setting(change("g1", "channels", ["11", "12"], 2.0))
        await storage.set_guild_setting(change("g2", "defaults.bigtwo", {"deals": 2}, 3.0))
        await storage.set_guild_setting(change("g1", "language", "uk", 4.0, who="Bo"))
        await storage.set_guild_setting(change("g1", "channels", None, 5.0, who="Bo"))
    finally:
        await storage.close()
    again = make_storage(target)
    await again.open()
    try:
        assert await again.guild_settings() == {
            "g1": {"language": "uk"},
            "g2": {"defaults.bigtwo": {"deals": 2}},
        }
        log = await again.guild_settings_log("g1")
        assert [(c.name, c.value, c.member_name, c.at) for c in log] == [
            ("channels", None, "Bo", 5.0),
            ("language", "uk", "Bo", 4.0),
            ("channels", ["11", "12"], "Ana", 2.0),
            ("language", "fr", "Ana", 1.0),
        ]
        assert [c.name for c in await again.guild_settings_log("g1", limit=1)] == ["channels"]
        assert await again.guild_settings_log("g3") == []
    finally:
        await again.close()
