"""Provably fair deals: one secret seed per deal, committed before the deal, revealed once
the match is over.

Every deal of every game deals from `engines.cards.deck_order(seed, decks)`. The seed of
deal ``d`` is ``HMAC-SHA256(match secret, b"deal" || d as 8 bytes big-endian)``, so
revealing one deal's seed tells nothing about the others. Before any card of the deal is
seen, the deal's `DealStarted` event publishes ``commitment(seed, table, match, deal)``.
No seed is shown while the match is played: a seed gives the whole deck, and so the folded
hands, the cards drawn and (in Deuce Duel) the card each player carries into the next
deal. The match's `MatchEnded` event reveals every deal's seed (`DealSource.revealed`).
Anyone can then check with SHA-256 alone that each seed hashes to its commitment and gives
the cards that were dealt (docs/fairness.md).

A `DealSource` is what an engine draws its deals from. The runtime builds one per match
from the match's secret (`DealSource.for_match`); tests and replays may stack an explicit
deck order for any deal (`DealSource.stacked`), which then has no seed and no commitment.
"""

from __future__ import annotations

import hashlib
import hmac
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engines.cards import (
    SEED_BYTES,
    Card,
    deck_order,
    new_deck,
    parse_cards,
    reshuffle_label,
    shuffle_cards,
)

COMMIT_DOMAIN = b"deucebot/deal/v1"
"""The first bytes of every committed message: nothing else hashed by anyone collides."""


def _u64(value: int, what: str) -> bytes:
    if not 0 <= value < 1 << 64:
        raise ValueError(f"{what} must fit in 8 unsigned bytes, not {value}")
    return value.to_bytes(8, "big")


def commitment(seed: bytes, *, table: int, match: int, deal: int) -> str:
    """The published commitment to a deal's seed, as 64 lowercase hex digits:
    ``SHA-256(b"deucebot/deal/v1" || table || match || deal || seed)``, the three numbers as
    8 bytes big-endian each. Binding the table, match and deal numbers makes every deal's
    commitment its own: a commitment shown on one deal can never be passed off for
    another, even one dealt from the same seed."""
    if len(seed) != SEED_BYTES:
        raise ValueError(f"a deal seed is {SEED_BYTES} bytes, not {len(seed)}")
    message = (
        COMMIT_DOMAIN
        + _u64(table, "the table number")
        + _u64(match, "the match number")
        + _u64(deal, "the deal number")
        + seed
    )
    return hashlib.sha256(message).hexdigest()


@dataclass(frozen=True, slots=True)
class DealSeed:
    """One deal's secret seed and the numbers its commitment binds."""

    seed: bytes
    table: int
    match: int
    deal: int

    @property
    def hex(self) -> str:
        """The seed as 64 lowercase hex digits (the form revealed and exported)."""
        return self.seed.hex()

    @property
    def commitment(self) -> str:
        """`commitment` of this seed for its table, match and deal."""
        return commitment(self.seed, table=self.table, match=self.match, deal=self.deal)

    def deck(self, decks: int = 1) -> list[Card]:
        """The deal's deck order, top card first (`engines.cards.deck_order`)."""
        return deck_order(self.seed, decks)


def seed_from_hex(text: str) -> bytes:
    """A seed from its hex form; `ValueError` naming the problem otherwise."""
    try:
        seed = bytes.fromhex(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a hex seed") from None
    if len(seed) != SEED_BYTES:
        raise ValueError(f"a deal seed is {SEED_BYTES} bytes ({2 * SEED_BYTES} hex digits)")
    return seed


@dataclass(frozen=True)
class DealSource:
    """Where a match's deals get their cards: a secret (never shown) and the table and match
    numbers the commitments bind; `stacks` overrides chosen deals with an explicit deck
    order (tests, replays of recorded hands); `seeds` gives chosen deals an explicit seed
    (a verifier replaying revealed seeds, without the secret)."""

    secret: bytes
    table: int = 0
    match: int = 0
    stacks: Mapping[int, tuple[Card, ...]] = field(default_factory=dict)
    seeds: Mapping[int, bytes] = field(default_factory=dict)

    @classmethod
    def for_match(cls, seed: int, *, table: int = 0, match: int = 0) -> DealSource:
        """The source of a stored match: its secret is ``SHA-256(b"deucebot/match/v1" ||
        the match seed in decimal ASCII)``, so the stored match seed alone restores it."""
        secret = hashlib.sha256(b"deucebot/match/v1" + str(seed).encode("ascii")).digest()
        return cls(secret, table, match)

    @staticmethod
    def rng_seed(seed: int) -> int:
        """The seed of a stored match's engine RNG, derived from the match seed: the first
        64 bits of ``SHA-256(b"deucebot/rng/v1" || the match seed in decimal ASCII)``. The
        RNG only decides what is not cards (the first dealer), so this number may be
        published (exports carry it) without telling any card."""
        digest = hashlib.sha256(b"deucebot/rng/v1" + str(seed).encode("ascii")).digest()
        return int.from_bytes(digest[:8], "big")

    @classmethod
    def from_rng(cls, rng: random.Random) -> DealSource:
        """A source whose secret is drawn from `rng` (engines built without one: simulations,
        tests)."""
        return cls(rng.randbytes(SEED_BYTES))

    def stacked(self, deal: int, cards: Iterable[Card]) -> DealSource:
        """A copy of this source that deals exactly `cards` (top first) for deal `deal`."""
        stacks = {**self.stacks, deal: tuple(cards)}
        return DealSource(self.secret, self.table, self.match, stacks, self.seeds)

    def seed(self, deal: int) -> DealSeed | None:
        """Deal `deal`'s seed (None for a stacked deal, which has none)."""
        if deal in self.stacks:
            return None
        if deal in self.seeds:
            return DealSeed(self.seeds[deal], self.table, self.match, deal)
        if not self.secret:
            raise ValueError(f"deal {deal} has no revealed seed")
        raw = hmac.new(self.secret, b"deal" + _u64(deal, "the deal number"), "sha256").digest()
        return DealSeed(raw, self.table, self.match, deal)

    def commitment(self, deal: int) -> str | None:
        """Deal `deal`'s commitment (None for a stacked deal)."""
        seed = self.seed(deal)
        return None if seed is None else seed.commitment

    def revealed(self, last_deal: int) -> tuple[tuple[int, str], ...]:
        """What the end of a match reveals: ``(deal, seed in hex)`` for every deal from 1 to
        `last_deal` that has a seed (a stacked deal has none), in deal order. Only
        `engines.base.MatchEnded` carries it: until the match is over a seed would tell
        cards that still matter."""
        found = ((deal, self.seed(deal)) for deal in range(1, last_deal + 1))
        return tuple((deal, seed.hex) for deal, seed in found if seed is not None)

    def deck(self, deal: int, decks: int = 1) -> list[Card]:
        """Deal `deal`'s deck order, top card first: `deck_order(seed, decks)`."""
        return self.order(deal, new_deck(decks))

    def order(self, deal: int, cards: Sequence[Card]) -> list[Card]:
        """Deal `deal`'s order of `cards` (a whole deck, or the duel's stock carried over
        from the deal before), top first: `shuffle_cards(seed, cards)`. A stacked deal
        gives its stack, which may stop short (a test stacking the top cards only) but holds
        nothing else than these cards."""
        stack = self.stacks.get(deal)
        if stack is not None:
            if Counter(stack) - Counter(cards):
                raise ValueError(f"the stacked deck of deal {deal} holds cards not in play")
            return list(stack)
        seed = self.seed(deal)
        assert seed is not None
        return shuffle_cards(seed.seed, cards)

    def reshuffle(self, deal: int, number: int, cards: Sequence[Card]) -> list[Card]:
        """The `number`-th reshuffle (1, 2, ...) of deal `deal`: `cards` in the order
        `shuffle_cards(seed, cards, reshuffle_label(number))` gives (a stacked deal uses 32
        zero bytes as its seed)."""
        seed = self.seed(deal)
        raw = bytes(SEED_BYTES) if seed is None else seed.seed
        return shuffle_cards(raw, cards, reshuffle_label(number))

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data for a snapshot (holds the secret: snapshots stay on the server)."""
        return {
            "secret": self.secret.hex(),
            "table": self.table,
            "match": self.match,
            "stacks": {str(d): " ".join(map(str, c)) for d, c in self.stacks.items()},
            "seeds": {str(d): s.hex() for d, s in self.seeds.items()},
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DealSource:
        """Rebuild a source from `to_json` data."""
        stacks = {int(d): tuple(parse_cards(c)) for d, c in dict(data.get("stacks", {})).items()}
        seeds = {int(d): seed_from_hex(s) for d, s in dict(data.get("seeds", {})).items()}
        secret = bytes.fromhex(data["secret"])
        return cls(secret, int(data["table"]), int(data["match"]), stacks, seeds)


def verify_deal(
    commitment_hex: str,
    seed_hex: str,
    *,
    table: int,
    match: int,
    deal: int,
    decks: int = 1,
    dealt: Sequence[Card] = (),
) -> list[str]:
    """Check a revealed deal: the seed hashes to the commitment and its deck order starts
    with `dealt` (the cards in the order they left the deck). One line per problem."""
    try:
        seed = seed_from_hex(seed_hex)
    except ValueError as error:
        return [str(error)]
    problems = []
    expected = commitment(seed, table=table, match=match, deal=deal)
    if expected != commitment_hex:
        problems.append(
            f"the seed does not hash to the commitment {commitment_hex[:16]}… "
            f"(it gives {expected[:16]}…)"
        )
    order = deck_order(seed, decks)
    for index, card in enumerate(dealt):
        if index >= len(order) or order[index] is not card:
            want = order[index] if index < len(order) else "nothing"
            problems.append(f"card {index + 1} dealt was {card}, the seed deals {want}")
            break
    return problems
