-- 005 (PostgreSQL twin of migrations/005_deliveries.sql): delivery records. What a front
-- announced of a match's committed log: one row per public effect (`board:<deal>`,
-- `result:<deal>`, `match_result`) once it was delivered, with the message that shows it.
-- And what should be said once per person (the "DMs are closed" notice).

CREATE TABLE deliveries (
    match_id BIGINT NOT NULL REFERENCES matches (id),
    effect TEXT NOT NULL,
    upto INTEGER NOT NULL CHECK (upto >= 0),
    message_id TEXT,
    delivered INTEGER NOT NULL DEFAULT 1 CHECK (delivered IN (0, 1)),
    at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (match_id, effect)
);

CREATE TABLE notices_said (
    player_id TEXT NOT NULL,
    notice TEXT NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (player_id, notice)
);
