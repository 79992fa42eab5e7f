"""The runtime's own events read through one function (`bot.render.runtime_events`) for the
Discord channel and the terminal, each with its own catalog keys and names: every line
exists in every language, the channel never names a hidden card of a timed-out move nor a
raw member-chosen name, the terminal says yours in the second person."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.discord.safe_text import safe_name
from bot.discord.wording import CHANNEL
from bot.i18n import LANGUAGES, Addressee, catalog, t
from bot.render import get_renderer
from bot.render.fair import fair_line
from bot.render.runtime_events import RuntimeWording, runtime_line
from bot.runtime import (
    MatchStarted,
    PlayerJoined,
    PlayerLeft,
    SeatAway,
    SeatBack,
    SeedsRevealed,
    TableStopped,
    TurnTimedOut,
)
from bot.terminal.console import TERMINAL, ConsoleFront

SEAT_EVENTS = (PlayerJoined, PlayerLeft, SeatBack)


@pytest.mark.parametrize("wording", [CHANNEL, TERMINAL], ids=["channel", "terminal"])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_key_of_both_wordings_is_in_every_language(
    wording: RuntimeWording, lang: str
) -> None:
    messages = catalog(lang)
    missing = [key for key in wording.keys.values() if key not in messages]
    assert not missing, missing


def test_the_channel_says_a_stop_and_a_mid_match_reveal_and_the_terminal_neither() -> None:
    stopped, revealed = TableStopped(), SeedsRevealed(match=3)
    bigtwo = get_renderer("bigtwo")
    for lang in LANGUAGES:
        assert runtime_line(stopped, [], lang, bigtwo, CHANNEL) == t(
            "discord.event.table_stopped", lang
        )
        assert runtime_line(revealed, [], lang, bigtwo, CHANNEL) == fair_line(revealed, lang)
        assert runtime_line(stopped, [], lang, bigtwo, TERMINAL) is None
        assert runtime_line(revealed, [], lang, bigtwo, TERMINAL) is None


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_timed_out_discard_names_no_card_in_the_channel_but_does_in_the_terminal(
    lang: str,
) -> None:
    draw = get_renderer("draw")
    event = TurnTimedOut(seat=1, action="discard 7S 2D", in_a_row=1)
    names = ["Ana", "Bob"]
    public = runtime_line(event, names, lang, draw, CHANNEL)
    private = runtime_line(event, names, lang, draw, TERMINAL)
    assert public is not None and private is not None
    assert "7♠" not in public and "2♦" not in public and "Bob" in public
    assert "7♠" in private and "2♦" in private


def test_a_timed_out_big_two_play_names_its_cards_in_the_channel() -> None:
    event = TurnTimedOut(seat=0, action="play 3D", in_a_row=1)
    line = runtime_line(event, ["Ana"], "en", get_renderer("bigtwo"), CHANNEL)
    assert line is not None and "3♦" in line


@given(
    name=st.text(alphabet="ab*_~`|>@#<:!&", min_size=1, max_size=12),
    seat=st.integers(min_value=0, max_value=8),
    kind=st.sampled_from(SEAT_EVENTS),
    lang=st.sampled_from(LANGUAGES),
)
def test_the_channel_names_a_seat_events_member_safely_with_their_seat(
    name: str, seat: int, kind: type[PlayerJoined], lang: str
) -> None:
    event = kind(seat=seat, name=name)
    line = runtime_line(event, [], lang, None, CHANNEL)
    assert line == t(f"discord.event.{kind.kind}", lang, name=safe_name(name), seat=seat + 1)
    assert str(seat + 1) in line


@given(name=st.text(alphabet="abcXYZ", min_size=1, max_size=8), lang=st.sampled_from(LANGUAGES))
def test_the_terminal_says_your_own_seat_events_in_the_second_person(name: str, lang: str) -> None:
    names = ["Bot 1", Addressee(name)]
    keys = {
        PlayerJoined: "console.event.joined.you",
        PlayerLeft: "console.event.left.you",
        SeatBack: "console.event.back.you",
    }
    for kind, key in keys.items():
        assert runtime_line(kind(seat=1, name=name), names, lang, None, TERMINAL) == t(key, lang)
    away = SeatAway(seat=1, name=name, reason="left")
    assert runtime_line(away, names, lang, None, TERMINAL) == t("console.event.away.you", lang)
    # Somebody else now in the seat: the name the event carries, in the third person.
    other = runtime_line(PlayerLeft(seat=0, name=name), names, lang, None, TERMINAL)
    assert other == t("console.event.left", lang, name=name)


def test_the_terminal_front_reads_the_runtimes_events_through_the_shared_function() -> None:
    front = ConsoleFront.__new__(ConsoleFront)
    front.lang = "fr"
    bigtwo = get_renderer("bigtwo")
    started = MatchStarted(number=4)
    assert front._runtime_event(started, [], bigtwo) == t(
        "console.event.match_started", "fr", number=4
    )
    assert front._runtime_event(TableStopped(), [], bigtwo) is None
