"""A table channel's one queue (`bot.discord.mailbox`): requests are applied by the one
consuming task, one at a time and in the order they came, also while that task waits on
something of its own (`serving`); who asked gets an answer through a future, or None once
the consumer is gone; waiters wake when their condition holds."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.discord.mailbox import Mailbox, Waiters, answer_of, settle


def _run(coro: object) -> None:
    asyncio.run(coro)  # type: ignore[arg-type]


@settings(max_examples=60, deadline=None)
@given(
    plan=st.lists(
        st.tuples(st.booleans(), st.integers(min_value=0, max_value=3)), min_size=1, max_size=12
    )
)
def test_requests_apply_one_at_a_time_in_the_order_they_came(
    plan: list[tuple[bool, int]],
) -> None:
    """Each request is plain or a coroutine yielding `n` times; requests are put from
    another task between the consumer's own waits."""

    async def main() -> None:
        mail = Mailbox()
        applied: list[int] = []
        inside = [0]
        overlaps: list[int] = []

        def request(index: int, is_coroutine: bool, yields: int) -> object:
            async def slow() -> None:
                inside[0] += 1
                if inside[0] > 1:
                    overlaps.append(index)
                for _ in range(yields):
                    await asyncio.sleep(0)
                applied.append(index)
                inside[0] -= 1

            if is_coroutine:
                return slow()
            applied.append(index)
            return None

        async def producer() -> None:
            for index, (is_coroutine, yields) in enumerate(plan):
                mail.put(lambda i=index, c=is_coroutine, y=yields: request(i, c, y))  # type: ignore[misc]
                await asyncio.sleep(0)

        produced = asyncio.ensure_future(producer())
        # The consumer waits on something of its own while the requests come.
        await mail.serving(asyncio.sleep(0.01))
        await produced
        await mail.apply_waiting()
        assert applied == list(range(len(plan)))
        assert not overlaps
        assert mail.empty()

    _run(main())


def test_serving_returns_what_it_waited_for_and_applies_what_came_meanwhile() -> None:
    async def main() -> None:
        mail = Mailbox()
        seen: list[str] = []

        async def own() -> str:
            mail.put(lambda: seen.append("request"))
            await asyncio.sleep(0.01)
            seen.append("own")
            return "done"

        assert await mail.serving(own()) == "done"
        assert seen == ["request", "own"]

    _run(main())


def test_an_answer_comes_through_its_future_or_none_once_the_consumer_is_gone() -> None:
    async def main() -> None:
        mail = Mailbox()
        consumer = asyncio.ensure_future(mail.apply_next())
        answered: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        async def work() -> int:
            return 7

        mail.put(lambda: settle(answered, work))
        assert await answer_of(answered, consumer, None) == 7

        gone = asyncio.ensure_future(asyncio.sleep(0))
        await gone
        never: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        assert await answer_of(never, gone, None) is None  # nobody will apply it

        waiting = asyncio.ensure_future(mail.apply_next())
        late: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        assert await answer_of(late, waiting, 0.01) is None  # not asked in time: cancelled
        assert late.cancelled()
        waiting.cancel()

    _run(main())


def test_an_error_of_the_work_reaches_who_asked() -> None:
    async def main() -> None:
        answered: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        async def fails() -> int:
            raise RuntimeError("refused")

        await settle(answered, fails)
        with pytest.raises(RuntimeError, match="refused"):
            answered.result()

    _run(main())


@given(
    turns=st.lists(st.integers(min_value=0, max_value=20), max_size=10), shown=st.integers(-1, 20)
)
def test_waiters_wake_exactly_when_their_condition_holds(turns: list[int], shown: int) -> None:
    async def main() -> None:
        waiters: Waiters[int] = Waiters()
        loop = asyncio.get_running_loop()
        futures = [loop.create_future() for _ in turns]
        for turn, future in zip(turns, futures, strict=True):
            waiters.add(turn, future)
        waiters.wake(lambda turn: shown >= turn)
        assert [f.done() for f in futures] == [shown >= turn for turn in turns]
        waiters.wake(lambda _: True)
        assert all(f.done() for f in futures)

    _run(main())
