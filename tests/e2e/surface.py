"""Everything a member can do to the bot, found from what the bot itself gave Discord: the
command tree it synced and the components of the messages it sent; and a check that no
public message ever shows a card its owner holds unseen (issue 19, item 1).

Nothing here lists the bot's commands or buttons: a command added to the tree, or a
component added to a message, is part of the surface without anyone remembering."""

from __future__ import annotations

import random
import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from bot.discord.client import Deucebot
from bot.render import get_renderer
from deucebot_dev.discord_standin import FakeDiscord, Message, Response, User, iter_components
from deucebot_dev.discord_standin import version_text as text_of_version
from engines.base import DealStarted, Event
from engines.bigtwo import Played
from engines.cards import Card
from tests.e2e.helpers import cards_in_text
from tests.e2e.pictures import cards_in_picture
from tests.e2e.process_play import private_cards, revealed_cards

SUB_COMMAND, GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, NUMBER = 3, 4, 5, 6, 10
FOOTER = re.compile(r"Table #(\d+) · (?:deal|hand) (\d+) · turn \d+")
RESULT = re.compile(r" · (?:deal|hand) (\d+): result$", re.MULTILINE)
"""A deal's result's title (it has no footer)."""


@dataclass(frozen=True)
class Leaf:
    """A command as typed: its path (``table create``) and its declared options."""

    path: str
    options: tuple[dict[str, Any], ...]


def leaves(tree: list[dict[str, Any]]) -> list[Leaf]:
    """Every command a member can type, walked from the tree the bot synced (groups and
    sub-commands included)."""
    found: list[Leaf] = []

    def walk(node: dict[str, Any], path: list[str]) -> None:
        options = node.get("options") or []
        subs = [o for o in options if o["type"] in (SUB_COMMAND, GROUP)]
        if not subs:
            found.append(Leaf(" ".join(path), tuple(options)))
        for sub in subs:
            walk(sub, [*path, sub["name"]])

    for command in tree:
        if command.get("type", 1) == 1:
            walk(command, [command["name"]])
    return found


def typed_words(rng: random.Random, cards: list[Card]) -> str:
    """What a member might type in a text option: their own cards, moves, amounts, junk."""
    picks = [
        " ".join(str(card) for card in rng.sample(cards, min(len(cards), rng.randint(1, 3)))),
        " ".join(card.pretty for card in cards[:2]),
        f"{rng.randint(1, 5)} {rng.randint(1, 5)}",
        str(rng.randint(0, 400)),
        rng.choice(["call", "check", "fold", "pass", "stand", "all in", "raise 40", "bet 20"]),
        rng.choice(["", " ", "x" * 120, "<@1>", "@everyone", "🂡", "drop table"]),
    ]
    return rng.choice([p for p in picks if p or rng.random() < 0.2])


async def option_values(
    fake: FakeDiscord,
    rng: random.Random,
    user: User,
    leaf: Leaf,
    channel: int,
    members: list[User],
    cards: list[Card],
) -> dict[str, Any]:
    """Random values for `leaf`'s options (every required one, some optional ones): a
    declared choice, an autocomplete suggestion (asked of the bot), a number in range, a
    member, or typed words."""
    values: dict[str, Any] = {}
    for option in leaf.options:
        if not option.get("required") and rng.random() < 0.5:
            continue
        name, kind = option["name"], option["type"]
        if option.get("choices"):
            values[name] = rng.choice(option["choices"])["value"]
        elif kind == STRING and option.get("autocomplete"):
            asked = {**values, name: typed_words(rng, cards) if rng.random() < 0.3 else ""}
            suggested = await fake.autocomplete(
                user, leaf.path, name, channel_id=channel, values=asked
            )
            values[name] = rng.choice(suggested)["value"] if suggested else asked[name]
        elif kind == STRING:
            values[name] = typed_words(rng, cards)
        elif kind in (INTEGER, NUMBER):
            low = option.get("min_value", 0)
            high = option.get("max_value", max(low, 0) + 500)
            values[name] = rng.randint(int(low), int(high))
        elif kind == BOOLEAN:
            values[name] = rng.random() < 0.5
        elif kind == USER:
            values[name] = rng.choice(members)
        else:
            raise AssertionError(f"/{leaf.path}: no way to fill option type {kind} ({name})")
    return values


def visible_controls(fake: FakeDiscord, user: User) -> list[tuple[Message, dict[str, Any]]]:
    """Every enabled control `user` can use now, on the messages the bot sent: the public
    messages of the guild's channels and `user`'s own ephemeral messages."""
    found = []
    for message in list(fake.messages.values()):
        if message.channel_id not in fake.channel_ids:
            continue
        if message.ephemeral and message.interaction_user != user.id:
            continue
        for comp in iter_components(message.components):
            if comp.get("custom_id") and not comp.get("disabled"):
                found.append((message, comp))
    return found


async def use_control(
    fake: FakeDiscord,
    rng: random.Random,
    user: User,
    message: Message,
    comp: dict[str, Any],
    cards: list[Card],
) -> Response:
    """Click a button or choose in a menu as `user`; a form it opens is filled and sent."""
    if comp["type"] == 3:
        values = [option["value"] for option in comp["options"]]
        low, high = comp.get("min_values", 1), min(comp.get("max_values", 1), len(values))
        chosen = rng.sample(values, rng.randint(low, max(low, high)))
        return await fake.select(user, message, comp["custom_id"], chosen)
    response = await fake.click(user, message, comp["custom_id"])
    if response.kind == 9 and response.modal is not None:
        inputs = [
            c["custom_id"]
            for row in response.modal.get("components", [])
            for c in row.get("components", [row.get("component")])
            if c and c.get("type") == 4
        ]
        typed = {i: typed_words(rng, cards) for i in inputs}
        return await fake.submit_modal(user, response, typed)
    return response


@dataclass
class Secrets:
    """What the game showed to everyone and what seats held privately, per table and deal,
    recorded from the committed events the runtime hands the bot's front."""

    revealed: dict[tuple[int, int], set[Card]] = field(default_factory=lambda: defaultdict(set))
    held: dict[tuple[int, int], set[Card]] = field(default_factory=lambda: defaultdict(set))
    place: dict[int, int] = field(default_factory=dict)
    """Table id -> its channel."""
    deal: dict[int, int] = field(default_factory=dict)
    """Table id -> its latest deal."""
    dealing: dict[int, int] = field(default_factory=dict)
    """Table id -> the deal the next public event belongs to, followed event by event."""
    checked: int = 0
    pictures: int = 0
    named: set[str] = field(default_factory=set)
    """Names a member typed for the bot to show (a season's): their own words, public by
    design, so a card code among them is no leak (a season named "7C")."""


def watch_secrets(bot: Deucebot) -> Secrets:
    """Record, from the bot's front, the cards each deal revealed and every seat held."""
    secrets = Secrets()
    public, private = bot.front.public, bot.front.private

    def note(table: Any, events: Any) -> None:
        key = (table.id, table.deal)
        secrets.place[table.id] = int(table.place)
        secrets.deal[table.id] = table.deal
        # The events of one action may settle a deal and deal the next, or several (a
        # hold'em hand with everyone all-in on the blinds runs out at once), and they come
        # in batches split by private ones: what they reveal belongs to the deal they
        # happen in, followed from one batch to the next, not counted back from the
        # snapshot's deal.
        if table.id not in secrets.dealing and events:
            secrets.dealing[table.id] = table.deal - sum(isinstance(e, DealStarted) for e in events)
        for event in events:
            if isinstance(event, DealStarted):
                secrets.dealing[table.id] = event.deal
            shown = set(event.cards) if isinstance(event, Played) else revealed_cards(event)
            secrets.revealed[(table.id, secrets.dealing[table.id])] |= shown
        live = bot.tables.by_id(table.id)
        if live is None or live.match is None:
            return
        # The card the rules say opens a Big Two deal (3♦): named, not shown in a hand.
        opening = getattr(live.view(None), "must_include", None)
        if opening is not None:
            secrets.revealed[key].add(opening)
        for seat in range(len(live.seats)):
            view = live.view(seat)
            if view is not None:
                secrets.held[key] |= private_cards(live.game, view)

    async def on_public(table: Any, events: Any) -> None:
        note(table, events)
        await public(table, events)

    async def on_private(table: Any, seat: int, player: Any, events: list[Event]) -> None:
        note(table, [])
        await private(table, seat, player, events)

    bot.front.public = on_public  # type: ignore[method-assign]
    bot.front.private = on_private  # type: ignore[method-assign]
    return secrets


def version_cards(version: dict[str, Any], secrets: Secrets) -> set[Card]:
    """Every card a message version shows: in its text, its files' names and its pictures."""
    text = text_of_version(version)
    for name in secrets.named:
        text = text.replace(name, " ")
    shown = cards_in_text(text)
    for name in version.get("attachments") or []:
        data = getattr(name, "data", b"")
        assert data, f"no content kept for {name!r} (keep_files)"
        if str(name).endswith(".png"):
            secrets.pictures += 1
            shown |= {card for card in cards_in_picture(data) if card is not None}
    shown |= _codes_in_names(version)
    return shown


def _codes_in_names(version: dict[str, Any]) -> set[Card]:
    """Cards run together in a file name (``hand-3D4C5H.png``)."""
    found: set[Card] = set()
    for name in version.get("attachments") or []:
        stem = str(name).removesuffix(".png").split("-", 1)[-1]
        found |= cards_in_text(" ".join(re.findall(r"(?:10|[2-9TJQKA])[DCHS]", stem)))
    return found


def privacy_check(secrets: Secrets) -> Any:
    """A stand-in `public_hook`: a public version may show a card a seat holds only if the
    game showed it to everyone in that deal or the one before. A version stamped with its
    table and deal (boards, and any hand) is held to that deal, a deal's result to its
    deal, any other (the match result, lines) to the last two deals of the tables of its
    channel."""

    def check(message: Message) -> None:
        version = message.history[-1]
        shown = version_cards(version, secrets)
        secrets.checked += 1
        if not shown:
            return
        stamp = FOOTER.search(text_of_version(version))
        if stamp:
            table, deal = int(stamp.group(1)), int(stamp.group(2))
            keys = [(table, deal - 1), (table, deal)]
        else:
            tables = [t for t, place in secrets.place.items() if place == message.channel_id]
            titled = RESULT.search(text_of_version(version))
            keys = [
                (t, d)
                for t in tables
                for last in ([int(titled.group(1))] if titled else [secrets.deal[t]])
                for d in (last - 1, last)
            ]
        held = set().union(*(secrets.held.get(k, set()) for k in keys))
        allowed = set().union(*(secrets.revealed.get(k, set()) for k in keys))
        leaked = (shown & held) - allowed
        assert not leaked, (
            f"shows {sorted(map(str, leaked))} held unseen: {text_of_version(version)!r}"
            f" files {version.get('attachments')}"
        )

    return check


def hand_of(bot: Deucebot, user: User, channel: int) -> list[Card]:
    """`user`'s cards at the channel's table (what they could type), if seated."""
    table = bot.tables.find(str(channel))
    seat = None if table is None else table.seat_of(str(user.id))
    if table is None or seat is None or table.view(seat) is None:
        return []
    return get_renderer(table.game).hand_cards(table.view(seat))
