"""Discord's text limits, and the one place texts are held to them.

Discord refuses a message whose content passes 2,000 characters, an embed whose
description passes 4,096, a field value 1,024 (name 256), more than 25 fields or
6,000 characters in one embed. Everything the bot sends goes through `fit_message`
(or `clip` for a single text); user input echoed back goes through `echo`.
"""

from __future__ import annotations

from typing import Any

import discord

CONTENT = 2000
TITLE = 256
DESCRIPTION = 4096
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
FIELDS = 25
EMBED_TOTAL = 6000
ECHO = 100
"""How much of a person's own input a refusal repeats."""

ELLIPSIS = "…"


def clip(text: str, limit: int) -> str:
    """`text` cut to at most `limit` characters, ending with an ellipsis if it was cut."""
    if len(text) <= limit:
        return text
    return text[: max(0, limit - 1)] + ELLIPSIS


def echo(text: str, limit: int = ECHO) -> str:
    """A person's input as a message may repeat it: one line of printable characters
    (control and direction marks dropped), at most `limit` characters."""
    printable = "".join(ch if ch.isprintable() else " " for ch in str(text))
    return clip(" ".join(printable.split()), limit)


def fit_embed(embed: discord.Embed) -> discord.Embed:
    """`embed` held to Discord's limits in place (title, description, fields, footer, and
    the 6,000-character total, taken from the description first) and returned."""
    if embed.title:
        embed.title = clip(embed.title, TITLE)
    if embed.description:
        embed.description = clip(embed.description, DESCRIPTION)
    fields = embed.fields[:FIELDS]
    embed.clear_fields()
    for item in fields:
        embed.add_field(
            name=clip(item.name or "", FIELD_NAME),
            value=clip(item.value or "", FIELD_VALUE),
            inline=bool(item.inline),
        )
    if embed.footer.text:
        embed.set_footer(text=clip(embed.footer.text, FOOTER), icon_url=embed.footer.icon_url)
    over = len(embed) - EMBED_TOTAL
    if over > 0 and embed.description:
        embed.description = clip(embed.description, max(1, len(embed.description) - over))
    return embed


def fit_message(kwargs: dict[str, Any]) -> dict[str, Any]:
    """Keyword arguments for `send`/`edit` held to Discord's limits (in place; returned)."""
    content = kwargs.get("content")
    if isinstance(content, str):
        kwargs["content"] = clip(content, CONTENT)
    embed = kwargs.get("embed")
    if isinstance(embed, discord.Embed):
        fit_embed(embed)
    for item in kwargs.get("embeds") or ():
        fit_embed(item)
    return kwargs
