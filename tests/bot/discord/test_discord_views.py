"""Persistent components: custom ids carry table and turn, fit Discord's limit, parse back."""

from __future__ import annotations

import re

import discord
import pytest

from bot.discord import views


@pytest.mark.parametrize(
    ("item", "expected"),
    [
        (lambda: views.HandButton(12, 34), {"table": "12", "turn": "34"}),
        (lambda: views.PassButton(12, 34, "s"), {"table": "12", "turn": "34", "sort": "s"}),
        (lambda: views.HintButton(7, 0, "r"), {"table": "7", "turn": "0", "sort": "r"}),
        (lambda: views.SortButton(7, 9, "r"), {"table": "7", "turn": "9", "sort": "r"}),
        (
            lambda: views.PlayButton(99999999, 123456, "r", "TS.TH.TD.TC.2S"),
            {"table": "99999999", "turn": "123456", "cards": "TS.TH.TD.TC.2S"},
        ),
        (
            lambda: views.ActButton(3, 44, "r", "raise 120"),
            {"table": "3", "turn": "44", "sort": "r", "action": "raise 120"},
        ),
        (
            lambda: views.CardSelect(5, 6, "s", [discord.SelectOption(label="3♦", value="3D")]),
            {"table": "5", "turn": "6", "sort": "s"},
        ),
    ],
)
async def test_custom_ids_round_trip_through_their_templates(item, expected) -> None:  # type: ignore[no-untyped-def]
    made = item()
    custom_id = made.custom_id
    assert custom_id.startswith("db:") and len(custom_id) <= 100
    matches = [
        cls
        for cls in views.DYNAMIC_ITEMS
        if cls.__discord_ui_compiled_template__.fullmatch(custom_id)
    ]
    assert matches == [type(made)]
    found = type(made).__discord_ui_compiled_template__.fullmatch(custom_id)
    assert found is not None
    for key, value in expected.items():
        assert found[key] == value


def test_templates_refuse_ids_of_other_components() -> None:
    for cls in views.DYNAMIC_ITEMS:
        template: re.Pattern[str] = cls.__discord_ui_compiled_template__
        assert not template.fullmatch("db:hand:x:1")
        assert not template.fullmatch("other:hand:1:1")


async def test_the_select_offers_at_most_five_cards_at_once() -> None:
    options = [discord.SelectOption(label=str(i), value=str(i)) for i in range(13)]
    select = views.CardSelect(1, 1, "r", options)
    assert select.item.max_values == 5 and select.item.min_values == 1
    two = views.CardSelect(1, 1, "r", options[:2])
    assert two.item.max_values == 2
