"""Buttons and select menus that survive a restart.

Every component is a `discord.ui.DynamicItem`: its custom id carries what it
acts on (``db:<what>:<table id>:<turn>[:<extra>]``), and the bot registers the
templates at start-up, so a click on a board posted by an earlier process
still reaches the right table. A click for an earlier turn is answered as
stale by the runtime; nobody ever sees "This interaction failed".

Custom ids:
- ``db:hand:T:N``       the board's "My hand" button (N is ignored: it shows the current hand)
- ``db:sel:T:N:S``      the hand's card menu; S is the sort order (``r`` rank, ``s`` suit)
- ``db:play:T:N:S:C``   play the cards C (``3D.3S``) chosen in the menu
- ``db:pass:T:N``       pass
- ``db:hint:T:N:S``     suggest a play (selects it in the menu)
- ``db:sort:T:N:S``     show the hand in the other order
- ``db:autopass:T:N:S:O`` turn the clicker's auto-pass on (O ``on``) or off (``off``)
- ``db:act:T:N:S:TEXT`` play the action TEXT (games played with buttons: hold'em, draw, duel)
- ``db:raise:T:N:S``    "Raise...": opens `AmountModal` for any bet or raise in the legal range
- ``db:duel:A:C:D:E``  answer (``yes``/``no``) member D's challenge from member C to a duel;
  E is when it expires (epoch seconds: a late answer declines)
- ``db:pick:T:N:S:V:C`` play ``V C`` with the cards C chosen in the menu (draw's discards,
  the duel's lock): cards by code, never by position, so sorting cannot change them
- ``db:rebuy:T:N:P``    "Rebuy" (draw poker, between deals) for the broke seat P (0-based):
  opens the ephemeral choice of how many caves
- ``db:caves:T:N:P``    that choice's menu: buy back in by the chosen number of caves for seat P
- ``db:activity:T:N``   the board's "Open table": launches the Activity (callback LAUNCH_ACTIVITY)
- ``db:browser:T:N``    the hand's "Open in browser": a signed link to the clicker's seat
- ``db:revoke:T:N``     "Revoke browser links": every link the clicker was given stops working
"""

from __future__ import annotations

import re
from typing import Any, ClassVar, cast

import discord

from bot.discord.host import Controls, Host, WebDoors


def _controls(interaction: discord.Interaction) -> Controls:
    """The handlers the client wired up (components call them, never import them)."""
    return cast(Host, interaction.client).controls


def _doors(interaction: discord.Interaction) -> WebDoors:
    """The handlers of the ways into the web table (the Activity, browser links)."""
    return cast(Host, interaction.client).doors


class _Admitted:
    """What every component and form shares: the bot's shutdown gate lets the interaction
    in first (`bot.discord.shutdown_gate`; refused, with a word to the member, while the
    bot shuts down)."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """Whether the handler runs: the shutdown gate's answer."""
        return await cast(Host, interaction.client).gate.admit(interaction)


class _Control(_Admitted, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?!)"):
    """What the buttons below share: the custom id is ``db:<kind>:`` followed by the
    template's groups in order, and a click rebuilds the button from those groups (passed
    by name to the constructor). Never registered itself (its template matches nothing)."""

    kind: ClassVar[str] = ""
    style: ClassVar[discord.ButtonStyle] = discord.ButtonStyle.secondary
    emoji: ClassVar[str | None] = None

    def _button(
        self,
        label: str,
        *parts: object,
        disabled: bool = False,
        style: discord.ButtonStyle | None = None,
    ) -> None:
        custom_id = ":".join(["db", self.kind, *map(str, parts)])
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                emoji=self.emoji,
                style=style or self.style,
                custom_id=custom_id,
                disabled=disabled,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Any:
        """Rebuild from a click."""
        groups: dict[str, Any] = match.groupdict()
        groups["table"], groups["turn"] = int(groups["table"]), int(groups["turn"])
        return cls(**groups)


class HandButton(_Control, template=r"db:hand:(?P<table>\d+):(?P<turn>\d+)"):
    """The board's "My hand" button: the clicker's hand and controls, ephemerally."""

    kind, style, emoji = "hand", discord.ButtonStyle.primary, "🂠"

    def __init__(self, table: int, turn: int, label: str = "My hand") -> None:
        """A button for `table`, drawn at `turn`."""
        self.table, self.turn = table, turn
        self._button(label, table, turn)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Answer with the clicker's hand (ephemeral)."""
        await _controls(interaction).show_hand(interaction, self.table, "r", edit=False)


class OpenTableButton(_Control, template=r"db:activity:(?P<table>\d+):(?P<turn>\d+)"):
    """The board's "Open table": the table inside Discord, as an Activity."""

    kind, style, emoji = "activity", discord.ButtonStyle.success, "🃏"

    def __init__(self, table: int, turn: int, label: str = "Open table") -> None:
        """A button for `table`, drawn at `turn`."""
        self.table, self.turn = table, turn
        self._button(label, table, turn)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Launch the Activity for the clicker (LAUNCH_ACTIVITY)."""
        await _doors(interaction).launch_activity(interaction, self.table)


class BrowserButton(_Control, template=r"db:browser:(?P<table>\d+):(?P<turn>\d+)"):
    """The hand's "Open in browser": a signed link to the clicker's seat, privately."""

    kind, emoji = "browser", "🌐"

    def __init__(self, table: int, turn: int, label: str = "Open in browser") -> None:
        """A button for `table`, drawn at `turn`."""
        self.table, self.turn = table, turn
        self._button(label, table, turn)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Answer with the clicker's link (ephemeral)."""
        await _doors(interaction).open_in_browser(interaction, self.table)


class RevokeLinksButton(_Control, template=r"db:revoke:(?P<table>\d+):(?P<turn>\d+)"):
    """ "Revoke browser links": every link the clicker was given stops working."""

    kind, style = "revoke", discord.ButtonStyle.danger

    def __init__(self, table: int, turn: int, label: str = "Revoke browser links") -> None:
        """A button shown with a link to `table`."""
        self.table, self.turn = table, turn
        self._button(label, table, turn)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Revoke the clicker's links and say so."""
        await _doors(interaction).revoke_links(interaction, self.table)


class CardSelect(
    _Admitted,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"db:sel:(?P<table>\d+):(?P<turn>\d+):(?P<sort>[rs])",
):
    """The hand's card menu: choose 1 to 5 cards, then Play."""

    def __init__(
        self,
        table: int,
        turn: int,
        sort: str,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        most: int = 5,
    ) -> None:
        """A menu of `options` (the hand's cards) for `table` at `turn`; at most `most`
        cards may be chosen."""
        self.table, self.turn, self.sort = table, turn, sort
        options = options or [discord.SelectOption(label="-", value="-")]
        super().__init__(
            discord.ui.Select(
                custom_id=f"db:sel:{table}:{turn}:{sort}",
                options=options,
                min_values=1,
                max_values=max(1, min(most, len(options))),
                placeholder=placeholder,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> CardSelect:
        """Rebuild from a choice."""
        if isinstance(item, discord.ui.Select):
            options, most = list(item.options), item.max_values
        else:
            options, most = None, 5
        return cls(int(match["table"]), int(match["turn"]), match["sort"], options, most=most)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Redraw the hand with these cards selected and Play armed with them."""
        await _controls(interaction).show_hand(
            interaction,
            self.table,
            self.sort,
            edit=True,
            selected=list(self.item.values),
            turn=self.turn,
        )


class PlayButton(
    _Control,
    template=r"db:play:(?P<table>\d+):(?P<turn>\d+):(?P<sort>[rs]):(?P<cards>[0-9TJQKADCHS.]*)",
):
    """Play the cards chosen in the menu (they are carried in the custom id)."""

    kind, style = "play", discord.ButtonStyle.success

    def __init__(
        self,
        table: int,
        turn: int,
        sort: str,
        cards: str,
        label: str = "Play",
        disabled: bool = False,
    ) -> None:
        """A Play button for `cards` (``3D.3S``; empty while nothing is chosen)."""
        self.table, self.turn, self.sort, self.cards = table, turn, sort, cards
        self._button(label, table, turn, sort, cards, disabled=disabled)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Play the chosen cards for the clicker's seat."""
        text = "play " + " ".join(self.cards.split("."))
        await _controls(interaction).act_from_hand(
            interaction, self.table, self.turn, text, self.sort
        )


class PassButton(_Control, template=r"db:pass:(?P<table>\d+):(?P<turn>\d+):(?P<sort>[rs])"):
    """Pass this turn."""

    kind = "pass"

    def __init__(self, table: int, turn: int, sort: str = "r", label: str = "Pass") -> None:
        """A Pass button for `table` at `turn`."""
        self.table, self.turn, self.sort = table, turn, sort
        self._button(label, table, turn, sort)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Pass for the clicker's seat."""
        await _controls(interaction).act_from_hand(
            interaction, self.table, self.turn, "pass", self.sort
        )


class HintButton(_Control, template=r"db:hint:(?P<table>\d+):(?P<turn>\d+):(?P<sort>[rs])"):
    """Ask the AI for a suggestion; it is preselected in the menu."""

    kind, emoji = "hint", "💡"

    def __init__(self, table: int, turn: int, sort: str, label: str = "Hint") -> None:
        """A Hint button for `table` at `turn`."""
        self.table, self.turn, self.sort = table, turn, sort
        self._button(label, table, turn, sort)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Redraw the hand with the suggestion selected."""
        await _controls(interaction).show_hand(
            interaction,
            self.table,
            self.sort,
            edit=True,
            hint=True,
            turn=self.turn,
        )


class SortButton(_Control, template=r"db:sort:(?P<table>\d+):(?P<turn>\d+):(?P<sort>[rs])"):
    """Show the hand sorted the other way (by rank / by suit)."""

    kind, emoji = "sort", "🔀"

    def __init__(self, table: int, turn: int, sort: str, label: str = "Sort") -> None:
        """A Sort button; `sort` is the order the hand is shown in now."""
        self.table, self.turn, self.sort = table, turn, sort
        self._button(label, table, turn, sort)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Redraw the hand in the other order."""
        other = "s" if self.sort == "r" else "r"
        await _controls(interaction).show_hand(interaction, self.table, other, edit=True)


class AutoPassButton(
    _Control,
    template=r"db:autopass:(?P<table>\d+):(?P<turn>\d+):(?P<sort>[rs]):(?P<turn_to>on|off)",
):
    """The member's auto-pass toggle: the click turns it `turn_to`."""

    kind, emoji = "autopass", "⏭️"

    def __init__(
        self, table: int, turn: int, sort: str, turn_to: str, label: str = "Auto-pass"
    ) -> None:
        """A toggle for `table`; `turn_to` is what a click sets (``on`` or ``off``)."""
        self.table, self.turn, self.sort, self.turn_to = table, turn, sort, turn_to
        style = discord.ButtonStyle.success if turn_to == "off" else None
        self._button(label, table, turn, sort, turn_to, style=style)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Set the clicker's auto-pass and redraw their hand."""
        await _controls(interaction).set_autopass(
            interaction, int(self.table), self.sort, self.turn_to == "on"
        )


class ActButton(
    _Control,
    template=r"db:act:(?P<table>\d+):(?P<turn>\d+):(?P<sort>[rs]):(?P<action>[^:]{1,80})",
):
    """One legal action of games played with buttons (hold'em, draw, duel): its canonical
    text rides in the custom id."""

    kind, style = "act", discord.ButtonStyle.primary

    def __init__(
        self, table: int, turn: int, sort: str, action: str, label: str | None = None
    ) -> None:
        """A button playing `action` (canonical text) at `table`, made for `turn`."""
        self.table, self.turn, self.sort, self.action = table, turn, sort, action
        self._button(label or action, table, turn, sort, action)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Play this action for the clicker's seat."""
        await _controls(interaction).act_from_hand(
            interaction, self.table, self.turn, self.action, self.sort
        )


class PickButton(
    _Control,
    template=(
        r"db:pick:(?P<table>\d+):(?P<turn>\d+):(?P<sort>[rs]):(?P<verb>[a-z]{1,12}):"
        r"(?P<cards>[0-9TJQKADCHS.]*)"
    ),
):
    """Play ``<verb> <cards>`` with the cards chosen in the hand's menu (draw, lock)."""

    kind, style = "pick", discord.ButtonStyle.success

    def __init__(
        self,
        table: int,
        turn: int,
        sort: str,
        verb: str,
        cards: str,
        label: str | None = None,
        disabled: bool = False,
    ) -> None:
        """A button playing `verb` with `cards` (``AS.3D``; empty while nothing is chosen)."""
        self.table, self.turn, self.sort, self.verb, self.cards = table, turn, sort, verb, cards
        self._button(label or verb, table, turn, sort, verb, cards, disabled=disabled)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Play the chosen cards for the clicker's seat."""
        await _controls(interaction).act_cards(
            interaction, self.table, self.turn, self.verb, self.cards.split("."), self.sort
        )


class ChallengeButton(
    _Control,
    template=r"db:duel:(?P<answer>yes|no):(?P<challenger>\d+):(?P<challenged>\d+):(?P<expires>\d+)",
):
    """Accept or Decline on a `/duel challenge` message (only the challenged member may)."""

    kind = "duel"

    def __init__(
        self, answer: str, challenger: int, challenged: int, expires: int, label: str = ""
    ) -> None:
        """The `answer` button of `challenged`'s challenge from `challenger`."""
        self.answer, self.challenger, self.challenged = answer, challenger, challenged
        self.expires = expires
        style = discord.ButtonStyle.success if answer == "yes" else discord.ButtonStyle.danger
        self._button(label or answer, answer, challenger, challenged, expires, style=style)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ChallengeButton:
        """Rebuild from a click."""
        return cls(
            match["answer"],
            int(match["challenger"]),
            int(match["challenged"]),
            int(match["expires"]),
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        """Answer the challenge (the handler checks who clicks and whether it expired)."""
        await _controls(interaction).answer_challenge(
            interaction, self.answer == "yes", self.challenger, self.challenged, self.expires
        )


class RaiseButton(_Control, template=r"db:raise:(?P<table>\d+):(?P<turn>\d+):(?P<sort>[rs])"):
    """ "Raise...": asks for any amount in the legal range (a modal), then plays it."""

    kind, style = "raise", discord.ButtonStyle.success

    def __init__(self, table: int, turn: int, sort: str = "r", label: str = "Raise...") -> None:
        """A Raise... button for `table` at `turn`."""
        self.table, self.turn, self.sort = table, turn, sort
        self._button(label, table, turn, sort)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Open the amount form (the handler reads the range from the clicker's view)."""
        await _controls(interaction).ask_amount(interaction, self.table, self.turn, self.sort)


class RebuyButton(_Control, template=r"db:rebuy:(?P<table>\d+):(?P<turn>\d+):(?P<seat>\d+)"):
    """ "Rebuy" for the broke seat deciding between deals: opens the choice of caves."""

    kind, style, emoji = "rebuy", discord.ButtonStyle.success, "🪙"

    def __init__(self, table: int, turn: int, seat: int | str, label: str = "Rebuy") -> None:
        """A Rebuy button for `seat` (0-based) at `table`, made for `turn`."""
        self.table, self.turn, self.seat = table, turn, int(seat)
        self._button(label, table, turn, self.seat)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the clicker the choice of caves (the handler checks who and when)."""
        await _controls(interaction).ask_rebuy(interaction, self.table, self.turn, self.seat)


class CaveSelect(
    _Admitted,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"db:caves:(?P<table>\d+):(?P<turn>\d+):(?P<seat>\d+)",
):
    """How many caves to buy back in with (values are numbers of caves)."""

    def __init__(
        self,
        table: int,
        turn: int,
        seat: int,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ) -> None:
        """A menu of `options` (1 to the most caves) for `seat` at `table`, made for `turn`."""
        self.table, self.turn, self.seat = table, turn, seat
        options = options or [discord.SelectOption(label="1", value="1")]
        super().__init__(
            discord.ui.Select(
                custom_id=f"db:caves:{table}:{turn}:{seat}",
                options=options,
                min_values=1,
                max_values=1,
                placeholder=placeholder,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> CaveSelect:
        """Rebuild from a choice."""
        options = list(item.options) if isinstance(item, discord.ui.Select) else None
        return cls(int(match["table"]), int(match["turn"]), int(match["seat"]), options)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Buy back in by the chosen number of caves (the engine checks the number)."""
        chosen = self.item.values[0] if self.item.values else ""
        await _controls(interaction).buy_caves(
            interaction, self.table, self.turn, self.seat, chosen
        )


class AmountModal(_Admitted, discord.ui.Modal):
    """The form behind "Raise...": one amount, the legal range in its label. Submitting it
    plays ``<verb> <amount>`` through the handlers (the engine checks the amount)."""

    def __init__(
        self,
        table: int,
        turn: int,
        sort: str,
        verb: str,
        *,
        title: str,
        label: str,
        placeholder: str,
    ) -> None:
        """A form for `verb` (``bet`` or ``raise``) at `table`, made for `turn`."""
        super().__init__(title=title[:45], timeout=600)
        self.table, self.turn, self.sort, self.verb = table, turn, sort, verb
        self.amount: discord.ui.TextInput[AmountModal] = discord.ui.TextInput(
            label=label[:45], placeholder=placeholder[:100], min_length=1, max_length=12
        )
        self.add_item(self.amount)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Play the amount typed (refused with the range if it is not a whole number)."""
        await _controls(interaction).act_amount(
            interaction, self.table, self.turn, self.verb, self.amount.value, self.sort
        )


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    ActButton,
    CaveSelect,
    ChallengeButton,
    RebuyButton,
    PickButton,
    RaiseButton,
    HandButton,
    CardSelect,
    PlayButton,
    PassButton,
    HintButton,
    SortButton,
    AutoPassButton,
    OpenTableButton,
    BrowserButton,
    RevokeLinksButton,
)
"""Registered with `Bot.add_dynamic_items` at start-up."""
