-- 007 (PostgreSQL twin of migrations/007_fair_chain.sql): provably fair deals and a
-- tamper-evident log (docs/fairness.md).
--
-- Secrets: a match's seed moves out of `matches` into `match_secrets`, read only to deal
-- and to restore. Deals keep the public commitment to their seed; seeds of deals dealt
-- before this version came from the old shuffle and stay in `legacy_seed`.
--
-- Chain: every row of `actions`, `deals`, `chip_ledger` and `penalty_ledger` written from
-- now on carries `hash` (SHA-256 as 64 hex digits in text, as on SQLite, so both backends
-- hash and compare the same strings), chained per match (storage/chain.py); `seq` says
-- which action wrote a deal or ledger row (NULL: the match's start); `matches.head_hash`
-- is the last hash of the match's chain. Rows written before this version have no hash:
-- matches with `chained = 0` are checked only from their first hashed row on.
--
-- SQLite rebuilds `deals` (it cannot drop NOT NULL or rename in place on old versions)
-- and so must create its append-only triggers again. PostgreSQL alters the table in
-- place: ALTER TABLE fires no row triggers, and migration 004's deals_no_update,
-- deals_no_delete and deals_no_truncate stay on the table unchanged.

CREATE TABLE match_secrets (
    match_id BIGINT PRIMARY KEY REFERENCES matches (id),
    seed TEXT NOT NULL -- decimal text: seeds exceed 64-bit integers
);

INSERT INTO match_secrets (match_id, seed) SELECT id, seed FROM matches;

ALTER TABLE matches DROP COLUMN seed;
ALTER TABLE matches ADD COLUMN head_hash TEXT;
ALTER TABLE matches ADD COLUMN chained INTEGER NOT NULL DEFAULT 0 CHECK (chained IN (0, 1));

ALTER TABLE deals RENAME COLUMN seed TO legacy_seed;
ALTER TABLE deals ALTER COLUMN legacy_seed DROP NOT NULL;
ALTER TABLE deals ADD COLUMN commitment TEXT; -- SHA-256 hex of the deal's seed; NULL: stacked or legacy
ALTER TABLE deals ADD COLUMN seq INTEGER;
ALTER TABLE deals ADD COLUMN hash TEXT;

ALTER TABLE actions ADD COLUMN hash TEXT;
ALTER TABLE chip_ledger ADD COLUMN seq INTEGER;
ALTER TABLE chip_ledger ADD COLUMN hash TEXT;
ALTER TABLE penalty_ledger ADD COLUMN seq INTEGER;
ALTER TABLE penalty_ledger ADD COLUMN hash TEXT;
