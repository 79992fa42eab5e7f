"""On Discord, a deal's commitment is on its board before anyone is sent a card, and its
seed is not shown while the match goes on (the match's end reveals it)."""

from __future__ import annotations

from pathlib import Path

from deucebot_dev.discord_standin import FakeDiscord, version_text
from tests.e2e.conftest import bot_running, settle
from tests.e2e.helpers import mentioned, open_hand


async def test_commitment_before_the_cards_and_no_seed_in_the_result(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        await standin.command(ana, "table create", game="holdem")
        await standin.command(ana, "table start")
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None and table.state is not None
        source = table.state.source
        committed, seed = source.commitment(1), source.seed(1).hex
        for _ in range(40):  # Ana folds whenever it is her turn, until hand 1 is over
            await settle(bot)
            if table.deal > 1:
                break
            if mentioned(standin) == ana.id:
                hand = await open_hand(standin, ana)
                fold = [c for c in hand.custom_ids() if c.endswith(":fold")]
                await standin.click(ana, hand, fold[0])
        assert table.deal > 1 and not table.finished
        await settle(bot)

    shown = [m for m in standin.public_messages() if committed[:16] in version_text(m.history[0])]
    assert shown, "no board showed deal 1's commitment"
    cards = standin.dms(ana)
    assert cards and min(m.id for m in cards) > shown[0].id, "a card was sent before"
    # The short form, and when the seed will be shown.
    line = f"Hand 1 committed: {committed[:16]}… (its secret seed is shown when the match is over)"
    assert line in version_text(shown[0].history[0])
    # Hand 1 is over, the match is not: no message ever showed any part of its seed.
    results = [m for m in standin.public_messages() if "hand 1: result" in m.text()]
    assert results
    assert all(
        seed[:16] not in version_text(v) for m in standin.messages.values() for v in m.history
    )
