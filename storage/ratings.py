"""Skill ratings: one OpenSkill Plackett-Luce rating per person, game, server and track.

Pure: no I/O. `rate_match` turns a finished match's standings into `RatingEntry` rows;
the storage writes them in the transaction of the match's last action (chained like the
ledgers), and `deucebot ratings rebuild` replays `rate_match` over the stored results to
check them (`storage.rating_reads.rebuild`). Both feed it the same inputs in the same
order (results by finish time, then match id), so they agree to the last bit.

A track is the all-time rating (`ALL_TIME`) or one season's (`season_of`). AI seats play
with a fixed rating (`ai_rating`) and are never updated. A seat counts for whoever held it
when the match started, however it was finished (`storage.rating_reads`); only a seat of
a match stored before that rule, whose person did not make every move (`credited` False,
the match-credit rule of `storage.queries`), takes no part: nobody gains or loses for it.
A restart or stop of a match with a deal played rates it on the deals played.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from openskill.models import PlackettLuce

Scoring = Literal["penalty", "chips"]

ALL_TIME = ""
"""The season name of the all-time track."""

MU = 25.0
SIGMA = MU / 3
"""A newcomer's rating (OpenSkill's defaults)."""


@cache
def model() -> PlackettLuce:
    """The rating model (imported on first use: entry points that never rate start fast)."""
    from openskill.models import PlackettLuce

    return PlackettLuce(mu=MU, sigma=SIGMA)


AI_RATINGS: Mapping[str, tuple[float, float]] = {
    "random": (12.0, 1.0),
    "pass": (8.0, 1.0),
    "greedy": (22.0, 1.0),
    "calling": (18.0, 1.0),
    "honest": (22.0, 1.0),
    "tight": (26.0, 1.0),
    "heuristic": (30.0, 1.0),
    "easy": (16.0, 1.0),
    "casual": (20.0, 1.0),
    "strong": (32.0, 1.0),
    "strong1": (32.0, 1.0),
    "strong2": (32.0, 1.0),
    "strong_v1": (32.0, 1.0),
    "net": (31.0, 1.0),
    "hard": (34.0, 1.0),
    "hard1": (34.0, 1.0),
    "hard2": (34.0, 1.0),
    "hard3": (34.0, 1.0),
    "hard4": (34.0, 1.0),
    "cfr": (35.0, 1.0),
}
"""The fixed (mu, sigma) an AI seat plays with, by the policy it plays (the seat's credit
is ``ai:<policy>``). A table's difficulty level picks that policy per game
(`GameSpec.levels`: Big Two easy / strong / hard, hold'em and draw poker calling /
strong / hard, the duel casual / strong / cfr, its solved game), so beating a hard seat counts more
than beating an easy one, and two levels that play the same policy count the same.
`ai_rating` is the one place that reads it."""

DEFAULT_AI = (25.0, 1.0)
"""An AI seat of a policy `AI_RATINGS` does not name."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A rating: mean skill `mu`, uncertainty `sigma`, over `matches` rated matches."""

    mu: float = MU
    sigma: float = SIGMA
    matches: int = 0

    @property
    def conservative(self) -> float:
        """``mu - 3 sigma``: what leaderboards rank by (a newcomer starts at 0)."""
        return self.mu - 3 * self.sigma


def ai_rating(player_id: str) -> Rating:
    """The fixed rating of the AI seat credited as `player_id` ("ai:<policy>")."""
    mu, sigma = AI_RATINGS.get(player_id.removeprefix("ai:"), DEFAULT_AI)
    return Rating(mu, sigma)


@dataclass(frozen=True, slots=True)
class SeatOutcome:
    """One seat's result in a finished match, as stored: who it is credited to, whether
    the credit stands (no AI move for a person), its final total, and the last deal it
    was dealt in (orders the busted seats of a chip game)."""

    seat: int
    player_id: str
    is_ai: bool
    credited: bool
    total: int
    last_deal: int = 0


@dataclass(frozen=True, slots=True)
class RatingEntry:
    """One rating update: a person's rating on one track before and after a match."""

    guild: str
    game: str
    season: str
    match_id: int
    seat: int
    player_id: str
    rank: int
    before: Rating
    after: Rating
    at: float


@dataclass(frozen=True, slots=True)
class SeasonRecord:
    """An admin's decision: from `starts_at` on, results of `guild` count for the season
    `name` (None: monthly seasons again)."""

    guild: str
    name: str | None
    starts_at: float
    set_by: str = ""


def standings(scoring: Scoring, seats: Sequence[SeatOutcome]) -> dict[int, int]:
    """Per seat, its place (1 = best; equal results share a place). Penalty games: lower
    total is better. Chip games: more chips is better; among seats with no chips left,
    the one dealt in later finished higher."""

    def score(s: SeatOutcome) -> tuple[int, int]:
        if scoring == "penalty":
            return (-s.total, 0)
        return (s.total, s.last_deal if s.total <= 0 else 0)

    return {s.seat: 1 + sum(score(o) > score(s) for o in seats) for s in seats}


def month_of(at: float) -> str:
    """The monthly season of a moment: ``YYYY-MM`` (UTC)."""
    return dt.datetime.fromtimestamp(at, dt.UTC).strftime("%Y-%m")


def season_of(seasons: Sequence[SeasonRecord], at: float) -> str:
    """The season a result at `at` counts for, given one server's `seasons` decisions:
    the latest that started before then (of two decisions at one moment, the later one),
    else the month. A result at the very moment a season starts still counts for the one
    before: the bot rated it before the season existed, and a rebuild must agree."""
    started = [s for s in seasons if s.starts_at < at]
    if started:
        last = sorted(started, key=lambda s: s.starts_at)[-1]
        if last.name is not None:
            return last.name
    return month_of(at)


def rate_match(
    *,
    guild: str,
    game: str,
    scoring: Scoring,
    match_id: int,
    at: float,
    seats: Sequence[SeatOutcome],
    season: str,
    priors: Mapping[tuple[str, str], Rating],
) -> list[RatingEntry]:
    """The rating updates of one finished match on the all-time track and on `season`'s:
    every credited person's new rating from `priors` (per (season, player_id); missing:
    a newcomer). No update when fewer than two seats take part or none is a person."""
    places = standings(scoring, seats)
    taking_part = [s for s in seats if s.is_ai or s.credited]
    people = [s for s in taking_part if not s.is_ai]
    if len(taking_part) < 2 or not people:
        return []
    out: list[RatingEntry] = []
    for track in (ALL_TIME, season):
        before = {
            s.seat: ai_rating(s.player_id)
            if s.is_ai
            else priors.get((track, s.player_id), Rating())
            for s in taking_part
        }
        teams = [
            [model().rating(mu=before[s.seat].mu, sigma=before[s.seat].sigma)] for s in taking_part
        ]
        rated = model().rate(teams, ranks=[float(places[s.seat]) for s in taking_part])
        after = {s.seat: team[0] for s, team in zip(taking_part, rated, strict=True)}
        for s in people:
            old = before[s.seat]
            new = Rating(float(after[s.seat].mu), float(after[s.seat].sigma), old.matches + 1)
            out.append(
                RatingEntry(
                    guild, game, track, match_id, s.seat, s.player_id, places[s.seat], old, new, at
                )
            )
    return out
