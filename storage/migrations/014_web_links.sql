-- 014: the generation of each member's signed browser links (`/hand` -> "Open in browser",
-- bot/web/links.py). A link carries the generation it was made in; revoking a member's
-- links raises it, so every link made before is refused. No row: generation 0.

CREATE TABLE web_links (
    player_id TEXT PRIMARY KEY,
    generation INTEGER NOT NULL,
    at REAL NOT NULL
);
