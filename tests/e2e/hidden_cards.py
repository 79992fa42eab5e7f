"""No member receives a card hidden from them while the match is played (issue 40, item 1).

`watch_knowledge` follows, from the committed events and the engine's views the runtime
hands the bot's front, what each member may know of the match in play: the cards shown to
everybody (played, dealt face up, shown at a showdown, a lock revealed, the card the rules
name to open a Big Two deal) and the cards each member held (as dealt to them, past deals
included). `hidden_card_check` is a stand-in `content_hook`: it sends every payload and
file the bot hands Discord to the members it reaches (a DM to its member, an ephemeral
answer to the member who asked, a public message, follow-up or edit to everybody) and
fails when it names a card that member may not know: one in another seat's hidden hand,
in the undealt deck or stock, or discarded face down. Texts are read where the game's
cards are written (canonical codes and suit symbols in messages, alt texts, custom ids and
hand-history JSON; PHH's run-together codes in a `.phhs` file); pictures' pixels are left
to tests/e2e/test_discord_privacy_surface.py, which reads them.

Each member's known cards only grow during a match (a card shown in deal 1 stays known),
so a text can never be told apart by the deal it speaks of; the check is sharpest in the
first deals (a later deal's hidden cards were often shown earlier in a 52-card game)."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from bot.discord.client import Deucebot
from bot.i18n import LANGUAGES, catalog
from deucebot_dev.discord_standin import FakeDiscord, Message, User
from engines.bigtwo import Played
from engines.cards import FULL_DECK, Card, parse_card
from tests.e2e.helpers import cards_in_text
from tests.e2e.process_play import private_cards, revealed_cards

EPHEMERAL = 64
STATIC = frozenset({"rules", "deck"})
"""Commands whose answers are the same whatever the match: the rules (Big Two's "3♦
leads"), the deck preference's sample hand (A♠ K♥ Q♦ J♣). Their cards are examples."""
PHH_CARDS = re.compile(r"^(?:d dh p\d+|p\d+ sm|d db) (\S+)$", re.MULTILINE)
PHH_CARD = re.compile(r"(10|[2-9TJQKA])([cdhs])")


@dataclass
class Knowledge:
    """What the members of the match in play may know, and what the check read."""

    match: int | None = None
    public: set[Card] = field(default_factory=set)
    own: dict[str, set[Card]] = field(default_factory=lambda: defaultdict(set))
    """Member id -> every card they held in this match."""
    said: set[Card] = field(default_factory=set)
    """Cards members typed for the bot to show to everybody (a season named "7C")."""
    payloads: int = 0
    """Payloads read while a match was played."""
    cards: int = 0
    """Card mentions read in them (the check read something)."""
    files: int = 0
    """Text files read (histories)."""

    def may_know(self, member: str) -> set[Card]:
        """The cards `member` may see now."""
        return self.public | self.said | self.own.get(member, set())


def watch_knowledge(bot: Deucebot, place: int) -> Knowledge:
    """Follow what the members at the table in channel `place` may know (see the module
    docstring), from every delivery the runtime hands the bot's front."""
    known = Knowledge()
    public, private = bot.front.public, bot.front.private

    def note(events: Iterable[Any]) -> None:
        live = bot.tables.find(str(place))
        if live is None or live.match is None or live.state is None:
            return
        if live.match.id != known.match:  # a new match: nothing of it known yet
            known.match, known.public, known.own = live.match.id, set(), defaultdict(set)
        for event in events:
            shown = set(event.cards) if isinstance(event, Played) else revealed_cards(event)
            known.public |= shown
        opening = getattr(live.view(None), "must_include", None)
        if opening is not None:
            known.public.add(opening)
        for seat, held in enumerate(live.seats):
            if held.owner is not None:
                known.own[held.owner.id] |= private_cards(live.game, live.view(seat))

    async def on_public(table: Any, events: Any) -> None:
        note(events)
        await public(table, events)

    async def on_private(table: Any, seat: int, player: Any, events: Any) -> None:
        note(())
        await private(table, seat, player, events)

    bot.front.public = on_public  # type: ignore[method-assign]
    bot.front.private = on_private  # type: ignore[method-assign]
    return known


def _readers(
    fake: FakeDiscord, message: Message | None, asker: int, everyone: list[int]
) -> list[int]:
    """Who sees `message` (None: not known, read as public, the strictest)."""
    if message is None:
        return everyone
    if message.ephemeral:
        return [message.interaction_user or asker]
    if message.channel_id in fake.dm_channels:
        return [fake.dm_channels[message.channel_id]]
    return everyone


def _parts(path: str) -> list[str]:
    return re.sub(r"^/api/v\d+", "", path).strip("/").split("/")


def answered(fake: FakeDiscord, path: str) -> str | None:
    """The command a request answers (its interaction's), if any."""
    parts = _parts(path)
    if parts[0] == "interactions":
        return fake.asked[int(parts[1])][2]
    if parts[0] == "webhooks" and len(parts) >= 3 and parts[2] in fake.tokens:
        return fake.asked[fake.tokens[parts[2]]][2]
    return None


def readers(
    fake: FakeDiscord, path: str, payload: dict[str, Any], everyone: list[int]
) -> list[int]:
    """The members a request of the bot reaches: a DM's member, the asker of an ephemeral
    answer (or an edit of one), or everybody (the channel's messages, public answers)."""
    parts = _parts(path)
    if parts[0] == "channels" and len(parts) > 1 and parts[1].isdigit():
        channel = int(parts[1])
        return [fake.dm_channels[channel]] if channel in fake.dm_channels else everyone
    if parts[0] == "interactions":
        asker, source, _ = fake.asked[int(parts[1])]
        kind = payload.get("type")
        flags = (payload.get("data") or {}).get("flags") or 0
        if kind in (4, 5):  # a message answering it, or its deferral
            return [asker] if flags & EPHEMERAL else everyone
        if kind in (6, 7):  # the message whose component was used, updated
            return _readers(fake, fake.messages.get(source or 0), asker, everyone)
        return [asker]  # an autocomplete list, a form
    if parts[0] == "webhooks" and len(parts) >= 3:
        token = parts[2]
        asker = fake.asked[fake.tokens[token]][0]
        if len(parts) == 3:  # a follow-up
            return [asker] if (payload.get("flags") or 0) & EPHEMERAL else everyone
        target = parts[4]
        found = fake.original_of(token) if target == "@original" else fake.messages.get(int(target))
        return _readers(fake, found, asker, everyone)
    return everyone


@cache
def wording() -> tuple[str, ...]:
    """The bot's fixed wording that names cards, in every language: each catalog text's
    literal parts (between its placeholders) that write a card ("e.g. 10S or ♠A"), the
    longest first. A card there is an example, never a dealt one (those come through the
    placeholders), so it is taken out of a text before its cards are read."""
    parts = {
        part
        for lang in LANGUAGES
        for text in catalog(lang).values()
        for part in re.split(r"\{[^{}]*\}", text)
        if cards_in_text(part)
    }
    return tuple(sorted(parts, key=len, reverse=True))


def cards_sent(payload: dict[str, Any], files: list[tuple[str, bytes]]) -> tuple[set[Card], str]:
    """Every card a payload and its text files name, and the text read (for messages)."""
    text = json.dumps(payload, ensure_ascii=False)
    for fixed in wording():
        text = text.replace(json.dumps(fixed, ensure_ascii=False)[1:-1], " ")
    shown = cards_in_text(text)
    for name, data in files:
        if name.endswith(".png"):
            continue  # pictures: their alt text is in the payload
        body = data.decode("utf-8")
        text += "\n" + body
        shown |= cards_in_text(body)
        if name.endswith(".phhs"):
            for run in PHH_CARDS.findall(body):
                shown |= {parse_card(r + s.upper()) for r, s in PHH_CARD.findall(run)}
    return shown, text


def hidden_card_check(
    bot: Deucebot, fake: FakeDiscord, place: int, known: Knowledge, members: list[User]
) -> Any:
    """A stand-in `content_hook` (see the module docstring) for the table in channel
    `place`, while its match is played."""
    everyone = [m.id for m in members]
    names = {m.id: m.name for m in members}
    deck = set(FULL_DECK)

    def check(path: str, payload: dict[str, Any], files: list[tuple[str, bytes]]) -> None:
        live = bot.tables.find(str(place))
        if live is None or live.status != "playing" or live.match is None:
            return
        if "/applications/" in path or live.match.id != known.match:
            return  # the command tree; a match not followed yet (nothing dealt is sent)
        if answered(fake, path) in STATIC:
            return
        known.payloads += 1
        known.files += sum(not name.endswith(".png") for name, _ in files)
        shown, text = cards_sent(payload, files)
        known.cards += len(shown)
        for member in readers(fake, path, payload, everyone):
            leaked = (shown & deck) - known.may_know(str(member))
            assert not leaked, (
                f"{path} reaches {names.get(member, member)} with"
                f" {sorted(c.pretty for c in leaked)}, hidden from them: {text[:1500]!r}"
            )

    return check


def both(*hooks: Any) -> Any:
    """One `content_hook` running each of `hooks`."""

    def run(path: str, payload: dict[str, Any], files: list[tuple[str, bytes]]) -> None:
        for hook in hooks:
            hook(path, payload, files)

    return run
