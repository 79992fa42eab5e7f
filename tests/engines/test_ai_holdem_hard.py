"""Hold'em `hard` and the sparring pool: view only, defining behaviour, and strength."""

from __future__ import annotations

import dataclasses
import random

import pytest

from engines.ai.holdem import SeatStats
from engines.ai.holdem_classes import WEIGHT
from engines.ai.holdem_hard import (
    Habits,
    HardPolicy,
    bet_fractions,
    last_aggressor,
    loose_passive,
    raise_levels,
    relentless,
)
from engines.ai.holdem_styles import STYLES, make_style
from engines.base import DealSettled
from engines.cards import FULL_DECK, Card, parse_cards
from engines.holdem import SPEC, HoldemConfig, HoldemState
from engines.play import play_out
from engines.poker.actions import AllIn, Bet, BettingAction, Call, Check, Fold, Raise


def test_hard_is_its_own_level() -> None:
    assert SPEC.level_policy("hard") == "hard"
    assert SPEC.level_policy("normal") == "strong"
    assert isinstance(SPEC.make_policy("hard", random.Random(1)), HardPolicy)


def _deck(seat_holes: dict[int, list[Card]], seats: int, tail: list[Card]) -> list[Card]:
    order = [(0 + i) % seats for i in range(1, seats + 1)]  # button 0: dealing starts at 1
    return [seat_holes[s][0] for s in order] + [seat_holes[s][1] for s in order] + tail


def test_hard_decides_from_the_seat_view_only() -> None:
    # Two deals alike in everything seat 3 may see (its cards, the board, every action)
    # but the other seats' hidden cards: `hard` (same generator) makes the same choices.
    mine = parse_cards("AH JH")
    rest = [c for c in FULL_DECK if c not in mine]
    board_part = rest[6:20]  # burns and board come from here in both deals
    hidden_a = rest[:6]
    hidden_b = rest[20:26]
    tail_a = board_part + hidden_b + rest[26:]
    tail_b = board_part + hidden_a + rest[26:]
    decks = []
    for hidden, tail in ((hidden_a, tail_a), (hidden_b, tail_b)):
        holes = {0: hidden[0:2], 1: hidden[2:4], 2: hidden[4:6], 3: mine}
        decks.append(_deck(holes, 4, tail))
    choices: list[list[BettingAction]] = []
    for deck in decks:
        state = HoldemState(HoldemConfig(seats=4), random.Random(0), first_deck=deck)
        hard = HardPolicy(random.Random(9))
        others = [SPEC.make_policy("calling", random.Random(s)) for s in range(4)]
        made: list[BettingAction] = []
        settled = False
        while not settled:
            seat = state.to_act
            assert seat is not None
            if seat == 3:
                action = hard.decide(state.view(3))
                made.append(action)
            else:
                action = others[seat].decide(state.view(seat))
            settled = any(isinstance(e, DealSettled) for e in state.apply(seat, action))
        choices.append(made)
    assert choices[0] == choices[1]
    assert len(choices[0]) >= 2


def _first_view(hole: str, seats: int = 6):  # type: ignore[no-untyped-def]
    """The first pre-flop view of the seat after the big blind holding `hole` (button 0)."""
    mine = parse_cards(hole)
    rest = [c for c in FULL_DECK if c not in mine]
    actor = 3 % seats
    holes = {s: rest[2 * s : 2 * s + 2] for s in range(seats)}
    holes[actor] = mine
    deck = _deck(holes, seats, rest[2 * seats :])
    state = HoldemState(HoldemConfig(seats=seats), random.Random(0), first_deck=deck)
    assert state.to_act == actor
    return state.view(actor)


@pytest.mark.parametrize(
    ("style", "hole", "wanted"),
    [
        ("rock", "AH AD", (Raise, AllIn)),
        ("rock", "KH JD", (Fold,)),
        ("tag", "AH QD", (Raise,)),
        ("tag", "9H 7D", (Fold,)),
        ("lag", "9H 8H", (Raise,)),
        ("maniac", "KH 7D", (Raise,)),
        ("station", "KH 9D", (Call,)),
        ("station", "AH AD", (Raise,)),
    ],
)
def test_each_style_plays_its_starting_hands(
    style: str, hole: str, wanted: tuple[type, ...]
) -> None:
    action = make_style(style, random.Random(0)).decide(_first_view(hole))
    assert isinstance(action, wanted)


def test_the_styles_differ_in_how_many_hands_they_play() -> None:
    entered = {}
    for name in STYLES:
        played = 0
        policy = make_style(name, random.Random(1))
        for index in range(300):
            rng = random.Random(index)
            cards = rng.sample(FULL_DECK, 2)
            view = _first_view(" ".join(str(c) for c in cards))
            played += not isinstance(policy.decide(view), (Fold, Check))
        entered[name] = played / 300
    assert entered["rock"] < entered["tag"] < entered["lag"] < entered["maniac"]
    assert entered["station"] > entered["tag"]


def test_hard_bet_sizes_do_not_depend_on_its_cards() -> None:
    # On the same flop, the sizes `hard` bets with a monster and with air come from one set.
    sizes: dict[str, set[float]] = {"value": set(), "air": set()}
    for kind, hole in (("value", "KH KD"), ("air", "7C 2S")):
        for seed in range(60):
            mine = parse_cards(hole)
            board = parse_cards("KS 8D 3C")
            rest = [c for c in FULL_DECK if c not in mine and c not in board]
            holes = {0: mine, 1: rest[0:2]}
            # Heads-up, seat 1 (big blind) dealt first; burn, flop.
            deck = [holes[1][0], holes[0][0], holes[1][1], holes[0][1], rest[2], *board]
            deck += rest[3:]
            state = HoldemState(HoldemConfig(seats=2), random.Random(0), first_deck=deck)
            state.apply(0, Call())
            state.apply(1, Check())
            assert state.street == 1 and state.to_act == 1
            state.apply(1, Check())
            view = state.view(0)
            action = HardPolicy(random.Random(seed)).decide(view)
            if isinstance(action, Bet):
                sizes[kind].add(round(action.amount / view.pot_total, 2))
    assert sizes["value"], "kings bet some of the time"
    assert sizes["air"], "seven-deuce bluffs some of the time"
    assert sizes["air"] <= sizes["value"]


def test_bet_fractions_measure_each_bet_against_the_pot_it_faced() -> None:
    state = HoldemState(HoldemConfig(seats=2), random.Random(0))
    state.apply(0, Call())  # the button completes to 20
    state.apply(1, Check())
    state.apply(1, Bet(20))  # 20 into 40
    state.apply(0, Raise(80))  # 60 more than a call, into 40 + 20 + 20
    view = state.view(1)
    sizes = [bet_fractions(view).get(id(record)) for record in view.history]
    assert sizes == [None, None, 0.5, 0.75]


@pytest.mark.parametrize("seats", [2, 6])
def test_hard_plays_only_legal_moves_deep_and_short(seats: int) -> None:
    # Uneven stacks restored every hand: deep and short spots (push/fold heads-up), all-ins
    # and side pots, for 60 hands.
    stacks = (300, 1500, 200, 1000, 700, 2000)[:seats]
    config = HoldemConfig(seats=seats, stacks=stacks, max_hands=60, reset_stacks=True)
    state = HoldemState(config, random.Random(4))
    names = ["hard", "maniac", "hard", "station", "lag", "rock"][:seats]
    agents = [SPEC.make_policy(name, random.Random(i)) for i, name in enumerate(names)]
    shoves = 0
    while not state.finished:
        seat = state.to_act
        assert seat is not None
        action = agents[seat].decide(state.view(seat))
        state.check(seat, action)  # raises if illegal
        shoves += names[seat] == "hard" and action == AllIn()
        state.apply(seat, action)
    assert state.hand == 60 and shoves > 0


def _three_bet_view():  # type: ignore[no-untyped-def]
    """Six seats, button 0: seat 3 opens to 50, seat 4 re-raises to 150; seat 5 to act."""
    state = HoldemState(HoldemConfig(seats=6), random.Random(0))
    state.apply(3, Raise(50))
    state.apply(4, Raise(150))
    return state.view(5)


def test_raise_levels_tell_an_open_from_a_three_bet() -> None:
    view = _three_bet_view()
    assert raise_levels(view) == {3: 1, 4: 2}


def test_hard_reads_a_three_bet_from_a_narrower_range_than_an_open() -> None:
    # Both seats made one raise and hard has seen nothing else of either: the re-raiser's
    # range is the narrower (about half the combos), not the same as the opener's.
    view = _three_bet_view()
    hard = HardPolicy(random.Random(1))
    hard._observe(view)
    ranges = hard._ranges(view)
    opener = float((ranges[3] * WEIGHT).sum())
    three_bettor = float((ranges[4] * WEIGHT).sum())
    assert three_bettor < 0.6 * opener


def _heads_up_deck(hole: str, board: str, seat: int = 0) -> list[Card]:
    """A heads-up deck that deals `hole` to `seat` (0, the button, or 1) and `board` (three
    to five cards, a burn before each street), the rest in the deck's order."""
    mine = parse_cards(hole)
    cards = parse_cards(board)
    rest = [c for c in FULL_DECK if c not in mine and c not in cards]
    holes = (
        [rest[0], mine[0], rest[1], mine[1]] if seat == 0 else [mine[0], rest[0], mine[1], rest[1]]
    )
    deck = [*holes, rest[2], *cards[:3]]
    later = rest[3:]
    for card in cards[3:]:
        deck += [later.pop(0), card]
    return deck + later


def _heads_up_flop(hole: str, raised: bool):  # type: ignore[no-untyped-def]
    """Heads-up, hard on the button (seat 0) holding `hole` on KS 8D 3C: the big blind
    (seat 1) checks to it on the flop. `raised`: seat 0 raised before the flop and seat 1
    called (hard has the initiative); else seat 0 limped and seat 1 checked."""
    deck = _heads_up_deck(hole, "KS 8D 3C")
    state = HoldemState(HoldemConfig(seats=2), random.Random(0), first_deck=deck)
    if raised:
        state.apply(0, Raise(60))
        state.apply(1, Call())
    else:
        state.apply(0, Call())
        state.apply(1, Check())
    state.apply(1, Check())
    return state


def test_the_initiative_is_the_last_bet_or_raise_before_this_round() -> None:
    assert last_aggressor(_heads_up_flop("7C 2S", raised=True).view(0), 0)
    assert not last_aggressor(_heads_up_flop("7C 2S", raised=False).view(0), 0)
    assert not last_aggressor(_heads_up_flop("7C 2S", raised=True).view(0), 1)


def test_hard_bets_its_initiative_more_against_a_seat_seen_folding() -> None:
    # The same spot with air: against a seat seen folding to 16 bets of 20 after the flop
    # hard bets far more often than against one seen folding to 2 of 20.
    bets = {}
    for folded in (16.0, 2.0):
        count = 0
        for seed in range(200):
            hard = HardPolicy(random.Random(seed))
            hard.habits[1] = Habits(faced=20.0, folded=folded)
            count += isinstance(hard.decide(_heads_up_flop("7C 2S", True).view(0)), Bet)
        bets[folded] = count / 200
    assert bets[16.0] > bets[2.0] + 0.3


def test_hard_counts_a_fold_that_ended_the_hand_and_a_call_it_saw() -> None:
    # Hard (seat 1, big blind) bets the flop. A fold ends the hand before hard acts again:
    # hard counts it at its next decision. A call it sees in the history of its next decision.
    for answer, folded in ((Fold(), 3.0), (Call(), 2.0)):
        state = HoldemState(HoldemConfig(seats=2), random.Random(0))
        state.apply(0, Call())
        state.apply(1, Check())
        hard = HardPolicy(random.Random(1))
        view = state.view(1)
        hard._remember(view, Bet(20))
        state.apply(1, Bet(20))
        state.apply(0, answer)
        assert state.to_act == 1  # the next hand (hard in the small blind) or the turn
        hard.decide(state.view(1))
        assert hard.habits[0].faced == 6.0
        assert hard.habits[0].folded == folded
        assert 1 not in hard.habits  # its own actions are not counted


def test_hard_reads_an_open_by_how_often_the_opener_was_seen_raising() -> None:
    # Seat 3 raised in each of the hands hard watched: its open is read from a wider range
    # than the same open from a seat that hard saw raise once in many actions.
    view = _three_bet_view()
    wide, narrow_ = HardPolicy(random.Random(1)), HardPolicy(random.Random(1))
    wide.habits[3] = Habits(acts=20.0, raises=16.0)
    narrow_.habits[3] = Habits(acts=20.0, raises=1.0)
    mass = [float((h._ranges(view)[3] * WEIGHT).sum()) for h in (wide, narrow_)]
    assert mass[0] > 3 * mass[1]
    # And the raise rate comes from the seat's actions before the flop only.
    hard = HardPolicy(random.Random(1))
    hard._observe(view)
    assert hard.habits[3].raises == pytest.approx(2.2) and hard.habits[3].acts == 7.0
    assert hard.habits[4].raises == pytest.approx(2.2)


def test_hard_calls_or_re_raises_one_open_with_ace_king_suited() -> None:
    # Six seats, button 0: seat 3 opens, seats 4 and 5 fold, the button holds AS KS with the
    # blinds still to act. The blinds have put in no chips by choice: the open alone is
    # what hard's equity is measured against, and ace-king never folds to it.
    mine = parse_cards("AS KS")
    rest = [c for c in FULL_DECK if c not in mine]
    holes = {s: rest[2 * s : 2 * s + 2] for s in range(6)}
    holes[0] = mine
    state = HoldemState(
        HoldemConfig(seats=6), random.Random(0), first_deck=_deck(holes, 6, rest[12:])
    )
    state.apply(3, Raise(60))
    state.apply(4, Fold())
    state.apply(5, Fold())
    assert state.to_act == 0
    for seed in range(20):
        action = HardPolicy(random.Random(seed)).decide(state.view(0))
        assert isinstance(action, (Call, Raise, AllIn))


def test_hard_counts_the_answers_to_its_open_raise() -> None:
    # Six seats, button 0: hard (seat 3) opens. Seats 4, 0 and 1 fold, 5 and 2 call: at
    # hard's next decision (on the flop) each answer is counted once.
    state = HoldemState(HoldemConfig(seats=6), random.Random(0))
    hard = HardPolicy(random.Random(1))
    hard._remember(state.view(3), Raise(50))
    state.apply(3, Raise(50))
    for seat, answer in ((4, Fold()), (5, Call()), (0, Fold()), (1, Fold()), (2, Call())):
        state.apply(seat, answer)
    assert state.street == 1
    hard.decide(state.view(3))
    folded = {seat: hard.habits[seat].folded_pre - 3.0 for seat in (4, 5, 0, 1, 2)}
    assert folded == {4: 1, 5: 0, 0: 1, 1: 1, 2: 0}
    assert all(hard.habits[seat].raised_into == 6.0 for seat in folded)


def test_hard_counts_folds_that_ended_the_hand_after_its_open() -> None:
    # Hard opens and everyone folds: the hand ends with no decision of hard's, and the
    # folds are counted at its next one, in the next hand.
    state = HoldemState(HoldemConfig(seats=6, reset_stacks=True), random.Random(0))
    hard = HardPolicy(random.Random(1))
    hard._remember(state.view(3), Raise(50))
    state.apply(3, Raise(50))
    for seat in (4, 5, 0, 1, 2):
        state.apply(seat, Fold())
    assert state.hand == 2
    hard.decide(state.view(3))
    for seat in (4, 5, 0, 1, 2):
        assert (hard.habits[seat].raised_into, hard.habits[seat].folded_pre) == (6.0, 4.0)
    assert 3 not in hard.habits


# What a calling station looks like from a seat: 40 actions before the flop, 26 of them
# entering the pot, 2 raises; 30 after it, 3 bets or raises.
STATION_STATS = SeatStats(pre=40.0, pre_in=26.0, post=30.0, post_aggr=3.0)
STATION_HABITS = Habits(acts=40.0, raises=2.0)


def test_loose_passive_reads_a_station_and_not_a_maniac_a_tight_player_or_a_stranger() -> None:
    assert loose_passive(STATION_STATS, STATION_HABITS)
    assert not loose_passive(SeatStats(), Habits())  # nothing seen yet
    # Loose and passive after the flop but raising half its actions before it: a maniac.
    assert not loose_passive(STATION_STATS, Habits(acts=40.0, raises=20.0))
    # Passive and raising little, but entering a fifth of the pots: a tight player.
    assert not loose_passive(
        SeatStats(pre=40.0, pre_in=8.0, post=30.0, post_aggr=3.0), STATION_HABITS
    )
    # Loose, raising little before the flop, but betting half its actions after it.
    assert not loose_passive(SeatStats(pre=40.0, pre_in=26.0, post=30.0, post_aggr=15.0), Habits())


@pytest.mark.parametrize("style", ["station", "tag", "lag", "maniac", "rock", "frozen"])
def test_hard_reads_only_the_pools_calling_stations_as_such(style: str) -> None:
    # Fifty hands at six seats against five of one style: hard's own memory of the table
    # reads most stations as stations, and no player of another style as one.
    hard = HardPolicy(random.Random(1))
    agents = [hard, *(SPEC.make_policy(style, random.Random(10 + k)) for k in range(5))]
    state = HoldemState(HoldemConfig(seats=6, reset_stacks=True, max_hands=50), random.Random(1))
    play_out(state, agents)
    read = [hard._station(seat) for seat in range(1, 6)]
    if style == "station":
        assert sum(read) >= 4
    else:
        assert not any(read)


def _station_flop(hole: str, raised: bool, station: bool):  # type: ignore[no-untyped-def]
    """Hard's decision in `_heads_up_flop` with seat 1 read as a calling station or not."""
    hard = HardPolicy(random.Random(0))
    if station:
        hard.stats[1] = dataclasses.replace(STATION_STATS)
        hard.habits[1] = dataclasses.replace(STATION_HABITS)
    return hard, _heads_up_flop(hole, raised).view(0)


def _bet_share(hole: str, raised: bool, station: bool, trials: int = 200) -> float:
    count = 0
    for seed in range(trials):
        hard, view = _station_flop(hole, raised, station)
        hard.rng = random.Random(seed)
        count += isinstance(hard.decide(view), Bet)
    return count / trials


def test_hard_never_bluffs_a_calling_station() -> None:
    # Seven-deuce on KS 8D 3C, checked to: hard bets it as a bluff some of the time against
    # a stranger, never against a seat it reads as a calling station.
    assert _bet_share("7C 2S", raised=False, station=False) > 0.2
    assert _bet_share("7C 2S", raised=False, station=True) == 0.0


def test_hard_bets_thinner_for_value_into_a_calling_station() -> None:
    # Ace-high on KS 8D 3C, checked to: against a stranger hard checks it; a station calls
    # with worse (any pair or better, most of nothing), so hard bets it for value.
    assert _bet_share("AD 5C", raised=False, station=False) < 0.05
    assert _bet_share("AD 5C", raised=False, station=True) > 0.15


def test_hard_bets_the_pot_for_value_into_a_calling_station() -> None:
    # Two pair on KS 8D 3C, checked to: against a stranger hard's sizes are drawn from half,
    # three quarters and the whole pot whatever it holds; into a station it bets the pot.
    sizes: dict[bool, set[int]] = {False: set(), True: set()}
    for station in (False, True):
        for seed in range(40):
            hard, view = _station_flop("KD 8C", raised=False, station=station)
            hard.rng = random.Random(seed)
            action = hard.decide(view)
            assert isinstance(action, Bet)
            sizes[station].add(action.amount)
    pot = _heads_up_flop("KD 8C", raised=False).view(0).pot_total
    assert sizes[True] == {pot}
    assert len(sizes[False]) == 3


def _led_turn(hole: str) -> HoldemState:
    """Heads-up, hard on the button (seat 0) holding `hole` on KS 8D 3C 2H: seat 1 checked
    behind hard's limp, bet the pot into hard on the flop (hard called) and bets the pot
    again on the turn."""
    deck = _heads_up_deck(hole, "KS 8D 3C 2H")
    state = HoldemState(HoldemConfig(seats=2), random.Random(0), first_deck=deck)
    state.apply(0, Call())
    state.apply(1, Check())
    state.apply(1, Bet(state.view(1).pot_total))
    state.apply(0, Call())
    state.apply(1, Bet(state.view(1).pot_total))
    return state


def test_hard_counts_each_lead_after_the_flop_and_not_a_raise() -> None:
    # Seat 1 led the flop and the turn: two chances to open the betting, two bets, counted
    # over `Habits`' prior (2 bets in 4 chances) at hard's decision.
    hard = HardPolicy(random.Random(0))
    hard.decide(_led_turn("AH 4C").view(0))
    assert (hard.habits[1].could_lead, hard.habits[1].led) == (6.0, 4.0)
    # A check where it could have bet is a chance not taken; a raise is not a lead.
    state = _heads_up_flop("AH 4C", raised=False)  # seat 1 checked the flop to hard
    hard = HardPolicy(random.Random(0))
    hard.decide(state.view(0))
    assert (hard.habits[1].could_lead, hard.habits[1].led) == (5.0, 2.0)
    state.apply(0, Bet(20))
    state.apply(1, Raise(80))
    hard.decide(state.view(0))
    assert (hard.habits[1].could_lead, hard.habits[1].led) == (5.0, 2.0)


def test_relentless_reads_a_seat_that_bets_whenever_it_may_open() -> None:
    assert not relentless(Habits())  # nothing seen: the prior is half
    assert relentless(Habits(could_lead=16.0, led=14.0))  # 12 leads in 12 chances
    assert not relentless(Habits(could_lead=24.0, led=17.0))  # about a lag's 0.7


@pytest.mark.parametrize("style", ["maniac", "tag", "lag", "station", "rock", "frozen"])
def test_hard_reads_only_a_maniac_as_relentless(style: str) -> None:
    # A hundred hands heads-up against each style of the pool: only the maniac, who bets
    # every time the betting after the flop is its to open, reads as relentless.
    hard = HardPolicy(random.Random(1))
    agents = [hard, SPEC.make_policy(style, random.Random(10))]
    state = HoldemState(HoldemConfig(seats=2, reset_stacks=True, max_hands=100), random.Random(1))
    play_out(state, agents)
    assert relentless(hard.habits[1]) == (style == "maniac")


@pytest.mark.parametrize("hole", ["AH 4C", "QD JD"])
def test_hard_calls_down_a_relentless_bettor_wider(hole: str) -> None:
    # Ace-high or queen-high facing pot-sized bets on the flop and turn: hard folds to a
    # seat seen leading 10 of 16 times (its bets come from the top of its range), calls a
    # seat seen leading 16 of 16 (its bets say little about its hand). Both seats bet or
    # raise four fifths of their actions after the flop: only the read of leads differs.
    calls = {}
    for led in (12.0, 18.0):
        count = 0
        for seed in range(40):
            hard = HardPolicy(random.Random(seed))
            hard.stats[1] = SeatStats(pre=20.0, pre_in=17.0, post=20.0, post_aggr=16.0)
            hard.habits[1] = Habits(could_lead=20.0, led=led)
            count += isinstance(hard.decide(_led_turn(hole).view(0)), (Call, Raise, AllIn))
        calls[led] = count / 40
    assert calls[12.0] < 0.1
    assert calls[18.0] > 0.9


def test_hard_probes_a_relentless_bettor_with_the_smallest_bet() -> None:
    # Seven-deuce on KS 8D 3C, checked to heads-up after hard's open: against a stranger
    # hard checks a third of the time and bets at its drawn sizes; against a seat seen leading
    # 18 of 20 times it bets the smallest amount every time (checked to, that seat would
    # bet and hard fold). With two pair it still bets for value at its usual sizes.
    view = _heads_up_flop("7C 2S", raised=True).view(0)
    stranger: list[BettingAction] = []
    relentless_seat: list[BettingAction] = []
    for seed in range(100):
        hard = HardPolicy(random.Random(seed))
        stranger.append(hard.decide(view))
        hard = HardPolicy(random.Random(seed))
        hard.habits[1] = Habits(could_lead=20.0, led=18.0)
        relentless_seat.append(hard.decide(view))
    assert sum(isinstance(a, Check) for a in stranger) > 20
    assert {a.amount for a in stranger if isinstance(a, Bet)} == {60, 90, 120}  # the pot is 120
    assert relentless_seat == [Bet(view.min_to)] * 100
    value = _heads_up_flop("KD 8C", raised=True).view(0)
    sizes = set()
    for seed in range(40):
        hard = HardPolicy(random.Random(seed))
        hard.habits[1] = Habits(could_lead=20.0, led=18.0)
        action = hard.decide(value)
        assert isinstance(action, Bet)
        sizes.add(action.amount)
    assert sizes == {60, 90, 120}


def _big_blind_flop(hole: str) -> HoldemState:
    """Heads-up, hard in the big blind (seat 1) holding `hole` on KS 8D 3C after the button
    limped and hard checked: hard is first to act on the flop."""
    deck = _heads_up_deck(hole, "KS 8D 3C", seat=1)
    state = HoldemState(HoldemConfig(seats=2), random.Random(0), first_deck=deck)
    state.apply(0, Call())
    state.apply(1, Check())
    return state


def test_hard_checks_a_hand_worth_a_bet_to_a_relentless_bettor_then_raises() -> None:
    # Two pair first to act on the flop: against a stranger hard bets it; against a seat
    # seen leading 18 of 20 times it checks (that seat bets whenever checked to), and
    # raises the bet that comes.
    assert _big_blind_flop("KD 8C").view(1).hole == tuple(parse_cards("KD 8C"))
    for seed in range(40):
        hard = HardPolicy(random.Random(seed))
        assert isinstance(hard.decide(_big_blind_flop("KD 8C").view(1)), Bet)
        hard = HardPolicy(random.Random(seed))
        hard.habits[0] = Habits(could_lead=20.0, led=18.0)
        state = _big_blind_flop("KD 8C")
        assert hard.decide(state.view(1)) == Check()
        state.apply(1, Check())
        state.apply(0, Bet(state.view(0).pot_total))
        assert isinstance(hard.decide(state.view(1)), (Raise, AllIn))


def test_hard_calls_a_relentless_bettors_turn_bet_with_a_hand_worth_a_raise() -> None:
    # Two pair facing pot-sized bets on the flop and the turn: hard raises a seat seen
    # leading 12 of 20 times (both seats bet or raise four fifths of their actions after
    # the flop), and calls one seen leading 18 of 20 (it will bet the river as well).
    answers: dict[float, set[type]] = {12.0: set(), 18.0: set()}
    for led in answers:
        for seed in range(40):
            hard = HardPolicy(random.Random(seed))
            hard.stats[1] = SeatStats(pre=20.0, pre_in=17.0, post=20.0, post_aggr=16.0)
            # Seen folding to 2 bets of 20: hard would not raise it back with a mere call.
            hard.habits[1] = Habits(could_lead=20.0, led=led, faced=20.0, folded=2.0)
            answers[led].add(type(hard.decide(_led_turn("KD 8C").view(0))))
    assert answers[12.0] <= {Raise, AllIn}
    assert answers[18.0] == {Call}
