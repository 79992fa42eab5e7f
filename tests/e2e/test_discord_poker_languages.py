"""A French and a Ukrainian member play the duel and draw poker in their own words: the
hand's menus, buttons and options translated, cards chosen in a menu confirmed by name,
typed moves read in their language, refusals in it too."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.discord.client import Deucebot
from bot.render import get_renderer
from bot.runtime import Table
from deucebot_dev.discord_standin import FakeDiscord, Message, User
from engines.cards import parse_card
from tests.e2e.conftest import bot_running
from tests.e2e.helpers import open_hand
from tests.e2e.poker_helpers import buttons, wait_turn

ENGLISH = ("check", "bet ", "raise ", "allin", "all-in")
"""English move words that must not show in a French or Ukrainian hand."""

WORDS = {
    "fr": {
        "done": "✅ C'est fait : ",
        "lock": "bloquer",
        "draw": "changer",
        "typed": {"check": "parole", "call": "suivre", "fold": "se coucher", "no": "non"},
        "locked": "déjà verrouillée",
    },
    "uk": {
        "done": "✅ Зроблено: ",
        "lock": "зафіксувати",
        "draw": "обміняти",
        "typed": {"check": "чек", "call": "колл", "fold": "скинути", "no": "ні"},
        "locked": "вже заблоковано",
    },
}


def lang_of(user: User) -> str:
    """`fr` or `uk`."""
    return user.locale[:2]


async def their_turn(
    fake: FakeDiscord, bot: Deucebot, table: Table, users: list[User]
) -> tuple[User, dict[str, Any], Any, Message] | None:
    """Whose turn it is among `users` (None once the match is over): the member, their words,
    their view and their open hand, checked to show no English move word."""
    who = await wait_turn(fake, bot, table, users)
    if who is None:
        return None
    hand = await open_hand(fake, who)
    for english in ENGLISH:  # options, buttons and menu in their words
        assert english not in hand.text().lower(), (english, hand.text())
    return who, WORDS[lang_of(who)], table.view(table.seat_of(str(who.id))), hand


async def typed_move(fake: FakeDiscord, user: User, legal: list[str]) -> bool:
    """Type, in `user`'s words, the first legal move we have a word for; True when it was
    acknowledged in their language with their word."""
    words = WORDS[lang_of(user)]
    verbs = [text.split()[0] for text in legal]
    verb = next((v for v in ("check", "call", "no", "fold") if v in verbs), None)
    if verb is None:
        return False
    word = words["typed"][verb]  # type: ignore[index]
    answer = (await fake.command(user, "act", action=word)).message
    assert answer is not None and answer.ephemeral, answer
    assert answer.content.startswith(f"{words['done']}{word}"), answer.content
    return True


async def test_a_duel_in_french_and_ukrainian(standin: FakeDiscord, tmp_path: Path) -> None:
    fr = standin.add_user("Anaïs", locale="fr")
    uk = standin.add_user("Оксана", locale="uk")
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        await standin.command(fr, "duel challenge", member=uk)
        challenge = next(
            m for m in standin.public_messages() if "db:duel:yes:" in str(m.custom_ids())
        )
        await standin.click(uk, challenge, "db:duel:yes:")
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None
        locked = {fr.id: 0, uk.id: 0}
        typed = {fr.id: 0, uk.id: 0}
        while min(typed.values()) < 1 or min(locked.values()) < 2:
            turn = await their_turn(standin, bot, table, [fr, uk])
            if turn is None:
                break
            who, words, view, hand = turn
            if view.phase == "lock" and locked[who.id] % 2 == 0:  # through the menu
                card = str(view.hand[1])
                await standin.select(who, hand, "db:sel:", [card])
                pick = hand.component("db:pick:")
                assert str(pick["label"]).lower().startswith(words["lock"]), pick
                await standin.click(who, hand, "db:pick:")
                said = f"{words['done']}{words['lock']} {view.hand[1].pretty}"
                assert hand.content.startswith(said), hand.content
                locked[who.id] += 1
            elif view.phase == "lock":  # typed, in their words
                answer = (await standin.command(who, "act", action=f"{words['lock']} 1")).message
                assert answer is not None, answer
                said = f"{words['done']}{words['lock']} {view.hand[0].pretty}"
                assert answer.content.startswith(said), answer.content
                locked[who.id] += 1
            else:
                again = (await standin.command(who, "act", action=f"{words['lock']} 1")).message
                assert again is not None and again.content.startswith("⛔"), again
                assert words["locked"] in again.content, again.content
                assert await typed_move(standin, who, [str(a) for a in view.legal])
                typed[who.id] += 1
        assert min(typed.values()) >= 1 and min(locked.values()) >= 2, (typed, locked)


async def test_draw_poker_in_french_and_ukrainian(standin: FakeDiscord, tmp_path: Path) -> None:
    fr = standin.add_user("Anaïs", locale="fr")
    uk = standin.add_user("Оксана", locale="uk")
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        await standin.command(fr, "table create", game="draw", seats=3, deals=200)
        await standin.command(uk, "table join")
        await standin.command(fr, "table start")
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None
        drew = {fr.id: 0, uk.id: 0}
        typed = {fr.id: 0, uk.id: 0}
        for _ in range(120):
            if min(drew.values()) >= 1 and min(typed.values()) >= 1:
                break
            turn = await their_turn(standin, bot, table, [fr, uk])
            if turn is None:
                break
            who, words, view, hand = turn
            if get_renderer("draw").card_pick(view) is not None:
                # Sorted by suit first: the discards are still the cards chosen, by name.
                await standin.click(who, hand, "db:sort:")
                chosen = [o["value"] for o in hand.component("db:sel:")["options"]][:2]
                await standin.select(who, hand, "db:sel:", chosen)
                assert str(hand.component("db:pick:")["label"]).lower().startswith(words["draw"])
                await standin.click(who, hand, "db:pick:")
                # The confirmation names the cards chosen (never positions), in their words.
                said = hand.content.removeprefix(f"{words['done']}{words['draw']} ")
                assert said != hand.content, hand.content
                named = said.split(".")[0].split()
                assert sorted(named) == sorted(parse_card(c).pretty for c in chosen), said
                drew[who.id] += 1
            elif typed[who.id] == 0 and await typed_move(
                standin, who, [str(a) for a in view.legal]
            ):
                typed[who.id] += 1
            else:
                labels = buttons(hand)
                prefer = [words["typed"][v] for v in ("check", "call", "no")]  # type: ignore[index]
                # With no check or call to make (after the blind: raise or fold), raise the
                # least: a member who folded there every deal might never reach a draw.
                lowest = min(
                    (str(a) for a in view.legal if str(a).startswith("raise ")),
                    key=lambda text: int(text.split()[1]),
                    default=None,
                )
                least = next(
                    (x for x in labels if lowest and labels[x].endswith(":" + lowest)), None
                )
                label = next(
                    (x for w in prefer for x in labels if x.lower().startswith(w)),
                    least or next(iter(labels)),
                )
                await standin.click(who, hand, labels[label])
                assert hand.content.startswith(words["done"]), hand.content
        assert min(drew.values()) >= 1 and min(typed.values()) >= 1, (drew, typed)
