-- 005: delivery records. What a front announced of a match's committed log: one row per
-- public effect (`board:<deal>`, `result:<deal>`, `match_result`) once it was delivered,
-- with the message that shows it. At start-up the Discord front derives the effects of
-- the log again and delivers, in order, those without a row; the board rows say which
-- messages of an earlier process to edit or mark as replaced.
--
-- And what should be said once per person (the "DMs are closed" notice), so a restart
-- does not repeat it.

CREATE TABLE deliveries (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    effect TEXT NOT NULL,
    upto INTEGER NOT NULL CHECK (upto >= 0),
    message_id TEXT,
    delivered INTEGER NOT NULL DEFAULT 1 CHECK (delivered IN (0, 1)),
    at REAL NOT NULL,
    PRIMARY KEY (match_id, effect)
);

CREATE TABLE notices_said (
    player_id TEXT NOT NULL,
    notice TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (player_id, notice)
);
