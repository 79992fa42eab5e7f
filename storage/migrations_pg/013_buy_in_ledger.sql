-- 013 (PostgreSQL twin of migrations/013_buy_in_ledger.sql): the buy-in ledger, per seat.
--
-- Every chip a seat bought, whatever the game: its buy-in and its rebuys (the chip
-- ledger's "buy-in" and "rebuy" rows), each with the seat's unit, the chips of its first
-- buy-in (a rebuy of 2 units buys twice that). A view, so every row written before this
-- migration is in it and every row written after joins it in the same commit; storage
-- reads no game's settings to say what a unit is (`Storage.buy_ins`).

CREATE VIEW buy_in_ledger AS
SELECT
    l.id,
    l.guild,
    l.game,
    l.match_id,
    l.seat,
    l.player_id,
    l.is_ai,
    l.reason,
    l.delta AS chips,
    (
        SELECT b.delta FROM chip_ledger b
        WHERE b.match_id = l.match_id AND b.seat = l.seat AND b.reason = 'buy-in'
        ORDER BY b.id LIMIT 1
    ) AS unit,
    l.at
FROM chip_ledger l
WHERE l.reason IN ('buy-in', 'rebuy');
