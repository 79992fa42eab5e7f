-- 012 (PostgreSQL twin of migrations/012_rating_holders.sql): who held each seat when the
-- match started (`match_players.held_by`, `held_ai`: the seat's rating result counts for
-- them; NULL on older rows, rated by the older rule) and when a restart or stop settled
-- an unfinished match for the ratings (`matches.settled_at`).

ALTER TABLE match_players ADD COLUMN held_by TEXT;
ALTER TABLE match_players ADD COLUMN held_ai INTEGER;
ALTER TABLE matches ADD COLUMN settled_at DOUBLE PRECISION;
