-- 014 (PostgreSQL twin of migrations/014_web_links.sql): each member's browser-link
-- generation; revoking raises it (no row: generation 0).

CREATE TABLE web_links (
    player_id TEXT PRIMARY KEY,
    generation BIGINT NOT NULL,
    at DOUBLE PRECISION NOT NULL
);
