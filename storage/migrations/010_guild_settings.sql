-- 010: per-server settings (`/config`): one row per server and setting, its value as JSON
-- text, and the log of every change with who made it (value NULL: the setting cleared).

CREATE TABLE guild_settings (
    guild TEXT NOT NULL,
    name TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (guild, name)
);

CREATE TABLE guild_settings_log (
    guild TEXT NOT NULL,
    name TEXT NOT NULL,
    value TEXT,
    member_id TEXT NOT NULL,
    member_name TEXT NOT NULL,
    at REAL NOT NULL
);

CREATE INDEX guild_settings_log_by_guild ON guild_settings_log (guild, at);
