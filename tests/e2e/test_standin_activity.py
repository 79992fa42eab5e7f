"""The stand-ins' Activity instances (`deucebot_dev.discord_standin.activity_instance`, which
the Discord stand-in and the OAuth stand-in both serve) read as Discord serves them: a
location `gc-<guild>-<channel>` in a server, `pc-<channel>` in a private channel, and the
bot's reader finds the channel, the server (none in private) and the users."""

from __future__ import annotations

from bot.web.oauth import DiscordOAuth
from deucebot_dev.discord_standin import activity_instance, activity_place
from tests.e2e.conftest import running_standin


def test_an_instance_in_a_server_and_in_a_private_channel() -> None:
    users = ["11"]
    guild = activity_instance("9", "i-1", "5", "300", "200", users)
    private = activity_instance("9", "i-2", "6", "301", None, users)
    users.append("12")  # the instance keeps its own list
    assert guild == {
        "application_id": "9",
        "instance_id": "i-1",
        "launch_id": "5",
        "location": {"id": "gc-200-300", "kind": "gc", "channel_id": "300", "guild_id": "200"},
        "users": ["11"],
    }
    assert private["location"] == {"id": "pc-301", "kind": "pc", "channel_id": "301"}
    assert activity_place("301", None) == "pc-301"


async def test_the_bot_reads_the_stand_ins_instances() -> None:
    async with running_standin(activity=True) as fake:
        app = str(fake.app_id)
        fake.activity_instances["i-7"] = activity_instance(
            app, "i-7", "7", str(fake.channel_id), str(fake.guild_id), ["21", "22"]
        )
        fake.activity_instances["i-8"] = activity_instance(app, "i-8", "8", "4242", None, ["23"])
        base, token = fake.api_base.removesuffix("/v10"), fake.env()["DISCORD_TOKEN"]
        oauth = DiscordOAuth(app, "unused", base, bot_token=token)
        try:
            in_guild, private = await oauth.instance("i-7"), await oauth.instance("i-8")
        finally:
            await oauth.close()
    assert (in_guild.channel_id, in_guild.guild_id) == (str(fake.channel_id), str(fake.guild_id))
    assert in_guild.users == {"21", "22"}
    assert (private.channel_id, private.guild_id, private.users) == ("4242", None, {"23"})
