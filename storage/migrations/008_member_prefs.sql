-- 008: what members choose for themselves, remembered across restarts (one row per member
-- and preference): `deck` is the card deck of their private pictures, "two" (red and black)
-- or "four" colours (docs/discord.md).

CREATE TABLE member_prefs (
    player_id TEXT NOT NULL,
    name TEXT NOT NULL,
    value TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (player_id, name)
);
