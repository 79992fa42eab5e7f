-- 012: ratings that cannot be dodged (the ratings branch; renumber at merge if another lands first, in both folders).
--
-- `match_players.held_by` / `held_ai`: who held the seat when the match started (the
-- credit id: a member's id, or `ai:<policy>` for an AI seat or a member away at the
-- start). Written once by the match's start; a member taking the seat mid-match changes
-- the credit columns, never these. The seat's rating result counts for `held_by`, whoever
-- finished it (storage/rating_reads.py). NULL on rows written before this migration:
-- those matches keep the older rule (a person is rated only if they made every move), so
-- `deucebot ratings rebuild` still agrees with what was rated then.
--
-- `matches.settled_at`: when a restart or stop of the match, with at least one deal
-- played, settled it for the ratings (on the deals played, from its ledgers). The match
-- stays unfinished (no result, no totals): the leaderboards do not count it.

ALTER TABLE match_players ADD COLUMN held_by TEXT;
ALTER TABLE match_players ADD COLUMN held_ai INTEGER;
ALTER TABLE matches ADD COLUMN settled_at REAL;
