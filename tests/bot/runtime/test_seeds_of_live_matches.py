"""No deal's seed leaves the server while its match can still be played (issue 40, item 1):
a seat's own history (`deucebot history --player`, what `/history` sends) and the public
export (`deucebot verify --export`) of a live match, several deals in, hold commitments but
no 64-hex string that hashes to one of them. Once the match is over (its table stopped,
restarted, or the match ended) they carry every deal's seed, and `deucebot verify` of the
files passes."""

from __future__ import annotations

import asyncio
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main as cli_main
from bot.commands.verify import verify_export
from bot.history.build import recent_deals
from bot.runtime import Player
from engines.fair import commitment

SETTINGS: dict[str, dict[str, Any]] = {
    "bigtwo": {"deals": 6},
    "holdem": {"seats": 3, "starting_chips": 2000},
    "draw": {"seats": 3, "deals": 8},
    "duel": {"starting_chips": 40},
}
ANN = Player("human-ann", "Ann")
HEX64 = re.compile(r"(?<![0-9a-f])[0-9a-f]{64}(?![0-9a-f])")


def seeds_in(text: str, table: int, commitments: dict[int, str]) -> set[int]:
    """The deals of match 1 at `table` whose seed is somewhere in `text`."""
    found = set()
    for hexed in HEX64.findall(text):
        seed = bytes.fromhex(hexed)
        for deal, value in commitments.items():
            if commitment(seed, table=table, match=1, deal=deal) == value:
                found.add(deal)
    return found


async def live_match(env: Any, game: str) -> Any:
    """A table where Ann (seat 0) has played on until deal 3 began: deals 1 and 2 are over,
    the match is not."""
    table = await env.manager.create(
        guild="g", place=f"live-{game}", game=game, settings=SETTINGS[game],
        options={"ai_policy": "random"}, owner=ANN,
    )  # fmt: skip
    await table.start(seed=11)
    rng = random.Random(game)
    while table.deal < 3 and not table.finished:
        await table.idle()
        if table.to_act == 0:
            legal = [str(a) for a in table.state.legal_actions(0)]
            safe = [a for a in legal if "all" not in a] or legal
            await table.act(ANN.id, rng.choice(safe), turn=table.turn)
    await table.idle()
    assert not table.finished and table.deal >= 3 and table.match is not None
    return table


async def cli(*args: str) -> int:
    """`deucebot ARGS...`, run off the event loop as its own command would be."""
    return await asyncio.to_thread(cli_main, list(args))


@pytest.mark.parametrize("game", sorted(SETTINGS))
async def test_a_live_match_shows_no_seed_and_an_ended_one_every_seed(
    env: Any, tmp_path: Path, game: str
) -> None:
    table = await live_match(env, game)
    match_id = table.match.id
    commitments = {d.deal: d.commitment for d in await env.storage.deals(match_id)}
    assert len(commitments) >= 3 and all(commitments.values())
    # /history's file: Ann's ended deals of the live match, as the bot sends them.
    recent = await recent_deals(env.storage, ANN.id, deals=50, guild="g")
    assert [len(m.deals) for m in recent.matches] and recent.matches[0].deals
    assert seeds_in(recent.model_dump_json(), table.id, commitments) == set()
    await env.close()  # the bot stops; the match stays live in the database

    mine, export = tmp_path / "ann.json", tmp_path / "export.json"
    db = str(env.path)
    assert await cli("history", "--db", db, "--player", ANN.id, "--out", str(mine)) == 0
    assert seeds_in(mine.read_text(), table.id, commitments) == set()
    assert await cli("verify", "--db", db, "--match", str(match_id), "--export", str(export)) == 0
    data = json.loads(export.read_text())
    assert [d["commitment"] for d in data["deals"]] == [commitments[d] for d in sorted(commitments)]
    assert all(d["seed"] is None for d in data["deals"])
    assert seeds_in(export.read_text(), table.id, commitments) == set()
    # No event of a deal either: the private ones tell the cards still in play.
    assert not [e for e in data["events"] if e.get("to") is not None]
    assert verify_export(str(export)) == []

    manager = await env.reopen()
    restored = manager.find(table.place)
    assert restored is not None and not restored.finished
    await restored.stop()  # the match can no longer be played: its seeds are public
    await env.close()
    assert await cli("history", "--db", db, "--player", ANN.id, "--out", str(mine)) == 0
    history = json.loads(mine.read_text())
    assert seeds_in(mine.read_text(), table.id, commitments) == set(commitments)
    assert all(d["seed"] for d in history["matches"][0]["deals"])
    assert await cli("verify", str(mine)) == 0
    assert await cli("verify", "--db", db, "--match", str(match_id), "--export", str(export)) == 0
    assert seeds_in(export.read_text(), table.id, commitments) == set(commitments)
    assert await cli("verify", str(export)) == 0
    await env.open()  # the fixture closes it


async def test_a_restarted_match_is_over_and_its_seeds_are_shown(env: Any) -> None:
    table = await live_match(env, "duel")
    old = table.match.id
    commitments = {d.deal: d.commitment for d in await env.storage.deals(old)}
    before = await recent_deals(env.storage, ANN.id, deals=50, guild="g")
    assert seeds_in(before.model_dump_json(), table.id, commitments) == set()
    await table.restart(seed=12)  # match 1 can never be played again
    await table.idle()
    after = await recent_deals(env.storage, ANN.id, deals=50, guild="g")
    ended = next(m for m in after.matches if m.match_id == old)
    shown = seeds_in(ended.model_dump_json(), table.id, commitments)
    assert shown and shown == {d.deal for d in ended.deals}


async def test_an_export_written_when_settlements_revealed_seeds_still_verifies(
    env: Any, tmp_path: Path
) -> None:
    """Files written before seeds waited for the match's end hold each deal's seed in its
    `deal_settled` event and no `seeds` at the match's end: they still verify, and a seed
    changed in a settlement still fails."""
    table = await env.manager.create(
        guild="g", place="old-form", game="holdem", settings={"seats": 3, "max_hands": 3},
        options={"ai_policy": "random"},
    )  # fmt: skip
    await table.start(seed=3)
    await table.idle()
    assert table.finished and table.match is not None
    export, db, match = tmp_path / "export.json", str(env.path), str(table.match.id)
    assert await cli("verify", "--db", db, "--match", match, "--export", str(export)) == 0
    data = json.loads(export.read_text())
    seeds = {d["deal"]: d["seed"] for d in data["deals"]}
    for event in data["events"]:
        if event["kind"] == "deal_settled" and event.get("commitment"):
            event["seed"] = seeds[event["deal"]]
        if event["kind"] == "match_ended":
            del event["seeds"]
    export.write_text(json.dumps(data))
    assert verify_export(str(export)) == []
    settled = next(e for e in data["events"] if e["kind"] == "deal_settled" and e["deal"] == 1)
    settled["seed"] = seeds[2]
    export.write_text(json.dumps(data))
    problems = verify_export(str(export))
    assert len(problems) == 1 and "(deal_settled) is not what the seed deals" in problems[0]
