-- 004: close the append-only tables against every SQLite client, and mark the file as
-- Deucebot's.
--
-- REPLACE (and INSERT OR REPLACE, and an upsert) removes the row it conflicts with
-- without firing DELETE triggers, so UPDATE/DELETE triggers alone leave the action log
-- and the ledgers open to rewriting. A BEFORE INSERT trigger that refuses a key already
-- present closes that door: it fires before any conflict is resolved. The deals table
-- (002 said "all append-only") gets the same three triggers.
--
-- The messages of the duplicate-key triggers name the table followed by a dot
-- ("actions.", ...), as SQLite's own UNIQUE errors do: storage/sqlite.py maps a refused
-- action row to StaleWrite that way.

CREATE TRIGGER actions_no_replace BEFORE INSERT ON actions
WHEN EXISTS (SELECT 1 FROM actions WHERE match_id = NEW.match_id AND seq = NEW.seq)
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only: actions.(match_id, seq) exists');
END;

CREATE TRIGGER deals_no_update BEFORE UPDATE ON deals
BEGIN
    SELECT RAISE(ABORT, 'the deals are append-only');
END;

CREATE TRIGGER deals_no_delete BEFORE DELETE ON deals
BEGIN
    SELECT RAISE(ABORT, 'the deals are append-only');
END;

CREATE TRIGGER deals_no_replace BEFORE INSERT ON deals
WHEN EXISTS (SELECT 1 FROM deals WHERE match_id = NEW.match_id AND deal = NEW.deal)
BEGIN
    SELECT RAISE(ABORT, 'the deals are append-only: deals.(match_id, deal) exists');
END;

CREATE TRIGGER chip_ledger_no_replace BEFORE INSERT ON chip_ledger
WHEN EXISTS (SELECT 1 FROM chip_ledger WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'the chip ledger is append-only: chip_ledger.id exists');
END;

CREATE TRIGGER penalty_ledger_no_replace BEFORE INSERT ON penalty_ledger
WHEN EXISTS (
    SELECT 1 FROM penalty_ledger
    WHERE id = NEW.id OR (match_id = NEW.match_id AND deal = NEW.deal AND seat = NEW.seat)
)
BEGIN
    SELECT RAISE(ABORT, 'the penalty ledger is append-only: penalty_ledger.(match_id, deal, seat) exists');
END;

-- "Duce": storage/migrate.py APPLICATION_ID. A file with another id is never touched.
PRAGMA application_id = 1148543845;
