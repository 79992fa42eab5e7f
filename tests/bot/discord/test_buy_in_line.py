"""`/stats`'s buy-in line: in the game's own words when its catalog has them (draw poker's
caves), else the shared words of every game with rebuys, in each language."""

from __future__ import annotations

import pytest

from bot.discord.cogs.info import buy_in_line
from storage import BuyInLedger

LEDGER = BuyInLedger(matches=2, rebuys=1, units=3, chips=24, net=-5, net_units=-0.62)


@pytest.mark.parametrize(
    ("lang", "draw", "other"),
    [
        ("en", "Caves: 3 caves bought for 24 chips", "Buy-ins: 3 bought for 24 chips"),
        ("fr", "Caves : 3 caves achetées pour 24 jetons", "Achats : 3 pour 24 jetons"),
        ("uk", "Одиниці: куплено 3 на 24 фішки", "Купівлі: 3 на 24 фішки"),
    ],
)
def test_the_line_is_in_the_games_words_else_the_shared_ones(
    lang: str, draw: str, other: str
) -> None:
    assert buy_in_line("draw", LEDGER, lang).startswith(draw)
    shared = buy_in_line("holdem", LEDGER, lang)  # a game without words of its own
    assert shared.startswith(other) and "-5" in shared, shared
