-- 005: shard leases. A sharded bot process records which shards it drives, until when;
-- it renews the lease while it runs, so a second process on the same shards is refused
-- and a crashed process's shards are free once its lease expires.

CREATE TABLE shard_leases (
    shard_id INTEGER PRIMARY KEY CHECK (shard_id >= 0),
    shard_count INTEGER NOT NULL CHECK (shard_count >= 1 AND shard_id < shard_count),
    owner TEXT NOT NULL,
    expires_at REAL NOT NULL
);
