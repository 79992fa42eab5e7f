"""What a channel must show of a whole match, checked message by message (delivery tests)."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from deucebot_dev.discord_standin import FakeDiscord, Message
from tests.e2e.helpers import BOARD_COLOUR, first_embed

_FOOTER = re.compile(r"Table #(\d+) · (?:deal|hand) (\d+) · turn (\d+)")  # hand: hold'em
_RESULT = re.compile(r" · (?:deal|hand) (\d+): result$")


@dataclass
class Shown:
    """The public messages of a table's channel, classified in their order."""

    order: list[tuple[str, int, Message]]
    """(kind, deal, message) with kind in board, result, match_result (others left out)."""

    def boards(self) -> list[int]:
        """The deal of every deal board (lobby boards left out), in posting order."""
        return [deal for kind, deal, _ in self.order if kind == "board" and deal > 0]

    def results(self) -> list[int]:
        """The deal of every deal result, in posting order."""
        return [deal for kind, deal, _ in self.order if kind == "result"]

    def result(self, deal: int) -> Message:
        """The one result message of `deal`."""
        found = [m for kind, d, m in self.order if kind == "result" and d == deal]
        assert len(found) == 1, (deal, len(found))
        return found[0]

    def match_results(self) -> list[Message]:
        """Every match result message."""
        return [m for kind, _, m in self.order if kind == "match_result"]


def shown(fake: FakeDiscord) -> Shown:
    """Classify the channel's public messages (boards by colour and footer, results by title)."""
    order: list[tuple[str, int, Message]] = []
    for message in fake.public_messages():
        if not message.embeds:
            continue
        embed: dict[str, Any] = message.embeds[0]
        title = str(embed.get("title") or "")
        if embed.get("color") == BOARD_COLOUR:
            footer = _FOOTER.search(str((embed.get("footer") or {}).get("text", "")))
            deal = int(footer.group(2)) if footer else 0
            if message.history and "waiting for players" in str(
                first_embed(message.history[0]).get("title", "")
            ):
                deal = 0
            order.append(("board", deal, message))
        elif (found := _RESULT.search(title)) is not None:
            order.append(("result", int(found.group(1)), message))
        elif title.endswith(": match result"):
            order.append(("match_result", 0, message))
    return order_checked(Shown(order))


def order_checked(found: Shown) -> Shown:
    """`found`, after checking that every result follows its own deal's board and comes
    before the next deal's board."""
    current = 0
    for kind, deal, _ in found.order:
        if kind == "board" and deal > 0:
            assert deal == current + 1, f"board of deal {deal} after deal {current}: {found.order}"
            current = deal
        elif kind == "result":
            assert deal == current, f"result of deal {deal} under the board of deal {current}"
    return found


def net_amounts(text: str, prefix: str) -> dict[str, int]:
    """The `Net:`/`Penalties:` line of a result, as name -> amount."""
    line = next((x for x in text.splitlines() if x.startswith(prefix)), None)
    assert line is not None, f"no {prefix!r} line in {text!r}"
    out: dict[str, int] = {}
    for part in line[len(prefix) :].strip().split(" · "):
        name, _, amount = part.rpartition(" ")
        out[name.removeprefix("🤖 ")] = int(amount)
    return out


async def check_match(fake: FakeDiscord, storage: Any, match_id: int, names: list[str]) -> Shown:
    """Every deal of the match: exactly one board, in order; exactly one result, right under
    it, whose amounts are the ledger's; the match result once, after the last deal's result;
    no board but the newest keeps buttons."""
    found = shown(fake)
    deals = sorted({d.deal for d in await storage.deals(match_id)})
    assert deals, "no deal was played"
    assert found.boards() == deals, (found.boards(), deals)
    assert found.results() == deals, (found.results(), deals)
    assert len(found.match_results()) == 1
    assert found.order[-1][0] == "match_result", [k for k, _, _ in found.order]
    chips: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for row in await storage.chip_entries(match_id):
        if row.reason in ("hand", "returned"):
            chips[row.hand][row.seat] += row.delta
    penalties: dict[int, dict[int, int]] = defaultdict(dict)
    for row in await storage.penalty_entries(match_id):
        penalties[row.deal][row.seat] = row.penalty
    for deal in deals:
        text = found.result(deal).text()
        if penalties:
            shown_amounts = net_amounts(text, "Penalties:")
            ledger = {names[s]: p for s, p in penalties[deal].items()}
        else:
            shown_amounts = net_amounts(text, "Net:")
            ledger = {names[s]: d for s, d in chips[deal].items()}
        assert shown_amounts == ledger, (deal, text, ledger)
    boards = [m for kind, _, m in found.order if kind == "board"]
    for old in boards[:-1]:
        assert old.custom_ids() == [], (old.content, old.custom_ids())
    return found
