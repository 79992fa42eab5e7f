-- 013: reserved for the `games` branch's migration (issue 41). This placeholder only keeps
-- the numbers without a gap on the `activity` branch: drop it at the merge in favour of the
-- `games` branch's 013 (in both folders).
SELECT 1;
