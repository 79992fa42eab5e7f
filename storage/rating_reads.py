"""Ratings in SQL: what a finished match is rated from, current ratings, rating
leaderboards, a person's history, seasons, and the rebuild from stored results alone.

`SqlRatings` is a mixin over a backend's `_all` (portable SQL, `?` placeholders), as
`storage.queries.SqlReads`. The outcome of a match is read the same way whether it is
being committed (`rate_commit`, the stored rows plus the commit's own), settled by a
restart or stop (`rate_settlement`, its stored rows) or rebuilt (`rebuild_ratings`, every
stored result), and all go through `storage.ratings.rate_match`.

A seat counts for who held it when the match started (`match_players.held_by`, migration
012), whoever finished it; rows from before 012 (no `held_by`) keep the older rule: a
person counts only if they made every move of their seat.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engines.registry import get_game
from storage.base import ActionCommit, Settlement
from storage.ratings import (
    ALL_TIME,
    Rating,
    RatingEntry,
    Scoring,
    SeasonRecord,
    SeatOutcome,
    rate_match,
    season_of,
)

RatingKey = tuple[str, str, str, str]
"""(guild, game, season, player_id): one person's rating on one track."""

LATEST = """
    SELECT r.guild, r.game, r.season, r.player_id, r.mu, r.sigma, l.n
    FROM rating_updates r
    JOIN (SELECT max(id) AS last, count(*) AS n FROM rating_updates {where}
          GROUP BY guild, game, season, player_id) l ON r.id = l.last
"""
"""Each track's last row and how many matches it rated (`{where}` narrows the tracks)."""

HELD_SCHEMA = 12
"""The schema version with `match_players.held_by` and `matches.settled_at` (migration 012)."""

PENALTY_SUMS = (
    "SELECT match_id, seat, sum(penalty) AS v FROM penalty_ledger WHERE match_id {which}"
    " GROUP BY match_id, seat"
)
CHIP_SUMS = (
    "SELECT match_id, seat, sum(delta) AS v FROM chip_ledger WHERE reason <> 'rebuy'"
    " AND match_id {which} GROUP BY match_id, seat"
)
"""A settled match's standing per seat after the deals played, from its ledgers: total
penalty (penalty games); chips without rebuys (chip games: the draw ranks its chips net
of what each seat bought, and every seat buys in the same)."""
SETTLED = "IN (SELECT id FROM matches WHERE settled_at IS NOT NULL)"
"""`{which}` of the sums above: every settled match (the rebuild)."""


def scoring_of(game: str) -> Scoring:
    """How `game`'s standings are ranked ("chips" for a game this program no longer has)."""
    try:
        return get_game(game).scoring
    except Exception:  # an unknown game name in an old database
        return "chips"


@dataclass(frozen=True, slots=True)
class RatingLine:
    """One line of a rating leaderboard."""

    player_id: str
    name: str
    rating: Rating


@dataclass(frozen=True)
class RatingBoard:
    """A game's rating leaderboard in one guild on one track (`season` "" = all time):
    people with at least `min_matches` rated matches by conservative rating, the others
    apart."""

    guild: str
    game: str
    season: str
    min_matches: int
    ranked: list[RatingLine]
    unranked: list[RatingLine]


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A person's rating after one match (a chart's point)."""

    match_id: int
    at: float
    rank: int
    rating: Rating


def _by_seat(rows: Iterable[Any]) -> dict[int, int]:
    return {int(r[0]): int(r[1]) for r in rows}


class SqlRatings:
    """Rating reads and the rating half of finishing a match, over `_all`."""

    schema: int

    async def _all(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        raise NotImplementedError

    def _held(self) -> str:
        """The `match_players` columns of who held a seat at the start (NULL before 012)."""
        if self.schema >= HELD_SCHEMA:
            return "held_by, held_ai"
        return "NULL AS held_by, NULL AS held_ai"

    async def _players(self, match_id: int) -> list[Held]:
        """A match's seats: credit and who held each at the start."""
        rows = await self._all(
            f"SELECT seat, player_id, is_ai, {self._held()} FROM match_players"
            " WHERE match_id = ? ORDER BY seat",
            (match_id,),
        )
        return [_held_row(r) for r in rows]

    async def _ai_moved(self, match_id: int) -> set[int]:
        """The seats of a match the AI made a move of (the older credit rule's input)."""
        rows = await self._all(
            "SELECT DISTINCT seat FROM actions WHERE match_id = ? AND actor = 'ai'", (match_id,)
        )
        return {int(r["seat"]) for r in rows}

    async def _last_hands(self, match_id: int) -> dict[int, int]:
        """Per seat, the last hand of a match its chip ledger settled."""
        return _by_seat(
            await self._all(
                "SELECT seat, max(hand) FROM chip_ledger WHERE match_id = ? AND reason = 'hand'"
                " GROUP BY seat",
                (match_id,),
            )
        )

    async def _rate(
        self,
        *,
        guild: str,
        game: str,
        match_id: int,
        at: float,
        seats: Sequence[SeatOutcome],
    ) -> list[RatingEntry]:
        """`rate_match` of a match's outcome, from the stored priors and seasons."""
        season = season_of(await self.seasons(guild), at)
        people = [s.player_id for s in seats if not s.is_ai]
        priors = await self.ratings_of(guild, game, [ALL_TIME, season], people)
        return rate_match(
            guild=guild,
            game=game,
            scoring=scoring_of(game),
            match_id=match_id,
            at=at,
            seats=seats,
            season=season,
            priors=priors,
        )

    async def seasons(self, guild: str) -> list[SeasonRecord]:
        """The season decisions of `guild`'s admins, oldest first."""
        rows = await self._all(
            "SELECT guild, name, starts_at, set_by FROM seasons WHERE guild = ?"
            " ORDER BY starts_at, id",
            (guild,),
        )
        return [SeasonRecord(r["guild"], r["name"], r["starts_at"], r["set_by"]) for r in rows]

    async def ratings_of(
        self, guild: str, game: str, tracks: Sequence[str], player_ids: Sequence[str]
    ) -> dict[tuple[str, str], Rating]:
        """The current ratings of `player_ids` on `tracks`, per (season, player_id)."""
        if not player_ids:
            return {}
        marks = ", ".join("?" * len(player_ids))
        tmarks = ", ".join("?" * len(tracks))
        where = f"WHERE guild = ? AND game = ? AND season IN ({tmarks}) AND player_id IN ({marks})"
        rows = await self._all(LATEST.format(where=where), (guild, game, *tracks, *player_ids))
        return {
            (r["season"], r["player_id"]): Rating(r["mu"], r["sigma"], int(r["n"])) for r in rows
        }

    async def rate_commit(self, commit: ActionCommit) -> list[RatingEntry]:
        """The rating updates of the match `commit` finishes (its result), from the stored
        rows of the match plus the commit's own; [] when it carries no result."""
        result = commit.result
        if result is None:
            return []
        m = result.match_id
        found = await self._all(
            "SELECT t.guild, t.game FROM matches m JOIN tables t ON t.id = m.table_id"
            " WHERE m.id = ?" + (" AND m.settled_at IS NULL" if self.schema >= HELD_SCHEMA else ""),
            (m,),
        )
        if not found:
            return []
        guild, game = found[0]["guild"], found[0]["game"]
        players = await self._players(m)
        ai_moved = await self._ai_moved(m)
        if commit.action.actor == "ai":
            ai_moved.add(commit.action.seat)
        last = await self._last_hands(m)
        for entry in commit.chips:
            if entry.reason == "hand":
                last[entry.seat] = max(last.get(entry.seat, 0), entry.hand)
        seats = _outcomes(players, result.totals, ai_moved, last)
        return await self._rate(
            guild=guild, game=game, match_id=m, at=result.finished_at, seats=seats
        )

    async def rate_settlement(self, settle: Settlement) -> tuple[list[RatingEntry], int] | None:
        """The rating updates of an unfinished match a restart or stop settles, on the deals
        played (each seat's standing from the ledgers), and the seq of its last action
        (the rows chain after it); None when there is nothing to settle: no deal played,
        or the match is finished or settled already."""
        m = settle.match_id
        found = await self._all(
            "SELECT t.guild, t.game, (SELECT max(seq) FROM actions a WHERE a.match_id = m.id)"
            " AS last_seq FROM matches m JOIN tables t ON t.id = m.table_id"
            " WHERE m.id = ? AND m.finished_at IS NULL AND m.settled_at IS NULL",
            (m,),
        )
        if not found or found[0]["last_seq"] is None:
            return None
        guild, game = found[0]["guild"], found[0]["game"]
        sums = PENALTY_SUMS if scoring_of(game) == "penalty" else CHIP_SUMS
        standing = {
            int(r["seat"]): int(r["v"]) for r in await self._all(sums.format(which="= ?"), (m,))
        }
        last = await self._last_hands(m)
        penalised = await self._all("SELECT 1 FROM penalty_ledger WHERE match_id = ? LIMIT 1", (m,))
        if not last and not penalised:
            return None  # no deal played: not rated
        players = await self._players(m)
        ai_moved = await self._ai_moved(m)  # the older rule's, for a match before 012
        seats = _outcomes(players, _totals(players, standing), ai_moved, last)
        entries = await self._rate(guild=guild, game=game, match_id=m, at=settle.at, seats=seats)
        return entries, int(found[0]["last_seq"])

    async def current_ratings(self) -> dict[RatingKey, Rating]:
        """Every track's current rating, as stored."""
        rows = await self._all(LATEST.format(where=""))
        return {
            (r["guild"], r["game"], r["season"], r["player_id"]): Rating(
                r["mu"], r["sigma"], int(r["n"])
            )
            for r in rows
        }

    async def rebuild_ratings(self) -> dict[RatingKey, Rating]:
        """Every track's rating recomputed from the stored results alone (matches, their
        players, who made the moves, the chip ledger, the seasons), in result order."""
        held = self.schema >= HELD_SCHEMA
        settled = "m.settled_at" if held else "NULL"
        matches = await self._all(
            f"SELECT m.id, coalesce(m.finished_at, {settled}) AS at, m.totals,"
            f" m.finished_at IS NULL AS settled, t.guild, t.game FROM matches m"
            f" JOIN tables t ON t.id = m.table_id"
            f" WHERE m.finished_at IS NOT NULL OR {settled} IS NOT NULL"
            " ORDER BY coalesce(m.finished_at, " + settled + "), m.id"
        )
        players: dict[int, list[Held]] = {}
        for r in await self._all(
            f"SELECT match_id, seat, player_id, is_ai, {self._held()} FROM match_players"
            " ORDER BY match_id, seat"
        ):
            players.setdefault(int(r["match_id"]), []).append(_held_row(r))
        standing: dict[int, dict[int, int]] = {}
        for sums in (PENALTY_SUMS, CHIP_SUMS) if held else ():
            for r in await self._all(sums.format(which=SETTLED)):
                standing.setdefault(int(r["match_id"]), {})[int(r["seat"])] = int(r["v"])
        ai_moved: dict[int, set[int]] = {}
        for r in await self._all("SELECT DISTINCT match_id, seat FROM actions WHERE actor = 'ai'"):
            ai_moved.setdefault(int(r["match_id"]), set()).add(int(r["seat"]))
        last: dict[int, dict[int, int]] = {}
        for r in await self._all(
            "SELECT match_id, seat, max(hand) AS h FROM chip_ledger WHERE reason = 'hand'"
            " GROUP BY match_id, seat"
        ):
            last.setdefault(int(r["match_id"]), {})[int(r["seat"])] = int(r["h"])
        seasons: dict[str, list[SeasonRecord]] = {}
        for r in await self._all(
            "SELECT guild, name, starts_at, set_by FROM seasons ORDER BY starts_at, id"
        ):
            seasons.setdefault(r["guild"], []).append(
                SeasonRecord(r["guild"], r["name"], r["starts_at"], r["set_by"])
            )
        kept: dict[RatingKey, Rating] = {}
        for match in matches:
            m, guild, game, at = (
                int(match["id"]),
                match["guild"],
                match["game"],
                match["at"],
            )
            seated = players.get(m, [])
            totals = (
                _totals(seated, standing.get(m, {}))
                if match["settled"]
                else tuple(json.loads(match["totals"] or "[]"))
            )
            seats = _outcomes(seated, totals, ai_moved.get(m, set()), last.get(m, {}))
            season = season_of(seasons.get(guild, []), at)
            priors = {
                (track, pid): kept[(guild, game, track, pid)]
                for track in (ALL_TIME, season)
                for pid in (s.player_id for s in seats)
                if (guild, game, track, pid) in kept
            }
            for entry in rate_match(
                guild=guild,
                game=game,
                scoring=scoring_of(game),
                match_id=m,
                at=at,
                seats=seats,
                season=season,
                priors=priors,
            ):
                kept[(guild, game, entry.season, entry.player_id)] = entry.after
        return kept

    async def rating_board(
        self, *, guild: str, game: str, season: str = ALL_TIME, min_matches: int = 5
    ) -> RatingBoard:
        """`game`'s people in `guild` on one track by conservative rating (mu - 3 sigma),
        those with fewer than `min_matches` rated matches apart."""
        rows = await self._all(
            LATEST.format(where="WHERE guild = ? AND game = ? AND season = ?"),
            (guild, game, season),
        )
        names = await self._names_of(guild, [r["player_id"] for r in rows])
        lines = [
            RatingLine(
                r["player_id"],
                names.get(r["player_id"], r["player_id"]),
                Rating(r["mu"], r["sigma"], int(r["n"])),
            )
            for r in rows
        ]
        lines.sort(key=lambda line: (-line.rating.conservative, line.name))
        return RatingBoard(
            guild,
            game,
            season,
            min_matches,
            [line for line in lines if line.rating.matches >= min_matches],
            [line for line in lines if line.rating.matches < min_matches],
        )

    async def _names_of(self, guild: str, player_ids: Sequence[str]) -> dict[str, str]:
        """The latest name each person played under in `guild`."""
        if not player_ids:
            return {}
        marks = ", ".join("?" * len(player_ids))
        rows = await self._all(
            "SELECT mp.player_id, mp.name FROM match_players mp"
            " JOIN (SELECT player_id, max(match_id) AS last FROM match_players"
            f" WHERE is_ai = 0 AND player_id IN ({marks}) GROUP BY player_id) l"
            " ON l.player_id = mp.player_id AND l.last = mp.match_id"
            " JOIN matches m ON m.id = mp.match_id JOIN tables t ON t.id = m.table_id"
            " WHERE t.guild = ?",
            (*player_ids, guild),
        )
        return {r["player_id"]: r["name"] for r in rows}

    async def rating_history(
        self, *, guild: str, game: str, player_id: str, season: str = ALL_TIME, limit: int = 200
    ) -> list[RatingPoint]:
        """`player_id`'s rating after each of their last `limit` rated matches, oldest first."""
        rows = await self._all(
            "SELECT match_id, at, rank, mu, sigma FROM rating_updates"
            " WHERE player_id = ? AND guild = ? AND game = ? AND season = ?"
            " ORDER BY id DESC LIMIT ?",
            (player_id, guild, game, season, limit),
        )
        total = len(rows)
        return [
            RatingPoint(
                int(r["match_id"]), r["at"], int(r["rank"]), Rating(r["mu"], r["sigma"], total - i)
            )
            for i, r in enumerate(rows)
        ][::-1]

    async def deal_results(
        self, *, guild: str, game: str, player_id: str, limit: int = 200
    ) -> list[int]:
        """`player_id`'s own results per deal, oldest first, of their last `limit` deals:
        penalties per deal (penalty games) or net chips per hand (chip games)."""
        if scoring_of(game) == "penalty":
            sql = (
                "SELECT penalty AS v FROM penalty_ledger"
                " WHERE player_id = ? AND guild = ? AND game = ? AND is_ai = 0"
                " ORDER BY id DESC LIMIT ?"
            )
        else:
            sql = (
                "SELECT delta AS v FROM chip_ledger"
                " WHERE player_id = ? AND guild = ? AND game = ? AND is_ai = 0"
                " AND reason = 'hand' ORDER BY id DESC LIMIT ?"
            )
        rows = await self._all(sql, (player_id, guild, game, limit))
        return [int(r["v"]) for r in rows][::-1]


Held = tuple[int, str, bool, str | None, bool]
"""A seat of a match: seat, credit id, credit is AI, who held it at the start (None: a row
from before migration 012) and whether that is an AI."""


def _held_row(r: Any) -> Held:
    held_by = r["held_by"]
    return (int(r["seat"]), r["player_id"], bool(r["is_ai"]), held_by, bool(r["held_ai"]))


def _totals(players: Sequence[Held], standing: Mapping[int, int]) -> tuple[int, ...]:
    """Per seat (0 .. the last seat), its standing from the ledgers (0 without a row)."""
    seats = 1 + max((p[0] for p in players), default=-1)
    return tuple(standing.get(seat, 0) for seat in range(seats))


def _outcomes(
    players: Sequence[Held],
    totals: Sequence[int],
    ai_moved: set[int],
    last: Mapping[int, int],
) -> list[SeatOutcome]:
    """Each seat's outcome, counting for who held the seat when the match started, whoever
    finished it (the AI for a member who left or was away). A row from before migration
    012 keeps the older rule: a person's credit stands only if the AI made none of their
    seat's moves (the match-credit rule of `storage.queries`)."""
    out: list[SeatOutcome] = []
    for seat, player_id, is_ai, held_by, held_ai in players:
        if not 0 <= seat < len(totals):
            continue
        total, bust = int(totals[seat]), last.get(seat, 0)
        if held_by is not None:
            out.append(SeatOutcome(seat, held_by, held_ai, True, total, bust))
        else:
            out.append(
                SeatOutcome(seat, player_id, is_ai, is_ai or seat not in ai_moved, total, bust)
            )
    return out
