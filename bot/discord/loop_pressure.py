"""How late the event loop runs, and a gate that holds board edits back while it is late.

One process serves every table of its shards on one event loop. At a busy token the loop
is the bottleneck: every click is a gateway event to parse, a commit, an answer, and every
committed action a board edit or two. When hundreds of board edits are ready at once, each
loop iteration runs them all before it reads the next gateway event, so a member's click
waits behind boards nobody clicked (its answer must leave within Discord's 3 s window).

`LoopPressure` measures the loop's lag with a timer (how late each tick fires) and lets a
board edit start at once while the loop keeps time; while it is late, edits queue at the
gate and none starts (the clicks in the loop's queue go first); once it keeps time again
they start a few per tick, those of boards where a person is to act first. A held
board loses nothing: its outbox edits the latest snapshot when it goes, so the changes
that arrived meanwhile ride on that one edit (coalesced), and no edit is held longer than
`most_held` seconds. Answers, hands and posts never wait here.
"""

from __future__ import annotations

import asyncio
import collections

PERIOD = 0.02
"""Seconds between two ticks of the lag timer."""

LATE = 0.015
"""Lag (seconds a tick fired late) above which the loop counts as late."""


class LoopPressure:
    """The loop's lag, and the gate for work nobody waits on (see the module docstring)."""

    def __init__(
        self,
        *,
        period: float = PERIOD,
        late: float = LATE,
        per_tick: int = 2,
        while_late: int = 0,
        most_held: float = 0.5,
    ) -> None:
        """Tick every `period` s; the loop is late above `late` s of lag; `per_tick` held
        edits start each tick while it keeps time, `while_late` while it is late; none is
        held longer than `most_held` s."""
        self.period = period
        self.late = late
        self.per_tick = per_tick
        self.while_late = while_late
        self.most_held = most_held
        self.lag = 0.0
        """How late the last tick fired (seconds)."""
        self.held = 0
        """Edits that waited at the gate (a count, for the benchmark and tests)."""
        self._urgent: collections.deque[tuple[float, asyncio.Future[None]]] = collections.deque()
        self._other: collections.deque[tuple[float, asyncio.Future[None]]] = collections.deque()
        self._timer: asyncio.TimerHandle | None = None
        self._due = 0.0

    def start(self) -> None:
        """Start the lag timer on the running loop (again: no effect)."""
        if self._timer is None:
            loop = asyncio.get_running_loop()
            self._due = loop.time() + self.period
            self._timer = loop.call_at(self._due, self._tick)

    def stop(self) -> None:
        """Stop the timer and let every held edit go."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        for queue in (self._urgent, self._other):
            while queue:
                _release(queue.popleft()[1])
        self.lag = 0.0

    def waiting(self) -> int:
        """Edits held at the gate now."""
        return len(self._urgent) + len(self._other)

    async def calm(self, urgent: bool = False) -> bool:
        """Return at once while the loop keeps time and nothing is held; else once this
        edit's turn comes (`urgent`: a person is to act at its table; those go first).
        True when the edit was held (what it was to show may have changed meanwhile)."""
        if self._timer is None or (self.lag <= self.late and not self.waiting()):
            return False
        loop = asyncio.get_running_loop()
        turn: asyncio.Future[None] = loop.create_future()
        (self._urgent if urgent else self._other).append((loop.time(), turn))
        self.held += 1
        try:
            await turn
        except asyncio.CancelledError:
            for queue in (self._urgent, self._other):
                for entry in queue:
                    if entry[1] is turn:
                        queue.remove(entry)
                        break
            raise
        return True

    def _tick(self) -> None:
        loop = asyncio.get_running_loop()
        now = loop.time()
        self.lag = max(0.0, now - self._due)
        self._due = now + self.period
        self._timer = loop.call_at(self._due, self._tick)
        go = self.per_tick if self.lag <= self.late else self.while_late
        for queue in (self._urgent, self._other):
            while queue and go > 0:
                _release(queue.popleft()[1])
                go -= 1
        for queue in (self._urgent, self._other):  # none held past `most_held`
            while queue and now - queue[0][0] >= self.most_held:
                _release(queue.popleft()[1])


def _release(turn: asyncio.Future[None]) -> None:
    if not turn.done():
        turn.set_result(None)
