"""A Big Two match against three `hard` AI players through the stand-in, across a restart.

`hard` keeps the deal's public history across its decisions to read the opponents' hands
(`engines.ai.bigtwo_hands.DealHistory`). A restart rebuilds every AI seat's policy in the
middle of a deal: the deal must go on where it was, and the rebuilt players must follow the
next deal's history again.
"""

from __future__ import annotations

from pathlib import Path

from deucebot_dev.discord_standin import FakeDiscord
from tests.e2e.conftest import bot_running, settle
from tests.e2e.helpers import board, play_until, privacy_hook


async def test_a_match_against_three_hard_ai_goes_on_mid_deal_after_a_restart(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    db = tmp_path / "db.sqlite3"
    styles = {ana.id: (ana, "menu")}
    # In-process AI (no worker pool), so the test can look at the policies' histories.
    async with bot_running(standin, db, DEUCEBOT_AI_PROCESSES=0) as bot:
        standin.public_hook = privacy_hook(bot)
        await standin.command(ana, "table create", game="bigtwo", deals=2, ai="hard")
        await standin.command(ana, "table start")
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None
        assert [seat.policy for seat in table.seats[1:]] == ["hard"] * 3

        def deal_one_under_way() -> bool:
            view = table.state.view(None)
            return view.deal == 1 and len(view.played) >= 12

        await play_until(standin, bot, styles, done=deal_one_under_way)
        await settle(bot)
        before = table.state.view(None)
        assert before.deal == 1 and not before.finished
        policies = bot.tables.ai.policies_of(table.id)
        assert sorted(policies) == [1, 2, 3]
        for policy in policies.values():
            # Each seat followed the deal from its views alone (the history checks itself
            # against every view's counts and played cards, and gives up on a mismatch).
            assert policy.name == "hard" and policy.history.record is not None
        table_id = table.id

    # The privacy hook follows deals from their start; the restarted bot joins one midway.
    standin.public_hook = None
    async with bot_running(standin, db, DEUCEBOT_AI_PROCESSES=0) as bot:
        await settle(bot)
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None and table.id == table_id
        after = table.state.view(None)
        # The half-played deal is where it was, or moved on only by AI turns since.
        assert after.deal == 1
        assert after.played[: len(before.played)] == before.played
        assert "Big Two" in board(standin).text()

        def deal_two_under_way() -> bool:
            view = table.state.view(None)
            return view.finished or (view.deal == 2 and len(view.played) >= 12)

        await play_until(standin, bot, styles, done=deal_two_under_way)
        await settle(bot)
        view = table.state.view(None)
        if not view.finished:
            # The players rebuilt after the restart joined deal 1 in its middle; deal 2 they
            # followed from its start, so each reads the opponents' hands again.
            policies = bot.tables.ai.policies_of(table.id)
            assert sorted(policies) == [1, 2, 3]
            assert all(p.history.record is not None for p in policies.values())

        await play_until(standin, bot, styles, done=lambda: table.status == "finished")
        await settle(bot)
        final = table.state.view(None)
        assert final.finished and len(final.penalties) == 2
        rows = await bot.storage.penalty_entries(table.match.id)
        assert sorted((r.deal, r.seat) for r in rows) == [(d, s) for d in (1, 2) for s in range(4)]
        for deal, penalties in enumerate(final.penalties, start=1):
            # One winner per deal, who pays nothing; the stored ledger is the board's.
            assert penalties.count(0) >= 1
            assert {r.seat: r.penalty for r in rows if r.deal == deal} == dict(enumerate(penalties))
        assert final.totals == tuple(sum(p[s] for p in final.penalties) for s in range(4))
