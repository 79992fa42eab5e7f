"""Ratings in SQL: what a finished match is rated from, current ratings, rating
leaderboards, a person's history, seasons, and the rebuild from stored results alone.

`SqlRatings` is a mixin over a backend's `_all` (portable SQL, `?` placeholders), as
`storage.queries.SqlReads`. The outcome of a match is read the same way whether it is
being committed (`outcome_of_commit`, the stored rows plus the commit's own) or rebuilt
(`rebuild`, every stored result), and both go through `storage.ratings.rate_match`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engines.registry import get_game
from storage.base import ActionCommit
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

    async def _all(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        raise NotImplementedError

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
            " WHERE m.id = ?",
            (m,),
        )
        if not found:
            return []
        guild, game = found[0]["guild"], found[0]["game"]
        players = await self._all(
            "SELECT seat, player_id, is_ai FROM match_players WHERE match_id = ? ORDER BY seat",
            (m,),
        )
        ai_moved = {
            int(r["seat"])
            for r in await self._all(
                "SELECT DISTINCT seat FROM actions WHERE match_id = ? AND actor = 'ai'", (m,)
            )
        }
        if commit.action.actor == "ai":
            ai_moved.add(commit.action.seat)
        last = _by_seat(
            await self._all(
                "SELECT seat, max(hand) FROM chip_ledger WHERE match_id = ? AND reason = 'hand'"
                " GROUP BY seat",
                (m,),
            )
        )
        for entry in commit.chips:
            if entry.reason == "hand":
                last[entry.seat] = max(last.get(entry.seat, 0), entry.hand)
        seats = _outcomes(
            [(int(p["seat"]), p["player_id"], bool(p["is_ai"])) for p in players],
            result.totals,
            ai_moved,
            last,
        )
        season = season_of(await self.seasons(guild), result.finished_at)
        people = [s.player_id for s in seats if not s.is_ai]
        priors = await self.ratings_of(guild, game, [ALL_TIME, season], people)
        return rate_match(
            guild=guild,
            game=game,
            scoring=scoring_of(game),
            match_id=m,
            at=result.finished_at,
            seats=seats,
            season=season,
            priors=priors,
        )

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
        matches = await self._all(
            "SELECT m.id, m.finished_at, m.totals, t.guild, t.game FROM matches m"
            " JOIN tables t ON t.id = m.table_id WHERE m.finished_at IS NOT NULL"
            " ORDER BY m.finished_at, m.id"
        )
        players: dict[int, list[tuple[int, str, bool]]] = {}
        for r in await self._all(
            "SELECT match_id, seat, player_id, is_ai FROM match_players ORDER BY match_id, seat"
        ):
            players.setdefault(int(r["match_id"]), []).append(
                (int(r["seat"]), r["player_id"], bool(r["is_ai"]))
            )
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
        held: dict[RatingKey, Rating] = {}
        for match in matches:
            m, guild, game, at = (
                int(match["id"]),
                match["guild"],
                match["game"],
                match["finished_at"],
            )
            seats = _outcomes(
                players.get(m, []),
                tuple(json.loads(match["totals"] or "[]")),
                ai_moved.get(m, set()),
                last.get(m, {}),
            )
            season = season_of(seasons.get(guild, []), at)
            priors = {
                (track, pid): held[(guild, game, track, pid)]
                for track in (ALL_TIME, season)
                for pid in (s.player_id for s in seats)
                if (guild, game, track, pid) in held
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
                held[(guild, game, entry.season, entry.player_id)] = entry.after
        return held

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


def _outcomes(
    players: Sequence[tuple[int, str, bool]],
    totals: Sequence[int],
    ai_moved: set[int],
    last: Mapping[int, int],
) -> list[SeatOutcome]:
    """Each credited seat's outcome: a person's credit stands only if the AI made none of
    their seat's moves (the match-credit rule of `storage.queries`)."""
    return [
        SeatOutcome(
            seat,
            player_id,
            is_ai,
            is_ai or seat not in ai_moved,
            int(totals[seat]),
            last.get(seat, 0),
        )
        for seat, player_id, is_ai in players
        if 0 <= seat < len(totals)
    ]
