-- 007: provably fair deals and a tamper-evident log (docs/fairness.md).
--
-- Secrets: a match's seed decides every card of the match, so it moves out of `matches`
-- (which exports and logs read) into `match_secrets`, read only to deal and to restore.
-- Deals keep the public commitment to their seed; the seed itself is revealed in the
-- deal's result once the deal is over. Seeds of deals dealt before this version came
-- from the old shuffle and stay in `legacy_seed`.
--
-- Chain: every row of `actions`, `deals`, `chip_ledger` and `penalty_ledger` written
-- from now on carries `hash`, chained per match (storage/chain.py); `seq` says which
-- action wrote a deal or ledger row (NULL: the match's start); `matches.head_hash` is
-- the last hash of the match's chain, so a removed last row shows too. Rows written
-- before this version have no hash: matches with `chained = 0` are "unchained"
-- and only checked from their first hashed row on.

CREATE TABLE match_secrets (
    match_id INTEGER PRIMARY KEY REFERENCES matches (id),
    seed TEXT NOT NULL -- decimal text: seeds exceed SQLite's 64-bit integers
);

INSERT INTO match_secrets (match_id, seed) SELECT id, seed FROM matches;

ALTER TABLE matches DROP COLUMN seed;
ALTER TABLE matches ADD COLUMN head_hash TEXT;
ALTER TABLE matches ADD COLUMN chained INTEGER NOT NULL DEFAULT 0 CHECK (chained IN (0, 1));

CREATE TABLE deals_v6 (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    deal INTEGER NOT NULL,
    dealer INTEGER NOT NULL,
    commitment TEXT, -- SHA-256 hex of the deal's seed and numbers; NULL: stacked or legacy
    first_seq INTEGER NOT NULL,
    seq INTEGER,
    hash TEXT,
    legacy_seed TEXT,
    PRIMARY KEY (match_id, deal)
) WITHOUT ROWID;

INSERT INTO deals_v6 (match_id, deal, dealer, commitment, first_seq, legacy_seed)
SELECT match_id, deal, dealer, NULL, first_seq, seed FROM deals;

DROP TABLE deals;
ALTER TABLE deals_v6 RENAME TO deals;

-- Dropping the old table dropped its triggers: the same three come back on the new one.
CREATE TRIGGER deals_no_update BEFORE UPDATE ON deals
BEGIN
    SELECT RAISE(ABORT, 'the deals are append-only');
END;

CREATE TRIGGER deals_no_delete BEFORE DELETE ON deals
BEGIN
    SELECT RAISE(ABORT, 'the deals are append-only');
END;

-- The rebuilt table gets back migration 004's duplicate-key trigger too.
CREATE TRIGGER deals_no_replace BEFORE INSERT ON deals
WHEN EXISTS (SELECT 1 FROM deals WHERE match_id = NEW.match_id AND deal = NEW.deal)
BEGIN
    SELECT RAISE(ABORT, 'the deals are append-only: deals.(match_id, deal) exists');
END;

ALTER TABLE actions ADD COLUMN hash TEXT;
ALTER TABLE chip_ledger ADD COLUMN seq INTEGER;
ALTER TABLE chip_ledger ADD COLUMN hash TEXT;
ALTER TABLE penalty_ledger ADD COLUMN seq INTEGER;
ALTER TABLE penalty_ledger ADD COLUMN hash TEXT;
