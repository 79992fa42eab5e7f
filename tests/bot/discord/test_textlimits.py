"""Every text held to Discord's limits; echoed input shortened."""

from __future__ import annotations

import discord
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.discord.textlimits import (
    CONTENT,
    DESCRIPTION,
    EMBED_TOTAL,
    FIELD_VALUE,
    FIELDS,
    clip,
    echo,
    fit_message,
)


def test_clip_keeps_short_texts_and_marks_a_cut() -> None:
    assert clip("abc", 3) == "abc"
    assert clip("abcd", 3) == "ab…" and len(clip("x" * 5000, CONTENT)) == CONTENT


def test_echo_is_one_short_line() -> None:
    said = echo("play " + "3♠ " * 700 + "\n\nend")
    assert len(said) <= 100 and "\n" not in said and said.endswith("…")
    assert echo("  pass \n") == "pass"
    assert echo("\u202efold\x00\x1b[2J") == "fold [2J"


texts = st.text(min_size=0, max_size=7000)


@settings(max_examples=40, deadline=None)
@given(
    content=texts,
    description=texts,
    fields=st.lists(st.tuples(st.text(max_size=400), texts), max_size=30),
    footer=st.text(max_size=3000),
)
def test_any_message_fits_every_limit(
    content: str, description: str, fields: list[tuple[str, str]], footer: str
) -> None:
    embed = discord.Embed(title="t" * 300, description=description or None)
    for name, value in fields:
        embed.add_field(name=name or "n", value=value or "v")
    if footer:
        embed.set_footer(text=footer)
    kwargs = fit_message({"content": content, "embed": embed})
    assert len(kwargs["content"]) <= CONTENT
    assert len(embed.description or "") <= DESCRIPTION
    assert len(embed.fields) <= FIELDS
    assert all(len(f.value or "") <= FIELD_VALUE for f in embed.fields)
    assert len(embed) <= EMBED_TOTAL or not embed.description
    if len(content) <= CONTENT:
        assert kwargs["content"] == content
