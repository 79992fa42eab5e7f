"""What a web client is sent: JSON frames built from committed snapshots and events.

Pure: no sockets, no live table. Every frame is built from a `TableSnapshot` (the spectator
view, and the viewer's own seat view when they sit at the table) or from committed events
already filtered for the viewer's audience, so a frame can hold only what that viewer's
view holds. Nothing here decides a rule: the moves and their labels are the renderer's
(`legal_moves`, `bet_spot`, `card_pick`, `rebuy_offer`) in the words the Discord buttons
use (`discord.bet.*`, `discord.button.*`).

Frames (each a JSON object with ``t`` its type, see docs/web.md):

- ``state``: the whole table as the viewer sees it at committed turn ``n``;
- ``log``: the lines of committed events at turn ``n`` (what the terminal prints);
- ``refused``: an action refused, with the reason in the viewer's language;
- ``hint``: the AI's suggestion for the viewer's seat.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from typing import Any, NamedTuple

from bot.i18n import Addressee, catalog, t
from bot.pictures import Facts, board_model
from bot.render import GameRenderer, get_renderer
from bot.render.betting import bet_choices
from bot.render.fair import fair_line
from bot.render.phrases import deal_word
from bot.render.runtime_events import runtime_line
from bot.render.words import say_move
from bot.runtime.front import SeedsRevealed
from bot.runtime.snapshot import TableSnapshot
from bot.terminal.console import TERMINAL
from bot.terminal.opening import HUMAN_ID
from engines.base import Event
from engines.cards import Card

CLIENT_KEYS = "web."
"""The catalog keys the page itself shows (its fixed words), sent once per connection."""


def card_json(card: Card) -> dict[str, str]:
    """A card as the page shows it: its code (what a move names) and its name as the game
    writes it (``10♠``, the button's accessible name), and its suit letter (colours)."""
    code = str(card)
    return {"code": code, "name": card.pretty, "suit": code[-1].lower()}


def client_strings(lang: str) -> dict[str, str]:
    """The page's own words in `lang` (keys ``web.*`` of the catalogs)."""
    return {k: v for k, v in catalog(lang).items() if k.startswith(CLIENT_KEYS)}


def page_names(table: TableSnapshot, lang: str) -> TableSnapshot:
    """`table` with the local player's default name in the table's language (`deucebot
    play` without ``--name``: "You", "Vous", "Ви") said in `lang`, so a page a viewer asked
    in another language than the table's (``?lang=``) speaks only that one. Any other name
    is a name, the same in every language: one the player gave (``--name You`` at a French
    table), or a saved seat's from another language."""
    default = t("console.default_name", table.options.lang)
    mine = t("console.default_name", lang)
    seats = tuple(
        dataclasses.replace(seat, name=mine)
        if seat.owner is not None and seat.owner.id == HUMAN_ID and seat.name == default
        else seat
        for seat in table.seats
    )
    return table if seats == table.seats else table._replace(seats=seats)


def seconds_left(table: TableSnapshot, now: float) -> int | None:
    """Whole seconds left to the seat to act at `table`'s turn (None: no clock runs)."""
    timed = table.deadline is not None and table.deadline_turn == table.turn
    if not timed or table.deadline is None or table.to_act is None:
        return None
    return max(0, int(table.deadline - now))


def _model(table: TableSnapshot, lang: str, now: float) -> Any:
    """The board picture's model (from the spectator view only), None without a picture."""
    facts = Facts(
        tuple(seat.name for seat in table.seats),
        tuple(seat.away for seat in table.seats),
        seconds_left(table, now),
    )
    return board_model(table.game, table.view(None), facts, lang)


def alt_text(table: TableSnapshot, lang: str, now: float) -> str:
    """The table in words: the board picture's alt text (every card face it shows), from the
    spectator view only; the board's text when the game draws no picture."""
    return _alt(table, _model(table, lang, now), lang)


def _alt(table: TableSnapshot, model: Any, lang: str) -> str:
    """`alt_text` from the picture's `model` already built."""
    if model is None:
        return get_renderer(table.game).board(table.view(None), table.names, lang)
    text: str = model.alt()
    return text


def _seat_plate(seat: Any, lang: str) -> dict[str, Any]:
    """One seat of a picture's model as the page's plate: its name, its figures and its
    status words, in the picture's own words (what the picture draws, said the same)."""
    figures: list[str] = []
    tags: list[str] = []
    value = getattr
    if isinstance(value(seat, "net", None), int):  # draw's match end ranks by it
        figures.append(t("pictures.alt.net", lang, n=f"{seat.net:+,}"))
    for name in ("stack", "chips"):
        if isinstance(value(seat, name, None), int):
            figures.append(t("pictures.alt.stack", lang, n=value(seat, name)))
    if value(seat, "bet", 0):
        figures.append(t("pictures.alt.bet", lang, n=seat.bet))
    if isinstance(value(seat, "left", None), int):
        figures.append(t("pictures.alt.cards_left", lang, n=seat.left))
    if isinstance(value(seat, "penalty", None), int):
        figures.append(t("pictures.bigtwo.penalty", lang, n=seat.penalty))
    if isinstance(value(seat, "up", None), int):
        figures.append(f"▲{seat.up} ▼{seat.down}")
    if value(seat, "drew", None) is not None:
        figures.append(t("pictures.drew", lang, n=seat.drew))
    tags += [t(f"pictures.mark.{mark}", lang) for mark in value(seat, "marks", ())]
    tags += [t(f"pictures.tag.{tag}", lang) for tag in value(seat, "tags", ())]
    for flag, key in (
        ("dealer", "pictures.mark.dealer"),
        ("first", "pictures.mark.first"),
        ("leads", "pictures.tag.lead"),
        ("passed", "pictures.tag.pass"),
        ("all_in", "pictures.tag.allin"),
        ("locked", "pictures.alt.locked"),
        ("winner", "pictures.alt.winner"),
    ):
        if value(seat, flag, False) is True:
            tags.append(t(key, lang))
    return {
        "name": seat.name,
        "figures": figures,
        "tags": tags,
        "to_act": bool(seat.to_act),
        "winner": value(seat, "winner", False) is True,
        "holding": value(seat, "holding", 0),
    }


def picture_plates(table: TableSnapshot, lang: str, now: float) -> dict[str, Any] | None:
    """What the board picture shows, for the page to lay out: the header, each seat's plate,
    the pots, the stakes lines, the last play's words and the end banner (None without a
    picture). Built from the spectator view only, like the picture."""
    return _plates(_model(table, lang, now), lang)


def _plates(model: Any, lang: str) -> dict[str, Any] | None:
    """`picture_plates` from the picture's `model` already built."""
    if model is None:
        return None
    pots = [
        {"label": label, "amount": amount, "names": list(names)}
        for label, amount, names in getattr(model, "pots", ())
    ]
    if isinstance(getattr(model, "pot", None), int):
        pots.append({"label": t("pictures.pot.main", lang), "amount": model.pot, "names": []})
    if not pots:
        pots = bets_pot(model, lang)
    return {
        "header": model.header,
        "seats": [_seat_plate(seat, lang) for seat in model.seats],
        "pots": pots,
        "stakes": list(getattr(model, "stakes", ())),
        "play": getattr(model, "combo_label", "") or getattr(model, "last_label", ""),
        "note": getattr(model, "note", ""),
        "banner": model.banner,
    }


class Pictured(NamedTuple):
    """What a state frame says of the board picture, from the spectator view alone: the same
    for every page of the table in one language at one second (built once for them all)."""

    alt: str
    """`alt_text`."""
    picture: dict[str, Any] | None
    """`picture_plates`."""


def pictured(table: TableSnapshot, lang: str, now: float) -> Pictured:
    """`alt_text` and `picture_plates` of `table` (started), its picture's model built once."""
    model = _model(table, lang, now)
    return Pictured(_alt(table, model, lang), _plates(model, lang))


def live_pot(game: str, picture: dict[str, Any] | None) -> str:
    """The pots as the page's live line adds them after the deal line ("Pot: 30"); empty
    when the game's deal line (its board's first line, `<game>.board.title`) names the pot
    already (hold'em, the duel), so the live line says it once."""
    if picture is None or "{pot}" in catalog("en").get(f"{game}.board.title", ""):
        return ""
    return " · ".join(f"{pot['label']}: {pot['amount']}" for pot in picture["pots"])


def bets_pot(model: Any, lang: str) -> list[dict[str, Any]]:
    """Before a pot is gathered (hold'em's blinds before the flop), the chips bet so far as
    the pot, as Poker Now shows "Pot: 30" from the first action; none while nothing is bet."""
    bets = sum(getattr(seat, "bet", 0) or 0 for seat in model.seats)
    return [{"label": t("pictures.pot.main", lang), "amount": bets, "names": []}] if bets else []


def move_buttons(table: TableSnapshot, view: Any, lang: str) -> list[dict[str, str]]:
    """The viewer's move buttons, each its canonical action and its label: a betting
    decision's Fold, Check or Call with its amount, Min, ½ pot, Pot, All-in; else one per
    legal move in the viewer's words (Big Two: Pass; draw: stand pat)."""
    renderer = get_renderer(table.game)
    spot = renderer.bet_spot(view)
    if spot is not None:
        return [
            {"action": c.action, "label": t(f"discord.bet.{c.kind}", lang, n=c.amount)}
            for c in bet_choices(spot)
        ]
    pick = renderer.card_pick(view)
    texts = list(pick.other) if pick is not None else renderer.legal_moves(view)
    if renderer.plays_cards:
        texts = [text for text in texts if text == "pass"]
    return [
        {"action": text, "label": capital(say_move(text, renderer.move_areas, lang))}
        for text in texts
    ]


def capital(text: str) -> str:
    """`text` with its first letter upper-case (a button's label)."""
    return text[:1].upper() + text[1:]


def _controls(table: TableSnapshot, seat: int, view: Any, lang: str) -> dict[str, Any]:
    """What the viewer's seat may do now: moves, a choice of cards, a raise of any amount,
    a rebuy; empty when it is not their turn."""
    renderer = get_renderer(table.game)
    controls: dict[str, Any] = {"moves": [], "pick": None, "raise": None, "rebuy": None}
    playing = table.status == "playing"
    offer = renderer.rebuy_offer(view) if playing else None
    if offer is not None and offer.seat == seat:
        controls["rebuy"] = {
            "most": offer.most,
            "cave": offer.cave,
            "label": t("discord.rebuy.button", lang),
            "sit_out": t("discord.rebuy.sit_out", lang),
            "ask": t("discord.rebuy.ask", lang, most=offer.most, cave=offer.cave),
            "choose": t("discord.rebuy.choose", lang),
            "caves": [
                t("discord.rebuy.caves", lang, n=n, chips=n * offer.cave)
                for n in range(1, offer.most + 1)
            ],
        }
        return controls
    if not playing or table.to_act != seat:
        return controls
    controls["moves"] = move_buttons(table, view, lang)
    pick = renderer.card_pick(view)
    if renderer.plays_cards:
        controls["pick"] = {
            "verb": "play",
            "fewest": 1,
            "most": 5,
            "label": t("discord.button.play", lang),
            "prompt": t("discord.hand.choose", lang),
        }
    elif pick is not None:
        controls["pick"] = {
            "verb": pick.verb,
            "fewest": pick.fewest,
            "most": pick.most,
            "label": capital(say_move(pick.verb, renderer.move_areas, lang)),
            "prompt": t(f"discord.pick.{pick.verb}", lang),
        }
    spot = renderer.bet_spot(view)
    if spot is not None and spot.raise_verb is not None:
        controls["raise"] = {
            "verb": spot.raise_verb,
            "low": spot.low,
            "high": spot.high,
            "label": t(f"discord.bet.form.{spot.raise_verb}", lang),
            "field": t("discord.bet.form.label", lang, low=spot.low, high=spot.high),
        }
    return controls


PAGE_WORDS = {"draw.hand.draw_menu": "web.hand.draw", "duel.hand.lock_menu": "web.hand.lock"}
"""The hand's lines written for Discord's card menu, and the page's own words for them."""


def page_hand_text(renderer: GameRenderer, view: Any, lang: str) -> str:
    """The hand's words on the page: Discord's (buttons, not words to type), with the lines
    that speak of Discord's card menu in the page's words (tap the cards), and the duel's
    signals in the viewer's words (the board text keeps the game's UP and DOWN)."""
    text = renderer.hand(view, lang, menu=True)
    for discord, page in PAGE_WORDS.items():
        text = text.replace(t(discord, lang), t(page, lang))
    signals, seat = getattr(view, "signals", None), getattr(view, "seat", None)
    if signals and seat is not None:
        up, down = signals[seat]
        said = t("web.hand.signal", lang, up=up, down=down)
        text = text.replace(t("duel.signal", lang, up=up, down=down), said)
    return text


def out_choice(
    table: TableSnapshot, seat: int | None, lang: str, *, restarts: bool
) -> dict[str, str | None] | None:
    """What a player out of the match (hold'em: no chips left) while the others play on is
    offered, as the terminal's watch / new: the line saying so, with `restarts` (the local
    table of `deucebot play --web`) Watch and New match; a table on Discord has only its
    line (a new match is Discord's /table restart). None while the player is in."""
    if seat is None or table.status != "playing":
        return None
    if not get_renderer(table.game).eliminated(table.view(seat)):
        return None
    if not restarts:
        return {"line": t("web.out.discord", lang), "watch": None, "new": None}
    return {
        "line": t("web.out.line", lang),
        "watching": t("web.out.watching", lang),
        "watch": t("web.out.watch", lang),
        "new": t("web.out.new", lang),
    }


def turn_text(table: TableSnapshot, seat: int | None, lang: str) -> str:
    """Whose turn it is, in words (the page's live region reads it)."""
    if table.status == "finished":
        return t("web.turn.over", lang)
    if table.status != "playing" or table.to_act is None:
        return t("web.turn.waiting", lang)
    if table.to_act == seat:
        return t("web.turn.yours", lang)
    return t("web.turn.other", lang, name=table.seats[table.to_act].name)


def state_frame(
    table: TableSnapshot,
    seat: int | None,
    lang: str,
    now: float,
    shared: Pictured | None = None,
) -> dict[str, Any]:
    """The whole table as the owner of `seat` (None: a spectator) sees it at the snapshot's
    committed turn. `table` must hold that seat's view (`TableSnapshot.view` refuses any
    other), so no other seat's cards can get in. `shared`: `pictured(table, lang, now)`
    already built (for another page of the table)."""
    renderer = get_renderer(table.game)
    public = table.view(None)
    own = table.view(seat) if seat is not None else None
    frame: dict[str, Any] = {
        "t": "state",
        "n": table.turn,
        "game": table.game,
        "title": t(f"discord.game.{table.game}", lang),
        "status": table.status,
        "deal": table.deal,
        "unit": deal_word(table.game, lang, title=True),
        "seat": seat,
        "to_act": table.to_act,
        "seats": [{"name": s.name, "ai": s.owner is None, "away": s.away} for s in table.seats],
        "turn_text": turn_text(table, seat, lang),
        "time_left": seconds_left(table, now),
        "board": "",
        "summary": "",
        "live_pot": "",
        "alt": "",
        "picture": None,
        "table_cards": [],
        "hand": [],
        "hand_text": "",
        "controls": {"moves": [], "pick": None, "raise": None, "rebuy": None},
        "hint": None,
        "autopass": None,
    }
    if public is None:
        return frame
    frame["board"] = renderer.board(public, addressed(table.names, seat), lang)
    frame["summary"] = frame["board"].split("\n", 1)[0]
    frame["alt"], frame["picture"] = shared or pictured(table, lang, now)
    frame["live_pot"] = live_pot(table.game, frame["picture"])
    frame["table_cards"] = [card_json(c) for c in renderer.table_cards(public)]
    if seat is None or own is None:
        return frame
    locked = getattr(own, "my_lock", None)  # the duel's locked card
    frame["hand"] = [{**card_json(c), "locked": c == locked} for c in renderer.hand_cards(own)]
    frame["hand_text"] = page_hand_text(renderer, own, lang)
    frame["controls"] = _controls(table, seat, own, lang)
    if table.status == "playing" and table.to_act == seat:
        frame["hint"] = t("discord.button.hint", lang)
    if renderer.plays_cards:
        owner = table.seats[seat].owner
        on = owner is not None and owner.id in table.autopass
        state = t(f"discord.autopass.{'on' if on else 'off'}", lang)
        frame["autopass"] = {"on": on, "label": t("discord.button.autopass", lang, state=state)}
    return frame


def addressed(names: Sequence[str], seat: int | None) -> list[str]:
    """`names` with the viewer's own as an `Addressee`, so lines about them read "You call"
    (the catalogs' second-person forms)."""
    return [Addressee(name) if i == seat else name for i, name in enumerate(names)]


def _carried(names: Sequence[str], seat: int, name: str) -> str:
    """The name a seat event carries ("Ann is away", the viewer's own seat too)."""
    return name


PAGE = dataclasses.replace(TERMINAL, seat_name=_carried, public=True)
"""The runtime's events as the page says them: the terminal's words, but public (the
journal's entries of them reach every page of the table), so a timed-out move names no
hidden card, as the Discord channel's line does."""


def event_lines(game: str, events: Sequence[Event], names: Sequence[str], lang: str) -> list[str]:
    """The lines of committed `events` (already those of the viewer's audience) in `lang`."""
    renderer = get_renderer(game)
    lines: list[str] = []
    for event in events:
        # A reveal of the seeds is said by its fair line below (not verifiable here).
        said = (
            None
            if isinstance(event, SeedsRevealed)
            else runtime_line(event, names, lang, renderer, PAGE)
        )
        line = said or renderer.event(event, names, lang)
        if line:
            lines.append(line)
        fair = fair_line(event, lang, game, verifiable=False)
        if fair:
            lines.append(fair)
    return lines


def encode(frame: dict[str, Any]) -> str:
    """`frame` as the text a page receives (compact JSON, non-ASCII letters as they are)."""
    return json.dumps(frame, ensure_ascii=False, separators=(",", ":"))


def log_frame(turn: int, lines: Sequence[str], *, deal_end: bool = False) -> dict[str, Any]:
    """The lines of the events committed at `turn` (``deal_end``: a deal's result is in
    them, the page shows it apart)."""
    return {"t": "log", "n": turn, "lines": list(lines), "result": deal_end}
