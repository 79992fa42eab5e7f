"""`deucebot verify`: check stored deals, or a JSON export of a match, end to end.

For each match: every revealed seed hashes to the commitment its deal published, the
shuffle of that seed gives exactly the cards that were dealt, every logged action was
legal for the seat that made it, and the result and the ledger rows are what the deals
give. With `--db` the hash chain of the whole log is walked first (`storage.chain`), and
the match secret stands in for the seeds of deals not revealed yet.

One line per problem on stdout; exit status 0 when every check passed, 1 otherwise, 2
when the input cannot be read. The JSON format (`MatchFacts.to_json`, documented in
docs/fairness.md) holds only what may be public: the commitments, and the seeds and events
of a match only once it is over (`bot.history.over`).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from bot.errors import DeucebotError
from bot.history.build import deal_cards
from bot.history.model import FORMAT as HISTORY_FORMAT
from bot.history.model import HistoryFile, MatchHistory
from bot.history.over import match_over
from bot.runtime.ledger import LedgerIds, ledger_rows
from bot.runtime.replay import opening_events
from engines.base import JSON, DealSettled, DealStarted, Event, IllegalAction, MatchEnded
from engines.fair import DealSource, seed_from_hex, verify_deal
from engines.registry import GameSpec, UnknownName, get_game
from storage import CannotOpenDatabase, Storage, is_postgres_url, open_storage
from storage.backend import AnyStorage
from storage.base import MatchPlayer
from storage.migrate import latest_version
from storage.postgres import redact

Report = Callable[[str], None]

FORMAT = "deucebot-match/1"
"""The `format` field of a match export this verifier reads."""


class ExportError(DeucebotError, ValueError):
    """A file that is not a readable match export; the message says what is wrong."""


@dataclass(frozen=True, slots=True)
class DealFacts:
    """One deal as published: its dealer, its commitment, its seed once revealed."""

    deal: int
    dealer: int
    commitment: str | None
    seed: str | None = None


@dataclass(frozen=True, slots=True)
class ActionFacts:
    """One logged action."""

    seq: int
    deal: int
    seat: int
    action: str


@dataclass
class MatchFacts:
    """Everything checked about one match. `secret` (the match seed) is known only when
    reading the database; exports never carry it."""

    game: str
    config: JSON
    table: int
    match: int
    rng_seed: int
    deals: list[DealFacts]
    actions: list[ActionFacts]
    result: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    chips: list[tuple[int, int, int, str]] | None = None
    """Chip-ledger rows: (hand, seat, delta, reason), in order (None: not exported)."""
    penalties: list[tuple[int, int, int]] | None = None
    """Penalty-ledger rows: (deal, seat, penalty), in order (None: not exported)."""
    events: list[JSON] | None = None
    """The public and private events of the revealed deals, when the export has them."""
    secret: int | None = None
    label: str = ""
    over: bool = False
    """The match can no longer be played (`bot.history.over`): its seeds may be public."""

    def to_json(self) -> JSON:
        """The export: everything but the secret."""
        return {
            "format": FORMAT,
            "game": self.game,
            "config": self.config,
            "table": self.table,
            "match": self.match,
            "rng_seed": self.rng_seed,
            "deals": [
                {"deal": d.deal, "dealer": d.dealer, "commitment": d.commitment, "seed": d.seed}
                for d in self.deals
            ],
            "actions": [
                {"seq": a.seq, "deal": a.deal, "seat": a.seat, "action": a.action}
                for a in self.actions
            ],
            "result": None
            if self.result is None
            else {"winners": list(self.result[0]), "totals": list(self.result[1])},
            "chips": None if self.chips is None else [list(row) for row in self.chips],
            "penalties": None if self.penalties is None else [list(r) for r in self.penalties],
            "events": self.events,
        }

    @classmethod
    def from_json(cls, data: Any) -> MatchFacts:
        """Read an export; `ExportError` naming the first missing or bad field."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ExportError(f"not a match export: the format field must be {FORMAT!r}")
        try:
            result = data.get("result")
            facts = cls(
                game=str(data["game"]),
                config=dict(data["config"]),
                table=int(data["table"]),
                match=int(data["match"]),
                rng_seed=int(data["rng_seed"]),
                deals=[
                    DealFacts(int(d["deal"]), int(d["dealer"]), d["commitment"], d.get("seed"))
                    for d in data["deals"]
                ],
                actions=[
                    ActionFacts(int(a["seq"]), int(a["deal"]), int(a["seat"]), str(a["action"]))
                    for a in data["actions"]
                ],
                result=None
                if result is None
                else (tuple(result["winners"]), tuple(result["totals"])),
                chips=None
                if data.get("chips") is None
                else [(int(h), int(s), int(d), str(r)) for h, s, d, r in data["chips"]],
                penalties=None
                if data.get("penalties") is None
                else [(int(d), int(s), int(p)) for d, s, p in data["penalties"]],
                events=data.get("events"),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise ExportError(f"a field is missing or malformed: {error!r}") from error
        facts.label = f"table {facts.table} match {facts.match}"
        return facts


def check_match(facts: MatchFacts, *, last_deal: int | None = None) -> list[str]:
    """Every problem with one match (see the module docstring), each naming where it is.
    `last_deal` stops the checks after that deal."""
    out: list[str] = []

    def problem(text: str) -> None:
        out.append(f"{facts.label}: {text}")

    try:
        spec = get_game(facts.game)
        config = spec.make_config(**facts.config)
    except (UnknownName, ValueError) as error:
        problem(f"cannot read the game and its settings: {error}")
        return out
    if facts.secret is not None:
        source = DealSource.for_match(facts.secret, table=facts.table, match=facts.match)
        checked = {d.deal for d in facts.deals}
    else:
        revealed: dict[int, bytes] = {}
        for d in facts.deals:
            if d.seed is not None:
                try:
                    revealed[d.deal] = seed_from_hex(d.seed)
                except ValueError as error:
                    problem(f"deal {d.deal}: {error}")
        # Deals not revealed yet get placeholder cards and are not compared.
        source = DealSource(bytes(32), facts.table, facts.match, seeds=revealed)
        checked = set(revealed)
    if last_deal is not None:
        checked = {d for d in checked if d <= last_deal}
    for d in facts.deals:
        if d.deal not in checked:
            continue
        seed = source.seed(d.deal)
        if d.commitment is None or seed is None:
            problem(f"deal {d.deal}: no commitment was published before it")
        elif seed.commitment != d.commitment:
            problem(f"deal {d.deal}: the seed does not hash to the commitment {d.commitment}")
    events = _replay(spec, config, facts, source, checked, problem)
    _compare_deals(facts, events, checked, problem)
    _compare_events(facts, events, checked, source, problem)
    _compare_ledgers(facts, config, spec.max_seats, events, checked, problem)
    return out


def _deal_of(events: Sequence[Event]) -> list[int]:
    """The deal each event belongs to (a settlement's next deal starts with its DealStarted)."""
    deal, out = 0, []
    for event in events:
        if isinstance(event, DealStarted):
            deal = event.deal
        out.append(deal)
    return out


def _replay(
    spec: GameSpec,
    config: Any,
    facts: MatchFacts,
    source: DealSource,
    checked: set[int],
    problem: Report,
) -> list[Event]:
    """Replay the actions of the checked deals; the events, up to the last checked deal."""
    state = spec.new_state(config, random.Random(facts.rng_seed), source)
    events: list[Event] = list(opening_events(state))
    for action in facts.actions:
        if action.deal not in checked:
            break
        if state.to_act != action.seat:
            problem(
                f"action seq {action.seq} ({action.action!r}): seat {action.seat} acted, "
                f"but seat {state.to_act} was to act"
            )
            break
        try:
            events += state.apply(action.seat, spec.parse_action(action.action))
        except (IllegalAction, ValueError) as error:
            problem(f"action seq {action.seq} ({action.action!r}) is illegal: {error}")
            break
    else:
        ended = next((e for e in events if isinstance(e, MatchEnded)), None)
        got = None if ended is None else (tuple(ended.winners), tuple(ended.totals))
        if checked >= {d.deal for d in facts.deals} and got != facts.result:
            problem(f"the stored result {facts.result} is not what the deals give: {got}")
    deals = _deal_of(events)
    return [e for e, d in zip(events, deals, strict=True) if d in checked or d == 0]


def _compare_deals(
    facts: MatchFacts, events: Sequence[Event], checked: set[int], problem: Report
) -> None:
    started = {e.deal: e for e in events if isinstance(e, DealStarted)}
    revealed = {deal: seed for e in events if isinstance(e, MatchEnded) for deal, seed in e.seeds}
    for d in facts.deals:
        if d.deal not in checked:
            continue
        event = started.get(d.deal)
        if event is None:
            problem(f"deal {d.deal} is in the log but the actions never deal it")
            continue
        if event.dealer != d.dealer or event.commitment != d.commitment:
            problem(f"deal {d.deal}: the log's dealer or commitment differs from the replay's")
        reveal = revealed.get(d.deal)
        if d.seed is not None and reveal is not None and reveal != d.seed:
            problem(f"deal {d.deal}: the revealed seed differs from the replay's")
    missing = sorted(set(started) - {d.deal for d in facts.deals})
    if missing:
        problem(f"deal {missing[0]} was dealt but is missing from the log")


def _compare_events(
    facts: MatchFacts,
    events: Sequence[Event],
    checked: set[int],
    source: DealSource,
    problem: Report,
) -> None:
    if facts.events is None:
        return
    exported = [e for e, d in zip(facts.events, _deal_numbers(facts.events), strict=True)
                if d in checked or d == 0]  # fmt: skip
    replayed = [e.to_json() for e in events]
    for index, (mine, theirs) in enumerate(zip(replayed, exported, strict=False)):
        if _as_written_before(mine, theirs, source) != theirs:
            problem(
                f"event {index + 1} ({theirs.get('kind')}) is not what the seed deals: "
                f"exported {json.dumps(theirs, sort_keys=True)}, "
                f"replayed {json.dumps(mine, sort_keys=True)}"
            )
            return
    if len(exported) != len(replayed):
        problem(
            f"the export has {len(exported)} events of checked deals, the replay {len(replayed)}"
        )


def _as_written_before(mine: JSON, theirs: JSON, source: DealSource) -> JSON:
    """The replayed event `mine` as a file written before seeds waited for the match's end
    holds it, when `theirs` is in that form: the deal's seed in its settlement (it must be
    the deal's true seed), no `seeds` at the match's end. Otherwise `mine` unchanged."""
    kind = theirs.get("kind")
    if kind == DealSettled.kind and theirs.get("seed") and mine.get("seed") is None:
        seed = source.seed(int(mine.get("deal", 0)))
        if seed is not None and seed.hex == theirs["seed"]:
            return {**mine, "seed": theirs["seed"]}
    if kind == MatchEnded.kind and "seeds" not in theirs:
        return {k: v for k, v in mine.items() if k != "seeds"}
    return mine


def _deal_numbers(events: Sequence[JSON]) -> list[int]:
    deal, out = 0, []
    for event in events:
        if event.get("kind") == DealStarted.kind:
            deal = int(event["deal"])
        out.append(deal)
    return out


def _compare_ledgers(
    facts: MatchFacts,
    config: Any,
    max_seats: int,
    events: Sequence[Event],
    checked: set[int],
    problem: Report,
) -> None:
    seats = int(getattr(config, "seats", max_seats))
    credits = [MatchPlayer(s, "", "", False) for s in range(seats)]
    _, _, chips, penalties = ledger_rows(
        events, credits, LedgerIds("", facts.game, 0, 0.0), next_seq=0, deal=0
    )
    want_chips = [(c.hand, c.seat, c.delta, c.reason) for c in chips]
    want_penalties = [(p.deal, p.seat, p.penalty) for p in penalties]
    compared: list[tuple[str, list[Any], list[Any]]] = []
    if facts.chips is not None:
        have_chips = [row for row in facts.chips if row[0] in checked or row[0] == 0]
        compared.append(("chip", have_chips, want_chips))
    if facts.penalties is not None:
        have_penalties = [row for row in facts.penalties if row[0] in checked]
        compared.append(("penalty", have_penalties, want_penalties))
    for name, have, want in compared:
        for index, (row, expected) in enumerate(zip(have, want, strict=False)):
            if row != expected:
                problem(f"{name} ledger row {index + 1} is {row}, the deals give {expected}")
                break
        else:
            if len(have) != len(want):
                problem(f"the {name} ledger has {len(have)} rows, the deals give {len(want)}")


# ---------------------------------------------------------------------------- the database


async def load_matches(storage: Storage, match_id: int | None = None) -> list[MatchFacts]:
    """Every match in the storage (or match `match_id`) with its secret, oldest first."""
    if match_id is None:
        records = list(reversed(await storage.matches()))
    else:
        one = await storage.match(match_id)
        records = [one] if one is not None else []
    found = []
    for m in records:
        table = await storage.table(m.table_id)
        assert table is not None  # matches.table_id references tables
        facts = MatchFacts(
            game=table.game,
            config=m.config,
            table=m.table_id,
            match=m.number,
            rng_seed=DealSource.rng_seed(m.seed),
            deals=[DealFacts(d.deal, d.dealer, d.commitment) for d in await storage.deals(m.id)],
            actions=[
                ActionFacts(a.seq, a.deal, a.seat, a.action) for a in await storage.actions(m.id)
            ],
            result=(tuple(m.winners), tuple(m.totals))
            if m.winners is not None and m.totals is not None
            else None,
            chips=[(c.hand, c.seat, c.delta, c.reason) for c in await storage.chip_entries(m.id)],
            penalties=[(p.deal, p.seat, p.penalty) for p in await storage.penalty_entries(m.id)],
            secret=m.seed,
            label=f"match {m.id} (table {m.table_id}, match {m.number})",
            over=await match_over(storage, m, table),
        )
        found.append(facts)
    return found


def public_export(facts: MatchFacts) -> MatchFacts:
    """What a stored match lets the public check, without the secret: its commitments and
    actions; once the match is over (`facts.over`) also every deal's seed and every event
    (replayed from the secret). While it can still be played no seed and no event of a
    deal: a seed, or a private event, would tell cards that still matter (the duel's card
    carried into the next deal, the poker games' folded hands)."""
    if facts.secret is None:
        raise ValueError("only a match read from the database can be exported")
    spec = get_game(facts.game)
    source = DealSource.for_match(facts.secret, table=facts.table, match=facts.match)
    state = spec.new_state(spec.make_config(**facts.config), random.Random(facts.rng_seed), source)
    events: list[Event] = list(opening_events(state))
    for action in facts.actions:
        events += state.apply(action.seat, spec.parse_action(action.action))
    seeds: dict[int, str] = {}
    if facts.over:
        found = ((d.deal, source.seed(d.deal)) for d in facts.deals if d.commitment)
        seeds = {deal: seed.hex for deal, seed in found if seed is not None}
    deal_of = _deal_of(events)
    shown = [e.to_json() for e, d in zip(events, deal_of, strict=True) if d in seeds or d == 0]
    deals = [replace(d, seed=seeds.get(d.deal)) for d in facts.deals]
    return replace(facts, deals=deals, events=shown, secret=None)


async def _read_only(db: str) -> AnyStorage:
    """The storage at `db` (a SQLite path or a postgresql:// URL), opened read-only: never
    created, migrated nor written."""
    if not is_postgres_url(db) and not Path(db).exists():
        raise ExportError(f"there is no database at {db}")
    try:
        storage = await open_storage(db, read_only=True)
    except CannotOpenDatabase as error:
        raise ExportError(str(error)) from error
    if storage.schema != latest_version():
        await storage.close()
        raise ExportError(
            f"the database is at schema version {storage.schema}, not {latest_version()}: "
            "start the bot once on it to upgrade it"
        )
    return storage


async def export_match(db: str, match: int, path: str) -> None:
    """`write_export` from a running event loop."""
    storage = await _read_only(db)
    try:
        found = await load_matches(storage, match)
    finally:
        await storage.close()
    if not found:
        raise ExportError(f"there is no match {match} in {redact(db)}")
    data = public_export(found[0]).to_json()
    Path(path).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def write_export(db: str, match: int, path: str) -> None:
    """Write the public export of match `match` of database `db` (a SQLite path or a
    postgresql:// URL) to `path`."""
    asyncio.run(export_match(db, match, path))


async def check_database(
    db: str, *, match: int | None = None, deal: int | None = None
) -> list[str]:
    """`verify_database` from a running event loop."""
    storage = await _read_only(db)
    try:
        ids = [match] if match is not None else None
        out = [str(p) for p in await storage.verify_chain(ids)]
        if match is None:
            out += await storage.board_problems()
        for facts in await load_matches(storage, match):
            if any(d.commitment is None for d in facts.deals):
                continue  # dealt with the shuffle used before fair deals: nothing to check
            out += check_match(facts, last_deal=deal)
        return out
    finally:
        await storage.close()


def verify_database(db: str, *, match: int | None = None, deal: int | None = None) -> list[str]:
    """Every problem in the database `db` (a SQLite path or a postgresql:// URL, opened
    read-only): its hash chains, the leaderboards' running sums (whole database only),
    then each match (see `check_match`). Matches dealt before fair deals are skipped."""
    return asyncio.run(check_database(db, match=match, deal=deal))


def verify_export(path: str, *, deal: int | None = None) -> list[str]:
    """Every problem in the file at `path`: a match export, or a hand-history file of
    `deucebot history` (`check_history`)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise ExportError(f"cannot read {path}: {error}") from error
    if isinstance(data, dict) and data.get("format") == HISTORY_FORMAT:
        try:
            history = HistoryFile.model_validate(data)
        except ValidationError as error:
            raise ExportError(f"not a readable hand history: {error}") from error
        return [line for match in history.matches for line in check_history(match, deal)]
    return check_match(MatchFacts.from_json(data), last_deal=deal)


def check_history(match: MatchHistory, last_deal: int | None = None) -> list[str]:
    """Every problem in one match of a hand-history file. Each revealed deal seed must hash
    to its commitment and give the deck order the file states. An omniscient history of an
    ended match carries the match seed: then the whole match is replayed and checked as
    `check_match` does (actions, every event and card, result, ledger rows). A seat's
    history cannot be replayed (other seats' action texts are not in it)."""
    label = f"table {match.table_id} match {match.number}"
    deals: list[DealFacts] = []
    out: list[str] = []
    ended = [e.event for d in match.deals for e in d.events if e.event.get("kind") == "match_ended"]
    revealed = {int(deal): str(seed) for e in ended for deal, seed in e.get("seeds") or []}
    for deal in match.deals:
        events = [e.event for e in deal.events]
        started = next((e for e in events if e.get("kind") == DealStarted.kind), {})
        settled = next((e for e in events if e.get("kind") == DealSettled.kind), {})
        # Files written before seeds waited for the match's end have them in settlements.
        seed = deal.seed or revealed.get(deal.deal) or settled.get("seed")
        deals.append(DealFacts(deal.deal, deal.dealer, started.get("commitment"), seed))
        dealt = deal_cards(match.game, seed) if seed else None
        if deal.deck is not None and [str(c) for c in dealt or []] != deal.deck:
            out.append(f"{label}: deal {deal.deal}: the deck order is not what the seed deals")
    actions = [
        ActionFacts(a.seq, d.deal, a.seat, a.action or "") for d in match.deals for a in d.actions
    ]
    ledger = [
        *((0, r) for r in match.ledger),
        *((d.deal, r) for d in match.deals for r in d.ledger),
    ]
    facts = MatchFacts(
        game=match.game,
        config=match.config,
        table=match.table_id,
        match=match.number,
        rng_seed=0,
        deals=deals,
        actions=actions,
        result=None
        if match.winners is None or match.totals is None
        else (tuple(match.winners), tuple(match.totals)),
        chips=[(d, r.seat, r.amount, r.reason) for d, r in ledger if r.reason != "penalty"],
        penalties=[(d, r.seat, r.amount) for d, r in ledger if r.reason == "penalty"],
        events=[e.event for d in match.deals for e in d.events],
        label=label,
    )
    for d in deals:
        if d.seed is None or d.commitment is None or (last_deal is not None and d.deal > last_deal):
            continue
        found = verify_deal(d.commitment, d.seed, table=facts.table, match=facts.match, deal=d.deal)
        out += [f"{label}: deal {d.deal}: {p}" for p in found]
    if match.seed is not None and match.viewer.omniscient:
        secret = int(match.seed)
        full = replace(facts, secret=secret, rng_seed=DealSource.rng_seed(secret))
        out += check_match(full, last_deal=last_deal)
    return out


def add_parser(sub: Any) -> None:
    """The `verify` subcommand of `deucebot`."""
    verify = sub.add_parser(
        "verify", help="check stored deals or a match export: seeds, cards, actions, ledgers"
    )
    verify.add_argument("file", nargs="?", help="a match export (JSON) to check")
    verify.add_argument(
        "--db", help="check a database instead (SQLite file or postgresql:// URL): chains, matches"
    )
    verify.add_argument("--match", type=int, help="only this match (its id in the database)")
    verify.add_argument("--deal", type=int, help="stop after this deal")
    verify.add_argument(
        "--export", metavar="FILE", help="with --db and --match: write the match's public export"
    )


def main(args: argparse.Namespace) -> int:
    """Run `deucebot verify`; print one line per problem; the exit status."""
    if (args.db is None) == (args.file is None):
        print("deucebot verify: give either a JSON export or --db PATH")
        return 2
    if args.export is not None and (args.db is None or args.match is None):
        print("deucebot verify: --export needs --db PATH and --match N")
        return 2
    try:
        if args.export is not None:
            write_export(args.db, args.match, args.export)
        if args.db is not None:
            problems = verify_database(args.db, match=args.match, deal=args.deal)
        else:
            problems = verify_export(args.file, deal=args.deal)
    except ExportError as error:
        print(f"deucebot verify: {error}")
        return 2
    for line in problems:
        print(line)
    if not problems:
        print("verify: every check passed")
    return 1 if problems else 0
