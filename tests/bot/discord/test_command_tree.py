"""The slash commands Discord sees: the JSON the bot syncs (names, localisations, descriptions,
types, choices, order) equals the snapshot in `data/command_tree.json`.

Declaring options differently must not change this payload; regenerate the snapshot only
for a deliberate change of the commands (`python -m tests.bot.discord.test_command_tree`).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import discord
from discord.ext import commands

from bot.discord.client import COGS
from bot.discord.translator import CatalogTranslator

SNAPSHOT = Path(__file__).resolve().parent / "data" / "command_tree.json"


async def synced_payload() -> list[dict[str, Any]]:
    """What `CommandTree.sync` sends: every global command of the cogs, translated."""
    bot = commands.Bot(command_prefix=(), intents=discord.Intents.none())
    for cog in COGS:
        await bot.load_extension(cog)
    translator = CatalogTranslator()
    await bot.tree.set_translator(translator)
    return [
        await command.get_translated_payload(bot.tree, translator)
        for command in bot.tree.get_commands()
    ]


async def test_the_synced_commands_equal_the_snapshot() -> None:
    payload = await synced_payload()
    names = [command["name"] for command in payload]
    assert "table" in names and "play" in names
    table = next(command for command in payload if command["name"] == "table")
    create = next(sub for sub in table["options"] if sub["name"] == "create")
    assert create["name_localizations"]["fr"] == "créer"
    assert json.loads(json.dumps(payload)) == json.loads(SNAPSHOT.read_text(encoding="utf-8"))


if __name__ == "__main__":
    SNAPSHOT.write_text(
        json.dumps(asyncio.run(synced_payload()), ensure_ascii=False, indent=1) + "\n",
        encoding="utf-8",
    )
