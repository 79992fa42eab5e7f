"""Renderers: how each game looks and reads, shared by the terminal and Discord fronts.

Each game declares its bot side once, in a `GameFace` (`FACE` of its module, named by
`GameSpec.face`; the four games' are `bot.render.<game>`): its renderer, an object with
the `GameRenderer` surface, the module of its pictures and its gallery scenes. Renderers
only ever get views and events (never the engine state), so they cannot leak a hidden card.
Every string they produce goes through `bot.i18n.t` so it exists in English, French and
Ukrainian. Fronts read a view only through its renderer (`table_cards`,
`hand_cards`, `legal_moves`), never by field name, so a new game needs no change
in the fronts. `bot.render.text` holds what is the same for every game (an
action's text with suit symbols).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.i18n import t
from bot.render.betting import BetSpot, CardPick, RebuyOffer
from engines.base import Event, IllegalAction
from engines.cards import Card
from engines.registry import get_game


class GameRenderer(Protocol):
    """Text forms of one game's views and events, and the grammar people type."""

    plays_cards: bool
    """True when a move is a choice of cards from the hand (a card menu on Discord, as in
    Big Two); False when moves are picked from the legal actions (one button each)."""

    dealing: tuple[type[Event], ...]
    """The private events that deal a seat its hand for a deal: its owner is sent the hand
    (a DM on Discord) then, and not after their own moves (the answer shows it)."""

    move_areas: tuple[str, ...]
    """The catalog areas of the game's move words (``<area>.word.<verb>``, `bot.render.words`):
    what people may type in their language and how a move reads in it."""

    def board(self, view: Any, names: Sequence[str], lang: str, *, brief: bool = False) -> str:
        """The public table as text (seats in play order, last play, whose turn, scores).
        Built from a spectator's view, so it is safe to post publicly. `brief`: beside the
        table's picture, whose plates and alt text give each seat's figures: the seats'
        lines are left out (the rest, and whose turn it is, stay)."""
        ...

    def hand(
        self, view: Any, lang: str, order: Sequence[Card] | None = None, *, menu: bool = False
    ) -> str:
        """The private part of a seat's view (its cards, its options), for its owner only.
        `order` is the order the hand's picture and menu show the cards in (after Sort):
        the text lists them in that order too, each with the position people type for it
        (`bot.render.text.numbered_cards`). `menu`: shown beside Discord's card menu and
        buttons, so it speaks of them instead of the words typed in the terminal."""
        ...

    def event(self, event: Event, names: Sequence[str], lang: str) -> str | None:
        """One line describing an event, or None for events not worth a line."""
        ...

    def parse_input(self, text: str, view: Any) -> Any:
        """Turn what a person typed (``3d 3s``, ``1 4``, ``pass``, ``raise 120``) into an action
        for the seat of `view`. Raises `IllegalAction` (or `CardParseError`) with a specific
        message."""
        ...

    def input_help(self, lang: str, view: Any = None) -> str:
        """How to type actions in this game; given the `view` of the seat to act, a game may
        say only what can be done at this moment."""
        ...

    def table_cards(self, view: Any) -> list[Card]:
        """The cards on the table in a (public) view, for the board's picture: the last play
        of the trick, the community cards; none for games without such cards."""
        ...

    def hand_cards(self, view: Any) -> list[Card]:
        """The cards of the view's own seat, in the game's order (none for a spectator)."""
        ...

    def legal_moves(self, view: Any) -> list[str]:
        """The canonical texts of the moves the view's seat may make now (none when it is
        not its turn)."""
        ...

    def hand_changed(self, event: Event) -> int | None:
        """The seat whose hand this public event changed (its owner gets the new hand), or
        None. Private events already reach the owner."""
        ...

    def bet_spot(self, view: Any) -> BetSpot | None:
        """The betting decision of the view's seat (amounts from the view), or None when it
        is not to bet now (not its turn, another kind of move, a game without betting)."""
        ...

    def card_pick(self, view: Any) -> CardPick | None:
        """When the view's seat is to choose cards of its hand (draw's discards, the duel's
        lock): the move's verb and how many cards; None otherwise. The move is then typed
        as ``<verb> <cards>`` (read by `parse_input`)."""
        ...

    def set_aside_by(self, view: Any, cards: Sequence[Card]) -> list[Card]:
        """The cards of `cards` the view's seat would set aside by discarding them now (draw
        poker: an opener splitting their openers); none in other games."""
        ...

    def rebuy_offer(self, view: Any) -> RebuyOffer | None:
        """Between deals, the buy-back choice of the broke seat to decide (from any view,
        the spectator's too); None otherwise and in games without rebuys."""
        ...

    def rebuy_refusal(self, view: Any) -> IllegalAction | None:
        """Why the view's seat may not buy back in now (the engine's refusal: during a
        deal, chips still in hand), or None."""
        ...

    def standings(self, view: Any, names: Sequence[str], lang: str) -> str:
        """One line: where every seat stands as the deal `view` starts (chips each seat held
        when the previous deal ended, or the penalties so far), for a deal's end."""
        ...

    def eliminated(self, view: Any) -> bool:
        """True when the view's seat is out of the match for good (hold'em: no chips left),
        while the others play on."""
        ...

    def knocked_out(self, event: Event) -> int | None:
        """The seat this event puts out of the match for good, or None."""
        ...


class _WithLegal(Protocol):
    @property
    def legal(self) -> Sequence[object]: ...


class ViewAccessors:
    """The `GameRenderer` view accessors of most games, for a renderer to inherit: its views
    have `hand` (the seat's cards) and `legal` (the actions it may take), no cards on the
    table, and hands change only through private events. Override what differs."""

    def table_cards(self, view: Any) -> list[Card]:
        """No cards on the table."""
        return []

    def hand_cards(self, view: Any) -> list[Card]:
        """The seat's cards (the view's `hand`), in the view's order."""
        hand: Sequence[Card] = view.hand
        return list(hand)

    def legal_moves(self, view: _WithLegal) -> list[str]:
        """Every legal action, as canonical text."""
        return [str(action) for action in view.legal]

    def hand_changed(self, event: Event) -> int | None:
        """No public event changes a hand (cards arrive privately)."""
        return None

    def bet_spot(self, view: Any) -> BetSpot | None:
        """No betting."""
        return None

    def card_pick(self, view: Any) -> CardPick | None:
        """No choice of cards besides the legal moves."""
        return None

    def set_aside_by(self, view: Any, cards: Sequence[Card]) -> list[Card]:
        """Nothing is set aside."""
        return []

    def rebuy_offer(self, view: Any) -> RebuyOffer | None:
        """No rebuys."""
        return None

    def rebuy_refusal(self, view: Any) -> IllegalAction | None:
        """No rebuys in this game."""
        return IllegalAction("there is no rebuy in this game", code="no_rebuy")

    def eliminated(self, view: Any) -> bool:
        """Nobody is knocked out before the match ends."""
        return False

    def knocked_out(self, event: Event) -> int | None:
        """No event knocks a seat out."""
        return None


def chip_standings(chips: Sequence[int], names: Sequence[str], lang: str) -> str:
    """The standings line of a chip game: every seat's chips, in seat order."""
    seats = ", ".join(
        f"{names[s] if s < len(names) else f'#{s + 1}'} {n}" for s, n in enumerate(chips)
    )
    return t("phrase.standings.chips", lang, seats=seats)


def _no_settings(seats: int) -> Mapping[str, Any]:
    return {}


@dataclass(frozen=True)
class Gallery:
    """How `deucebot gallery` shows a game: the AI players of its seeded matches, the
    settings they are played with, and when a public view is "mid-deal"."""

    mid_deal: Callable[[Any], bool]
    """Whether a public view is in the middle of a deal (the gallery's second moment)."""
    policies: tuple[str, ...] = ()
    """The AI players, seat after seat (quick ones); empty: the game's default policy."""
    settings: Callable[[int], Mapping[str, Any]] = field(default=_no_settings)
    """Config settings of the gallery's match at a seat count, besides seats."""
    bare_results: bool = False
    """A deal's result picture is a showdown even when it shows no card face."""
    side_pots: bool = False
    """Side pots are a key moment: looked for in further seeded matches if need be."""


@dataclass(frozen=True)
class GameFace:
    """A game's bot side, declared once: its renderer, where its pictures are drawn (a
    module with `board` and `result`, see `bot.pictures`) and its gallery scenes."""

    renderer: GameRenderer
    pictures: str
    gallery: Gallery
    sparring: str | None = None
    """The module that measures a candidate against a pool of styles on this game's deals
    (`deucebot simulate GAME --against`): its `simulate_against(args, candidate, pool)`
    prints the figures and returns the exit code. None: the game has no sparring pool."""
    trainers: Mapping[str, str] = field(default_factory=dict)
    """`deucebot train NAME`: each trainer's name and the module whose `train(args)` makes
    (or, with `--report`, measures) the shipped tables or weights of one of its levels."""


def get_face(game: str) -> GameFace:
    """The bot-side declaration of `game` (`FACE` of the module its `GameSpec.face`
    names, by default `bot.render.<game>`)."""
    spec = get_game(game)
    module = importlib.import_module(spec.face or f"bot.render.{spec.name}")
    face: GameFace = module.FACE
    return face


def get_renderer(game: str) -> GameRenderer:
    """The renderer of `game` (its `GameFace`'s)."""
    return get_face(game).renderer
