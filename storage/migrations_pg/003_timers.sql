-- 003 (PostgreSQL twin of migrations/003_timers.sql): turn timers. The deadline lives with
-- the table so it survives a restart; seats remember whether their owner is away and how
-- many timeouts in a row they had.

ALTER TABLE tables ADD COLUMN deadline DOUBLE PRECISION;
ALTER TABLE tables ADD COLUMN deadline_turn INTEGER;
ALTER TABLE seats ADD COLUMN away INTEGER NOT NULL DEFAULT 0 CHECK (away IN (0, 1));
ALTER TABLE seats ADD COLUMN timeouts INTEGER NOT NULL DEFAULT 0 CHECK (timeouts >= 0);
CREATE INDEX matches_table ON matches (table_id, number);
CREATE INDEX matches_finished ON matches (finished_at);
