"""Hold'em deals in the Poker Hand History format (PHH, https://phh.readthedocs.io), the
plain-text TOML standard pokerkit reads and writes.

A deal becomes one PHH document (variant ``NT``): the players dealt in, ``p1`` the first
after the button and the button last (heads-up: ``p1`` the big blind), their stacks when
the deal began, the blinds, then every action in PHH notation: ``d dh p1 AcKd`` (``????``
for cards the viewer never saw), ``p2 cbr 60``, ``p3 cc``, ``p1 f``, ``d db 7h8s9c``,
``p1 sm AcKd``. Several deals make a ``.phhs`` file (one ``[n]`` table per deal, as
pokerkit's ``HandHistory.dumps_all``).

The actions follow pokerkit's order of play, which differs from the engine's in two
places the writer fills in: pokerkit asks a player for a check the engine skips (nothing to
call and nobody left who could bet against them), and when at most one player still has
chips, pokerkit shows the hands down before dealing the rest of the board.

Written from the JSON history (`bot.history.model`), so a file exported earlier converts
the same way; pokerkit itself is only needed to read the result (the tests do).
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.history.build import HistoryError
from bot.history.model import DealHistory, HistoryFile, MatchHistory
from engines.registry import get_game

UNKNOWN = "??"


def _cards(codes: Iterable[str]) -> str:
    """Card codes in PHH notation: rank then lower-case suit (``Ac``, ``Td``)."""
    return "".join(code[:-1] + code[-1].lower() for code in codes)


@dataclass
class _Betting:
    """pokerkit's betting state for one hand, to know when it asks whom (see the module doc)."""

    stacks: list[int]
    blinds: list[int]
    active: list[bool] = field(init=False)
    bets: list[int] = field(init=False)
    queue: deque[int] = field(default_factory=deque)
    out: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.active = [True] * len(self.stacks)
        self.bets = [0] * len(self.stacks)

    @property
    def live(self) -> int:
        """Players still in the hand."""
        return sum(self.active)

    def post(self, player: int, amount: int) -> None:
        """A blind goes in."""
        self.bets[player] += amount
        self.stacks[player] -= amount

    def _effective(self, player: int) -> int:
        totals = sorted(
            self.bets[i] + self.stacks[i] for i in range(len(self.stacks)) if self.active[i]
        )
        return min(self.stacks[player], max(0, totals[-2] - self.bets[player]))

    def begin(self, preflop: bool) -> None:
        """A betting round starts: pokerkit's first actor and queue."""
        n = len(self.stacks)
        signs = [1 if b > 0 else 0 for b in self.blinds] if preflop else [0] * n
        top = max(range(n), key=lambda i: (self.bets[i] * signs[i], i))
        order = [(top + 1 + i) % n for i in range(n)]
        self.queue = deque(
            i for i in order if self.active[i] and self.stacks[i] and self._effective(i)
        )
        if len(self.queue) == 1 and self.bets[self.queue[0]] >= max(self.bets):
            self.queue.clear()
        if self.live <= 1:
            self.queue.clear()

    def _check_for(self, player: int) -> None:
        """A check pokerkit asks for and the engine skipped."""
        if self.bets[player] < max(self.bets):
            raise ValueError(f"p{player + 1} owes chips but did not act")
        self.out.append(f"p{player + 1} cc")
        self.queue.popleft()

    def act(self, player: int, verb: str, total: int, added: int) -> None:
        """One of the engine's betting actions."""
        while self.queue and self.queue[0] != player:
            self._check_for(self.queue[0])
        if not self.queue:
            raise ValueError(f"p{player + 1} acted after pokerkit closed the betting")
        self.queue.popleft()
        self.stacks[player] -= added
        self.bets[player] += added
        if verb == "fold":
            self.active[player] = False
            self.out.append(f"p{player + 1} f")
        elif verb in ("check", "call"):
            self.out.append(f"p{player + 1} cc")
        else:
            self.out.append(f"p{player + 1} cbr {total}")
            n = len(self.stacks)
            self.queue = deque(
                i
                for i in ((player + 1 + k) % n for k in range(n - 1))
                if self.active[i] and self.stacks[i]
            )
        if self.live <= 1:
            self.queue.clear()

    def end(self) -> bool:
        """The round closes: the checks pokerkit still asks for; True when at most one player
        in the hand has chips left (pokerkit then shows down before the rest of the board)."""
        while self.queue and self.live > 1:
            self._check_for(self.queue[0])
        self.queue.clear()
        with_chips = sum(1 for i in range(len(self.stacks)) if self.active[i] and self.stacks[i])
        self.bets = [0] * len(self.stacks)
        return self.live > 1 and with_chips <= 1


def _events(deal: DealHistory) -> list[dict[str, Any]]:
    return [entry.event for entry in deal.events]


def deal_to_phh(match: MatchHistory, deal: DealHistory) -> str:
    """One ended hold'em deal as a PHH document, as `match.viewer` saw it."""
    if "phh" not in get_game(match.game).history_formats:
        raise HistoryError(
            f"only hold'em deals have a PHH form, not {match.game}",
            code="history_phh_holdem_only",
            game=match.game,
        )
    if not deal.ended or deal.result is None or deal.stacks is None:
        raise HistoryError(
            f"deal {deal.deal} has not ended", code="history_deal_not_ended", deal=deal.deal
        )
    n = len(match.seats)
    events = _events(deal)
    dealt = deal.result.dealt if deal.result.dealt is not None else list(range(n))
    order = [s for s in ((deal.dealer + 1 + i) % n for i in range(n)) if s in dealt]
    index = {seat: i for i, seat in enumerate(order)}
    config = match.config
    small, big = int(config.get("small_blind", 10)), int(config.get("big_blind", 20))
    blinds = [small, big] + [0] * (len(order) - 2)
    holes: dict[int, list[str]] = {}
    shown: list[tuple[int, list[str]]] = []
    for event in events:
        if event["kind"] == "hole_cards":
            holes[event["seat"]] = event["cards"]
        elif event["kind"] == "showdown":
            shown = [(hand["seat"], hand["cards"]) for hand in event["hands"]]
            for seat, cards in shown:
                holes[seat] = cards
    starting = [deal.stacks[seat] for seat in order]
    betting = _Betting(list(starting), blinds if len(order) > 2 else blinds[::-1])
    out = betting.out
    for seat in order:
        hole = holes.get(seat)
        out.append(f"d dh p{index[seat] + 1} {_cards(hole) if hole else UNKNOWN * 2}")
    showed = False

    def show_down() -> None:
        nonlocal showed
        if not showed:
            out.extend(f"p{index[seat] + 1} sm {_cards(cards)}" for seat, cards in shown)
            showed = True

    in_round = False
    for event in events:
        kind = event["kind"]
        if kind == "blinds_posted":
            betting.post(index[event["small_blind_seat"]], event["small_blind"])
            betting.post(index[event["big_blind_seat"]], event["big_blind"])
            betting.begin(preflop=True)
            in_round = True
        elif kind == "player_acted":
            betting.act(index[event["seat"]], event["verb"], event["total"], event["added"])
        elif kind == "uncalled_returned":
            betting.stacks[index[event["seat"]]] += event["amount"]
        elif kind in ("board_dealt", "showdown", "deal_settled") and in_round:
            in_round = False
            if betting.end():
                show_down()
            if kind == "board_dealt":
                out.append(f"d db {_cards(event['cards'])}")
                if not showed:
                    betting.begin(preflop=False)
                    in_round = True
            elif kind == "showdown":
                show_down()
        elif kind == "board_dealt":
            out.append(f"d db {_cards(event['cards'])}")
    chips = deal.result.chips or [0] * n
    finishing = [deal.stacks[seat] + chips[seat] for seat in order]
    names = {s.seat: s.name for s in match.seats}
    fields: list[tuple[str, Any]] = [
        ("variant", "NT"),
        ("ante_trimming_status", True),
        ("antes", [0] * len(order)),
        ("blinds_or_straddles", blinds),
        ("min_bet", big),
        ("starting_stacks", starting),
        ("actions", out),
        ("hand", deal.deal),
        ("table", match.place),
        ("seats", [seat + 1 for seat in order]),
        ("seat_count", n),
        ("players", [names.get(seat, f"seat {seat + 1}") for seat in order]),
        ("finishing_stacks", finishing),
        ("_deucebot_match", match.match_id),
    ]
    return "\n".join(f"{key} = {_toml(value)}" for key, value in fields) + "\n"


def _toml(value: Any) -> str:
    """A TOML value: booleans, integers, strings (JSON escapes are valid TOML) and arrays."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, Sequence):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    raise TypeError(f"no TOML form for {value!r}")


def history_to_phhs(history: HistoryFile) -> str:
    """Every ended hold'em deal of a history file as one ``.phhs`` text (``[1]``, ``[2]``...);
    `HistoryError` (``history_no_holdem``) when there is none."""
    documents = [
        deal_to_phh(match, deal)
        for match in history.matches
        if "phh" in get_game(match.game).history_formats
        for deal in match.deals
        if deal.ended
    ]
    if not documents:
        raise HistoryError(
            "there is no ended hold'em deal to write as PHH", code="history_no_holdem"
        )
    return "\n".join(f"[{i}]\n{doc}" for i, doc in enumerate(documents, 1))
