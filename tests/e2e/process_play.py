"""Poker matches played through the bot as its own process (`python -m bot`), only with the
controls a member sees (the board's "My hand", the hand's buttons and selects, the amount
form), then checked against the match replayed from the database log: what each public
message version shows (cards, figures) and what each deal's result says."""

from __future__ import annotations

import asyncio
import contextlib
import re
import signal
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.runtime.replay import match_state, opening_events
from deucebot_dev.discord_standin import FakeDiscord, Message, User, version_text
from engines import duel, holdem
from engines.base import DealStarted, Event
from engines.cards import Card
from engines.registry import get_game
from storage.sqlite import SqliteStorage
from tests.e2e.bot_process import BotProcess, bot_env
from tests.e2e.deliveries import Shown, check_match
from tests.e2e.helpers import MENTION, boards, cards_in_text, first_embed
from tests.e2e.poker_helpers import buttons, form_input

FOOTER = re.compile(r"Table #(\d+) · (?:deal|hand) (\d+) · turn (\d+)")
RESULT_TITLE = re.compile(r" · (?:deal|hand) (\d+): result$")

Choose = Callable[[FakeDiscord, User, Message, int], Awaitable[None]]
"""Plays one turn from an open hand (the user, the hand, how many moves were made so far)."""


def finished(fake: FakeDiscord) -> bool:
    """The match result was posted."""
    return any(
        m.embeds and str(m.embeds[0].get("title", "")).endswith(": match result")
        for m in fake.public_messages()
    )


def board_turn(message: Message) -> int | None:
    """The turn stamped in a board's footer."""
    found = FOOTER.search(message.text())
    return int(found.group(3)) if found else None


def whose_turn(fake: FakeDiscord) -> int | None:
    """The member the newest board asks to play (None: an AI, or no board yet)."""
    found = boards(fake)
    match = MENTION.search(found[-1].content) if found else None
    return int(match.group(1)) if match else None


async def play_through_controls(
    fake: FakeDiscord, humans: list[User], choose: Choose, *, limit: int = 300
) -> int:
    """Play the members' turns, as the newest board announces them, until the match result is
    posted; a hand opened on a board that lagged (no action yet, or a stale answer) is
    opened again. Returns the moves the bot acknowledged."""
    ids = {user.id: user for user in humans}
    moves = misses = 0
    while moves < limit:
        await fake.wait_for(lambda: finished(fake) or whose_turn(fake) in ids, 30)
        if finished(fake):
            return moves
        user = ids[whose_turn(fake)]  # type: ignore[index]
        current = boards(fake)[-1]
        before = board_turn(current)
        opened = await fake.click(user, current, "db:hand:")
        hand = opened.message
        assert opened.kind == 4 and hand is not None and hand.ephemeral, opened
        if not buttons(hand) and not _picks(hand):
            await asyncio.sleep(0.05)  # the board is a step behind the table
            continue
        await choose(fake, user, hand, moves)
        if not hand.content.startswith("✅"):
            misses += 1  # the table moved on meanwhile: look again
            assert misses < 40, f"no move was acknowledged 40 times in a row: {hand.content!r}"
            await asyncio.sleep(0.05)
            continue
        misses = 0
        moves += 1
        await _board_moved_on(fake, before)
    raise AssertionError(f"the match did not end after {limit} member moves")


async def _board_moved_on(fake: FakeDiscord, before: int | None) -> None:
    """Wait until the newest board is past turn `before`, or the match is over."""
    await fake.wait_for(lambda: finished(fake) or board_turn(boards(fake)[-1]) != before, 30)


def _picks(hand: Message) -> bool:
    return any(c.startswith("db:pick:") for c in hand.custom_ids())


async def click_label(fake: FakeDiscord, user: User, hand: Message, prefer: tuple[str, ...]) -> str:
    """Click the first action button whose label starts with one of `prefer` (else the
    first one); a "…" button opens the amount form, filled with the lowest amount offered.
    Returns the label clicked."""
    labels = buttons(hand)
    label = next(
        (lab for want in prefer for lab in labels if lab.startswith(want)), next(iter(labels))
    )
    if label.endswith("…"):
        opened = await fake.click(user, hand, labels[label])
        field_ = form_input(opened)
        low = re.search(r"\((\d+)-", field_["label"])
        assert low is not None, field_
        await fake.submit_modal(user, opened, {field_["custom_id"]: low.group(1)})
    else:
        await fake.click(user, hand, labels[label])
    return label


def betting_order(moves: int) -> tuple[str, ...]:
    """Which button to prefer at a member's `moves`-th betting turn: the form now and then,
    the sized raises, a fold, else check or call."""
    order: list[str] = []
    if moves % 5 == 2:
        order += ["Raise…", "Bet…"]
    if moves % 4 == 1:
        order += ["Pot", "½ pot", "Min"]
    if moves % 9 == 8:
        order += ["Fold"]
    return (*order, "Check", "Call", "All-in")


# -- the match replayed from the database ---------------------------------------------------


@dataclass
class Step:
    """The match after `turn` (the table's turn number) actions."""

    turn: int
    deal: int
    public: Any
    """The spectator's view."""
    private: dict[int, set[Card]]
    """Each seat's own cards (hole cards, hand, the locked duel card)."""


@dataclass
class Replayed:
    """A finished match as its log tells it."""

    game: str
    names: list[str]
    ai: list[bool]
    """Which seats the AI played (no member owns them)."""
    steps: list[Step] = field(default_factory=list)
    revealed: dict[int, list[tuple[int, set[Card]]]] = field(default_factory=dict)
    """Per deal: (turn, cards) made public by the game at that turn."""
    held: dict[int, set[Card]] = field(default_factory=dict)
    """Per deal: every card a seat held privately in it."""
    match_id: int = 0

    def step(self, turn: int) -> Step:
        """The step at `turn`."""
        found = [s for s in self.steps if s.turn == turn]
        assert found, f"no turn {turn} in the log ({self.steps[0].turn}..{self.steps[-1].turn})"
        return found[0]

    def public_by(self, deal: int, turn: int | None) -> set[Card]:
        """Cards the game showed in `deal` up to `turn` (None: the whole deal), and in the
        deal before (a board recalls the last deal)."""
        out: set[Card] = set()
        for number in (deal - 1, deal):
            for at, cards in self.revealed.get(number, []):
                if number < deal or turn is None or at <= turn:
                    out |= cards
        return out


def revealed_cards(event: Event) -> set[Card]:
    """The cards an event turns face up for everybody (each game's events say which)."""
    return set(event.face_up())


def private_cards(game: str, view: Any) -> set[Card]:
    """A seat's own cards in its view."""
    if game == "holdem":
        return set(view.hole or ())
    if game == "duel":
        return set(view.hand) | ({view.my_lock} if view.my_lock is not None else set())
    return set(view.hand)


async def replay_match(db: Path) -> Replayed:
    """The one table's finished match in `db`, replayed action by action."""
    storage = SqliteStorage(str(db))
    await storage.open()
    try:
        tables = await storage.live_tables()
        assert len(tables) == 1, tables
        match = await storage.current_match(tables[0].id)
        assert match is not None and match.finished_at is not None, match
        seats = await storage.seats(tables[0].id)
        actions = [a.action for a in await storage.actions(match.id)]
    finally:
        await storage.close()
    game = tables[0].game
    spec = get_game(game)
    state = match_state(spec, match)
    names = [seat.name for seat in seats]
    out = Replayed(game, names, [seat.player_id is None for seat in seats], match_id=match.id)
    deal = 0

    def record(turn: int, events: list[Event]) -> None:
        nonlocal deal
        # The events of one action may settle a deal and deal the next: what they reveal
        # belongs to the deal they happen in.
        for event in events:
            if isinstance(event, DealStarted):
                deal = event.deal
            cards = revealed_cards(event)
            if cards:
                out.revealed.setdefault(deal, []).append((turn, cards))
        private = {s: private_cards(game, state.view(s)) for s in range(len(names))}
        for cards in private.values():
            out.held.setdefault(deal, set()).update(cards)
        out.steps.append(Step(turn, deal, state.view(None), private))

    turn = match.first_seq
    record(turn, opening_events(state))
    for text in actions:
        seat = state.to_act
        assert seat is not None, f"nobody to act before {text!r}"
        events = list(state.apply(seat, spec.parse_action(text)))
        turn += 1
        record(turn, events)
    assert state.finished
    return out


# -- what the channel showed, against the replayed match ------------------------------------

HOLDEM_SEAT = re.compile(
    r"(?:^|\. )(?P<name>[^:.\n]+): (?P<stack>\d+) chips?(?:, bet (?P<bet>\d+))?", re.MULTILINE
)
"""A seat in the board picture's alt text (the board's text leaves the seats to it)."""
DUEL_SEAT = re.compile(
    r"(?:^|\. )(?P<name>[^:.\n]+): (?P<chips>\d+) chips?(?:, bet (?P<bet>\d+))?"
    r"(?:, signals (?P<up>\d+) up, (?P<down>\d+) down| · ▲(?P<UP>\d+) UP ▼(?P<DOWN>\d+) DOWN)?",
    re.MULTILINE,
)
"""A seat in the board picture's alt text (lower case signals), or in the board's text
before the deal's first picture is drawn (a board does not wait long for it)."""


def check_holdem_figures(text: str, view: holdem.HoldemView) -> None:
    """A hold'em board version shows the replayed stacks, bets (its picture's alt text),
    pot and pots."""
    lines = list(HOLDEM_SEAT.finditer(text))
    assert len(lines) == len(view.seats), text
    for seat, match in zip(view.seats, lines, strict=True):
        assert int(match["stack"]) == seat.stack, (match.group(0), seat, text)
        assert int(match["bet"] or 0) == seat.bet, (match.group(0), seat, text)
    assert re.search(rf"· pot {view.pot_total}$", text, re.MULTILINE), (view.pot_total, text)
    pots = next((line for line in text.splitlines() if line.startswith("Pots: ")), None)
    if view.pots:
        assert pots is not None, text
        shown = [int(x) for x in re.findall(r"pot (?:\d+ )?(\d+)", pots)]
        assert shown == [pot.amount for pot in view.pots], (pots, view.pots)
    else:
        assert pots is None, text


def check_duel_figures(text: str, view: duel.DuelView) -> None:
    """A duel board version shows the replayed pot, and (its picture's alt text) chips,
    bets and UP/DOWN signals."""
    assert f"· pot {view.pot} ·" in text, (view.pot, text)
    lines = list(DUEL_SEAT.finditer(text))
    assert len(lines) == 2, text
    for seat, match in enumerate(lines):
        assert int(match["chips"]) == view.chips[seat], (match.group(0), view.chips, text)
        if view.phase == "over":
            continue
        up, down = match["up"] or match["UP"], match["down"] or match["DOWN"]
        assert up is not None, (match.group(0), text)  # the signals are shown
        assert int(match["bet"] or 0) == view.bets[seat], (match.group(0), view.bets)
        assert (int(up), int(down)) == view.signals[seat], (
            match.group(0),
            view.signals,
        )


FIGURES: dict[str, Callable[[str, Any], None]] = {
    "holdem": check_holdem_figures,
    "duel": check_duel_figures,
}


@dataclass
class Scanned:
    """What the scan of the public versions saw."""

    versions: int = 0
    figures: int = 0
    cards_shown: int = 0


def scan_public(fake: FakeDiscord, match: Replayed) -> Scanned:
    """Every version of every public message: no card a seat holds before the game shows it
    (a board version may show what was public at its deal and turn, a deal's result what
    its deal showed, the match result what the last deal showed; anything else no card);
    each board version's figures are those of the replayed match at its turn."""
    scanned = Scanned()
    last_deal = max(match.revealed, default=0)
    last_deal = max(last_deal, match.steps[-1].deal)
    figures = FIGURES.get(match.game)
    for message in fake.public_messages():
        for version in message.history:
            text = version_text(version)
            scanned.versions += 1
            stamp = FOOTER.search(text)
            title = str(first_embed(version).get("title") or "")
            if stamp and int(stamp.group(2)) > 0:
                deal, turn = int(stamp.group(2)), int(stamp.group(3))
                allowed = match.public_by(deal, turn)
                if figures is not None:
                    step = match.step(turn)
                    assert step.deal == deal, (step.deal, text)
                    figures(text, step.public)
                    scanned.figures += 1
            elif (found := RESULT_TITLE.search(title)) is not None:
                allowed = match.public_by(int(found.group(1)), None)
            elif title.endswith(": match result"):
                allowed = match.public_by(last_deal, None)
            else:
                allowed = set()
            shown = cards_in_text(text)
            scanned.cards_shown += len(shown)
            leaked = shown - allowed
            assert not leaked, f"shows {sorted(map(str, leaked))} before the game did: {text!r}"
    return scanned


def seen_privately(fake: FakeDiscord, user: User) -> set[Card]:
    """Cards shown to `user` in the ephemeral hands they opened (and their DMs)."""
    cards: set[Card] = set()
    for message in fake.messages.values():
        if message.ephemeral and message.interaction_user == user.id:
            for version in message.history:
                cards |= cards_in_text(version_text(version))
    for message in fake.dms(user):
        cards |= cards_in_text(message.text())
    return cards


# -- running the bot process -------------------------------------------------------------------

KILLED = -signal.SIGKILL


def env_for(fake: FakeDiscord, cwd: Path, **extra: str) -> dict[str, str]:
    """A bot process's environment: the stand-in, AI in-process, no AI delay."""
    return bot_env({**fake.env(), "DEUCEBOT_AI_PROCESSES": "0", **extra}, cwd)


def match_over_shown(fake: FakeDiscord) -> bool:
    """The match result was posted and the newest board says the match is over."""
    found = boards(fake)
    return finished(fake) and bool(found) and "The match is over" in found[-1].text()


async def play_until_exit(
    fake: FakeDiscord, bot: BotProcess, humans: list[User], choose: Choose, timeout: float = 50
) -> bool:
    """Play the members' turns until the match is over on the channel (False) or the process
    killed itself at its `DEUCEBOT_KILL_AT` point (True)."""
    playing = asyncio.create_task(play_through_controls(fake, humans, choose))
    died = asyncio.create_task(bot.proc.wait())
    try:
        done, _ = await asyncio.wait(
            {playing, died}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
        )
        if died in done:
            assert bot.proc.returncode == KILLED, (bot.proc.returncode, bot.err()[-3000:])
            assert "killing the process" in bot.err()
            return True
        assert playing in done, f"the match did not end within {timeout} s"
        playing.result()
        await fake.wait_for(lambda: match_over_shown(fake), 20)
        return False
    finally:
        for task in (playing, died):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, AssertionError, TimeoutError):
                await task


async def stop(bot: BotProcess) -> None:
    """SIGTERM the process (if it still runs): it must end cleanly, without a traceback."""
    if bot.proc.returncode is None:
        bot.proc.send_signal(signal.SIGTERM)
        assert await bot.wait(30) == 0, bot.err()[-3000:]
    text = bot.err()
    assert "Traceback" not in text and " ERROR " not in text, text[-3000:]


async def check_ledger(fake: FakeDiscord, db: Path, match: Replayed) -> Shown:
    """Each deal's board and result once, in order, the result's amounts the ledger's rows,
    the match result once, no old board with buttons (`check_match`)."""
    storage = SqliteStorage(str(db))
    await storage.open()
    try:
        return await check_match(fake, storage, match.match_id, match.names)
    finally:
        await storage.close()
