"""What clicks and commands do: find the table and the clicker's seat, act, answer privately.

The handlers behind the buttons (`views`, through `Controls`) and the slash commands
(`cogs`). Every path answers the interaction exactly once, within Discord's window;
refusals are ephemeral and localised. Handlers read the table through `TableSnapshot`s.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from typing import Any

import discord
from discord import app_commands

from bot.discord import host
from bot.discord.board import (
    draw_cards_ahead,
    draw_hand_ahead,
    draw_hand_within,
    hand_message,
    ordered_hand,
)
from bot.discord.host import Host
from bot.discord.rebuy import rebuy_message
from bot.discord.replies import (
    REFUSED,
    answer_privately,
    answering,
    defer,
    edit_clicked_publicly,
    edit_privately,
    in_time,
    say,
)
from bot.discord.safe_text import safe_name
from bot.discord.views import AmountModal
from bot.i18n import explain, t
from bot.render import get_renderer
from bot.render.betting import BetSpot, RebuyOffer
from bot.render.phrases import deal_word
from bot.render.text import move_cards
from bot.render.words import say_move
from bot.runtime import Player, Table, TableSnapshot, errors
from bot.runtime.errors import TableError
from engines.cards import Card, CardParseError, parse_card
from engines.numbers import is_number
from engines.registry import challenge_game

log = logging.getLogger("deucebot.discord")

HINT_SECONDS = 2.0
CHALLENGE_SECONDS = 120
"""How long a `/duel challenge` waits for its answer; then it is declined."""
_DRAWING: set[asyncio.Future[None]] = set()
"""Hand pictures being drawn ahead of a play's answer (kept until done)."""


def said(game: str, text: str, lang: str) -> str:
    """A move's canonical `text` as people reading `lang` say it (``relancer 40``)."""
    return say_move(text, get_renderer(game).move_areas, lang)


def no_raise() -> TableError:
    """Refusal for "Raise..." when the clicker may not bet or raise now."""
    return TableError("you cannot bet or raise now", code="discord.no_raise")


def not_your_challenge(challenged: int) -> TableError:
    """Refusal for an answer to a challenge made to someone else."""
    return TableError(
        "this challenge is for someone else",
        code="discord.challenge_not_yours",
        mention=f"<@{challenged}>",
    )


def challenge_answered() -> TableError:
    """Refusal for an answer to a challenge that was already accepted (a second click)."""
    return TableError("this challenge was already accepted", code="discord.challenge_answered")


async def _close_challenge(interaction: discord.Interaction, text: str) -> None:
    """Replace a challenge message's text and remove its buttons."""
    await edit_clicked_publicly(interaction, content=text, view=None)


def no_cards() -> TableError:
    """Refusal for a card move made with no card chosen."""
    return TableError("choose your cards in the menu first", code="discord.no_cards")


def not_a_number(typed: str, spot: BetSpot) -> TableError:
    """Refusal for an amount form holding something other than a whole number of chips."""
    return TableError(
        f"{typed!r} is not a whole number of chips; type a total from {spot.low} to {spot.high}",
        code="discord.not_a_number",
        text=typed,
        low=spot.low,
        high=spot.high,
    )


def not_your_rebuy(seat: int) -> TableError:
    """Refusal for a Rebuy control made for another broke seat (wait for your own)."""
    return TableError(
        f"that rebuy is for seat {seat + 1}; wait for your own",
        code="discord.rebuy_not_yours",
        seat=seat + 1,
    )


def not_caves(typed: str, most: int) -> TableError:
    """Refusal for a choice of caves that is not a whole number."""
    return TableError(
        f"{typed!r} is not a number of caves (1 to {most})",
        code="discord.rebuy_not_a_number",
        text=typed,
        most=most,
    )


def wrong_channel() -> TableError:
    """Refusal for a control of a table used from another channel or server."""
    return TableError(
        "that control belongs to a table in another channel; use this channel's board",
        code="discord.wrong_channel",
    )


def in_its_place(table: Table, interaction: discord.Interaction) -> Table:
    """`table`, if the interaction comes from its own place (server and channel). A custom
    id copied into another channel or server is refused with `wrong_channel`, nothing done."""
    if table.place != str(interaction.channel_id) or table.guild != str(interaction.guild_id):
        raise wrong_channel()
    return table


def seat_for(table: Table | TableSnapshot, interaction: discord.Interaction) -> int:
    """The clicker's seat at `table`; refuses people who are not seated."""
    seat = table.seat_of(str(interaction.user.id))
    if seat is None:
        raise errors.not_seated(safe_name(interaction.user.display_name))
    return seat


def _is_ephemeral_hand(interaction: discord.Interaction) -> bool:
    message = interaction.message
    return message is not None and message.flags.ephemeral


def _hand_kwargs(message: dict[str, Any]) -> dict[str, Any]:
    """A hand message (`hand_message`, `rebuy_message`) as `send_message` arguments."""
    kwargs = {k: v for k, v in message.items() if k in ("content", "embed", "view", "file")}
    kwargs["content"] = kwargs.get("content") or None
    return kwargs


async def _send_hand(interaction: discord.Interaction, message: dict[str, Any]) -> None:
    await answer_privately(interaction, **_hand_kwargs(message))


async def _edit_hand(interaction: discord.Interaction, message: dict[str, Any]) -> None:
    """Redraw the ephemeral hand acted on (else answer with it privately); its picture is
    uploaded again only when the cards drawn changed (the name says which they are)."""
    shown = interaction.message.attachments if interaction.message else []
    same = any(a.filename == message.get("image_name") for a in shown)
    await edit_privately(interaction, keep_picture=same, **_hand_kwargs(message))


async def _hint(
    interaction: discord.Interaction,
    table: Table,
    lang: str,
    charge: Callable[[], Callable[[], None]],
) -> tuple[str, list[str]]:
    """The AI's suggestion for the clicker's turn, as a note and cards to preselect. Decided
    by the runtime's AI service (`Table.hint`), off the event loop. `charge` counts the use
    against the member's hint cooldown (after the turn checks, before any work is awaited)
    and returns what gives it back: a hint the AI was not there to give costs nothing (a
    slow one does: the AI worked on it)."""
    decision = table.hint(str(interaction.user.id))  # refusals are raised before deferring
    try:
        give_back = charge()
        await defer(interaction)  # private, for /hint as for the Hint button
    except BaseException:
        decision.cancel()
        raise
    try:
        action = await asyncio.wait_for(decision, HINT_SECONDS)
    except TimeoutError:
        return "💡 " + t("discord.hint.slow", lang), []
    except TableError as error:  # `hint_unavailable` (a restart): the hand, no suggestion
        log.info("no hint for table %s: %s", table.id, error.__cause__)
        give_back()
        return "💡 " + explain(error, lang), []
    text = str(action)
    cards = move_cards(text)
    if cards and get_renderer(table.game).plays_cards:
        pretty = " ".join(card.pretty for card in cards)
        return "💡 " + t("discord.hint.play", lang, cards=pretty), [str(c) for c in cards]
    return "💡 " + t("discord.hint.other", lang, action=said(table.game, text, lang)), []


class Controls(host.Controls):
    """The handlers, bound to the bot: what the components call (it implements the
    `host.Controls` protocol, so mypy checks each signature against it here) and what the
    slash commands call."""

    def __init__(self, bot: Host) -> None:
        """Handlers acting through `bot`."""
        self._bot = bot

    async def _seated(
        self, interaction: discord.Interaction, table_id: int, lang: str
    ) -> tuple[Table, int] | None:
        """The live table `table_id` and the clicker's seat at it; None (answered as stale)
        once the table is gone. Refuses people who are not seated."""
        table = self._bot.tables.by_id(table_id)
        if table is None:
            interaction.extras[REFUSED] = True  # no board rides on it (`tokens.rides_for`)
            await say(interaction, "⛔ " + t("discord.stale_table", lang))
            return None
        in_its_place(table, interaction)
        return table, seat_for(table, interaction)

    async def show_hand(
        self,
        interaction: discord.Interaction,
        table_id: int,
        sort: str,
        *,
        edit: bool,
        selected: list[str] | None = None,
        hint: bool = False,
        turn: int | None = None,
        note: str = "",
        autopass: bool | None = None,
    ) -> None:
        """Answer with the clicker's hand and controls: a new ephemeral message, or (`edit`) an
        update of the ephemeral hand the click came from; `autopass` first sets the clicker's
        auto-pass (the note says it)."""
        lang = self._bot.language(interaction)
        async with answering(interaction, lang, app_commands.CommandOnCooldown):
            found = await self._seated(interaction, table_id, lang)
            if found is None:
                return
            table, seat = found
            if autopass is not None:
                table.set_autopass(str(interaction.user.id), autopass)
                note = t(f"discord.autopass.set_{'on' if autopass else 'off'}", lang)
            shown = table.snapshot(seat)
            if shown.view(seat) is None:
                raise errors.match_not_started()
            if turn is not None and turn != shown.turn and (selected or hint):
                # A choice made on an old menu: show the fresh hand and say why.
                note = "🔄 " + t("discord.hand.refreshed", lang)
                selected, hint = [], False
            if hint:
                note, selected = await _hint(
                    interaction, table, lang, self._charge_hint(interaction)
                )
                shown = table.snapshot(seat)  # the table may have moved on meanwhile
            await self._answer_with_hand(
                interaction,
                table_id,
                shown,
                seat,
                lang,
                sort,
                note=note,
                selected=tuple(selected or []),
                edit=edit and _is_ephemeral_hand(interaction),
            )

    async def _answer_with_hand(
        self,
        interaction: discord.Interaction,
        table_id: int,
        shown: TableSnapshot,
        seat: int,
        lang: str,
        sort: str,
        *,
        note: str,
        selected: tuple[str, ...] = (),
        edit: bool,
    ) -> None:
        """Answer with the clicker's hand at `shown` (an update of the ephemeral hand
        clicked when `edit`, else a new ephemeral message) and keep it up to date. Its
        picture is waited for `HAND_PICTURE_WAIT` at most: a picture drawn later follows
        by an edit through this interaction. A deferred interaction (its 3 s are no
        longer running; its original response is no hand to edit) waits for it."""
        deck = await self._bot.decks.of(interaction.user.id)
        drawing = None
        if interaction.response.is_done():
            await draw_hand_ahead(shown, seat, lang, sort, deck, self._bot.pictures)
        else:
            drawing = await draw_hand_within(shown, seat, lang, sort, deck, self._bot.pictures)
        message = hand_message(
            shown, seat, lang, sort, selected=selected, note=note, deck=deck, draw=drawing is None
        )
        await (_edit_hand if edit else _send_hand)(interaction, message)
        answers = self._bot.answers
        answers.watch_hand(
            interaction,
            table_id,
            seat,
            sort,
            note=note,
            selected=selected,
            image=message.get("image_name"),
        )
        if drawing is not None and "image_name" not in message:

            def drawn(done: asyncio.Future[None]) -> None:
                if not done.cancelled():
                    answers.hand_pictured(interaction, table_id)

            drawing.add_done_callback(drawn)

    async def set_autopass(
        self, interaction: discord.Interaction, table_id: int, sort: str, on: bool
    ) -> None:
        """Turn the clicker's auto-pass `on` or off and redraw their hand."""
        await self.show_hand(interaction, table_id, sort, edit=True, autopass=on)

    def _charge_hint(self, interaction: discord.Interaction) -> Callable[[], Callable[[], None]]:
        """/hint and the Hint button share one cooldown (counting a use returns what gives
        it back)."""
        return lambda: self._bot.cooldowns.hit("hint", interaction)

    async def act_from_hand(
        self,
        interaction: discord.Interaction,
        table_id: int,
        turn: int,
        text: str,
        sort: str,
        *,
        spoken: str | None = None,
        after: str = "",
    ) -> None:
        """Act for the clicker's seat from a button; redraw the ephemeral hand after it. The
        confirmation says `spoken` (the move as chosen: draw's discards by card, where the
        engine's text numbers them) or else `text`, in the clicker's words; `after` is added
        to it (what the move did besides, told only to the clicker)."""
        lang = self._bot.language(interaction)
        async with answering(interaction, lang):
            found = await self._seated(interaction, table_id, lang)
            if found is None:
                return
            table, seat = found
            deal = table.deal
            with self._bot.answers.holding_board(interaction, table_id):
                await in_time(interaction, table.act(str(interaction.user.id), text, turn))
                if not _is_ephemeral_hand(
                    interaction
                ) and await self._bot.answers.answer_with_board(interaction, table_id):
                    return
            action = said(table.game, spoken or text, lang)
            note = "✅ " + t("discord.done", lang, action=action)
            note += "\n" + after if after else ""
            if _is_ephemeral_hand(interaction):
                shown = table.snapshot(seat)
                if shown.deal != deal:  # the play ended the deal: this is the next hand
                    note = "✅ " + t(
                        "discord.done_new_deal",
                        lang,
                        action=action,
                        unit=deal_word(shown.game, lang),
                        deal=shown.deal,
                    )
                    note += "\n" + after if after else ""
                await self._answer_with_hand(
                    interaction, table_id, shown, seat, lang, sort, note=note, edit=True
                )
            else:
                await say(interaction, note)

    async def act_cards(
        self,
        interaction: discord.Interaction,
        table_id: int,
        turn: int,
        verb: str,
        cards: list[str],
        sort: str,
    ) -> None:
        """Play ``verb cards`` chosen by card in the hand's menu: the game's grammar reads
        it against the clicker's hand (cards, not positions); a card not in the hand, a
        wrong count or a second lock is refused with its reason, nothing applied."""
        lang = self._bot.language(interaction)
        move = None
        aside: list[Card] = []
        async with answering(interaction, lang, CardParseError):
            found = await self._at_turn(interaction, table_id, turn, lang)
            if found is None:
                return
            game, view = found
            chosen = [card for card in cards if card]
            if not chosen:
                raise no_cards()
            renderer = get_renderer(game)
            move = renderer.parse_input(f"{verb} {' '.join(chosen)}", view)
            aside = renderer.set_aside_by(view, [parse_card(card) for card in chosen])
        if move is not None:  # read (a refusal was answered)
            if renderer.plays_cards:
                await self._draw_hand_left(interaction, game, view, sort, chosen, lang)
            after = ""
            if aside:
                named = " ".join(card.pretty for card in aside)
                after = "✂️ " + t("discord.pick.split_done", lang, cards=named)
            spoken = f"{verb} {' '.join(chosen)}"
            await self.act_from_hand(
                interaction, table_id, turn, str(move), sort, spoken=spoken, after=after
            )

    async def _draw_hand_left(
        self,
        interaction: discord.Interaction,
        game: str,
        view: Any,
        sort: str,
        played: Sequence[str],
        lang: str,
    ) -> None:
        """Start drawing the hand the play will leave (the hand without the cards played,
        in the order shown) while the play is committed, so the answer that shows it
        does not wait for its picture afterwards."""
        left = [card for card in ordered_hand(game, view, sort) if str(card) not in played]
        deck = await self._bot.decks.of(interaction.user.id)
        task = asyncio.ensure_future(draw_cards_ahead(left, lang, deck, self._bot.pictures))
        _DRAWING.add(task)
        task.add_done_callback(_DRAWING.discard)

    async def _at_turn(
        self, interaction: discord.Interaction, table_id: int, turn: int, lang: str
    ) -> tuple[str, Any] | None:
        """The game and the clicker's view for a control made at `turn`; refuses a stale
        control and a match not started. None once the table is gone (answered)."""
        found = await self._current(interaction, table_id, turn, lang)
        return None if found is None else (found[0].game, found[2])

    async def _current(
        self, interaction: discord.Interaction, table_id: int, turn: int, lang: str
    ) -> tuple[TableSnapshot, int, Any] | None:
        """The table as the clicker sees it (snapshot, their seat, their view) for a control
        made at `turn`; refuses people not seated, a match not started and a stale control.
        None once the table is gone (answered)."""
        found = await self._seated(interaction, table_id, lang)
        if found is None:
            return None
        table, seat = found
        shown = table.snapshot(seat)
        view = shown.view(seat)
        if view is None:
            raise errors.match_not_started()
        if turn != shown.turn:
            raise errors.stale_turn(turn, shown.turn)
        return shown, seat, view

    async def _spot(
        self, interaction: discord.Interaction, table_id: int, turn: int, lang: str
    ) -> BetSpot | None:
        """The clicker's betting decision at `turn`, from their view; refuses a stale control
        and a seat that may not bet or raise. None once the table is gone (answered)."""
        found = await self._at_turn(interaction, table_id, turn, lang)
        if found is None:
            return None
        game, view = found
        spot = get_renderer(game).bet_spot(view)
        if spot is None or spot.raise_verb is None:
            raise no_raise()
        return spot

    async def answer_challenge(
        self,
        interaction: discord.Interaction,
        accept: bool,
        challenger: int,
        challenged: int,
        expires: int,
    ) -> None:
        """Answer a `/duel challenge`: only the challenged member may; after `expires` (epoch
        seconds) it counts as declined. Accepting opens the channel's duel table with the
        challenger in seat 1 and the challenged in seat 2, and deals."""
        lang = self._bot.language(interaction)
        async with answering(interaction, lang):
            if interaction.user.id != challenged:
                raise not_your_challenge(challenged)
            public = self._bot.guild_language(interaction.guild)
            who = {"challenger": f"<@{challenger}>", "challenged": f"<@{challenged}>"}
            if self._accepted(interaction, challenger, challenged):
                raise challenge_answered()
            if time.time() > expires:
                await _close_challenge(interaction, t("discord.duel.expired", public, **who))
                return
            if not accept:
                await _close_challenge(interaction, t("discord.duel.declined", public, **who))
                return
            await in_time(interaction, self._open_duel(interaction, challenger), public=True)
            await _close_challenge(interaction, t("discord.duel.accepted", public, **who))

    def _accepted(self, interaction: discord.Interaction, challenger: int, challenged: int) -> bool:
        """Whether the channel's table is already the duel of this challenge (Accept clicked
        before; a later Decline or Accept must not change it)."""
        table = self._bot.tables.find(str(interaction.channel_id))
        if table is None or not table.spec.challenge or table.status != "playing":
            return False
        owners = [seat.owner.id if seat.owner else None for seat in table.seats]
        return owners == [str(challenger), str(challenged)]

    async def _open_duel(self, interaction: discord.Interaction, challenger: int) -> None:
        """The duel table of an accepted challenge: created, joined, dealt."""
        guild = interaction.guild
        member = guild.get_member(challenger) if guild else None
        if member is None and guild is not None:
            member = await guild.fetch_member(challenger)
        name = member.display_name if member else str(challenger)
        game = challenge_game()
        assert game is not None  # a challenge is only offered when a game has one
        table = await self._bot.tables.create(
            guild=str(interaction.guild_id),
            place=str(interaction.channel_id),
            game=game.name,
            options={
                "turn_seconds": self._bot.settings.turn_seconds,
                "lang": self._bot.guild_language(guild),
                "creator": str(challenger),
            },
            owner=Player(str(challenger), name),
        )
        await table.join(Player(str(interaction.user.id), interaction.user.display_name))
        await table.start()

    async def ask_amount(
        self, interaction: discord.Interaction, table_id: int, turn: int, sort: str
    ) -> None:
        """Open the amount form of "Raise..." with the clicker's legal range (from the view;
        the engine checks the amount when it is played)."""
        lang = self._bot.language(interaction)
        async with answering(interaction, lang):
            spot = await self._spot(interaction, table_id, turn, lang)
            if spot is None:
                return
            verb = spot.raise_verb or "raise"
            modal = AmountModal(
                table_id,
                turn,
                sort,
                verb,
                title=t(f"discord.bet.form.{verb}", lang),
                label=t("discord.bet.form.label", lang, low=spot.low, high=spot.high),
                placeholder=t("discord.bet.form.placeholder", lang, low=spot.low, high=spot.high),
            )
            await interaction.response.send_modal(modal)

    async def act_amount(
        self,
        interaction: discord.Interaction,
        table_id: int,
        turn: int,
        verb: str,
        typed: str,
        sort: str,
    ) -> None:
        """Play ``verb typed`` from the amount form; a non-number is refused with the range,
        an amount out of range by the engine with its reason ("below the minimum raise to
        40"). Nothing is applied on a refusal."""
        lang = self._bot.language(interaction)
        amount = typed.strip().replace(" ", "").replace(",", "")
        if not is_number(amount):
            async with answering(interaction, lang):
                spot = await self._spot(interaction, table_id, turn, lang)
                if spot is not None:
                    raise not_a_number(typed.strip(), spot)
            return
        await self.act_from_hand(interaction, table_id, turn, f"{verb} {int(amount)}", sort)

    async def act_from_command(self, interaction: discord.Interaction, text: str) -> None:
        """Act for the user's seat at the channel's table from a slash command; the private
        answer shows the new hand (so no DM is needed after an own play)."""
        lang = self._bot.language(interaction)
        table = self._bot.tables.get(str(interaction.channel_id))
        seat = seat_for(table, interaction)
        await in_time(interaction, table.act(str(interaction.user.id), text, table.turn))
        note = "✅ " + t("discord.done", lang, action=said(table.game, text, lang))
        shown = table.snapshot(seat)
        if shown.view(seat) is None:
            await say(interaction, note)
        else:
            deck = await self._bot.decks.of(interaction.user.id)
            await draw_hand_ahead(shown, seat, lang, "r", deck, self._bot.pictures)
            await _send_hand(
                interaction, hand_message(shown, seat, lang, "r", note=note, deck=deck)
            )

    async def _rebuying(
        self, interaction: discord.Interaction, table_id: int, turn: int, seat: int, lang: str
    ) -> tuple[TableSnapshot, RebuyOffer] | None:
        """The clicker's snapshot and the buy-back offer of a Rebuy control made for `seat`
        at `turn`. Refuses, in this order: people not seated; a stale control (the table
        moved on since); the engine's refusals (chips still in hand); another seat's
        control. None once the table is gone (answered)."""
        found = await self._current(interaction, table_id, turn, lang)
        if found is None:
            return None
        shown, mine, view = found
        renderer = get_renderer(shown.game)
        refusal = renderer.rebuy_refusal(view)
        if refusal is not None:
            raise refusal
        offer = renderer.rebuy_offer(view)
        if mine != seat or offer is None or offer.seat != mine:
            raise not_your_rebuy(seat)
        return shown, offer

    async def ask_rebuy(
        self, interaction: discord.Interaction, table_id: int, turn: int, seat: int
    ) -> None:
        """Rebuy: answer the broke seat's owner with the choice of caves (ephemeral); every
        refusal is private and nothing changes."""
        lang = self._bot.language(interaction)
        async with answering(interaction, lang):
            found = await self._rebuying(interaction, table_id, turn, seat, lang)
            if found is None:
                return
            shown, offer = found
            message = rebuy_message(shown, offer, lang)
            if _is_ephemeral_hand(interaction):
                await _edit_hand(interaction, {**message, "image_name": None})
            else:
                await _send_hand(interaction, message)

    async def buy_caves(
        self, interaction: discord.Interaction, table_id: int, turn: int, seat: int, caves: str
    ) -> None:
        """Buy back in by `caves` caves from the choice's menu, as ``rebuy N`` through the
        same path as every move (`act_from_hand`; the engine checks the number)."""
        lang = self._bot.language(interaction)
        chosen = None
        async with answering(interaction, lang):
            found = await self._rebuying(interaction, table_id, turn, seat, lang)
            if found is None:
                return
            _, offer = found
            if not is_number(caves):
                raise not_caves(caves, offer.most)
            chosen = int(caves)
        if chosen is not None:  # (a refusal was answered)
            await self.act_from_hand(interaction, table_id, turn, f"rebuy {chosen}", "r")
