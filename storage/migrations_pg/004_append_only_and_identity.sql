-- 004 (PostgreSQL twin of migrations/004_append_only_and_identity.sql): the deals are
-- append-only too, as the action log and both ledgers already are (001, 002).
--
-- SQLite's 004 closes REPLACE, which deletes a conflicting row without firing DELETE
-- triggers. PostgreSQL has no REPLACE: a plain INSERT of a key already present fails on
-- the primary key (for actions, the StaleWrite that storage/postgres.py recognises by
-- its constraint name), and an upsert (INSERT ... ON CONFLICT DO UPDATE) runs the
-- table's BEFORE UPDATE row triggers, which refuse it. So the BEFORE UPDATE, DELETE and
-- TRUNCATE triggers below are all the deals need.
--
-- Identity: SQLite marks its file with an application id. A PostgreSQL database is
-- recognised as Deucebot's by its schema_version table (storage/postgres.py refuses a
-- database holding other tables without it), so there is nothing to mark here.

CREATE TRIGGER deals_no_update BEFORE UPDATE ON deals
    FOR EACH ROW EXECUTE FUNCTION refuse_change('the deals are append-only');
CREATE TRIGGER deals_no_delete BEFORE DELETE ON deals
    FOR EACH ROW EXECUTE FUNCTION refuse_change('the deals are append-only');
CREATE TRIGGER deals_no_truncate BEFORE TRUNCATE ON deals
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change('the deals are append-only');
