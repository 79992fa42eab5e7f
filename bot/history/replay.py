"""`deucebot replay FILE`: step through one deal of a history file in the terminal.

Each step is one action: the screen shows the deal's running log up to it, the lines that
action caused marked ``»``, printed by the game's renderer exactly as the terminal front
prints them, with the hidden cards of the file's owner (their private lines). A file that
carries the match seed (an omniscient export of a finished match) also shows the board and
that seat's hand at every step, rebuilt by replaying the match on the engine. Keys: Enter
or ``n`` next, ``b`` back, ``q`` quit.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from pydantic import ValidationError

from bot.history.build import HistoryError
from bot.history.events import decode_event, event_classes
from bot.history.model import DealHistory, HistoryFile, MatchHistory
from bot.i18n import LANGUAGES, Addressee, t
from bot.render import GameRenderer, get_renderer
from bot.runtime.replay import match_state
from engines.base import IllegalAction
from engines.registry import get_game
from storage.base import MatchRecord


def load_history(path: str) -> HistoryFile:
    """Read and validate a history file; `HistoryError` (``history_bad_file``) says why not."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise HistoryError(
            f"cannot read {path}: {error.strerror}",
            code="history_bad_file",
            path=path,
            reason=str(error.strerror),
        ) from error
    try:
        return HistoryFile.model_validate_json(text)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "the file"
        reason = f"{where}: {first['msg']}"
        raise HistoryError(
            f"{path} is not a Deucebot history file ({reason})",
            code="history_bad_file",
            path=path,
            reason=reason,
        ) from error


def pick(
    history: HistoryFile, match_id: int | None, deal: int | None
) -> tuple[MatchHistory, DealHistory]:
    """The match (`match_id`, else the file's first) and its deal (`deal`, else the first)."""
    matches = [m for m in history.matches if match_id is None or m.match_id == match_id]
    if not matches:
        raise HistoryError(
            f"the file has no match {match_id}", code="history_no_match", match=match_id
        )
    match = matches[0]
    deals = [d for d in match.deals if deal is None or d.deal == deal]
    if not deals:
        raise HistoryError(
            f"match {match.match_id} has no deal {deal} in this file",
            code="history_no_deal",
            match=match.match_id,
            deal=deal,
        )
    return match, deals[0]


def viewer_names(match: MatchHistory, seat: int | None, lang: str) -> list[str]:
    """The seats' names as `seat` reads them: that seat is "you" (an `Addressee`, so lines
    take their second-person forms), and another seat stored under the terminal's default
    name ("You", "Vous", "Ви") is called by its number, so only one seat is ever "you"
    (none in a replay of every seat: "You sits down" would read wrong)."""
    names: list[str] = []
    for index, entry in enumerate(match.seats):
        if index == seat:
            names.append(Addressee(entry.name))
        elif entry.name in {t("console.default_name", code) for code in LANGUAGES}:
            names.append(t("history.replay.seat", lang, seat=index + 1))
        else:
            names.append(entry.name)
    return names


@dataclass(frozen=True)
class Frame:
    """One step: the lines up to it (`new` of them caused by this step) and the board."""

    lines: tuple[str, ...]
    new: int
    board: str | None


def _boards(
    match: MatchHistory, deal: DealHistory, seat: int | None, renderer: GameRenderer, lang: str
) -> list[str] | None:
    """Board (and the seat's hand) before the deal's first action and after each action,
    from the match seed; None without one, or when the file's actions do not replay (a file
    holding only some of the match's deals)."""
    if match.seed is None:
        return None
    spec = get_game(match.game)
    record = MatchRecord(
        match.match_id, match.table_id, match.number, int(match.seed), match.config, 0, 0.0
    )
    state = match_state(spec, record)
    names = viewer_names(match, seat, lang)

    def show() -> str:
        text = renderer.board(state.view(None), names, lang)
        if seat is not None:
            text += "\n" + renderer.hand(state.view(seat), lang)
        return text

    every = [a for d in match.deals for a in d.actions]
    if not deal.actions or any(a.action is None for a in every):
        return None
    first, last = deal.actions[0].seq, deal.actions[-1].seq
    out: list[str] = []
    try:
        for entry in every:
            if entry.seq == first:
                out.append(show())
            state.apply(entry.seat, spec.parse_action(str(entry.action)))
            if first <= entry.seq <= last:
                out.append(show())
            if entry.seq == last:
                break
    except IllegalAction:
        return None
    return out


def frames(match: MatchHistory, deal: DealHistory, seat: int | None, lang: str) -> list[Frame]:
    """Every step of `deal` as `seat` saw it (None: every private line, each with its seat's
    name, for an omniscient file)."""
    if seat is not None and not 0 <= seat < len(match.seats):
        raise HistoryError(
            f"there is no seat {seat + 1} in match {match.match_id}",
            code="history_no_seat",
            seat=seat + 1,
            seats=len(match.seats),
        )
    if not match.viewer.omniscient and seat != match.viewer.seat:
        raise HistoryError(
            f"this file holds the hidden cards of seat {(match.viewer.seat or 0) + 1} only",
            code="history_other_seat",
            seat=(match.viewer.seat or 0) + 1,
        )
    renderer = get_renderer(match.game)
    classes = event_classes(match.game)
    names = viewer_names(match, seat, lang)
    seqs = [a.seq for a in deal.actions]
    steps: list[list[str]] = [[] for _ in range(len(seqs) + 1)]
    for entry in deal.events:
        to = entry.event.get("to")
        if seat is not None and to is not None and to != seat:
            continue
        event = decode_event(entry.event, classes)
        line = renderer.event(event, names, lang) if event is not None else None
        if not line:
            continue
        if seat is None and to is not None:
            line = f"[{names[to]}] {line}"
        steps[seqs.index(entry.seq) + 1 if entry.seq in seqs else 0].append(line)
    boards = _boards(match, deal, seat, renderer, lang)
    out: list[Frame] = []
    lines: list[str] = []
    for index, caused in enumerate(steps):
        lines += caused
        board = boards[index] if boards is not None and index < len(boards) else None
        out.append(Frame(tuple(lines), len(caused), board))
    return out


def screen(
    match: MatchHistory, deal: DealHistory, frame: Frame, step: int, total: int, lang: str
) -> str:
    """The text shown for one step."""
    header = t(
        "history.replay.header",
        lang,
        title=match.title,
        match=match.match_id,
        deal=deal.deal,
        step=step,
        steps=total,
    )
    old = len(frame.lines) - frame.new
    body = [("  " if i < old else "» ") + line for i, line in enumerate(frame.lines)]
    parts = [header, *body]
    if frame.board is not None:
        parts += ["", frame.board]
    return "\n".join(parts)


def run(
    path: str,
    *,
    seat: int | None,
    match_id: int | None,
    deal: int | None,
    lang: str,
    stdin: TextIO,
    out: TextIO,
) -> int:
    """The stepping loop (see the module docstring); returns the exit code."""
    history = load_history(path)
    match, chosen = pick(history, match_id, deal)
    viewer = seat if seat is not None else match.viewer.seat
    steps = frames(match, chosen, viewer, lang)
    index = 0
    shown = -1
    while True:
        if shown != index:
            print(screen(match, chosen, steps[index], index, len(steps) - 1, lang), file=out)
            shown = index
        print(t("history.replay.prompt", lang), file=out, flush=True)
        line = stdin.readline()
        if line == "":
            return 0
        key = line.strip().lower()
        if key in ("q", "quit", "exit"):
            return 0
        if key in ("", "n", "next"):
            if index == len(steps) - 1:
                print(t("history.replay.at_end", lang), file=out)
            index = min(index + 1, len(steps) - 1)
        elif key in ("b", "back"):
            if index == 0:
                print(t("history.replay.at_start", lang), file=out)
            index = max(index - 1, 0)
        else:
            print(t("history.replay.keys", lang, key=line.strip()), file=out)
