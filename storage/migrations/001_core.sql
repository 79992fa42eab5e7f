-- 001: tables, seats, matches, who played them, and the append-only action log.

CREATE TABLE tables (
    id INTEGER PRIMARY KEY,
    guild TEXT NOT NULL,
    place TEXT NOT NULL,
    game TEXT NOT NULL,
    settings TEXT NOT NULL DEFAULT '{}',
    options TEXT NOT NULL DEFAULT '{}',
    status TEXT NOT NULL CHECK (status IN ('lobby', 'playing', 'finished', 'stopped')),
    created_at REAL NOT NULL
);

-- One live table per place (channel); stopped tables stay for the history.
CREATE UNIQUE INDEX tables_live_place ON tables (place) WHERE status <> 'stopped';

CREATE TABLE seats (
    table_id INTEGER NOT NULL REFERENCES tables (id),
    seat INTEGER NOT NULL CHECK (seat >= 0),
    player_id TEXT,
    name TEXT NOT NULL,
    policy TEXT NOT NULL,
    PRIMARY KEY (table_id, seat)
);

CREATE TABLE matches (
    id INTEGER PRIMARY KEY,
    table_id INTEGER NOT NULL REFERENCES tables (id),
    number INTEGER NOT NULL CHECK (number >= 1),
    seed TEXT NOT NULL, -- decimal text: seeds may exceed SQLite's 64-bit integers
    config TEXT NOT NULL,
    first_seq INTEGER NOT NULL,
    started_at REAL NOT NULL,
    finished_at REAL,
    winners TEXT,
    totals TEXT,
    UNIQUE (table_id, number)
);

CREATE TABLE match_players (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    seat INTEGER NOT NULL,
    player_id TEXT NOT NULL,
    name TEXT NOT NULL,
    is_ai INTEGER NOT NULL CHECK (is_ai IN (0, 1)),
    PRIMARY KEY (match_id, seat)
);

CREATE TABLE actions (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    seq INTEGER NOT NULL,
    deal INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    actor TEXT NOT NULL CHECK (actor IN ('human', 'ai', 'timeout')),
    at REAL NOT NULL,
    PRIMARY KEY (match_id, seq)
) WITHOUT ROWID;

CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;

CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;
