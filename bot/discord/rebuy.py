"""Buying back in on Discord (games that declare rebuys): the pending offer of a broke
human seat between deals, the hand's Rebuy and Sit out controls, and the ephemeral choice
of caves behind Rebuy."""

from __future__ import annotations

from typing import Any

import discord

from bot.discord.replies import frozen_view
from bot.discord.views import ActButton, CaveSelect, RebuyButton
from bot.i18n import t
from bot.render import get_renderer
from bot.render.betting import RebuyOffer
from bot.runtime import TableSnapshot


def rebuy_offer(table: TableSnapshot, view: Any) -> RebuyOffer | None:
    """The buy-back choice pending at a playing table (a broke human seat to decide between
    deals), from any view; None otherwise (AI seats decide by themselves)."""
    if view is None or table.status != "playing":
        return None
    offer = get_renderer(table.game).rebuy_offer(view)
    if offer is None or not 0 <= offer.seat < len(table.seats):
        return None
    return None if table.seats[offer.seat].ai_plays else offer


def rebuy_message(table: TableSnapshot, offer: RebuyOffer, lang: str) -> dict[str, Any]:
    """The ephemeral choice behind "Rebuy": a menu of 1 to the most caves, each with its
    chips ("2 caves (400 chips)"), and Sit out (kwargs for `send`)."""
    options = [
        discord.SelectOption(
            label=t("discord.rebuy.caves", lang, n=n, chips=offer.chips(n))[:100], value=str(n)
        )
        for n in range(1, min(offer.most, 25) + 1)
    ]
    menu = CaveSelect(table.id, table.turn, offer.seat, options, t("discord.rebuy.choose", lang))
    menu.row = 0
    sit_out = ActButton(table.id, table.turn, "r", "sitout", t("discord.rebuy.sit_out", lang))
    sit_out.row = 1
    content = t("discord.rebuy.ask", lang, cave=offer.cave, most=offer.most)
    return {"content": content, "embed": None, "view": frozen_view(menu, sit_out)}


def rebuy_controls(table: TableSnapshot, offer: RebuyOffer, lang: str) -> list[Any]:
    """The hand's controls of a broke seat between deals: Rebuy (the choice of caves) and
    Sit out."""
    rebuy = RebuyButton(table.id, table.turn, offer.seat, t("discord.rebuy.button", lang))
    sit_out = ActButton(table.id, table.turn, "r", "sitout", t("discord.rebuy.sit_out", lang))
    return [rebuy, sit_out]
