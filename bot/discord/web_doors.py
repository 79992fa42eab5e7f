"""The Discord buttons that open the web table: the board's "Open table" (the Activity,
answered with the interaction callback LAUNCH_ACTIVITY) and the hand's "Open in browser" (a
signed link to the clicker's seat, `bot.web.links`) with "Revoke browser links".

Every answer is private and localised; a click from someone not seated, on a closed table
or in another channel is refused as the hand's own buttons refuse it.
"""

from __future__ import annotations

import logging

import discord

from bot.discord.actions import in_its_place, seat_for
from bot.discord.host import Host
from bot.discord.replies import REFUSED, answer_privately, answering, edit_privately, in_time, say
from bot.discord.views import RevokeLinksButton
from bot.i18n import t
from bot.runtime import Table
from bot.runtime.shards import shard_of
from bot.web.links import LinkSigner, link_url

_log = logging.getLogger(__name__)


class WebDoors:
    """The handlers of the web buttons, for the bot `bot`."""

    def __init__(self, bot: Host) -> None:
        """Handlers reading the bot's settings, tables and storage."""
        self._bot = bot

    async def _table(
        self, interaction: discord.Interaction, table_id: int, lang: str
    ) -> Table | None:
        table = self._bot.tables.by_id(table_id)
        if table is None:
            interaction.extras[REFUSED] = True
            await say(interaction, "⛔ " + t("discord.stale_table", lang))
            return None
        return in_its_place(table, interaction)

    async def launch_activity(self, interaction: discord.Interaction, table_id: int) -> None:
        """Launch the Activity for the clicker; without the Activity configured, say so."""
        lang = self._bot.language(interaction)
        async with answering(interaction, lang):
            if not self._bot.settings.activity_ready:
                await say(interaction, "⛔ " + t("discord.web.no_activity", lang))
                return
            if await self._table(interaction, table_id, lang) is None:
                return
            # No board rides on a launch (`tokens`): its answer is the Activity, not a message.
            interaction.extras[REFUSED] = True
            try:
                await interaction.response.launch_activity()
            except discord.HTTPException as refused:
                # Discord launches only an application's own Activity: the settings name
                # one, the developer portal has none (or it is switched off).
                _log.warning("Discord refused to launch the Activity: %s", refused)
                await say(interaction, "⛔ " + t("discord.web.no_activity", lang))

    async def open_in_browser(self, interaction: discord.Interaction, table_id: int) -> None:
        """Answer with a fresh link to the clicker's seat and the way to revoke links."""
        lang = self._bot.language(interaction)
        settings = self._bot.settings
        async with answering(interaction, lang):
            if not (settings.links_ready and settings.public_url and settings.link_secret):
                await say(interaction, "⛔ " + t("discord.web.no_links", lang))
                return
            table = await self._table(interaction, table_id, lang)
            if table is None:
                return
            seat_for(table, interaction)
            member = str(interaction.user.id)
            storage = self._bot.tables.storage
            generation = await in_time(interaction, storage.link_generation(member))
            signer = LinkSigner(settings.link_secret)
            token = signer.make(
                place=table.place,
                table_id=table.id,
                player_id=member,
                name=interaction.user.display_name[:32],
                locale=lang,
                generation=generation,
            )
            expires = int(signer.clock() + signer.lifetime)
            # The link goes to the process driving the table: this one (docs/scaling.md).
            shard = shard_of(table.guild, settings.shard_count or 1)
            view = discord.ui.View(timeout=None)
            view.add_item(
                discord.ui.Button(
                    label=t("discord.button.open_browser", lang)[:80],
                    emoji="🌐",
                    url=link_url(settings.public_url, token, shard),
                )
            )
            view.add_item(
                RevokeLinksButton(table.id, table.turn, t("discord.button.revoke_links", lang))
            )
            view.stop()
            note = t("discord.web.link_note", lang, stamp=f"<t:{expires}:f>")
            await answer_privately(interaction, content=note, view=view)

    async def revoke_links(self, interaction: discord.Interaction, table_id: int) -> None:
        """Revoke every link the clicker was given; the message with the link loses it."""
        lang = self._bot.language(interaction)
        async with answering(interaction, lang):
            member = str(interaction.user.id)
            await in_time(interaction, self._bot.tables.storage.revoke_links(member))
            await edit_privately(
                interaction, content="✅ " + t("discord.web.revoked", lang), view=None
            )
