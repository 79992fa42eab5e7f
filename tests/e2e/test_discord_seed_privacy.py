"""No deal's seed reaches anyone while its match is played (issue 40, item 1), through the
real bot and the Discord stand-in, in every game: a seed gives the whole deck (the card a
Deuce Duel player keeps hidden into the next deal, every folded hand and draw in poker).

Members of a live match use every command the bot synced and every control on the
messages it sent (walked from the bot's own command tree and components, so a new command
or control joins by construction), and everything the bot sends toward any member (public
messages, ephemeral answers, follow-ups, DMs, forms, autocomplete lists, every file's bytes
such as a `/history` file, alt texts) goes through the stand-in's `content_hook`: none of it
may hold a seed, nor its first 16 hex digits, of a deal of a match still in play, nor a
card hidden from a member it reaches (`tests/e2e/hidden_cards.py`: another seat's hand,
the undealt cards). Once the match is over, `/history` carries every deal's seed and
`deucebot verify` passes on it.
The same through `python -m bot` as its own process: nothing it sent holds a 64-hex string
that hashes to one of the live match's commitments."""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.commands.verify import verify_export
from bot.discord.client import Deucebot
from bot.history.model import DealHistory, HistoryFile
from bot.i18n import t
from deucebot_dev.discord_standin import FakeDiscord, User
from engines.fair import commitment
from tests.e2e.bot_process import spawn_bot
from tests.e2e.conftest import bot_running, running_standin, settle
from tests.e2e.helpers import board, boards, cards_in_text, mentioned
from tests.e2e.hidden_cards import both, hidden_card_check, watch_knowledge
from tests.e2e.process_play import FOOTER, env_for, finished, match_over_shown, stop
from tests.e2e.surface import hand_of, leaves, option_values, use_control, visible_controls


def history_upload(fake: FakeDiscord) -> bytes:
    """The last history file the bot uploaded (a board picture may come after it)."""
    return next(data for name, data in reversed(fake.files) if name.endswith(".json"))


def assert_seeds_committed(deals: Sequence[DealHistory], table: int, match: int) -> None:
    """Every one of `deals` (of a match over) carries its seed, and it is the one its
    `deal_started` commitment committed to."""
    for deal in deals:
        committed = next(
            e.event["commitment"] for e in deal.events if e.event["kind"] == "deal_started"
        )
        assert deal.seed is not None, f"deal {deal.deal}: no seed once the match is over"
        seed = bytes.fromhex(deal.seed)
        assert commitment(seed, table=table, match=match, deal=deal.deal) == committed


async def history_of(fake: FakeDiscord, user: User) -> bytes:
    """`user`'s `/history` file: the one uploaded after they asked (a bot process answers
    a deferred command by a follow-up that may come after the command returned)."""
    before = sum(name.endswith(".json") for name, _ in fake.files)
    await fake.command(user, "history", deals=50)
    await fake.wait_for(lambda: sum(n.endswith(".json") for n, _ in fake.files) > before, 60)
    return history_upload(fake)


STEPS = 36
SEATS = {"bigtwo": 3, "holdem": 3, "draw": 3, "duel": 2}
"""Members seated at the start (the AI takes the other seats)."""
SHORT = {"bigtwo": {"deals": 3}, "holdem": {"deals": 5}, "draw": {"deals": 4}, "duel": {}}
"""A match short enough for the AI to finish it."""
SHOWN = 16
"""Hex digits of a seed that count as showing it (what the channel used to show)."""
HEX64 = re.compile(rb"(?<![0-9a-f])[0-9a-f]{64}(?![0-9a-f])")


@dataclass
class Watch:
    """What the content hook saw."""

    payloads: int = 0
    files: int = 0


def live_seeds(bot: Deucebot) -> dict[str, str]:
    """Every seed dealt so far in a match still in play (hex -> where), read from the
    running tables' own deal sources."""
    found = {}
    for table in list(bot.tables.tables.values()):
        source = getattr(table.state, "source", None)
        if table.status != "playing" or source is None or table.match is None:
            continue
        for deal in range(1, table.deal + 1):
            seed = source.seed(deal)
            if seed is not None:
                found[seed.hex] = f"table {table.id} match {table.match.number} deal {deal}"
    return found


def seed_check(bot: Deucebot, watch: Watch) -> Any:
    """A stand-in `content_hook`: nothing sent holds a live match's seed."""

    def check(path: str, payload: dict[str, Any], files: list[tuple[str, bytes]]) -> None:
        watch.payloads += 1
        watch.files += len(files)
        texts = [json.dumps(payload, ensure_ascii=False)]
        texts += [data.decode("latin-1") for _, data in files]
        for seed, where in live_seeds(bot).items():
            for text in texts:
                assert seed[:SHOWN] not in text, f"{where}: its seed sent while it is played"

    return check


async def advance(fake: FakeDiscord, bot: Deucebot, members: list[User], channel: int) -> None:
    """Members play their turns with `/act` until deal 2 began: they fold or pass when they
    can and never bet, raise or go all-in, so no deal can end the match (two members of a
    duel going all-in in deal 1 ended it in one run of twenty)."""
    rng = random.Random(channel)
    for _ in range(400):
        await settle(bot)
        table = bot.tables.find(str(channel))
        assert table is not None and table.status == "playing" and table.state is not None
        if table.deal >= 2:
            return
        seat = table.to_act
        owner = None if seat is None else table.seats[seat].owner
        user = next((m for m in members if owner and str(m.id) == owner.id), None)
        if seat is None or user is None:
            continue
        legal = [str(a) for a in table.state.legal_actions(seat)]
        folds = [a for a in legal if a in ("fold", "pass")]
        calm = [a for a in legal if a.split()[0] not in ("bet", "raise", "allin")]
        move = folds[0] if folds and rng.random() < 0.8 else rng.choice(calm)
        await fake.command(user, "act", channel_id=channel, action=move)
    raise AssertionError("deal 2 never began")


@pytest.mark.parametrize("game", sorted(SEATS))
async def test_no_member_receives_a_seed_of_a_live_match(game: str, tmp_path: Path) -> None:
    rng = random.Random(f"seeds-{game}")
    async with running_standin(channels=2) as fake:
        members = [fake.owner, *(fake.add_user(n) for n in ("Ana", "Ben"))]
        members[1].locale = "fr"
        members[2].locale = "uk"
        seated = members[: SEATS[game]]
        async with bot_running(fake, tmp_path / "db.sqlite3") as bot:
            watch = Watch()
            main = fake.channel_ids[0]
            known = watch_knowledge(bot, main)
            hidden = hidden_card_check(bot, fake, main, known, members)
            fake.content_hook = both(seed_check(bot, watch), hidden)
            commands = leaves(fake.commands)
            assert {"history", "act", "table create"} <= {c.path for c in commands}
            await fake.command(
                fake.owner, "table create", channel_id=main, game=game, **SHORT[game]
            )
            for member in seated[1:]:
                await fake.command(member, "table join", channel_id=main)
            await fake.command(fake.owner, "table start", channel_id=main)
            await advance(fake, bot, seated, main)  # a deal is over: its seed would be known
            for member in members:
                await fake.command(member, "history", channel_id=main, values={"deals": 50})
            await settle(bot)
            # Every command and control, by members seated or not, in both channels, but
            # those that would end the match here: `table leave` comes last (the AI then
            # plays it out); a stopped or restarted match is over, its seeds public
            # (tests/bot/runtime/test_seeds_of_live_matches.py).
            ending = {"table stop", "table restart", "table leave"}
            admin = [c for c in commands if not all(fake.sees(m, c.path) for m in members)]
            walked = [c for c in commands if c not in admin and c.path not in ending]
            unused = rng.sample(walked, len(walked))
            used: set[str] = set()
            for step in range(STEPS):
                table = bot.tables.find(str(main))
                assert table is not None and table.status == "playing", "the match ended"
                user = rng.choice(members)
                channel = main if rng.random() < 0.85 else fake.channel_ids[1]
                cards = hand_of(bot, user, channel)
                controls = [
                    (m, c)
                    for m, c in visible_controls(fake, user)
                    if str(c["custom_id"]).split(":")[1] not in ("leave", "stop", "restart")
                ]
                due = len(unused) >= STEPS - step
                if controls and not due and rng.random() < 0.5:
                    message, comp = rng.choice(controls)
                    used.add(str(comp["custom_id"]).split(":")[1])
                    await use_control(fake, rng, user, message, comp, cards)
                else:
                    leaf = unused.pop() if unused else rng.choice(walked)
                    used.add("/" + leaf.path)
                    values = await option_values(fake, rng, user, leaf, channel, members, cards)
                    await fake.command(user, leaf.path, channel_id=channel, values=values)
                await settle(bot)
            for leaf in admin:
                used.add("/" + leaf.path)
                cards = hand_of(bot, fake.owner, main)
                values = await option_values(fake, rng, fake.owner, leaf, main, members, cards)
                # An admin's own words shown to everybody (a season named "7C") tell nothing.
                known.said |= cards_in_text(json.dumps(values, ensure_ascii=False))
                await fake.command(fake.owner, leaf.path, channel_id=main, values=values)
                await settle(bot)
            assert {"/" + c.path for c in walked + admin} <= used, used
            assert fake.errors == [], fake.errors
            assert watch.files > 0 and watch.payloads > STEPS, watch
            assert known.files > 0 and known.payloads > STEPS and known.cards > 0, known

            # The match ends: the AI plays every seat out.
            table = bot.tables.find(str(main))
            assert table is not None and table.match is not None and table.status == "playing"
            match = table.match
            for member in seated:
                await fake.command(member, "table leave", channel_id=main)
            for _ in range(2000):
                await settle(bot)
                if table.status == "finished":
                    break
            assert table.status == "finished"
            await settle(bot)  # the match's result, posted
            # The result says so, in the table's language (a member may have changed it).
            said = {t("fair.revealed", lang) for lang in ("en", "fr", "uk")}
            posted = [m.text() for m in fake.public_messages(main)]
            assert any(line in text for line in said for text in posted), posted[-3:]
            ana = members[0]
            fake.keep_files = True
            answer = await fake.command(ana, "history", channel_id=main, values={"deals": 50})
            final = answer.final()
            assert final is not None and final.ephemeral and final.attachments
            data = history_upload(fake)
            history = HistoryFile.model_validate_json(data)
            ended = next(m for m in history.matches if m.match_id == match.id)
            assert_seeds_committed(ended.deals, table.id, match.number)
            path = tmp_path / "history.json"
            path.write_bytes(data)
            assert verify_export(str(path)) == []


def committed_deals(
    blobs: list[bytes], table: int, match: int, commitments: dict[int, str]
) -> set[int]:
    """The deals whose seed is in `blobs`: every 64-hex string hashed as each deal's seed."""
    found = set()
    for blob in blobs:
        for hexed in HEX64.findall(blob):
            seed = bytes.fromhex(hexed.decode("ascii"))
            found |= {
                deal
                for deal, value in commitments.items()
                if commitment(seed, table=table, match=match, deal=deal) == value
            }
    return found


async def test_the_bot_process_sends_no_seed_of_a_live_match(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    """`python -m bot` as its own process: Ana folds hold'em hands until hand 3 began; no
    byte the process sent anyone (messages, answers, DMs, her `/history` file) holds a
    64-hex string that hashes to one of the match's commitments. Once the AI has played
    the match out, her `/history` carries every hand's seed and verifies."""
    ana = standin.owner
    standin.keep_files = True
    sent: list[bytes] = []

    def keep(path: str, payload: dict[str, Any], files: list[tuple[str, bytes]]) -> None:
        sent.append(json.dumps(payload).encode())
        sent.extend(data for _, data in files)

    standin.content_hook = keep
    # /history twice within a minute: no cooldown (it shares /stats's, 30 s by default).
    bot = await spawn_bot(env_for(standin, tmp_path, DEUCEBOT_STATS_COOLDOWN="0"), tmp_path)
    try:
        await standin.wait_ready(60)
        await standin.command(ana, "table create", game="holdem", seats=3, deals=12)
        await standin.command(ana, "table start")
        hand = 1
        for _ in range(1200):  # up to a minute on a busy machine
            await asyncio.sleep(0.05)
            stamp = FOOTER.search(board(standin).text()) if boards(standin) else None
            hand = int(stamp.group(2)) if stamp else hand
            if hand >= 3 or finished(standin):
                break
            if mentioned(standin) == ana.id:
                answer = await standin.command(ana, "act", action="fold")
                final = answer.final()
                if final is not None and final.content.startswith("⛔"):
                    await standin.command(ana, "act", action="check")
        assert hand >= 3 and not finished(standin), "hand 3 never began mid-match"
        live = HistoryFile.model_validate_json(await history_of(standin, ana))
        (match,) = live.matches
        commitments = {
            e.event["deal"]: e.event["commitment"]
            for d in match.deals
            for e in d.events
            if e.event["kind"] == "deal_started"
        }
        assert len(commitments) >= 2 and all(d.seed is None for d in match.deals)
        assert committed_deals(sent, match.table_id, match.number, commitments) == set()

        await standin.command(ana, "table leave")  # the AI plays the match out
        await standin.wait_for(lambda: match_over_shown(standin), 120)
        data = await history_of(standin, ana)
        (ended,) = HistoryFile.model_validate_json(data).matches
        shown = committed_deals([data], ended.table_id, ended.number, commitments)
        assert shown == set(commitments) and all(d.seed for d in ended.deals)
        path = tmp_path / "history.json"
        path.write_bytes(data)
        assert verify_export(str(path)) == []
    finally:
        await stop(bot)
