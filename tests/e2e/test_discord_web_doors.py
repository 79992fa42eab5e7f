"""The Discord buttons that open the web table, through the bot's own process
(`python -m bot`) and the Discord stand-in: the board's "Open table" answered with the
LAUNCH_ACTIVITY callback (which the stand-in accepts only for an application with an
Activity, as Discord does), and the hand's "Open in browser" with a signed link to the
member's seat, revocable."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlparse

import pytest

from bot.web.identity import WebAuthError
from bot.web.links import LinkAuthenticator, LinkSigner
from bot.web.oauth import DiscordOAuth, OAuthRefused
from deucebot_dev.discord_standin import FakeDiscord, Message, User
from storage.sqlite import SqliteStorage
from tests.e2e.bot_process import BotProcess, bot_env, spawn_bot
from tests.e2e.conftest import running_standin
from tests.e2e.helpers import board, boards, mentioned
from tests.e2e.process_play import stop

SECRET = "a-link-secret-of-the-tests-32-characters-or-more"
PUBLIC = "https://deucebot.example.org"
WEB = {"DEUCEBOT_PUBLIC_URL": PUBLIC, "DEUCEBOT_LINK_SECRET": SECRET}
ACTIVITY = {
    **WEB,
    "DEUCEBOT_ACTIVITY_CLIENT_ID": "123456789012345678",
    "DEUCEBOT_ACTIVITY_CLIENT_SECRET": "client-secret",
}


async def _spawn_web(fake: FakeDiscord, db: Path) -> BotProcess:
    """The bot with browser links (`WEB`) on the SQLite file `db`, run in its folder."""
    return await spawn_bot(
        bot_env({**fake.env(), **WEB, "DEUCEBOT_DB": str(db)}, db.parent), db.parent
    )


async def _dealt(fake: FakeDiscord) -> Message:
    """Once the bot is up: the owner's Big Two table, started, the owner to play."""
    owner = fake.owner
    await fake.wait_ready(60)
    await fake.command(owner, "table create", game="bigtwo", deals=1)
    await fake.command(owner, "table start")
    # The board may not be posted yet when the command is answered.
    await fake.wait_for(lambda: bool(boards(fake)) and mentioned(fake) == owner.id, 20)
    return board(fake)


def _labels(message: Message) -> dict[str, str]:
    """Each button's label by its custom id (a link button by its url)."""
    out: dict[str, str] = {}
    for row in message.components:
        for comp in row.get("components", []):
            if comp.get("type") == 2:
                out[str(comp.get("custom_id") or comp.get("url"))] = str(comp.get("label"))
    return out


async def test_open_table_launches_the_activity(tmp_path: Path) -> None:
    async with running_standin(activity=True) as fake:
        fan = fake.add_user("Fan", locale="fr")
        bot = await spawn_bot(bot_env({**fake.env(), **ACTIVITY}, tmp_path), tmp_path)
        try:
            shown = await _dealt(fake)
            labels = _labels(shown)
            opener = next(cid for cid in labels if cid.startswith("db:activity:"))
            assert labels[opener] == "Open table"
            # Anyone in the channel may open it: a member watches the public table.
            launched = await fake.click(fan, shown, "db:activity:")
            assert launched.kind == 12 and launched.message is None
            assert fake.activity_launches == [launched.interaction_id]
            mine = await fake.click(fake.owner, shown, "db:activity:")
            assert mine.kind == 12
            # Where the Activity runs is Discord's to say: the bot token reads the instance.
            [instance_id] = fake.activity_instances
            base, token = fake.api_base.removesuffix("/v10"), fake.env()["DISCORD_TOKEN"]
            oauth = DiscordOAuth(str(fake.app_id), "unused", base, bot_token=token)
            other_app = DiscordOAuth("42", "unused", base, bot_token=token)
            try:
                instance = await oauth.instance(instance_id)
                assert instance.channel_id == str(fake.channel_id)
                assert instance.guild_id == str(fake.guild_id)
                # The owner's launch joined the instance the fan started in this channel.
                assert instance.users == {str(fan.id), str(fake.owner.id)}
                for unknown in (oauth.instance("i-1-gc-1-2"), other_app.instance(instance_id)):
                    with pytest.raises(OAuthRefused) as refused:
                        await unknown
                    assert refused.value.code == "unknown_instance"
            finally:
                await oauth.close()
                await other_app.close()
        finally:
            await stop(bot)


async def test_a_global_sync_keeps_the_activitys_entry_point(tmp_path: Path) -> None:
    """Unsharded without a development server the bot overwrites its global commands at
    start-up; with Activities enabled Discord refuses an overwrite that would drop the App
    Launcher's Entry Point command, so the bot carries it over and starts."""
    async with running_standin(activity=True) as fake:
        entry = [c for c in fake.global_commands if c["type"] == 4]
        env = {k: v for k, v in fake.env().items() if k != "DEV_GUILD_ID"}
        bot = await spawn_bot(bot_env({**env, **ACTIVITY}, tmp_path), tmp_path)
        try:
            shown = await _dealt(fake)  # global commands: /table create works
            kept = [c for c in fake.global_commands if c["type"] == 4]
            assert (
                [(c["name"], c["handler"]) for c in kept]
                == [("launch", 2)]
                == [(c["name"], c["handler"]) for c in entry]
            )
            assert "table" in {c["name"] for c in fake.global_commands}
            assert (await fake.click(fake.owner, shown, "db:activity:")).kind == 12
        finally:
            await stop(bot)


async def test_launch_activity_is_refused_for_an_app_without_one(tmp_path: Path) -> None:
    """The bot thinks it has an Activity, the application has none: Discord (the stand-in)
    refuses the callback, and the member is told privately instead of a failed click."""
    async with running_standin() as fake:
        bot = await spawn_bot(bot_env({**fake.env(), **ACTIVITY}, tmp_path), tmp_path)
        try:
            shown = await _dealt(fake)
            answered = await fake.click(fake.owner, shown, "db:activity:")
            assert answered.kind == 4 and answered.ephemeral
            assert answered.message is not None and answered.message.content.startswith("⛔")
            assert "not set up as an Activity" in answered.message.content
            assert fake.activity_launches == []
        finally:
            await stop(bot)


async def test_open_in_browser_gives_a_signed_revocable_link(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    async with running_standin() as fake:
        owner = fake.owner
        bot = await _spawn_web(fake, db)
        try:
            shown = await _dealt(fake)
            assert not any(cid.startswith("db:activity:") for cid in _labels(shown))
            hand = (await fake.click(owner, shown, "db:hand:")).message
            assert hand is not None and hand.ephemeral
            assert _labels(hand)[hand.component("db:browser:")["custom_id"]] == "Open in browser"
            first = await fake.click(owner, hand, "db:browser:")
            offer = first.message
            assert first.kind == 4 and offer is not None and offer.ephemeral
            assert "Do not share it" in offer.content
            assert "or until you leave the table" in offer.content
            urls = [u for u in _labels(offer) if u.startswith("https://")]
            # Unsharded, every table is shard 0's: its prefix is /s/0.
            assert len(urls) == 1 and urls[0].startswith(f"{PUBLIC}/s/0/link/")
            old = urlparse(urls[0]).path.removeprefix("/s/0/link/")
            link = LinkSigner(SECRET).read(old)
            assert (link.place, link.player_id, link.generation) == (
                str(fake.channel_id),
                str(owner.id),
                0,
            )
            revoked = await fake.click(owner, offer, "db:revoke:")
            assert revoked.kind == 7 and revoked.message is offer
            assert offer.content.startswith("✅") and not offer.components
            again = (await fake.click(owner, hand, "db:browser:")).message
            assert again is not None
            new = next(u for u in _labels(again) if u.startswith("https://"))
            fresh = urlparse(new).path.removeprefix("/s/0/link/")
            assert LinkSigner(SECRET).read(fresh).generation == 1
        finally:
            await stop(bot)
    # What the bot stored is what the web server reads: the old link is revoked.
    storage = SqliteStorage(str(db))
    await storage.open()
    try:
        record = await storage.table_at(str(link.place))
        assert record is not None and record.id == link.table_id
        auth = LinkAuthenticator(
            LinkSigner(SECRET), storage.link_generation, {link.place: record.id}.get
        )
        assert (await auth.check(fresh)).player_id == str(owner.id)
        with pytest.raises(WebAuthError) as refused:
            await auth.check(old)
        assert refused.value.code == "revoked"
    finally:
        await storage.close()


async def _link(fake: FakeDiscord, user: User) -> str:
    """`user`'s browser link, from their hand's "Open in browser"."""
    hand = (await fake.click(user, board(fake), "db:hand:")).message
    assert hand is not None
    offer = (await fake.click(user, hand, "db:browser:")).message
    assert offer is not None
    url = next(u for u in _labels(offer) if u.startswith("https://"))
    return urlparse(url).path.removeprefix("/s/0/link/")


async def _checked(db: Path, token: str) -> str:
    """What the web server (reading the bot's database) says of `token`: the member it signs
    in, or the code of its refusal."""
    storage = SqliteStorage(str(db))
    await storage.open()
    try:
        place = LinkSigner(SECRET).read(token).place
        record = await storage.table_at(place)
        live = {place: record.id} if record is not None else {}
        auth = LinkAuthenticator(LinkSigner(SECRET), storage.link_generation, live.get)
        try:
            return (await auth.check(token)).player_id
        except WebAuthError as refused:
            return refused.code
    finally:
        await storage.close()


async def test_leaving_the_table_ends_the_members_links(tmp_path: Path) -> None:
    """`/table leave` (during a match: the AI plays the seat) ends the browser links of the
    member who left, durably; the others' links still work."""
    db = tmp_path / "bot.sqlite3"
    async with running_standin() as fake:
        bo = fake.add_user("Bo")
        bot = await _spawn_web(fake, db)
        try:
            await _dealt(fake)
            await fake.command(bo, "table join")
            bos, owners = await _link(fake, bo), await _link(fake, fake.owner)
            left = await fake.command(bo, "table leave")
            assert left.message is not None and "⛔" not in left.message.content
        finally:
            await stop(bot)
    assert await _checked(db, bos) == "revoked"
    assert await _checked(db, owners) == str(fake.owner.id)


async def test_a_member_not_seated_cannot_leave_nor_lose_links(tmp_path: Path) -> None:
    """A refused `/table leave` (not seated) writes nothing: the member's links live on."""
    db = tmp_path / "bot.sqlite3"
    async with running_standin() as fake:
        bot = await _spawn_web(fake, db)
        try:
            await _dealt(fake)
            owners = await _link(fake, fake.owner)
            stranger = fake.add_user("Stranger")
            refused = await fake.command(stranger, "table leave")
            assert refused.message is not None and refused.message.content.startswith("⛔")
        finally:
            await stop(bot)
    assert await _checked(db, owners) == str(fake.owner.id)


async def test_stopping_the_table_ends_its_links(tmp_path: Path) -> None:
    """Once `/table stop` closes the table, its links are refused (`other_table`), also
    after a new table opens in the same channel."""
    db = tmp_path / "bot.sqlite3"
    async with running_standin() as fake:
        bot = await _spawn_web(fake, db)
        try:
            await _dealt(fake)
            owners = await _link(fake, fake.owner)
            await fake.command(fake.owner, "table stop")
            await fake.command(fake.owner, "table create", game="bigtwo", deals=1)
        finally:
            await stop(bot)
    assert await _checked(db, owners) == "other_table"
