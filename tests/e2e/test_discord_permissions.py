"""Where tables run: channel kinds and the bot's permissions, checked when a table is
opened or dealt, and a permission taken away mid-match (the delivery pauses, members are
told privately, nothing is lost when it comes back). Through the stand-in, which answers
posts and edits 403 without the permissions as Discord does."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path

import pytest

from bot.process.jsonlog import JsonLines
from deucebot_dev.discord_standin import (
    GUILD_ANNOUNCEMENT,
    GUILD_FORUM,
    GUILD_STAGE_VOICE,
    GUILD_VOICE,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    FakeDiscord,
)
from tests.e2e.conftest import bot_running, settle
from tests.e2e.deliveries import check_match
from tests.e2e.helpers import boards

PERMS = {
    "en": ("Embed Links", "Attach Files", "Send Messages in Threads"),
    "fr": ("Intégrer des liens", "Joindre des fichiers", "Envoyer des messages dans les fils"),
    "uk": ("Вбудовувати посилання", "Прикріплювати файли", "Надсилати повідомлення в гілках"),
}
LOCALES = {"en": "en-US", "fr": "fr", "uk": "uk"}


def _kind(standin: FakeDiscord, kind: str) -> int:
    """A channel of `kind` in the stand-in's guild (a forum post: a thread of a forum)."""
    if kind == "text":
        return standin.channel_id
    if kind == "forum post":
        return standin.add_channel(PUBLIC_THREAD, parent=standin.add_channel(GUILD_FORUM))
    found = {
        "voice": GUILD_VOICE,
        "public thread": PUBLIC_THREAD,
        "private thread": PRIVATE_THREAD,
        "announcement": GUILD_ANNOUNCEMENT,
        "stage": GUILD_STAGE_VOICE,
    }[kind]
    parent = standin.channel_id if found in (PUBLIC_THREAD, PRIVATE_THREAD) else None
    return standin.add_channel(found, parent=parent)


@pytest.mark.parametrize("kind", ["text", "voice", "public thread", "private thread", "forum post"])
async def test_a_table_runs_in_every_supported_channel_kind(
    standin: FakeDiscord, tmp_path: Path, kind: str
) -> None:
    channel = _kind(standin, kind)
    ana = standin.owner
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        created = await standin.command(ana, "table create", channel_id=channel, game="duel")
        assert created.message is not None and not created.ephemeral, created.message
        await standin.command(ana, "table start", channel_id=channel)
        await settle(bot)
        posted = [m for m in boards(standin) if m.channel_id == channel]
        assert posted, "no board in the channel"
        assert bot.tables.find(str(channel)) is not None
        assert standin.forbidden == []


@pytest.mark.parametrize(("kind", "named"), [("announcement", "announcement"), ("stage", "stage")])
async def test_other_channel_kinds_are_refused_by_name(
    standin: FakeDiscord, tmp_path: Path, kind: str, named: str
) -> None:
    channel = _kind(standin, kind)
    ana = standin.owner
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        for line, options in (("table create", {"game": "duel"}), ("duel challenge", {})):
            refused = await standin.command(ana, line, channel_id=channel, **options)
            assert refused.ephemeral and refused.message is not None
            text = refused.message.content
            assert text.startswith("⛔") and named in text and "text channel" in text, text
        assert bot.tables.find(str(channel)) is None
        assert standin.public_messages(channel) == []


@pytest.mark.parametrize("lang", ["en", "fr", "uk"])
async def test_create_start_and_challenge_name_the_missing_permissions(
    standin: FakeDiscord, tmp_path: Path, lang: str
) -> None:
    member = standin.add_user("Mo", locale=LOCALES[lang])
    embed, attach, _ = PERMS[lang]
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        standin.deny_bot(standin.channel_id, "embed_links", "attach_files")
        for line, options in (("table create", {"game": "bigtwo"}), ("duel challenge", {})):
            refused = await standin.command(member, line, **options)
            assert refused.ephemeral and refused.message is not None
            text = refused.message.content
            assert text.startswith("⛔") and embed in text and attach in text, text
        assert bot.tables.find(str(standin.channel_id)) is None
        assert standin.public_messages() == [] and standin.forbidden == []
        # Opened while allowed, then the permission goes before the deal: /table start refuses.
        standin.allow_bot(standin.channel_id, "embed_links", "attach_files")
        await standin.command(member, "table create", game="bigtwo")
        standin.deny_bot(standin.channel_id, "attach_files")
        refused = await standin.command(member, "table start")
        assert refused.ephemeral and refused.message is not None
        text = refused.message.content
        assert attach in text and embed not in text, text
        table = bot.tables.find(str(standin.channel_id))
        assert table is not None and table.status == "lobby"


async def test_in_a_thread_it_is_send_messages_in_threads_that_counts(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    thread = _kind(standin, "public thread")
    ana = standin.owner
    standin.deny_bot(thread, "send_messages")  # not needed in a thread
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        await standin.command(ana, "table create", channel_id=thread, game="duel")
        assert bot.tables.find(str(thread)) is not None
        await settle(bot)
        other = _kind(standin, "public thread")
        standin.deny_bot(other, "send_messages_in_threads")
        refused = await standin.command(ana, "table create", channel_id=other, game="duel")
        assert refused.message is not None and PERMS["en"][2] in refused.message.content


async def test_a_private_thread_the_bot_is_not_in_says_to_add_it(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    thread = standin.add_channel(PRIVATE_THREAD, parent=standin.channel_id, bot_added=False)
    standin.deny_bot(thread, "manage_threads")  # as invited: without it
    ana = standin.owner
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        refused = await standin.command(ana, "table create", channel_id=thread, game="duel")
        assert refused.ephemeral and refused.message is not None
        assert (
            "private thread" in refused.message.content and "mention me" in refused.message.content
        )
        assert bot.tables.find(str(thread)) is None
        standin.channels[thread].members.add(standin.app_id)  # a member mentioned the bot
        created = await standin.command(ana, "table create", channel_id=thread, game="duel")
        assert created.message is not None and not created.ephemeral
        await settle(bot)
        assert any(m.channel_id == thread for m in boards(standin))


async def _ai_match_paused(standin: FakeDiscord, bot: object, deals: int) -> object:
    """A draw match played by the AI alone, the bot's Embed Links and Attach Files taken
    away right after the deal; returns the table once the match is over (unseen)."""
    ana = standin.owner
    await standin.command(ana, "table create", game="draw", deals=deals)
    await standin.command(ana, "table start")
    await settle(bot)  # type: ignore[arg-type]
    standin.deny_bot(standin.channel_id, "embed_links", "attach_files")
    await standin.command(ana, "table leave")  # the AI plays every seat from here
    table = bot.tables.find(str(standin.channel_id))  # type: ignore[attr-defined]
    assert table is not None and table.match is not None
    await standin.wait_for(lambda: table.status == "finished", 60)
    return table


async def test_a_permission_taken_mid_match_pauses_then_everything_follows_in_order(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    bea = standin.add_user("Bea", locale="fr")
    yuri = standin.add_user("Yuri", locale="uk")
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        table = await _ai_match_paused(standin, bot, 3)
        await settle(bot)
        paused = bot.front.paused()
        assert paused[table.id].code == 50013  # type: ignore[attr-defined]
        # Refused once, then not tried again in a loop while nothing changed.
        refused = len(standin.forbidden)
        assert refused == 1, standin.forbidden
        seen = standin.public_versions()
        # Members are told privately at their next click, in their language.
        for user, lang in ((bea, "fr"), (yuri, "uk"), (standin.owner, "en")):
            answer = await standin.command(user, "table status")
            # A follow-up (after the answer, or as the answer when the command came while
            # the loop ran late and was deferred).
            notice = await standin.wait_for(
                lambda a=answer, w=PERMS[lang][0]: [m for m in a.followups if w in m.content],  # type: ignore[misc]
                5,
            )
            assert notice[-1].ephemeral and PERMS[lang][1] in notice[-1].content
        assert standin.public_versions() == seen and len(standin.forbidden) == refused
        # Those clicks lent no token (they show the permissions missing): nothing went out
        # through one, which would hide the refusal (a token's webhook is not held to them).
        members = {bea.id, yuri.id, standin.owner.id}
        assert bot.front.tokens.usable(standin.channel_id, 0, table.id, members) is None  # type: ignore[attr-defined]
        # The permissions come back: the next click resumes the delivery, in log order.
        standin.allow_bot(standin.channel_id, "embed_links", "attach_files")
        answer = await standin.command(bea, "table status")
        await settle(bot)
        assert bot.front.paused() == {}
        await asyncio.sleep(0.2)
        # Nothing more to say than the answer (which is a follow-up when the command came
        # while the loop ran late and was deferred), and no word of permissions now.
        final = answer.final()
        assert final is not None and PERMS["fr"][0] not in final.content
        assert [m for m in answer.beyond_answer() if m.ephemeral] == []
        # No post rides on Bea's click: she is not seated at the table (nobody is: the AI
        # plays every seat), and a spectator's command carries no board.
        assert not [m for m in answer.beyond_answer() if not m.ephemeral]
        await check_match(standin, bot.storage, table.match.id, table.names)  # type: ignore[attr-defined]
        assert "The match is over" in boards(standin)[-1].content


async def test_a_paused_table_resumes_by_itself_on_the_slow_timer(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    async with bot_running(standin, tmp_path / "db.sqlite3") as bot:
        bot.front.pause_retry = 0.5
        table = await _ai_match_paused(standin, bot, 2)
        await standin.wait_for(lambda: bot.front.paused(), 10)
        standin.allow_bot(standin.channel_id, "embed_links", "attach_files")
        await standin.wait_for(lambda: not bot.front.paused(), 10)
        await settle(bot)
        await check_match(standin, bot.storage, table.match.id, table.names)  # type: ignore[attr-defined]


class _JsonLog(logging.Handler):
    """The bot's log lines as `DEUCEBOT_LOG_FORMAT=json` writes them, formatted as they are
    emitted (in the logging task's context, where the bound ids live)."""

    def __init__(self) -> None:
        super().__init__()
        self.setFormatter(JsonLines())
        self.lines: list[dict[str, str]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(json.loads(self.format(record)))


async def test_the_pause_names_the_match_started_while_the_outbox_was_busy(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    # The outbox was created with the table (no match yet) and is still delivering the
    # lobby when the match starts; its later log lines name the match all the same.
    standin.slow.append(("POST", r"/(channels/\d+/messages|webhooks/\d+/[^/]+)$", 0.3))
    standin.slow.append(("PATCH", r"/messages/(\d+|@original)$", 0.3))
    handler = _JsonLog()
    logger = logging.getLogger("deucebot")
    logger.addHandler(handler)
    ana = standin.owner
    try:
        async with bot_running(standin, tmp_path / "db.sqlite3", ai_delay=0.05) as bot:
            await standin.command(ana, "table create", game="draw", deals=2)
            await standin.command(ana, "table start")
            standin.deny_bot(standin.channel_id, "embed_links")
            await standin.command(ana, "table leave")
            await standin.wait_for(lambda: standin.forbidden, 30)
            table = bot.tables.find(str(standin.channel_id))
            assert table is not None and table.match is not None
            match = table.match.id
    finally:
        logger.removeHandler(handler)
    paused = [e for e in handler.lines if "channel delivery paused" in e["message"]]
    assert paused, handler.lines
    assert (paused[0]["table"], paused[0].get("match")) == (str(table.id), str(match))
