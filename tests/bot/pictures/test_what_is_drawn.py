"""What the table and result pictures say, read from their models (issue 44, items 9-11,
13, 14): draw's match end ranks by the net, the duel's tie is a split, its match end and
signals, names fitted before they are cut, draw's marks and phase, what the seat to act
owes (draw and hold'em, a short big blind), the four-colour hands of the gallery and the
clock in the reader's language.

Where a figure can be known otherwise, the test asks the engine: the seat to act's own
view (its `to_call`, `min_raise_to`) is the oracle of what the picture says it owes."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from typing import Any

import pytest

from bot.i18n import t
from bot.pictures import Facts, board_model, result_model
from bot.pictures.draw import PHASES
from bot.pictures.fonts import text_width
from bot.pictures.gallery import GAMES, facts_for, key_moments, play, seat_counts
from bot.pictures.kit import COLUMN_W, MIN_HEIGHT, Canvas, Plate, display_heights, name_lines
from bot.pictures.model import word
from bot.pictures.poker import seat_plate
from engines.base import MatchEnded
from engines.cards import Suit
from engines.duel import Showdown

LANGS = ("en", "fr", "uk")


def texts(canvas: Canvas) -> list[str]:
    """Every text a drawn picture wrote."""
    return [text for _, _, text in canvas.texts]


def pairs(game: str, seats: int, seed: int, most: int = 3000) -> Iterator[tuple[Any, Any]]:
    """(public view, the view of the seat to act in that same state) through a seeded
    match: the next moment's `own` is the view of whoever acts after the public one."""
    moments = list(itertools.islice(play(game, seats, seed), most))
    for now, after in itertools.pairwise(moments):
        if after.own is not None:
            yield now.view, after.own


# --- 9. draw's match end -------------------------------------------------------------------


@pytest.mark.parametrize("seats", [4, 6])
def test_draw_match_end_shows_the_net_that_ranks_the_seats(seats: int) -> None:
    """Each plate shows the match's total of the seat (chips held minus chips bought,
    signed: what the engine ranks by), its winners framed in gold; no FOLD or other tag
    of the last deal stays on."""
    *_, last = play("draw", seats, 7)
    view = last.view
    ended = next(e for e in last.events if isinstance(e, MatchEnded))
    model = board_model("draw", view, facts_for(seats), "en")
    nets = [view.stacks[s] - view.bought[s] for s in range(seats)]
    assert tuple(nets) == ended.totals
    assert any(n != s for n, s in zip(nets, view.stacks, strict=True))  # the net differs
    plates = [seat_plate(seat, "en") for seat in model.seats]  # type: ignore[attr-defined]
    assert [p.figure for p in plates] == [f"{n:+,}" for n in ended.totals]
    assert [p.winner for p in plates] == [s in ended.winners for s in range(seats)]
    assert all(p.tags == () and not p.dim for p in plates)
    assert model.stakes == ("Net chips: held minus bought",)  # type: ignore[attr-defined]
    alt = model.alt()
    for seat in range(seats):
        assert f"{facts_for(seats).name(seat)}: net {nets[seat]:+,}, " in alt


def test_draw_6_ranks_ann_third_and_bob_second_as_the_summary_does() -> None:
    """The issue's match: Ann holds 1,002 chips but is at -1,198; Bob holds 0, at -200."""
    *_, last = play("draw", 6, 7)
    model = board_model("draw", last.view, facts_for(6), "en")
    figures = {seat.name: seat_plate(seat, "en").figure for seat in model.seats}  # type: ignore[attr-defined]
    assert figures["Ann"] == "-1,198" and figures["Bob"] == "-200"


# --- 10. the duel ---------------------------------------------------------------------------


def _duel_showdowns(seed_range: range) -> Iterator[tuple[Showdown, tuple[Any, ...]]]:
    for seed in seed_range:
        for moment in play("duel", 2, seed, limit=600):
            for event in moment.events:
                if isinstance(event, Showdown):
                    yield event, moment.events


def test_a_duel_tie_is_a_split_not_two_winners() -> None:
    tie, events = next(
        (s, e) for s, e in _duel_showdowns(range(1, 40)) if len(s.winners) == 2 and s.folded is None
    )
    for lang in LANGS:
        sheet = result_model("duel", events, None, facts_for(2), lang)
        assert sheet is not None
        rows = sheet.rows  # type: ignore[attr-defined]
        assert [row.winner for row in rows] == [False, False]
        assert [row.figure for row in rows] == ["", ""]
        assert [row.label for row in rows] == [word("duel.tie", lang)] * 2
        pot = f"{word('pot.main', lang)}: {tie.pot:,}"
        assert sheet.pots == (word("duel.split", lang, pot=pot, n=tie.pot // 2),)  # type: ignore[attr-defined]
        assert word("alt.winner", lang) not in sheet.alt()


def test_a_duel_win_still_frames_its_winner() -> None:
    won, events = next(
        (s, e) for s, e in _duel_showdowns(range(1, 40)) if len(s.winners) == 1 and s.won
    )
    sheet = result_model("duel", events, None, facts_for(2), "en")
    rows = sheet.rows  # type: ignore[union-attr]
    assert [row.winner for row in rows] == [s in won.winners for s in range(2)]
    assert rows[won.winners[0]].figure == f"+{won.won[won.winners[0]]:,}"


def test_the_duel_header_says_the_ante_and_the_match_end_no_ante_of_0() -> None:
    moments = list(play("duel", 2, 7))
    for moment in moments[:-1]:
        header = board_model("duel", moment.view, facts_for(2), "en").header  # type: ignore[union-attr]
        assert " · ante 1 · " in header, header
    last = board_model("duel", moments[-1].view, facts_for(2), "en")
    assert moments[-1].view.phase == "over"
    assert last.header == f"Deal {moments[-1].view.deal} · match over"  # type: ignore[union-attr]


def test_the_last_deals_cards_say_whose_they_were() -> None:
    """Under each of the previous deal's two cards its owner's name, in the picture and in
    the alt text (the match end included)."""
    facts = facts_for(2)
    for moment in (list(play("duel", 2, 7))[-1], list(play("duel", 2, 7))[5]):
        view = moment.view
        assert view.last is not None
        model = board_model("duel", view, facts, "en")
        drawn = texts(model.draw())  # type: ignore[union-attr]
        assert drawn.count(facts.name(0)) == 2 and drawn.count(facts.name(1)) == 2  # plate+card
        owned = ", ".join(
            f"{facts.name(s)} {card.pretty}" for s, card in enumerate(view.last.locked)
        )
        assert f"Deal {view.last.deal}: {owned}." in model.alt()  # type: ignore[union-attr]


@pytest.mark.parametrize("lang", LANGS)
def test_the_signal_tags_say_up_and_down_as_the_board_text_does(lang: str) -> None:
    seen = 0
    for moment in itertools.islice(play("duel", 2, 7), 60):
        view = moment.view
        if view.phase == "over":
            continue
        model = board_model("duel", view, facts_for(2), lang)
        for seat, (up, down) in enumerate(view.signals):
            plate_tags = [tag for tag, _ in _duel_plate(model, seat, lang).tags]
            said = t("duel.signal", lang, up=up, down=down)
            for count, key in ((up, "duel.up"), (down, "duel.down")):
                tag = word(key, lang, n=count)
                assert (tag in plate_tags) == (count > 0)
                # The text board's words ("▲1 UP"), with an arrow the font has ("↑1 UP").
                assert tag[0] in "↑↓" and tag[1:] in said
            seen += 1
    assert seen > 20


def _duel_plate(model: Any, seat: int, lang: str) -> Plate:
    from bot.pictures.duel import _plate

    return _plate(model.seats[seat], lang)


# --- 11. names, draw's marks, the phase and what is owed ------------------------------------


def test_a_name_is_made_smaller_then_put_in_two_lines_before_it_is_cut() -> None:
    room = COLUMN_W - 16 - 48  # a plate with two small backs at its right end
    size, lines = name_lines("Олександра", room)
    assert lines == ("Олександра",) and size < 27
    long = "Олександра Коваленко"
    size, lines = name_lines(long, room)
    assert len(lines) == 2 and " ".join(lines).replace("- ", "-") == long
    assert all(text_width(line, size, True) <= room for line in lines)
    size, lines = name_lines("Ж" * 40, room)
    assert len(lines) == 1 and lines[0].endswith("…")


def test_plates_show_whole_names_where_they_fit_and_stay_legible() -> None:
    """The issue's mid-deal picture cut "Олександра" beside her cards."""
    facts = facts_for(4)
    view = next(
        m.view for m in play("holdem", 4, 7) if len(m.view.board) >= 3 and m.view.seats[1].in_hand
    )
    canvas = board_model("holdem", view, facts, "en").draw()  # type: ignore[union-attr]
    assert "Олександра" in texts(canvas)
    long = Facts(("Ann", "Олександра Коваленко", "Marguerite Dupont", "Li"))
    canvas = board_model("holdem", view, long, "en").draw()  # type: ignore[union-attr]
    drawn = texts(canvas)
    assert "Олександра" in drawn and "Коваленко" in drawn and "Dupont" in drawn
    assert not any(text.endswith("…") for text in drawn)
    assert [h for h, _ in display_heights(canvas) if h < MIN_HEIGHT] == []


@pytest.mark.parametrize("lang", LANGS)
def test_draw_and_duel_marks_are_words_the_alt_text_uses(lang: str) -> None:
    """Draw's blind, surblind and opener and the duel's first player are written out, the
    same words as the alt text (hold'em keeps its SB and BB)."""
    for mark in ("blind", "surblind", "opener", "first"):
        tag = word(f"mark.{mark}", lang)
        assert tag == word(f"alt.mark.{mark}", lang).upper()
        assert len(tag) > 3


def test_mid_deal_draw_pictures_say_the_phase_and_what_the_seat_to_act_owes() -> None:
    facts = facts_for(4)
    checked = set()
    for view, own in itertools.islice(pairs("draw", 4, 7), 800):
        if view.finished:
            continue
        model = board_model("draw", view, facts, "en")
        lines = model.stakes  # type: ignore[union-attr]
        assert view.phase in PHASES
        betting = view.phase in ("bet1", "bet2")
        assert lines[-2 if betting else -1] == word(f"draw.phase.{view.phase}", "en")
        if betting:
            name = facts.name(view.to_act)
            if view.entry > 0:
                kind, chips = "entry", own.min_raise_to - own.stakes[own.seat]
            elif own.to_call:
                kind, chips = "call", own.to_call
            else:
                kind, chips = "check", 0
            assert lines[-1] == word(f"owed.{kind}", "en", name=name, n=chips)
            checked.add(kind)
        drawn = texts(model.draw())  # type: ignore[union-attr]
        for line in lines:
            assert f"{line}." in model.alt()  # type: ignore[union-attr]
            assert line in drawn
    assert checked == {"entry", "call", "check"}


# --- 13. four colours, the clock ------------------------------------------------------------


@pytest.mark.parametrize(("game", "seats"), [(g, n) for g in GAMES for n in seat_counts(g)])
def test_the_gallerys_four_colour_hand_shows_what_four_colours_change(
    game: str, seats: int
) -> None:
    found = dict(key_moments(game, seats, 7))
    two, four = found["hand"], found["hand-four-colour"]
    assert two.png != four.png
    suits = {card.suit for card in four.faces}
    assert {Suit.DIAMONDS, Suit.CLUBS} <= suits
    assert len(suits) >= min(4, len(four.faces))


def test_the_clock_is_written_in_the_readers_language() -> None:
    view = next(m.view for m in play("holdem", 4, 7) if m.view.to_act is not None)
    for lang, clock in (("en", "20 s"), ("fr", "20 s"), ("uk", "20 с")):
        model = board_model("holdem", view, facts_for(4, seconds=20), lang)
        drawn = texts(model.draw())  # type: ignore[union-attr]
        assert clock in drawn, (lang, drawn)
        assert re.search(rf"\b{clock}\b", model.alt())  # type: ignore[union-attr]
    assert "20 s" not in texts(board_model("holdem", view, facts_for(4), "uk").draw())  # type: ignore[union-attr]


# --- 14. hold'em: a short big blind, what is owed --------------------------------------------


def test_holdem_says_what_the_seat_to_act_owes() -> None:
    facts = facts_for(4)
    owed = 0
    for view, own in itertools.islice(pairs("holdem", 4, 7), 600):
        if view.finished or view.to_act is None:
            continue
        model = board_model("holdem", view, facts, "en")
        name = facts.name(view.to_act)
        chips = min(own.to_call, own.seats[own.seat].stack)  # a call puts in at most all
        line = word("owed.call" if chips else "owed.check", "en", name=name, n=chips)
        assert model.stakes[-1] == line  # type: ignore[union-attr]
        assert line in texts(model.draw()) and f"{line}." in model.alt()  # type: ignore[union-attr]
        owed += bool(own.to_call)
    assert owed > 10


def test_a_short_big_blind_is_said_and_the_others_owe_the_highest_bet() -> None:
    """The shipped 9-seat picture: Ann's big blind is all-in for 1 at blinds 10/20; the
    others enter for the small blind's 10 (the highest bet of the round), so the main pot
    is 3 after the flop. The picture says both."""
    facts = facts_for(9)
    seen = []
    for view, own in pairs("holdem", 9, 8, most=200):
        if view.hand != 10 or view.finished:
            continue
        model = board_model("holdem", view, facts, "en")
        assert model.stakes[0] == "Big blind all-in for 1"  # type: ignore[union-attr]
        if view.street == "preflop" and own.to_call:
            assert own.to_call == 10
            assert model.stakes[-1] == f"{facts.name(view.to_act)} to call 10"  # type: ignore[union-attr]
            seen.append("to call 10")
        seen.append(view.street)
    assert {"preflop", "to call 10", "flop"} <= set(seen)


@pytest.mark.parametrize("lang", LANGS)
def test_every_word_of_the_pictures_has_its_glyphs_in_the_shipped_fonts(lang: str) -> None:
    """A tag such as "▲1 UP" would be drawn as "1 UP": the bold fonts lack ▲."""
    from bot.i18n import catalog
    from bot.pictures.fonts import font

    missing = bytes(font(24).getmask("\ue000"))
    for key, text in catalog(lang).items():
        if not key.startswith("pictures.") or key.startswith("pictures.alt."):
            continue
        for char in set(re.sub(r"{[^}]*}", "", text)) - {" "}:
            for condensed in (False, True):
                mask = font(24, condensed).getmask(char)
                assert bytes(mask) != missing and mask.getbbox() is not None, (key, char)


@pytest.mark.parametrize("lang", LANGS)
def test_the_felts_lines_fit_whole_with_a_ten_letter_name(lang: str) -> None:
    """What is owed, a short blind, the phase and draw's net line are never cut on the
    felt for a name as long as "Олександра" (a longer one is shortened, not the figure)."""
    from bot.pictures.poker import LINE_SIZE, STAKES_WIDTH, owed_line

    for kind in ("call", "check", "entry"):
        line = owed_line("Олександра", 1000, lang, kind)
        assert "Олександра" in line and text_width(line, LINE_SIZE, True) <= STAKES_WIDTH
    long = owed_line("Олександра-Éloïse Коваленко-Шевченко", 1000, lang, "call")
    assert "1000" in long and text_width(long, LINE_SIZE, True) <= STAKES_WIDTH
    keys = [f"draw.phase.{phase}" for phase in PHASES] + ["draw.net"]
    keys += ["holdem.short_blind.big_blind", "holdem.short_blind.small_blind"]
    for key in keys:
        assert text_width(word(key, lang, n=1999), LINE_SIZE, True) <= STAKES_WIDTH, key
