"""The live state of a French draw poker match (rules: docs/draw.md).

A match is a series of deals. Between deals, each seat at 0 chips is asked to
buy back in ("rebuy N") or sit out. A deal is a blind deal or, when chips
were left on the table (check-around or unopened jackpot), a jackpot deal:

- blind deal: the blind is posted, the surblind offered (phase "surblind"),
  cards looked at, betting with the entry price ("bet1"), the draw ("draw"),
  the final betting ("bet2"), showdown; a check-around carries every chip;
- jackpot deal: antes, opening betting ("bet1", opening needs the current
  requirement), then as a blind deal; unopened -> the next deal is a jackpot
  with the requirement moving J, Q, K, A, Q, K, A ...

`DealSettled.chips` is each seat's stack change over the deal: in a deal that
ends with chips carried, those chips count as lost by whoever put them in
(they are still on the table), and the winner of the jackpot later counts
them as won.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engines.base import (
    JSON,
    ChipsBought,
    DealSettled,
    DealStarted,
    Event,
    IllegalAction,
    MatchEnded,
    NotYourTurn,
    require_seat,
)
from engines.cards import Card, Deck, parse_card
from engines.draw import hands
from engines.draw.actions import (
    STAND,
    AllIn,
    Bet,
    BettingAction,
    Call,
    Check,
    Draw,
    DrawAction,
    Fold,
    NoSurblind,
    Open,
    Raise,
    Rebuy,
    SitOut,
    Surblind,
)
from engines.draw.config import DrawConfig
from engines.draw.events import (
    Acted,
    CardsDealt,
    Carried,
    DealKind,
    Drew,
    NewCards,
    OpenerProof,
    Posted,
    PotReturned,
    PotWon,
    SatOut,
    Shown,
    StockRenewed,
)
from engines.draw.view import PUBLIC_DRAW, DrawView
from engines.fair import DealSource
from engines.poker.betting import BettingRound
from engines.poker.events import UncalledReturned
from engines.poker.pots import Pot, best_of, build_pots, odd_chip_order, settle

_ALL_DRAWS: tuple[Draw, ...] = tuple(
    Draw(tuple(p for p in range(1, 6) if mask >> (p - 1) & 1)) for mask in range(32)
)


def _cards(items: Sequence[Card]) -> list[str]:
    return [str(c) for c in items]


def _uncards(items: Sequence[str]) -> list[Card]:
    return [parse_card(c) for c in items]


def rebuy_refusal(phase: str, stack: int, action: DrawAction) -> IllegalAction | None:
    """Why a seat holding `stack` chips may not make `action` (a rebuy or sitting out) in
    `phase`, or None: only between deals (phase "rebuy"), and only by a player with no
    chips. Checked before the turn, so the reason is the rule, not "not your turn"."""
    if phase != "rebuy" and isinstance(action, SitOut):
        return IllegalAction(
            f"{action}: you can only sit out between deals, with no chips; finish this deal "
            "(fold to leave it now) or leave the table",
            code="sit_out_during_deal",
            action=str(action),
        )
    if phase != "rebuy":
        return IllegalAction(
            f"{action}: you can only buy back in between deals, not during one",
            code="rebuy_during_deal",
            action=str(action),
        )
    if stack > 0:
        return IllegalAction(
            f"{action}: you still have {stack} chips; only a player with none buys back in",
            code="rebuy_has_chips",
            action=str(action),
            chips=stack,
        )
    return None


def split_openers(proof: Sequence[Card], discards: Sequence[Card]) -> list[Card]:
    """The discards an opener sets aside face down: those of their openers' proof (docs/draw.md,
    "Openers' proof"), shown with the proof at the end of the deal."""
    return [card for card in discards if card in proof]


class DrawState:
    """One match of French draw poker. See the module docstring for the flow."""

    def __init__(
        self, config: DrawConfig, rng: random.Random, source: DealSource | None = None
    ) -> None:
        """Seat every player with one cave unit and deal the first deal (dealer drawn by `rng`,
        cards from `source`; default: a source with a secret drawn from `rng`)."""
        self.config = config
        n = config.seats
        self.stacks = [config.cave_unit] * n
        self.bought = [config.cave_unit] * n
        self.deal_no = 0
        self.dealer = rng.randrange(n)  # first from `rng`: the dealer does not depend on cards
        self.source = source if source is not None else DealSource.from_rng(rng)
        self.phase = "rebuy"
        self.deal_kind = "blind"
        self.unopened = 0
        self.carried = 0
        self.carried_by = [0] * n
        self.in_deal = [False] * n
        self.folded = [False] * n
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        self.stock: list[Card] = []
        self.discards: list[Card] = []
        self.drawn: list[int | None] = [None] * n
        self.set_aside: list[Card] = []
        self.opener: int | None = None
        self.proof: list[Card] = []
        self.requirement_at_open: str | None = None
        self.put_in = [0] * n
        self.start_stacks = list(self.stacks)
        self.round: BettingRound | None = None
        self.posted = [0] * n
        self.blind_seat: int | None = None
        self.surblind_seat: int | None = None
        self.surblind_candidate: int | None = None
        self.queue: list[int] = []
        self.history: list[tuple[int, str]] = []
        self.renewals = 0
        """How many times the stock was renewed in this deal (numbers its reshuffles)."""
        self.finished = False
        self.result: tuple[tuple[int, ...], tuple[int, ...]] | None = None
        self.opening_events: list[Event] = [
            ChipsBought(seat=s, amount=config.cave_unit, reason="buy-in") for s in range(n)
        ]
        self.opening_events += self._between_deals(first=True)

    # ----------------------------------------------------------------- queries

    @property
    def seats(self) -> int:
        """Number of seats."""
        return self.config.seats

    @property
    def to_act(self) -> int | None:
        """The seat that must act now, or None once the match is over."""
        if self.finished:
            return None
        if self.phase in ("rebuy", "draw"):
            return self.queue[0]
        if self.phase == "surblind":
            return self.surblind_candidate
        assert self.round is not None
        return self.round.to_act

    @property
    def requirement(self) -> str | None:
        """The opening requirement of the current jackpot deal ("jacks" ...), else None."""
        if self.deal_kind != "jackpot":
            return None
        return hands.REQUIREMENT_NAMES[hands.requirement(self.unopened)]

    def _alive(self) -> list[bool]:
        return [i and not f for i, f in zip(self.in_deal, self.folded, strict=True)]

    def _next_in_deal(self, seat: int) -> int:
        for step in range(1, self.seats + 1):
            nxt = (seat + step) % self.seats
            if self.in_deal[nxt]:
                return nxt
        return seat

    def pot_total(self) -> int:
        """Every chip on the table: carried, put in this deal, and stakes of the current round."""
        stakes = sum(self.round.committed) if self.round else sum(self.posted)
        return self.carried + sum(self.put_in) + stakes

    def legal_actions(self, seat: int) -> list[DrawAction]:
        """Representative legal actions of `seat` (amounts: the minimum and all-in)."""
        if self.finished or seat != self.to_act:
            return []
        if self.phase == "rebuy":
            units = range(1, self.config.max_rebuy_units + 1)
            return [*(Rebuy(u) for u in units), SitOut()]
        if self.phase == "surblind":
            return [Surblind(), NoSurblind()]
        if self.phase == "draw":
            return list(_ALL_DRAWS)
        rnd = self.round
        assert rnd is not None
        base: list[DrawAction] = list(rnd.legal_actions(seat))
        if not self._opening_round():
            return base
        can_open = self._can_open(seat)
        out: list[DrawAction] = []
        for action in base:
            if isinstance(action, Bet):
                if can_open:
                    out.append(Open(action.amount))
            elif not isinstance(action, AllIn) or can_open:
                out.append(action)
        return out

    def _opening_round(self) -> bool:
        """Is this the betting of a jackpot deal before anyone opened?"""
        return (
            self.phase == "bet1"
            and self.deal_kind == "jackpot"
            and self.round is not None
            and self.round.current_bet == 0
        )

    def _can_open(self, seat: int) -> bool:
        needed = hands.requirement(self.unopened)
        return hands.opening_proof(self.hands[seat], needed) is not None

    # ------------------------------------------------------------------ checks

    def check(self, seat: int, action: DrawAction) -> None:
        """Raise `IllegalAction` if `action` by `seat` would be refused; change nothing."""
        require_seat(seat, self.seats)
        if self.finished:
            raise IllegalAction("the match is over", code="match_over")
        if isinstance(action, (Rebuy, SitOut)):
            refusal = rebuy_refusal(self.phase, self.stacks[seat], action)
            if refusal is not None:
                raise refusal
        if seat != self.to_act:
            raise NotYourTurn(seat, self.to_act)
        if self.phase == "rebuy":
            self._check_rebuy(action)
        elif self.phase == "surblind":
            if not isinstance(action, (Surblind, NoSurblind)):
                raise IllegalAction(
                    f"{action}: first say whether you double the blind: 'surblind' or 'no'",
                    code="surblind_first",
                    action=str(action),
                )
        elif self.phase == "draw":
            if not isinstance(action, Draw):
                raise IllegalAction(
                    f"{action}: it is the draw; change cards with 'draw 1 3 4' or 'stand'",
                    code="draw_now",
                    action=str(action),
                )
            if any(not 1 <= p <= len(self.hands[seat]) for p in action.positions) or len(
                set(action.positions)
            ) != len(action.positions):
                raise IllegalAction(
                    f"{action}: positions must be distinct numbers from 1 to 5",
                    code="bad_positions",
                    action=str(action),
                )
        else:
            self._check_bet(seat, action)

    def _check_rebuy(self, action: DrawAction) -> None:
        if isinstance(action, SitOut):
            return
        if not isinstance(action, Rebuy):
            raise IllegalAction(
                f"{action}: you have no chips; buy back in with 'rebuy 1' or 'sitout'",
                code="rebuy_or_sitout",
                action=str(action),
            )
        most = self.config.max_rebuy_units
        if not 1 <= action.units <= most:
            raise IllegalAction(
                f"{action}: buy back in by 1 to {most} cave units",
                code="rebuy_units",
                action=str(action),
                most=most,
            )

    def _check_bet(self, seat: int, action: DrawAction) -> None:
        rnd = self.round
        assert rnd is not None
        text = str(action)
        if isinstance(action, (Surblind, NoSurblind, Rebuy, SitOut, Draw)):
            where = "before the draw" if self.phase == "bet1" else "after the draw"
            raise IllegalAction(
                f"{text}: it is the betting {where}; check, call, bet, raise or fold",
                code="betting_now",
                action=text,
            )
        if self._opening_round():
            if isinstance(action, Bet):
                raise IllegalAction(
                    f"{text}: nobody has opened this jackpot yet; open with 'open {action.amount}'",
                    code="use_open",
                    action=text,
                )
            if isinstance(action, (Open, AllIn)) and not self._can_open(seat):
                name = self.requirement
                raise IllegalAction(
                    f"{text}: you need a pair of {name} or better to open this pot",
                    code="open_requirement",
                    action=text,
                    requirement=name,
                    rank=hands.requirement(self.unopened).char,
                )
            if isinstance(action, Open):
                try:
                    rnd.check(seat, Bet(action.amount))
                except IllegalAction as error:
                    message = error.message.replace(f"bet {action.amount}", text)
                    raise IllegalAction(message, code=error.code, **error.params) from None
                return
        elif isinstance(action, Open):
            raise IllegalAction(
                f"{text}: only the first bet of a jackpot deal is an opening; "
                "bet, raise, call, check or fold",
                code="open_not_now",
                action=text,
            )
        rnd.check(seat, action)

    # ----------------------------------------------------------------- applying

    def apply(self, seat: int, action: DrawAction) -> list[Event]:
        """Apply `action` by `seat` and return the events; refuse an illegal one untouched."""
        self.check(seat, action)
        events: list[Event] = []
        if self.phase == "rebuy":
            self._apply_rebuy(seat, action, events)
        elif self.phase == "surblind":
            self._apply_surblind(seat, action, events)
        elif self.phase == "draw":
            assert isinstance(action, Draw)
            self._apply_draw(seat, action, events)
        else:
            self._apply_bet(seat, action, events)
        return events

    def _apply_rebuy(self, seat: int, action: DrawAction, events: list[Event]) -> None:
        self.queue.pop(0)
        if isinstance(action, Rebuy):
            amount = action.units * self.config.cave_unit
            self.stacks[seat] += amount
            self.bought[seat] += amount
            events.append(ChipsBought(seat=seat, amount=amount, reason="rebuy"))
        else:
            events.append(SatOut(seat=seat))
        if not self.queue:
            events += self._begin_deal()

    def _apply_surblind(self, seat: int, action: DrawAction, events: list[Event]) -> None:
        self.history.append((seat, str(action)))
        if isinstance(action, Surblind):
            amount = 2 * self.config.blind_unit
            self.posted[seat] = amount
            self.stacks[seat] -= amount
            self.surblind_seat = seat
            events.append(
                Posted(seat=seat, what="surblind", amount=amount, all_in=self.stacks[seat] == 0)
            )
        events.append(Acted(seat=seat, action=str(action), stake=self.posted[seat], all_in=False))
        self.surblind_candidate = None
        self._start_blind_betting(events)

    def _last_blind(self) -> int:
        assert self.blind_seat is not None
        return self.surblind_seat if self.surblind_seat is not None else self.blind_seat

    def _start_blind_betting(self, events: list[Event]) -> None:
        level = self.config.blind_unit * (2 if self.surblind_seat is not None else 1)
        self.phase = "bet1"
        events += self._look_at_cards()
        posts = [(s, self.posted[s]) for s in range(self.seats) if self.posted[s]]
        for s, amount in posts:
            self.stacks[s] += amount
        self.posted = [0] * self.seats
        # Coming in costs twice the highest nominal blind, even over a blind posted short.
        self._start_round(
            self._next_in_deal(self._last_blind()),
            events,
            posts=posts,
            no_limp=True,
            min_raise=level,
        )

    def _start_round(
        self,
        first: int,
        events: list[Event],
        *,
        posts: Sequence[tuple[int, int]] = (),
        no_limp: bool = False,
        min_raise: int | None = None,
    ) -> None:
        """A betting round of the live seats from `first` on (shared core: engines.poker)."""
        alive = self._alive()
        order = [(first + step) % self.seats for step in range(self.seats)]
        rnd = BettingRound(
            self.stacks,
            [s for s in order if alive[s]],
            min_bet=self.config.blind_unit,
            min_raise=min_raise,
            no_limp=no_limp,
        )
        for seat, amount in posts:
            rnd.post(seat, amount)
        rnd.start()
        self.round = rnd
        self.stacks = list(rnd.stacks)
        if rnd.done:
            self._round_over(events)

    def _look_at_cards(self) -> list[Event]:
        return [CardsDealt(to=s, seat=s, cards=tuple(self.hands[s])) for s in self._deal_order()]

    def _deal_order(self) -> list[int]:
        order = []
        seat = self.dealer
        for _ in range(self.seats):
            seat = (seat + 1) % self.seats
            if self.in_deal[seat]:
                order.append(seat)
        return order

    def _apply_bet(self, seat: int, action: DrawAction, events: list[Event]) -> None:
        rnd = self.round
        assert rnd is not None
        if isinstance(action, (Open, AllIn)) and self._opening_round():
            self.opener = seat
            self.requirement_at_open = self.requirement
            needed = hands.requirement(self.unopened)
            self.proof = list(hands.opening_proof(self.hands[seat], needed) or ())
        if isinstance(action, Open):
            core: BettingAction = Bet(action.amount)
        else:
            assert isinstance(action, (Fold, Check, Call, Bet, Raise, AllIn))
            core = action
        move = rnd.act(seat, core)
        self.stacks = list(rnd.stacks)
        if move.verb == "fold":
            self.folded[seat] = True
        self.history.append((seat, str(action)))
        events.append(
            Acted(
                seat=seat,
                action=str(action),
                stake=move.total,
                all_in=move.all_in,
                added=move.added,
                moved=move.verb,
            )
        )
        if rnd.done:
            self._round_over(events)

    def _round_over(self, events: list[Event]) -> None:
        """The betting round closed: give back uncalled chips, then go on with the deal."""
        rnd = self.round
        assert rnd is not None
        opened = rnd.current_bet > 0
        if rnd.returned is not None:
            seat, amount = rnd.returned
            events.append(UncalledReturned(seat=seat, amount=amount))
        self.stacks = list(rnd.stacks)
        for s in range(self.seats):
            self.put_in[s] += rnd.committed[s]
        self.round = None
        alive = self._alive()
        if sum(alive) == 1:
            self._settle_lone(alive.index(True), events)
        elif self.phase == "bet1":
            if self.deal_kind == "jackpot" and not opened:
                self._carry("unopened", events)
            else:
                self._start_draw()
        elif not opened and all(self.stacks[s] > 0 for s in range(self.seats) if alive[s]):
            self._carry("check_around", events)
        else:
            self._showdown(events)

    # -------------------------------------------------------------------- draw

    def _start_draw(self) -> None:
        self.phase = "draw"
        alive = self._alive()
        self.queue = [s for s in self._deal_order() if alive[s]]
        # Folded hands leave the table; they are not part of the discards.
        self.discards = []

    def _apply_draw(self, seat: int, action: Draw, events: list[Event]) -> None:
        hand = self.hands[seat]
        out = [hand[p - 1] for p in action.positions]
        kept = [c for c in hand if c not in out]
        aside = split_openers(self.proof, out) if seat == self.opener else []
        self.set_aside += aside
        split = bool(aside)
        mine = [card for card in out if card not in aside]
        received = self._take(len(out), events)
        self.discards += mine
        self.hands[seat] = hands.sort_hand(kept + received)
        self.drawn[seat] = len(out)
        self.history.append((seat, str(action)))
        events.append(Drew(seat=seat, count=len(out), split=split))
        events.append(
            NewCards(
                to=seat,
                seat=seat,
                discarded=tuple(out),
                received=tuple(received),
                hand=tuple(self.hands[seat]),
            )
        )
        self.queue.pop(0)
        if self.queue:
            return
        self.phase = "bet2"
        if self.deal_kind == "jackpot":
            start = self._next_in_deal(self.dealer)
        else:
            start = self._next_in_deal(self._last_blind())
        self._start_round(start, events)

    def _take(self, count: int, events: list[Event]) -> list[Card]:
        """Draw `count` cards; renew the stock from earlier drawers' discards if it runs out."""
        got: list[Card] = []
        while len(got) < count:
            if not self.stock:
                if not self.discards:
                    raise RuntimeError("no cards left to draw")  # 52 cards always suffice
                self.renewals += 1
                order = self.source.reshuffle(self.deal_no, self.renewals, self.discards)
                self.stock = order[::-1]
                self.discards = []
                events.append(StockRenewed(cards=len(self.stock)))
            got.append(self.stock.pop())
        return got

    # -------------------------------------------------------------- settling

    def _proof_events(self) -> list[Event]:
        if self.opener is None:
            return []
        return [
            OpenerProof(
                seat=self.opener,
                requirement=self.requirement_at_open or "",
                proof=tuple(self.proof),
                set_aside=tuple(self.set_aside),
            )
        ]

    def _settle_lone(self, winner: int, events: list[Event]) -> None:
        events += self._proof_events()
        amount = self.carried + sum(self.put_in)
        self.stacks[winner] += amount
        if amount:
            events.append(PotWon(seat=winner, amount=amount, pot=0, shown=False))
        self.carried = 0
        self.carried_by = [0] * self.seats
        self.unopened = 0
        self.deal_kind = "blind"
        self._finish_deal(events)

    def _showdown(self, events: list[Event]) -> None:
        alive = self._alive()
        order = self._deal_order()
        strengths = {s: hands.strength(self.hands[s]) for s in order if alive[s]}
        for s in order:
            if alive[s]:
                cards = self.hands[s]
                events.append(Shown(seat=s, cards=tuple(cards), hand_name=hands.hand_name(cards)))
        events += self._proof_events()
        pots = build_pots(self.put_in, alive)
        if self.carried:
            # Chips carried from earlier deals belong to the main pot.
            main = pots[0] if pots else Pot(0, tuple(s for s in order if alive[s]))
            pots[:1] = [Pot(main.amount + self.carried, main.eligible)]
        for award in settle(pots, best_of(strengths), odd_chip_order(self.dealer, self.seats)):
            for seat, chips in zip(award.winners, award.shares, strict=True):
                self.stacks[seat] += chips
                events.append(PotWon(seat=seat, amount=chips, pot=award.pot, shown=True))
        self.carried = 0
        self.carried_by = [0] * self.seats
        self.unopened = 0
        self.deal_kind = "blind"
        self._finish_deal(events)

    def _carry(self, reason: str, events: list[Event]) -> None:
        if reason == "check_around":
            events += self._proof_events()
            self.unopened = 0
        else:
            self.unopened += 1
        for s in range(self.seats):
            self.carried_by[s] += self.put_in[s]
        self.carried += sum(self.put_in)
        self.deal_kind = "jackpot"
        events.append(
            Carried(
                amount=self.carried,
                reason=reason,
                requirement=hands.REQUIREMENT_NAMES[hands.requirement(self.unopened)],
            )
        )
        self._finish_deal(events)

    def _finish_deal(self, events: list[Event]) -> None:
        chips = tuple(self.stacks[s] - self.start_stacks[s] for s in range(self.seats))
        dealt = tuple(s for s in range(self.seats) if self.in_deal[s])
        committed = self.source.commitment(self.deal_no)
        events.append(
            DealSettled(deal=self.deal_no, chips=chips, dealt=dealt, commitment=committed)
        )
        self.round = None
        self.put_in = [0] * self.seats
        events += self._between_deals(first=False)

    def _between_deals(self, first: bool) -> list[Event]:
        """After a deal (or at the start): end the match, or ask the broke seats, or deal."""
        limit = self.config.deals
        if limit is not None and self.deal_no >= limit:
            return self._end_match()
        self.phase = "rebuy"
        self.round = None
        start = self.dealer
        self.queue = [
            (start + step) % self.seats
            for step in range(1, self.seats + 1)
            if self.stacks[(start + step) % self.seats] == 0
        ]
        if self.queue:
            return []
        return self._begin_deal(first)

    def _end_match(self) -> list[Event]:
        events: list[Event] = []
        if self.carried:
            refund = tuple(self.carried_by)
            for s in range(self.seats):
                self.stacks[s] += refund[s]
            self.carried = 0
            self.carried_by = [0] * self.seats
            events.append(PotReturned(amounts=refund))
            # Settled like a deal, so ledgers that sum DealSettled stay exact.
            events.append(DealSettled(deal=self.deal_no, chips=refund, dealt=()))
        totals = tuple(self.stacks[s] - self.bought[s] for s in range(self.seats))
        best = max(totals)
        winners = tuple(s for s in range(self.seats) if totals[s] == best)
        self.finished = True
        self.phase = "over"
        self.queue = []
        self.result = (winners, totals)
        seeds = self.source.revealed(self.deal_no)
        events.append(MatchEnded(winners=winners, totals=totals, seeds=seeds))
        return events

    # ------------------------------------------------------------ a new deal

    def _begin_deal(self, first: bool = False) -> list[Event]:
        cfg = self.config
        self.in_deal = [stack > 0 for stack in self.stacks]
        if sum(self.in_deal) < 2:
            return self._end_match()
        if first:
            self.dealer = (self.dealer - 1) % self.seats
        self.dealer = self._next_in_deal(self.dealer)
        self.deal_no += 1
        self.renewals = 0
        deck = Deck.stacked(self.source.deck(self.deal_no))
        n = self.seats
        self.folded = [False] * n
        self.drawn = [None] * n
        self.set_aside = []
        self.opener = None
        self.proof = []
        self.requirement_at_open = None
        self.put_in = [0] * n
        self.start_stacks = list(self.stacks)
        self.history = []
        self.blind_seat = None
        self.surblind_seat = None
        self.surblind_candidate = None
        self.discards = []
        events: list[Event] = [
            DealStarted(
                deal=self.deal_no,
                dealer=self.dealer,
                commitment=self.source.commitment(self.deal_no),
            ),
            DealKind(deal_kind=self.deal_kind, requirement=self.requirement, carried=self.carried),
        ]
        order = self._deal_order()
        self.hands = [[] for _ in range(n)]
        for _ in range(5):
            for s in order:
                self.hands[s].append(deck.draw_one())
        self.hands = [hands.sort_hand(h) for h in self.hands]
        self.stock = deck.cards()[::-1]
        self.round = None
        self.posted = [0] * n
        self.phase = "bet1"
        if self.deal_kind == "jackpot":
            for s in order:
                amount = min(cfg.pot_unit, self.stacks[s])
                self.stacks[s] -= amount
                self.put_in[s] += amount
                events.append(
                    Posted(seat=s, what="ante", amount=amount, all_in=self.stacks[s] == 0)
                )
            events += self._look_at_cards()
            self._start_round(order[0], events)
            return events
        blind = order[0]
        amount = min(cfg.blind_unit, self.stacks[blind])
        self.blind_seat = blind
        self.posted[blind] = amount
        self.stacks[blind] -= amount
        events.append(
            Posted(seat=blind, what="blind", amount=amount, all_in=self.stacks[blind] == 0)
        )
        candidate = self._next_in_deal(blind)
        if self.stacks[candidate] >= 2 * cfg.blind_unit:
            self.phase = "surblind"
            self.surblind_candidate = candidate
            return events
        self._start_blind_betting(events)
        return events

    # ----------------------------------------------------------------- views

    def view(self, seat: int | None) -> DrawView:
        """What `seat` may know (None: a spectator): its own cards only, after the surblind."""
        if seat is not None:
            require_seat(seat, self.seats)
        rnd = self.round
        mine = seat is not None and self.in_deal[seat] and self.phase not in ("surblind", "rebuy")
        hand = tuple(self.hands[seat]) if mine and seat is not None else ()
        acting = seat is not None and seat == self.to_act
        legal = tuple(self.legal_actions(seat)) if acting and seat is not None else ()
        to_call = min_to = max_to = entry = highest = 0
        if rnd is not None:
            highest = rnd.current_bet
            entry = rnd.min_raise_to() if rnd.no_limp and not rnd.opened else 0
            if seat is not None:
                to_call = max(0, min(rnd.owed(seat), self.stacks[seat]))
                max_to = rnd.max_total(seat)
                min_to = min(rnd.min_raise_to(), max_to)
        return DrawView(
            seat=seat,
            seats=self.seats,
            cave_unit=self.config.cave_unit,
            blind_unit=self.config.blind_unit,
            pot_unit=self.config.pot_unit,
            deal=self.deal_no,
            dealer=self.dealer,
            deal_kind=self.deal_kind,
            requirement=self.requirement,
            unopened=self.unopened,
            phase=self.phase,
            to_act=self.to_act,
            finished=self.finished,
            stacks=tuple(self.stacks),
            bought=tuple(self.bought),
            in_deal=tuple(self.in_deal),
            folded=tuple(self.folded),
            stakes=tuple(rnd.committed) if rnd else tuple(self.posted),
            put_in=tuple(self.put_in),
            pot=self.pot_total(),
            carried=self.carried,
            blind_seat=self.blind_seat,
            surblind_seat=self.surblind_seat,
            opener=self.opener,
            entry=entry,
            highest=highest,
            drawn=tuple(self.drawn),
            history=self._history_for(seat),
            hand=hand,
            set_aside=tuple(self.set_aside) if seat is not None and seat == self.opener else (),
            proof=tuple(self.proof) if seat is not None and seat == self.opener else (),
            can_open=bool(
                mine and seat is not None and self.deal_kind == "jackpot" and self._can_open(seat)
            ),
            legal=legal,
            to_call=to_call,
            min_raise_to=min_to,
            max_to=max_to,
            deal_limit=self.config.deals,
            max_rebuy_units=self.config.max_rebuy_units,
        )

    def _history_for(self, seat: int | None) -> tuple[tuple[int, str], ...]:
        """The deal's actions as `seat` may know them (None: a spectator): another seat's
        draw is ``draw`` alone, since which cards it changed is its own (`drawn` says how
        many)."""
        return tuple(
            (s, PUBLIC_DRAW if s != seat and text.startswith(PUBLIC_DRAW + " ") else text)
            for s, text in self.history
        )

    # ------------------------------------------------------------- snapshots

    def snapshot(self) -> JSON:
        """Every field as plain JSON data (`restore` rebuilds the state exactly)."""
        return {
            "config": self.config.model_dump(),
            "source": self.source.to_json(),
            "stacks": list(self.stacks),
            "bought": list(self.bought),
            "deal_no": self.deal_no,
            "dealer": self.dealer,
            "phase": self.phase,
            "deal_kind": self.deal_kind,
            "unopened": self.unopened,
            "carried": self.carried,
            "carried_by": list(self.carried_by),
            "in_deal": list(self.in_deal),
            "folded": list(self.folded),
            "hands": [_cards(h) for h in self.hands],
            "stock": _cards(self.stock),
            "discards": _cards(self.discards),
            "drawn": list(self.drawn),
            "set_aside": _cards(self.set_aside),
            "opener": self.opener,
            "proof": _cards(self.proof),
            "requirement_at_open": self.requirement_at_open,
            "put_in": list(self.put_in),
            "start_stacks": list(self.start_stacks),
            "round": self.round.to_json() if self.round else None,
            "posted": list(self.posted),
            "blind_seat": self.blind_seat,
            "surblind_seat": self.surblind_seat,
            "surblind_candidate": self.surblind_candidate,
            "queue": list(self.queue),
            "history": [[s, a] for s, a in self.history],
            "renewals": self.renewals,
            "finished": self.finished,
            "result": [list(self.result[0]), list(self.result[1])] if self.result else None,
        }

    @classmethod
    def restore(cls, data: JSON) -> DrawState:
        """Rebuild a state from `snapshot()` data."""
        state = cls.__new__(cls)
        state.config = DrawConfig(**data["config"])
        state.source = DealSource.from_json(data["source"])
        for name in (
            "stacks", "bought", "carried_by", "in_deal", "folded", "drawn", "put_in",
            "start_stacks", "queue", "posted",
        ):  # fmt: skip
            setattr(state, name, list(data[name]))
        for name in (
            "deal_no", "dealer", "phase", "deal_kind", "unopened", "carried", "opener",
            "requirement_at_open", "blind_seat", "surblind_seat", "surblind_candidate",
            "renewals", "finished",
        ):  # fmt: skip
            setattr(state, name, data[name])
        state.hands = [_uncards(h) for h in data["hands"]]
        state.stock = _uncards(data["stock"])
        state.discards = _uncards(data["discards"])
        state.set_aside = _uncards(data["set_aside"])
        state.proof = _uncards(data["proof"])
        state.round = BettingRound.from_json(data["round"]) if data["round"] else None
        state.history = [(int(s), str(a)) for s, a in data["history"]]
        result = data["result"]
        state.result = (tuple(result[0]), tuple(result[1])) if result else None
        state.opening_events = []
        return state


def restore(data: JSON) -> DrawState:
    """`DrawState.restore` as a function (for the registry)."""
    return DrawState.restore(data)


def timeout_action(view: DrawView) -> DrawAction:
    """The safe default for an absent player: check else fold, stand pat, no surblind,
    sit out rather than spend a cave."""
    legal = view.legal
    if view.phase == "surblind":
        return NoSurblind()
    if view.phase == "draw":
        return STAND
    if view.phase == "rebuy":
        return SitOut()
    if Check() in legal:
        return Check()
    return Fold()
