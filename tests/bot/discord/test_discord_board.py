"""The board and the hand as Discord messages, built from real Big Two deals (no Discord)."""

from __future__ import annotations

import random
from dataclasses import replace

import discord
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.discord.board import board_message, hand_cards, hand_message, table_cards
from bot.discord.preview import sample_table
from tests.e2e.helpers import cards_in_text


def _public_text(message: dict) -> str:  # type: ignore[type-arg]
    embed: discord.Embed = message["embed"]
    parts = [
        message["content"],
        embed.title or "",
        embed.description or "",
        embed.footer.text or "",
    ]
    parts += [f"{f.name}\n{f.value}" for f in embed.fields]
    return "\n".join(parts)


@settings(max_examples=15)
@given(seed=st.integers(0, 10_000), turns=st.integers(0, 60))
def test_the_board_never_shows_a_card_someone_still_holds(seed: int, turns: int) -> None:
    table = sample_table(seed=seed, turns=0)
    spec = table.spec
    rng = random.Random(seed)
    for _ in range(turns):
        seat = table.state.to_act
        if seat is None:
            break
        table.state.apply(seat, spec.make_policy("random", rng).decide(table.state.view(seat)))
        table.turn += 1
        message = _board(table)
        held = set().union(*(set(table.view(s).hand) for s in range(4)))
        shown = cards_in_text(_public_text(message))
        opening = table.view(None).must_include
        assert not (shown & held) - {opening}, (shown & held, _public_text(message))
        assert set(table_cards(table.snapshot())) <= set(table.view(None).played)


def _board(table):  # type: ignore[no-untyped-def]
    import asyncio

    async def build():  # type: ignore[no-untyped-def]
        return board_message(table.snapshot(), "en", [], with_image=True)

    return asyncio.run(build())


async def test_the_board_shows_the_table_picture_and_mentions_the_human_to_act() -> None:
    table = sample_table(seed=4, turns=9)
    message = board_message(table.snapshot(), "en", ["a line"], with_image=True)
    embed = message["embed"]
    picture = message["file"]
    assert picture.filename.startswith("table-") and picture.filename.endswith(".png")
    assert embed.image.url == f"attachment://{picture.filename}"
    # its alt text names every seat and the combination to beat
    assert all(seat.name in picture.description for seat in table.seats)
    assert all(card.pretty in picture.description for card in table_cards(table.snapshot()))
    # an unchanged table keeps its picture's name (the front keeps it on an edit)
    again = board_message(table.snapshot(), "en", [], with_image=True)["file"]
    assert again.filename == picture.filename
    assert embed.footer.text == "Table #7 · deal 1 · turn 9"
    names = [s.name for s in table.seats]
    assert all(name in embed.description for name in names)
    ids = [c.custom_id for c in message["view"].children]
    assert ids == ["db:hand:7:9", "db:pass:7:9:r"]
    table.state = table.state  # the same deal with the human to act:
    while table.to_act != 0:
        seat = table.to_act
        table.state.apply(
            seat, table.spec.make_policy("greedy", random.Random(1)).decide(table.view(seat))
        )
        table.turn += 1
    human = board_message(table.snapshot(), "en", [], with_image=False)
    assert human["content"].startswith("<@111>")
    assert "file" not in human


@pytest.mark.parametrize(("lang", "play"), [("en", "Play"), ("fr", "Jouer"), ("uk", "Зіграти")])
async def test_the_hand_offers_its_cards_and_arms_play_with_the_selection(
    lang: str, play: str
) -> None:
    table = sample_table(seed=4, turns=0)
    seat = table.to_act
    assert seat is not None
    table.seats[seat] = replace(table.seats[seat], owner=table.seats[0].owner)
    cards = hand_cards(table.snapshot(seat), seat, "r")
    message = hand_message(table.snapshot(seat), seat, lang, "r", selected=[str(cards[0])])
    children = message["view"].children
    select = children[0]
    assert [o.value for o in select.item.options] == [str(c) for c in cards]
    assert [o.default for o in select.item.options][:2] == [True, False]
    play_button = children[1]
    assert play_button.item.label.startswith(play) and not play_button.item.disabled
    assert play_button.custom_id == f"db:play:7:0:r:{cards[0]}"
    assert message["file"].filename == "hand-two-" + "".join(map(str, cards)) + ".png"
    assert all(card.pretty in message["file"].description for card in cards)
    nothing = hand_message(table.snapshot(seat), seat, lang, "r")
    assert nothing["view"].children[1].item.disabled  # nothing chosen yet


def test_sorting_by_suit_groups_suits_and_keeps_the_game_order_inside() -> None:
    table = sample_table(seed=9, turns=0)
    by_rank = hand_cards(table.snapshot(0), 0, "r")
    by_suit = hand_cards(table.snapshot(0), 0, "s")
    assert sorted(map(str, by_rank)) == sorted(map(str, by_suit))
    suits = [int(c.suit) for c in by_suit]
    assert suits == sorted(suits)
    for suit in set(suits):
        assert [c for c in by_suit if int(c.suit) == suit] == [
            c for c in by_rank if int(c.suit) == suit
        ]


async def test_a_human_turn_with_a_timer_shows_a_relative_discord_timestamp() -> None:
    table = sample_table(seed=4, turns=0)
    rng = random.Random(2)
    while table.to_act != 0:
        seat = table.to_act
        table.state.apply(seat, table.spec.make_policy("greedy", rng).decide(table.view(seat)))
        table.turn += 1
    table.deadline, table.deadline_turn = 1_900_000_000.0, table.turn
    message = board_message(table.snapshot(), "fr", [], with_image=False)
    assert message["content"] == "<@111>, à vous de jouer. Temps écoulé <t:1900000000:R>."
    table.deadline_turn = table.turn - 1  # a deadline for an earlier turn is not shown
    assert "<t:" not in board_message(table.snapshot(), "fr", [], with_image=False)["content"]


def test_a_picture_that_cannot_be_drawn_leaves_the_board_without_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from bot.discord import board

    def broken(*args: object) -> None:
        raise RuntimeError("a drawing bug")

    table = sample_table(seed=4, turns=9)
    monkeypatch.setattr(board, "table_picture", broken)
    message = board_message(table.snapshot(), "en", [], with_image=True)
    assert "file" not in message and message["embed"].image.url is None
    assert message["embed"].description  # the board text still says everything
