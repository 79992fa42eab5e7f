"""The one deck seam and the commit-reveal helpers (engines.cards.deck_order, engines.fair)."""

from __future__ import annotations

import hashlib
import hmac
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engines.cards import (
    FULL_DECK,
    Card,
    deck_order,
    new_deck,
    parse_cards,
    reshuffle_label,
    shuffle_cards,
)
from engines.fair import DealSeed, DealSource, commitment, seed_from_hex, verify_deal

seeds = st.binary(min_size=32, max_size=32)


def documented_deck(seed: bytes, decks: int = 1) -> list[str]:
    """The stdlib-only recipe of docs/fairness.md, written independently of the engine."""
    ranks, suits = "23456789TJQKA", "DCHS"
    canonical = [r + s for r in ranks for s in suits]
    keyed = []
    for code in canonical:
        for copy in range(decks):
            key = hashlib.sha256(seed + bytes([copy]) + code.encode()).digest()
            keyed.append((key, code))
    return [code for _, code in sorted(keyed)]


@given(seeds, st.sampled_from([1, 2]))
def test_deck_order_is_the_documented_recipe(seed: bytes, decks: int) -> None:
    assert [str(c) for c in deck_order(seed, decks)] == documented_deck(seed, decks)


@given(seeds)
def test_deck_order_is_a_whole_deck_and_reproducible(seed: bytes) -> None:
    order = deck_order(seed)
    assert sorted(order, key=lambda c: c.code) == list(FULL_DECK)
    assert deck_order(seed) == order
    assert Counter(deck_order(seed, 2)) == Counter(new_deck(2))


def test_different_seeds_give_different_decks() -> None:
    first = deck_order(bytes(32))
    assert deck_order(bytes(31) + b"\x01") != first
    assert first[:4] == parse_cards("QC TS KH KC")  # pinned: the recipe must never drift


def test_seed_length_is_checked() -> None:
    with pytest.raises(ValueError, match="32 bytes"):
        deck_order(b"short")
    with pytest.raises(ValueError, match="at least one deck"):
        deck_order(bytes(32), 0)


def test_reshuffle_is_a_labelled_shuffle_of_the_given_cards() -> None:
    seed = bytes(range(32))
    cards = parse_cards("AS KD 2C 2C 9H")
    mixed = shuffle_cards(seed, cards, reshuffle_label(1))
    assert Counter(mixed) == Counter(cards)
    assert shuffle_cards(seed, list(reversed(cards)), reshuffle_label(1)) == mixed
    assert reshuffle_label(2) == b"R\x00\x00\x00\x02"
    with pytest.raises(ValueError):
        reshuffle_label(0)


def test_commitment_binds_seed_table_match_and_deal() -> None:
    seed = bytes(32)
    base = commitment(seed, table=1, match=2, deal=3)
    message = b"deucebot/deal/v1" + (1).to_bytes(8, "big") + (2).to_bytes(8, "big")
    assert base == hashlib.sha256(message + (3).to_bytes(8, "big") + seed).hexdigest()
    others = {
        commitment(seed, table=9, match=2, deal=3),
        commitment(seed, table=1, match=9, deal=3),
        commitment(seed, table=1, match=2, deal=9),
        commitment(b"\x01" * 32, table=1, match=2, deal=3),
    }
    assert base not in others and len(others) == 4


def test_deal_seeds_come_from_hmac_of_the_secret() -> None:
    source = DealSource(b"k" * 32, table=4, match=5)
    seed = source.seed(7)
    assert seed == DealSeed(
        hmac.new(b"k" * 32, b"deal" + (7).to_bytes(8, "big"), "sha256").digest(), 4, 5, 7
    )
    assert source.commitment(7) == commitment(seed.seed, table=4, match=5, deal=7)
    assert dict(source.revealed(7))[7] == seed.hex
    assert source.deck(7) == deck_order(seed.seed)
    assert source.seed(8) != seed


def test_stacked_and_revealed_sources() -> None:
    cards = parse_cards("AS KS QS")
    source = DealSource(b"k" * 32).stacked(2, cards)
    assert source.deck(2) == cards
    assert source.seed(2) is None and source.commitment(2) is None
    assert [deal for deal, _ in source.revealed(3)] == [1, 3]  # a stacked deal has no seed
    assert source.deck(1) == DealSource(b"k" * 32).deck(1)
    assert DealSource.from_json(source.to_json()) == source
    revealed = DealSource(b"", 1, 1, seeds={3: bytes(32)})  # revealed seeds, no secret
    assert revealed.deck(3) == deck_order(bytes(32))
    assert DealSource.from_json(revealed.to_json()) == revealed
    with pytest.raises(ValueError, match="no revealed seed"):
        revealed.deck(4)


def test_for_match_restores_the_same_secret() -> None:
    one = DealSource.for_match(123, table=1, match=2)
    assert one == DealSource.for_match(123, table=1, match=2)
    assert one.secret != DealSource.for_match(124).secret


@given(seeds, st.integers(0, 51))
def test_verify_deal_accepts_the_truth_and_names_a_changed_card(seed: bytes, at: int) -> None:
    committed = commitment(seed, table=1, match=1, deal=1)
    dealt = deck_order(seed)[:13]
    assert verify_deal(committed, seed.hex(), table=1, match=1, deal=1, dealt=dealt) == []
    if at < 13:
        wrong = list(dealt)
        wrong[at] = next(c for c in FULL_DECK if c not in dealt)
        problems = verify_deal(committed, seed.hex(), table=1, match=1, deal=1, dealt=wrong)
        assert problems == [f"card {at + 1} dealt was {wrong[at]}, the seed deals {dealt[at]}"]


@given(seeds, seeds)
def test_verify_deal_refuses_another_seed(seed: bytes, other: bytes) -> None:
    committed = commitment(seed, table=1, match=1, deal=1)
    problems = verify_deal(committed, other.hex(), table=1, match=1, deal=1)
    assert (problems == []) == (seed == other)


def test_bad_hex_seed_is_named() -> None:
    with pytest.raises(ValueError, match="not a hex seed"):
        seed_from_hex("zz")
    assert verify_deal("00", "abcd", table=0, match=0, deal=0) == [
        "a deal seed is 32 bytes (64 hex digits)"
    ]


def test_card_identity_kept() -> None:
    assert all(isinstance(c, Card) for c in deck_order(bytes(32)))


def test_the_snippet_in_docs_fairness_is_the_engine() -> None:
    text = (Path(__file__).parents[2] / "docs" / "fairness.md").read_text(encoding="utf-8")
    snippet = re.search(r"```python\n(.*?)```", text, re.S)
    assert snippet is not None
    namespace: dict[str, Any] = {}
    exec(snippet.group(1).split("seed = bytes.fromhex")[0], namespace)
    seed = bytes(range(32))
    for decks in (1, 2):
        assert namespace["deck_order"](seed, decks) == [str(c) for c in deck_order(seed, decks)]
    assert namespace["commitment"](seed, 4, 5, 6) == commitment(seed, table=4, match=5, deal=6)
