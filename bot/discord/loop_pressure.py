"""How late the event loop runs, and a gate that holds board edits and AI moves back while
it is late.

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

Two kinds of work wait at the same gate, behind the edits (`admit`): slash commands that
were deferred because the loop was late (the member sees "thinking..." at once; opening a
table, dealing), then AI moves. Each is a commit, a board and hands to draw: at a token
busier than its process can serve, they are the work that can wait, where a click cannot
(its answer is due within Discord's 3 s). While the loop is late none starts; while it
keeps time they start at a rate that grows a little each tick and halves on a late tick
(as TCP's congestion window does), so the tables slow down to what the process serves and
the members' clicks keep being answered at once. Work held past `most_work_held` seconds
goes anyway, one a tick (an AI seat "thinks" longer, nothing more).
"""

from __future__ import annotations

import asyncio
import collections

PERIOD = 0.02
"""Seconds between two ticks of the lag timer."""

LATE = 0.005
"""Lag (seconds a tick fired late) above which the loop counts as late. An answer crosses
four or five loop iterations (the gateway read, the dispatch, the commit's hand-off to the
storage thread and back, the answer), so the gate keeps iterations short: at 15 ms, the
loop of a token busier than its process ran at about 15 ms of lag, and the 99th
percentile answer at 1,000 busy tables took 60-100 ms; at 5 ms, 30-54 ms (median 40),
with as many actions per second; at 3 ms AI moves wait so often that the tables play
10-20 % fewer actions (docs/benchmarks.md, 5 Dec)."""

_Queue = collections.deque[tuple[float, "asyncio.Future[None]"]]
"""Held waiters, oldest first: (when it began to wait, the future that lets it go)."""


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
        most_work_held: float = 10.0,
        most_work_per_tick: int = 3,
        work_step: float = 0.2,
    ) -> None:
        """Tick every `period` s; the loop is late above `late` s of lag; `per_tick` held
        edits start each tick while it keeps time, `while_late` while it is late; none is
        held longer than `most_held` s. Held work (`admit`) starts only while the loop
        keeps time and no edit is held: `work_rate` a tick, which grows by `work_step` each
        such tick up to `most_work_per_tick` and halves on a late one; work held past
        `most_work_held` s goes anyway, one a tick."""
        self.period = period
        self.late = late
        self.per_tick = per_tick
        self.while_late = while_late
        self.most_held = most_held
        self.most_work_held = most_work_held
        self.most_work_per_tick = most_work_per_tick
        self.lag = 0.0
        """How late the last tick fired (seconds)."""
        self.held = 0
        """Edits that waited at the gate (a count, for the benchmark and tests)."""
        self.work_held = 0
        """Commands and AI moves that waited at the gate."""
        self.work_rate = 1.0
        self.work_step = work_step
        """Held commands and AI moves let go per tick while the loop keeps time."""
        self._urgent: _Queue = collections.deque()
        self._other: _Queue = collections.deque()
        self._commands: _Queue = collections.deque()
        self._moves: _Queue = collections.deque()
        self._timer: asyncio.TimerHandle | None = None
        self._due = 0.0

    def start(self) -> None:
        """Start the lag timer on the running loop (again: no effect)."""
        if self._timer is None:
            loop = asyncio.get_running_loop()
            self._due = loop.time() + self.period
            self._timer = loop.call_at(self._due, self._tick)

    def stop(self) -> None:
        """Stop the timer and let everything held go."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        for queue in self._queues():
            while queue:
                _release(queue.popleft()[1])
        self.lag = 0.0

    def waiting(self) -> int:
        """Edits held at the gate now."""
        return len(self._urgent) + len(self._other)

    def work_waiting(self) -> int:
        """Commands and AI moves held at the gate now."""
        return len(self._commands) + len(self._moves)

    def keeps_time(self) -> bool:
        """The loop keeps time and nothing is held: what comes now goes at once."""
        return self._timer is None or (
            self.lag <= self.late and not self.waiting() and not self.work_waiting()
        )

    async def calm(self, urgent: bool = False) -> bool:
        """Return at once while the loop keeps time and no edit is held; else once this
        edit's turn comes (`urgent`: a person is to act at its table; those go first).
        True when the edit was held (what it was to show may have changed meanwhile)."""
        if self._timer is None or (self.lag <= self.late and not self.waiting()):
            return False
        self.held += 1
        await self._wait(self._urgent if urgent else self._other)
        return True

    async def admit(self, command: bool = False) -> None:
        """Return at once while `keeps_time`; else once this work's turn comes, after
        every held edit: an AI move, or a deferred slash command (`command`: a member
        waits on it; those go before the moves)."""
        if self.keeps_time():
            return
        self.work_held += 1
        await self._wait(self._commands if command else self._moves)

    def _queues(self) -> tuple[_Queue, ...]:
        return (self._urgent, self._other, self._commands, self._moves)

    async def _wait(self, queue: _Queue) -> None:
        loop = asyncio.get_running_loop()
        turn: asyncio.Future[None] = loop.create_future()
        entry = (loop.time(), turn)
        queue.append(entry)
        try:
            await turn
        except asyncio.CancelledError:
            if entry in queue:
                queue.remove(entry)
            raise

    def _tick(self) -> None:
        loop = asyncio.get_running_loop()
        now = loop.time()
        self.lag = max(0.0, now - self._due)
        self._due = now + self.period
        self._timer = loop.call_at(self._due, self._tick)
        keeps_time = self.lag <= self.late
        _let_go((self._urgent, self._other), self.per_tick if keeps_time else self.while_late)
        if not keeps_time:
            self.work_rate = max(1.0, self.work_rate / 2)
        elif not self.waiting() and self.work_waiting():
            _let_go((self._commands, self._moves), int(self.work_rate))
            self.work_rate = min(float(self.most_work_per_tick), self.work_rate + self.work_step)
        for queue in (self._urgent, self._other):
            while queue and now - queue[0][0] >= self.most_held:
                _release(queue.popleft()[1])
        for queue in (self._commands, self._moves):  # one a tick: a trickle, not a flood
            if queue and now - queue[0][0] >= self.most_work_held:
                _release(queue.popleft()[1])


def _let_go(queues: tuple[_Queue, ...], count: int) -> None:
    """Let the first `count` waiters go, in the order of `queues`."""
    for queue in queues:
        while queue and count > 0:
            _release(queue.popleft()[1])
            count -= 1


def _release(turn: asyncio.Future[None]) -> None:
    if not turn.done():
        turn.set_result(None)
