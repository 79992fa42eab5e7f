"""`safe_name`: any member-chosen text renders literally on Discord (no markdown, no mention),
and reads back as itself once Discord drops the escapes."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.discord.safe_text import NO_PINGS, pinging, safe_name

INLINE = set("\\*_~`|[]<")
"""What must never stand unescaped anywhere in a name (markdown, the <...> syntax)."""

PIECES = [*"\\*_~`|[]()<>@#&!:.-+ 1aZ\n", "everyone", "here", "\u200b"]
names = st.lists(st.sampled_from(PIECES), max_size=30).map("".join) | st.text(max_size=40)


def discord_reads(text: str) -> str:
    """What Discord shows for `text`: a backslash before punctuation is dropped (it escapes
    it); the zero-width space after `@` is invisible."""
    return re.sub(r"\\([^0-9A-Za-z\s])", r"\1", text).replace("@\u200b", "@")


def unescaped(text: str, start: int = 0) -> list[str]:
    """The characters of INLINE that stand unescaped in `text` (from `start`)."""
    found, i = [], start
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text) and not text[i + 1].isalnum():
            i += 2
            continue
        if text[i] in INLINE:
            found.append(text[i])
        i += 1
    return found


@given(names)
def test_a_safe_name_reads_as_the_name(name: str) -> None:
    assert discord_reads(safe_name(name)) == name


@given(names)
def test_nothing_in_a_safe_name_is_markdown_or_a_mention(name: str) -> None:
    safe = safe_name(name)
    assert unescaped(safe) == []
    # Even cut anywhere (a field held to its length), no mention syntax survives.
    for cut in range(len(safe)):
        rest = safe[cut:]
        assert not re.search(r"<@[!&]?\d|<#\d|@everyone|@here", rest), rest


@pytest.mark.parametrize(
    ("name", "safe"),
    [
        ("<@123>", "\\<@\u200b123>"),
        ("<@!123>", "\\<@\u200b!123>"),
        ("<@&7>", "\\<@\u200b&7>"),
        ("<#5>", "\\<#5>"),
        ("@everyone", "@\u200beveryone"),
        ("@here", "@\u200bhere"),
        ("<t:1:R>", "\\<t:1:R>"),
        ("<:emoji:9>", "\\<:emoji:9>"),
        ("[Prize](https://example.com)", "\\[Prize\\](https://example.com)"),
        ("**x**", "\\*\\*x\\*\\*"),
        ("_y_", "\\_y\\_"),
        ("`z`", "\\`z\\`"),
        ("||s||", "\\|\\|s\\|\\|"),
        ("~~no~~", "\\~\\~no\\~\\~"),
        ("# Big", "\\# Big"),
        ("-# small", "\\-# small"),
        ("> quote", "\\> quote"),
        ("1. first", "1\\. first"),
        ("+ item", "\\+ item"),
        ("a\\b", "a\\\\b"),
        # Ordinary names stay as they are.
        ("Ana", "Ana"),
        ("J. Smith", "J. Smith"),
        ("Jean-Luc", "Jean-Luc"),
        ("Олена", "Олена"),
    ],
)
def test_examples(name: str, safe: str) -> None:
    assert safe_name(name) == safe


def test_pings_allow_only_the_members_named() -> None:
    allowed = pinging(5, "6").to_dict()
    assert allowed["parse"] == [] and allowed["users"] == [5, 6]
    assert not allowed.get("replied_user") and "roles" not in allowed
    assert NO_PINGS.to_dict()["parse"] == [] and not NO_PINGS.to_dict().get("users")
