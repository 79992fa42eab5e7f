"""Member-chosen text made safe for Discord message text, and whom a message may ping.

A display name (or any text a member chose: a nickname, a season) reaches boards, results,
leaderboards and `/stats` inside markdown. Unescaped, ``[Prize](https://example.com)``
renders as a masked link and ``<@123>`` as a mention of someone else. `safe_name` is applied
where names become Discord text (`bot.discord.board.seat_names` and the few cogs that read
names from storage); the terminal and the pictures keep names raw.

Pings: the client allows no mention by default (`bot.discord.client`); a message that
addresses a member on purpose (their turn on the board, a challenge) passes `pinging`.
"""

from __future__ import annotations

import functools
import re

import discord

_INLINE = re.compile(r"([\\*_~`|\[\]<])")
"""Characters with a meaning anywhere in a line of Discord's markdown (bold, italics,
underline, strikes, spoilers, code, masked links) or opening its ``<...>`` syntax
(mentions, channels, roles, custom emoji, timestamps, commands): each escaped by a
backslash, which Discord drops when it renders (it escapes any punctuation)."""

_LINE_START = re.compile(r"^(\s*)(#|>|-|\+|\d+\.)")
"""What means something only at the start of a line (headings, quotes, lists): a name
may start one ("{name} is thinking…")."""

_ZERO_WIDTH = "\u200b"


@functools.lru_cache(maxsize=4096)
def safe_name(name: str) -> str:
    """`name` as Discord must render it literally: markdown escaped (bold, italics,
    strikes, spoilers, code, masked links, and a heading, quote or list it would start)
    and no mention of anyone or anything (``<@id>``, ``<@!id>``, ``<@&id>``, ``<#id>``,
    ``@everyone``, ``@here``, custom emoji, timestamps): a zero-width space after every
    ``@`` as well, so that no mention survives even where a backslash is dropped or the
    text is cut. Cached: every board and event line of a table escapes the same few
    names again."""
    text = _INLINE.sub(r"\\\1", name)
    text = _LINE_START.sub(_escape_start, text)
    return text.replace("@", "@" + _ZERO_WIDTH)


def _escape_start(found: re.Match[str]) -> str:
    lead, mark = found.group(1), found.group(2)
    return lead + (mark[:-1] + "\\." if mark.endswith(".") else "\\" + mark)


def pinging(*user_ids: int | str) -> discord.AllowedMentions:
    """Allowed mentions pinging only these members (by id), never a role or everyone."""
    return discord.AllowedMentions(
        everyone=False,
        roles=False,
        users=[discord.Object(int(uid)) for uid in user_ids],
        replied_user=False,
    )


NO_PINGS = discord.AllowedMentions.none()
"""The client's default: a mention in a message pings nobody unless the message says so."""
