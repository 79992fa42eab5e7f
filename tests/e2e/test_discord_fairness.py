"""On Discord, a deal's commitment is on its board before anyone is sent a card, and its
seed is shown only in the deal's result."""

from __future__ import annotations

from pathlib import Path

from bot.devtools.discord_standin import FakeDiscord, version_text
from tests.e2e.conftest import bot_running, settle
from tests.e2e.helpers import mentioned, open_hand


async def test_commitment_before_the_cards_and_the_seed_in_the_result(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        await standin.command(ana, "table create", game="holdem")
        await standin.command(ana, "table start")
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None and table.state is not None
        source = table.state.source
        committed, seed = source.commitment(1), source.reveal(1)["seed"]
        for _ in range(40):  # Ana folds whenever it is her turn, until hand 1 is over
            await settle(bot)
            if table.deal > 1:
                break
            if mentioned(standin) == ana.id:
                hand = await open_hand(standin, ana)
                fold = [c for c in hand.custom_ids() if c.endswith(":fold")]
                await standin.click(ana, hand, fold[0])
        assert table.deal > 1
        await settle(bot)

    shown = [m for m in standin.public_messages() if committed[:16] in version_text(m.history[0])]
    assert shown, "no board showed deal 1's commitment"
    cards = standin.dms(ana)
    assert cards and min(m.id for m in cards) > shown[0].id, "a card was sent before"
    # The short forms and where to check them (the full values are in the history).
    line = f"Hand 1 seed {seed[:16]}… for commitment {committed[:16]}…: check it with"
    revealed = [m for m in standin.public_messages() if line in m.text()]
    assert revealed
    assert "`deucebot verify`" in revealed[0].text()
    before = [m for m in standin.messages.values() if m.id < revealed[0].id]
    assert all(seed[:16] not in version_text(v) for m in before for v in m.history)
