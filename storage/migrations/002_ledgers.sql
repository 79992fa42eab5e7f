-- 002: deal seeds, the chip ledger and the penalty ledger (all append-only).

CREATE TABLE deals (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    deal INTEGER NOT NULL,
    dealer INTEGER NOT NULL,
    seed TEXT NOT NULL, -- decimal text: seeds may exceed SQLite's 64-bit integers
    first_seq INTEGER NOT NULL,
    PRIMARY KEY (match_id, deal)
) WITHOUT ROWID;

CREATE TABLE chip_ledger (
    id INTEGER PRIMARY KEY,
    guild TEXT NOT NULL,
    game TEXT NOT NULL,
    match_id INTEGER NOT NULL REFERENCES matches (id),
    hand INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    player_id TEXT NOT NULL,
    is_ai INTEGER NOT NULL CHECK (is_ai IN (0, 1)),
    delta INTEGER NOT NULL,
    reason TEXT NOT NULL,
    at REAL NOT NULL
);

CREATE TABLE penalty_ledger (
    id INTEGER PRIMARY KEY,
    guild TEXT NOT NULL,
    game TEXT NOT NULL,
    match_id INTEGER NOT NULL REFERENCES matches (id),
    deal INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    player_id TEXT NOT NULL,
    is_ai INTEGER NOT NULL CHECK (is_ai IN (0, 1)),
    penalty INTEGER NOT NULL CHECK (penalty >= 0),
    at REAL NOT NULL,
    UNIQUE (match_id, deal, seat)
);

CREATE INDEX chip_ledger_board ON chip_ledger (guild, game, at);
CREATE INDEX chip_ledger_match ON chip_ledger (match_id);
CREATE INDEX penalty_ledger_board ON penalty_ledger (guild, game, at);
CREATE INDEX penalty_ledger_match ON penalty_ledger (match_id);

CREATE TRIGGER chip_ledger_no_update BEFORE UPDATE ON chip_ledger
BEGIN
    SELECT RAISE(ABORT, 'the chip ledger is append-only');
END;

CREATE TRIGGER chip_ledger_no_delete BEFORE DELETE ON chip_ledger
BEGIN
    SELECT RAISE(ABORT, 'the chip ledger is append-only');
END;

CREATE TRIGGER penalty_ledger_no_update BEFORE UPDATE ON penalty_ledger
BEGIN
    SELECT RAISE(ABORT, 'the penalty ledger is append-only');
END;

CREATE TRIGGER penalty_ledger_no_delete BEFORE DELETE ON penalty_ledger
BEGIN
    SELECT RAISE(ABORT, 'the penalty ledger is append-only');
END;
