"""Where a table may run: the channel kinds Deucebot supports and the permissions it needs.

Checked when a table is opened or dealt (`/table create`, `/table start`, `/duel
challenge`) from the interaction's own `app_permissions` (what Discord says the bot may do
in that very channel, overwrites included), so a table never starts where its board could
not be posted. A permission taken away later is met by the front's outbox, which pauses
the table's delivery (`front.Pause`) until it works again.

Supported: text channels, voice channels' text chat, public and private threads (forum
posts are public threads), announcement threads. Refused: announcement channels (what is
posted there is meant for followers), stage channels, and kinds that hold no messages
(categories, forums, media channels, directories).
"""

from __future__ import annotations

import discord

from bot.i18n import join_names, t
from bot.runtime.errors import TableError

THREADS = frozenset(
    {
        discord.ChannelType.public_thread,
        discord.ChannelType.private_thread,
        discord.ChannelType.news_thread,
    }
)
SUPPORTED = frozenset({discord.ChannelType.text, discord.ChannelType.voice, *THREADS})
"""The channel kinds a table may run in."""


def needed_permissions(thread: bool) -> tuple[str, ...]:
    """The permissions (discord.py's attribute names) a table needs in a channel; in a thread
    Send Messages in Threads stands for Send Messages."""
    send = "send_messages_in_threads" if thread else "send_messages"
    return ("view_channel", send, "embed_links", "attach_files")


def missing_permissions(perms: discord.Permissions, *, thread: bool) -> list[str]:
    """The needed permissions `perms` lacks (attribute names, in `needed_permissions` order)."""
    return [name for name in needed_permissions(thread) if not getattr(perms, name)]


def permission_names(names: list[str], lang: str) -> str:
    """Permissions as Discord's settings name them, in `lang` ("Embed Links and Attach Files")."""
    return join_names([t(f"admin.perm.{name}", lang) for name in names])


def is_thread(channel: object) -> bool:
    """Whether `channel` (an interaction's channel) is a thread."""
    return getattr(channel, "type", None) in THREADS


def channel_refusal(interaction: discord.Interaction, lang: str) -> TableError | None:
    """Why a table may not run in the interaction's channel (its kind, or the permissions
    the bot lacks there, named in `lang`), or None when it may. The private-thread
    membership needs a request: see `check_table_channel`."""
    channel = interaction.channel
    kind = getattr(channel, "type", None)
    if kind not in SUPPORTED:
        name = t(f"admin.kind.{kind.name}" if kind is not None else "admin.kind.unknown", lang)
        return TableError(
            f"tables do not run in this kind of channel ({kind})",
            code="admin.channel_kind",
            kind=name,
        )
    missing = missing_permissions(interaction.app_permissions, thread=is_thread(channel))
    if missing:
        return TableError(
            f"the bot lacks {', '.join(missing)} in this channel",
            code="admin.missing_permissions",
            missing=permission_names(missing, lang),
        )
    return None


async def check_table_channel(interaction: discord.Interaction, lang: str) -> None:
    """Raise the `TableError` of `channel_refusal`, or, in a private thread the bot was not
    added to (and may not manage), one that says to add it; nothing when a table may run."""
    refusal = channel_refusal(interaction, lang)
    if refusal is not None:
        raise refusal
    channel = interaction.channel
    if getattr(channel, "type", None) != discord.ChannelType.private_thread:
        return
    if interaction.app_permissions.manage_threads or interaction.client.user is None:
        return
    try:
        await interaction.client.http.get_thread_member(
            interaction.channel_id or 0, interaction.client.user.id
        )
    except discord.NotFound:
        raise TableError(
            "the bot is not a member of this private thread", code="admin.not_in_thread"
        ) from None
