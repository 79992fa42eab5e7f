"""The board and the hand as Discord messages, built from real Big Two deals (no Discord)."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

import discord
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.discord.board import board_message, hand_cards, hand_message, seat_names, table_cards
from bot.discord.preview import sample_table
from bot.render import get_renderer
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
    # beside the picture the text leaves the seats' lines to it (and its alt text)
    full = get_renderer("bigtwo").board(
        table.snapshot().view(None), seat_names(table.snapshot()), "en"
    )
    assert len(embed.description.splitlines()) < len(full.splitlines())
    assert set(embed.description.splitlines()) < set(full.splitlines())
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
    from bot.pictures import clear_cache

    def broken(*args: object) -> None:
        raise RuntimeError("a drawing bug")

    table = sample_table(seed=4, turns=9)
    clear_cache()  # not drawn before by another test
    monkeypatch.setattr(board, "table_picture", broken)
    message = board_message(table.snapshot(), "en", [], with_image=True)
    assert "file" not in message and message["embed"].image.url is None
    assert message["embed"].description  # the board text still says everything


@pytest.mark.parametrize("game", ["holdem", "draw", "duel", "bigtwo"])
@pytest.mark.parametrize("lang", ["en", "fr", "uk"])
def test_beside_its_picture_the_board_text_is_shorter_and_the_alt_text_keeps_the_seats(
    game: str, lang: str
) -> None:
    """The brief board text keeps its lines but the seats' (whose turn it is stays); the
    picture's alt text says every seat's name and chips (Big Two: cards left)."""
    from bot.pictures import table_picture
    from bot.pictures.gallery import facts_for, play

    seats = 4 if game in ("holdem", "draw", "bigtwo") else 2
    facts = facts_for(seats, seconds=None)
    renderer = get_renderer(game)
    checked = 0
    for moment in itertools.islice(play(game, seats, 3), 0, 60, 6):
        view = moment.view
        full = renderer.board(view, list(facts.names), lang).splitlines()
        brief = renderer.board(view, list(facts.names), lang, brief=True).splitlines()
        assert len(brief) < len(full) and set(brief) <= set(full)
        assert brief[0] == full[0] and brief[-1] == full[-1]  # title, and whose turn it is
        picture = table_picture(game, view, facts, lang)
        assert picture is not None
        for seat in range(seats):
            said = next(p for p in picture.alt.split(". ") if p.startswith(facts.names[seat] + ":"))
            figure = _seat_figure(view, seat)
            assert str(figure) in said, (figure, said)
        checked += 1
    assert checked >= 5


def _seat_figure(view: object, seat: int) -> int:
    """The figure the alt text must say of `seat`: its chips (cards left in Big Two)."""
    if hasattr(view, "cards_left"):
        return int(view.cards_left[seat])
    if hasattr(view, "stacks"):
        return int(view.stacks[seat])
    if hasattr(view, "chips"):
        return int(view.chips[seat])
    return int(view.seats[seat].stack)  # type: ignore[attr-defined]


async def test_a_picture_drawn_ahead_serves_the_board_when_only_the_seconds_moved(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The board built after `draw_ahead` uses the picture drawn ahead for its turn when the
    clock ticked in between (not drawn again on the event loop), and a new one once the
    table itself changed."""
    from bot.discord import board
    from bot.discord.board import draw_ahead
    from bot.pictures import clear_cache

    clear_cache()
    table = sample_table(seed=4, turns=9)
    now = [1_900_000_000.0]
    monkeypatch.setattr(board.time, "time", lambda: now[0])
    table.deadline, table.deadline_turn = now[0] + 30, table.turn
    await draw_ahead(table.snapshot(), "en", None)
    drawn: list[object] = []
    real = board.table_picture
    monkeypatch.setattr(board, "table_picture", lambda *a: drawn.append(a) or real(*a))
    now[0] += 1.5  # a second and a half later: 28 s left, not 30
    message = board_message(table.snapshot(), "en", [], with_image=True)
    assert "file" in message and drawn == []
    assert "30 s left" in message["file"].description  # the picture drawn ahead
    table.state.apply(
        table.to_act,
        table.spec.make_policy("greedy", random.Random(1)).decide(table.view(table.to_act)),
    )
    table.turn += 1
    table.deadline_turn = table.turn
    board_message(table.snapshot(), "en", [], with_image=True)
    assert len(drawn) == 1  # another turn: drawn afresh


async def test_a_stuck_picture_worker_does_not_hold_the_board_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A worker that never answers: `draw_ahead` gives up after `DRAW_SECONDS`, and the
    board still goes out with its picture (drawn on the spot)."""
    import asyncio

    from bot.discord import board
    from bot.discord.board import draw_ahead
    from bot.pictures import clear_cache

    class Stuck:
        async def picture(self, *args: object, **kwargs: object) -> None:
            await asyncio.Event().wait()

    clear_cache()
    monkeypatch.setattr(board, "DRAW_SECONDS", 0.05)
    table = sample_table(seed=4, turns=9)
    await asyncio.wait_for(draw_ahead(table.snapshot(), "en", Stuck()), 2)  # type: ignore[arg-type]
    message = board_message(table.snapshot(), "en", [], with_image=True)
    assert "file" in message and message["file"].description


async def test_a_picture_drawn_already_is_served_at_once_without_the_worker() -> None:
    """A hand seen again (a pass, "My hand") is answered from the cache: the worker is not
    asked, and the loop is not even given a turn (at a busy bot a turn costs tens of ms)."""
    from bot.discord.board import _drawn_off_loop
    from bot.pictures import Picture, clear_cache, remember

    class Unreachable:
        async def picture(self, *args: object, **kwargs: object) -> None:
            raise AssertionError("the worker was asked for a picture already drawn")

    clear_cache()
    drawn = Picture(png=b"png", alt="a hand", faces=(), width=1, height=1, kind="hand")
    remember(("a", "model"), "hand", drawn)
    waiting = _drawn_off_loop(Unreachable(), ("a", "model"), "hand", urgent=True)  # type: ignore[arg-type]
    with pytest.raises(StopIteration) as done:
        waiting.send(None)  # finished on its first step: it never suspended
    assert done.value.value is drawn
    clear_cache()


def test_the_picture_name_follows_the_table_and_is_remembered_per_snapshot(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from bot.discord import board

    built: list[int] = []
    real = board.table_key

    def counted(*args):  # type: ignore[no-untyped-def]
        built.append(1)
        return real(*args)

    monkeypatch.setattr(board, "table_key", counted)
    monkeypatch.setattr(board, "_image_names", {})
    monkeypatch.setattr(board, "_IMAGE_NAMES", 3)
    table = sample_table(seed=3, turns=0)
    first = table.snapshot()
    name = board.board_image_name(first)
    assert name.startswith("table-") and name.endswith(".png")
    assert board.board_image_name(first) == name and len(built) == 1  # asked again: remembered
    assert board.board_image_name(table.snapshot()) == name and len(built) == 2  # same table
    seat = table.state.to_act
    table.state.apply(
        seat, table.spec.make_policy("random", random.Random(3)).decide(table.view(seat))
    )
    table.turn += 1
    moved = table.snapshot()
    assert board.board_image_name(moved) != name  # a card was played: another picture
    board.board_image_name(table.snapshot())
    assert len(board._image_names) == 3  # bounded: the oldest went
    assert board.board_image_name(first) == name and len(built) == 5  # built again


async def test_a_late_hand_picture_is_waited_for_briefly_and_drawn_on_meanwhile(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`draw_hand_within`: a worker slower than `HAND_PICTURE_WAIT` gets the answer
    going without the picture (`hand_message(..., draw=False)` leaves it out and does not
    draw it on the loop); the drawing goes on, and once done the hand shows it."""
    import asyncio

    from bot.discord import board
    from bot.discord.board import draw_hand_within
    from bot.pictures import clear_cache, draw_picture, remember

    release = asyncio.Event()
    asked: list[str] = []

    class Slow:
        async def picture(self, model: object, kind: str, **kwargs: object) -> object:
            asked.append(kind)
            await release.wait()
            picture = draw_picture(model, kind)  # type: ignore[arg-type]
            remember(model, kind, picture)  # type: ignore[arg-type]  # as the worker's drawer does
            return picture

    clear_cache()
    monkeypatch.setattr(board, "HAND_PICTURE_WAIT", 0.05)
    table = sample_table(seed=4, turns=0)
    seat = table.to_act
    assert seat is not None
    table.seats[seat] = replace(table.seats[seat], owner=table.seats[0].owner)
    shown = table.snapshot(seat)
    drawing = await asyncio.wait_for(
        draw_hand_within(shown, seat, "en", "r", "two", Slow()),  # type: ignore[arg-type]
        1,
    )
    assert drawing is not None and not drawing.done() and asked == ["hand"]
    message = hand_message(shown, seat, "en", "r", draw=False)
    assert "file" not in message and message["embed"].image.url is None
    assert message["embed"].description and message["view"].children  # the hand as text
    release.set()
    await asyncio.wait_for(drawing, 1)
    ready = hand_message(shown, seat, "en", "r", draw=False)
    assert ready["file"].filename.startswith("hand-two-")
    # Drawn now: asked again, it is ready at once, without the worker.
    assert await draw_hand_within(shown, seat, "en", "r", "two", Slow()) is None  # type: ignore[arg-type]
    assert asked == ["hand"]
    clear_cache()


def test_the_thinking_line_of_a_seat_named_like_a_mention_pings_and_renders_nobody() -> None:
    """The "🤖 … is thinking…" line names the seat the AI plays (a member who left keeps
    their name): a nickname shaped like a mention or a masked link is escaped there and
    the board pings nobody (issue 40, item 2; the e2e walk sees this line only when a
    board version happens to be sent while such a seat is to act)."""
    table = next(
        t
        for t in (sample_table(seed=4, turns=n) for n in range(1, 30))
        if t.to_act not in (0, None)
    )
    seat = table.to_act
    assert seat is not None
    for raw, escaped in (
        ("<@999>", "\\<@\u200b999>"),
        ("[Prize](https://example.com)", "\\[Prize\\](https://example.com)"),
    ):
        table.seats[seat] = replace(table.seats[seat], name=raw)
        message = board_message(table.snapshot(), "en", [], with_image=False)
        assert message["content"] == f"🤖 {escaped} is thinking…", message["content"]
        assert message["allowed_mentions"].users is False
