"""A split opener on Discord (docs/draw.md, "Openers' proof"): the discard menu tells the
opener, before they confirm, which card their discards set aside; the confirmation names it,
privately; the table sees only "splits the openers" until the proof shows the card to all."""

from __future__ import annotations

from pathlib import Path

from bot.render import get_renderer
from deucebot_dev.discord_standin import FakeDiscord, Message, User
from engines.cards import FULL_DECK, Card, parse_cards
from tests.e2e.conftest import settle
from tests.e2e.helpers import open_hand
from tests.e2e.poker_helpers import wait_turn
from tests.e2e.test_discord_draw_rebuy import draw_for_two

OPENER_HAND = "JS JH 4C 7D 9S"
"""Jacks to open with; the opener then throws J♠ 4♣ 7♦, splitting the pair."""
OTHER_HAND = "2C 3D 5H 8S KC"
PROOF_LINE = "proves the opening"


def stacked_deck(hands: dict[int, str], dealer: int, seats: int = 2) -> list[Card]:
    """The deck order dealing `hands` (by seat) one card at a time from the dealer's left."""
    order = [(dealer + 1 + i) % seats for i in range(seats)]
    cards = [parse_cards(hands[seat])[r] for r in range(5) for seat in order]
    return cards + [card for card in FULL_DECK if card not in cards]


async def play(fake: FakeDiscord, who: User, hand: Message, prefer: tuple[str, ...]) -> None:
    """Click the hand's first action button whose move is (or, ending in a space, starts
    with) one of `prefer`."""
    moves = {c.split(":", 5)[5]: c for c in hand.custom_ids() if c.startswith("db:act:")}
    chosen = next(
        (
            custom
            for want in prefer
            for move, custom in moves.items()
            if move == want or (want.endswith(" ") and move.startswith(want))
        ),
        None,
    )
    assert chosen is not None, (prefer, list(moves))
    await fake.click(who, hand, chosen)
    assert hand.content.startswith("✅"), hand.content


async def test_the_opener_is_told_which_card_is_set_aside_and_nobody_else_is(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana, bo = standin.add_user("Ana"), standin.add_user("Bo")
    async with draw_for_two(standin, tmp_path, ana, bo, stack=100) as (bot, table):
        assert table.state is not None
        mine, theirs = table.seat_of(str(ana.id)), table.seat_of(str(bo.id))
        assert mine is not None and theirs is not None
        # Deal 2 (a jackpot after deal 1's check-around) comes from a stacked deck.
        dealer = (table.state.dealer + 1) % 2
        deck = stacked_deck({mine: OPENER_HAND, theirs: OTHER_HAND}, dealer)
        table.state.source = table.state.source.stacked(2, deck)
        warned = split = False
        bo_held: set[Card] = set()
        """Bo's own cards of deal 1 (dealt at random before the deck was stacked)."""
        while (who := await wait_turn(standin, bot, table, [ana, bo])) is not None:
            view = table.view(table.seat_of(str(who.id)))
            if who is bo and view.deal == 1:
                bo_held.update(view.hand)
            hand = await open_hand(standin, who)
            if view.deal == 1:  # come in, stand pat, check around: the next deal is a jackpot
                await play(standin, who, hand, ("no", "check", "call", "raise ", "stand"))
                continue
            assert view.deal == 2 and view.deal_kind == "jackpot", (view.deal, view.deal_kind)
            if who is bo:
                await play(standin, bo, hand, ("check", "call", "stand"))
                continue
            if get_renderer("draw").card_pick(view) is None:
                await play(standin, ana, hand, ("open ", "check"))
                continue
            # The draw: 4♣ alone keeps the openers (no warning); with J♠ they split.
            await standin.select(ana, hand, "db:sel:", ["4C"])
            assert "✂️" not in hand.content, hand.content
            await standin.select(ana, hand, "db:sel:", ["JS", "4C", "7D"])
            assert "✂️" in hand.content and "J♠ will be set aside" in hand.content, hand.content
            assert "J♥" not in hand.content  # the jack kept is not set aside
            warned = True
            await standin.click(ana, hand, "db:pick:")
            assert hand.content.startswith("✅"), hand.content
            assert "You split your openers: J♠ set aside" in hand.content, hand.content
            split = True
            break
        assert warned and split
        # Privacy before the proof: the table hears of a split, but no public message, and
        # nothing Bo got, names J♠ (but Bo's own deal-1 hand, if J♠ was dealt to him then).
        await settle(bot)
        public = standin.public_versions()
        assert any("splits the openers" in v for v in public)
        bos = [m.text() for m in standin.messages.values() if m.interaction_user == bo.id]
        bos += [m.text() for m in standin.dms(bo)]
        for text in public:
            assert "J♠" not in text and "JS" not in text.split(), text
        jack = parse_cards("JS")[0]
        for text in bos:
            if "J♠" in text or "JS" in text.split():
                assert jack in bo_held and "deal 1" in text and "deal 2" not in text, text
        # Bo stands pat, both check: the showdown shows the proof, set-aside card included.
        while (who := await wait_turn(standin, bot, table, [ana, bo])) is not None:
            if table.deal > 2:
                break
            await play(standin, who, await open_hand(standin, who), ("stand", "check", "call"))
        public = standin.public_versions()
        shown = [v for v in public if PROOF_LINE in v]
        assert any("set aside: J♠" in v for v in shown), shown
        # Publicly, J♠ is named only with the proof.
        for text in public:
            if "J♠" in text or "JS" in text.split():
                assert PROOF_LINE in text, text
