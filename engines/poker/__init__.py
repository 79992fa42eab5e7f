"""What hold'em, draw poker and the duel share: betting actions, one betting round, pots, ranking.

- `engines.poker.actions`: `Fold`, `Check`, `Call`, `Bet(total)`, `Raise(total)`, `AllIn`,
  whose `str()` is the canonical text ("fold", "check", "call", "bet 60",
  "raise 120", "allin") and `parse_betting_action(text)` reads it back.
  Amounts are always the player's total for the betting round.
- `engines.poker.betting.BettingRound`: one no-limit betting round over the
  table's seats. Build it with every seat's chips behind and the acting order
  of the seats in the hand (first to act first), `post` forced bets, `start()`,
  then `act(seat, action)` (or `check` to validate only) until `done`. It
  enforces the minimum bet and raise, short all-ins that do not reopen
  raising (and several that together do), no raise when nobody else can
  still bet (has chips beyond matching the current bet), fold refused when
  checking is free, and returns uncalled chips when it closes (`returned`).
  A seat with nothing left to decide is not asked. Options cover the three
  games:
    * hold'em: ``min_bet=big_blind``, post the blinds; the big blind keeps
      its option because posting is not acting;
    * draw poker blind deal: post blind (and surblind), ``min_bet=blind``,
      ``min_raise=highest blind`` and ``no_limp=True`` (coming in is a raise
      to at least twice the highest blind; calls open after a full raise);
      jackpot opening and the final betting: ``min_bet=blind``;
    * the duel: ``min_bet=1``; the ante stays outside the round (amounts are
      round totals); a bet may exceed the opponent's stack, the excess is
      returned when the round closes.
  After the round, add `committed` to the hand totals and read `stacks`.
- `engines.poker.pots`: `build_pots(contributions, live)` (main and side pots),
  `settle(pots, winners_of, odd_chip_order)` (each pot on its own, odd chips
  one at a time from the first tied winner after the button), `best_of`,
  `payouts`, `odd_chip_order(button, seats)`.
- `engines.poker.ranking`: `rank_hand(cards)` for 5-7 cards returns a
  `HandRank` (an int, higher wins; `.name` like "two pair, kings and sevens",
  `.category`, `.ranks`), via eval7 (our `Card.mask` is what eval7 reads, so
  no conversion); `hand_value` is the bare int.

Example, a duel-like round::

    r = BettingRound([10, 10], order=[0, 1], min_bet=1)
    r.start()
    r.act(0, Bet(3)); r.act(1, Call())
    assert r.done and r.committed == [3, 3]
"""

from engines.poker.actions import (
    ALL_IN,
    CALL,
    CHECK,
    FOLD,
    AllIn,
    Bet,
    BettingAction,
    Call,
    Check,
    Fold,
    Raise,
    parse_betting_action,
)
from engines.poker.betting import BettingRound, Move
from engines.poker.pots import Award, Pot, best_of, build_pots, odd_chip_order, payouts, settle
from engines.poker.ranking import Category, HandRank, hand_name, hand_value, rank_hand

__all__ = [
    "ALL_IN",
    "CALL",
    "CHECK",
    "FOLD",
    "AllIn",
    "Award",
    "Bet",
    "BettingAction",
    "BettingRound",
    "Call",
    "Category",
    "Check",
    "Fold",
    "HandRank",
    "Move",
    "Pot",
    "Raise",
    "best_of",
    "build_pots",
    "hand_name",
    "hand_value",
    "odd_chip_order",
    "parse_betting_action",
    "payouts",
    "rank_hand",
    "settle",
]
