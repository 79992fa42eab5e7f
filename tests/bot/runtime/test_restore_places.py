"""`TableManager.restore(places=...)`: only the tables in those places come back (the
terminal drives its own game's table); the others stay exactly as stored, no AI moves."""

from __future__ import annotations

from bot.runtime import Player
from tests.bot.runtime.conftest import Env

ACTIONS = (
    "SELECT t.place, count(a.seq) FROM tables t JOIN matches m ON m.table_id = t.id "
    "LEFT JOIN actions a ON a.match_id = m.id GROUP BY t.place"
)


async def test_only_the_places_asked_for_are_restored_and_the_rest_is_untouched(
    env: Env,
) -> None:
    manager = env.manager
    assert manager is not None
    # An AI-only table: its AI would play on as soon as it is resumed.
    idle = await manager.create(guild="terminal", place="terminal:holdem", game="holdem")
    await idle.start(seed=4)
    mine = await manager.create(
        guild="terminal", place="terminal:bigtwo", game="bigtwo", owner=Player("you", "You")
    )
    await mine.start(seed=4)
    await env.close()  # before any AI turn ran
    stored = dict(env.rows(ACTIONS))
    manager = await env.open()
    restored = await manager.restore(places={"terminal:bigtwo"})
    assert [t.place for t in restored] == ["terminal:bigtwo"]
    assert manager.find("terminal:holdem") is None
    await manager.idle()  # the Big Two AI plays up to your turn
    after = dict(env.rows(ACTIONS))
    assert after["terminal:holdem"] == stored["terminal:holdem"]
    assert after["terminal:bigtwo"] > stored["terminal:bigtwo"]
    assert not any(e for e in env.front.log if e[1] == idle.id)
    await env.close()
    # Asked for every place (the bot), the held-back table comes back.
    manager = await env.open()
    everything = await manager.restore()
    assert {t.place for t in everything} == {"terminal:holdem", "terminal:bigtwo"}
