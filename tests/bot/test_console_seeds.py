"""The terminal shows each deal's commitment and no seed while the match is played; its
end says the seeds are revealed (issue 40, item 1)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.i18n import t
from engines.fair import DealSource
from tests.bot.test_console_play import SCRIPT, play


async def test_the_terminal_reveals_no_seed_before_the_match_is_over(tmp_path: Path) -> None:
    db = tmp_path / "play.sqlite3"
    output = await play(db, SCRIPT, "--deals", "2")
    with sqlite3.connect(db) as conn:
        table, number, secret = conn.execute(
            "SELECT m.table_id, m.number, s.seed FROM matches m"
            " JOIN match_secrets s ON s.match_id = m.id"
        ).fetchone()
        commitments = [c for (c,) in conn.execute("SELECT commitment FROM deals ORDER BY deal")]
    source = DealSource.for_match(int(secret), table=table, match=number)
    assert [source.commitment(d) for d in (1, 2)] == commitments
    for deal, committed in enumerate(commitments, start=1):
        assert f"Deal {deal} committed: {committed[:16]}…" in output
        assert source.seed(deal).hex[:16] not in output  # type: ignore[union-attr]
    revealed = t("fair.revealed", "en")
    assert output.count(revealed) == 1
    assert output.index(revealed) > output.index("Match over:")
