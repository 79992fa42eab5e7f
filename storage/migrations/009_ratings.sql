-- 009: skill ratings and seasons (the ratings branch; renumber at merge if another lands first, in both folders).
--
-- `rating_updates` is append-only and chained like the ledgers (storage/chain.py, kind
-- "rating"): one row per rated person per track for each finished match, written in the
-- transaction of the match's last action. A track is the all-time rating (season '') or
-- one season's. mu/sigma are the OpenSkill Plackett-Luce rating after the match, the
-- *_before columns the rating it started from; `rank` is the seat's place in the
-- standings (1 = first, ties share a rank). The current rating of a person is their
-- track's last row (storage/ratings.py).
--
-- `seasons` holds what a server's admins decided: from `starts_at` on, results count for
-- the season `name` (NULL: back to monthly seasons, named YYYY-MM). Without a row, every
-- server has monthly seasons.

CREATE TABLE rating_updates (
    id INTEGER PRIMARY KEY,
    match_id INTEGER NOT NULL REFERENCES matches (id),
    seq INTEGER,
    guild TEXT NOT NULL,
    game TEXT NOT NULL,
    season TEXT NOT NULL,
    seat INTEGER NOT NULL,
    player_id TEXT NOT NULL,
    rank INTEGER NOT NULL,
    mu_before REAL NOT NULL,
    sigma_before REAL NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    at REAL NOT NULL,
    hash TEXT,
    UNIQUE (match_id, season, seat)
);

CREATE INDEX rating_updates_board ON rating_updates (guild, game, season, player_id, id);
CREATE INDEX rating_updates_player ON rating_updates (player_id, guild, game, season, id);

CREATE TRIGGER rating_updates_no_update BEFORE UPDATE ON rating_updates
BEGIN
    SELECT RAISE(ABORT, 'the rating updates are append-only');
END;

CREATE TRIGGER rating_updates_no_delete BEFORE DELETE ON rating_updates
BEGIN
    SELECT RAISE(ABORT, 'the rating updates are append-only');
END;

CREATE TRIGGER rating_updates_no_replace BEFORE INSERT ON rating_updates
WHEN EXISTS (
    SELECT 1 FROM rating_updates
    WHERE id = NEW.id
       OR (match_id = NEW.match_id AND season = NEW.season AND seat = NEW.seat)
)
BEGIN
    SELECT RAISE(ABORT, 'the rating updates are append-only: rating_updates.(match_id, season, seat) exists');
END;

CREATE TABLE seasons (
    id INTEGER PRIMARY KEY,
    guild TEXT NOT NULL,
    name TEXT,
    starts_at REAL NOT NULL,
    set_by TEXT NOT NULL
);

CREATE INDEX seasons_guild ON seasons (guild, starts_at);

-- The per-deal charts of /stats read a person's own ledger rows.
CREATE INDEX penalty_ledger_player ON penalty_ledger (player_id, guild, game);
CREATE INDEX chip_ledger_player ON chip_ledger (player_id, guild, game);

-- /stats reads one person's own results: their credit rows by player.
CREATE INDEX match_players_player ON match_players (player_id, match_id);
