"""A local stand-in for Discord: REST API and gateway on 127.0.0.1, for end-to-end tests
and `deucebot bench discord` (a development tool: the bot itself never imports it).

The real discord.py stack talks to it exactly as it would to Discord (the bot's
settings `DISCORD_API_BASE` and `DISCORD_GATEWAY_URL` point at it). It:

- answers login (`GET /users/@me`, `GET /oauth2/applications/@me`), the
  gateway handshake (HELLO, heartbeats, IDENTIFY -> READY + GUILD_CREATE);
- shards like Discord: with `shard_count` > 1 and several guilds, each connection
  IDENTIFYs with `[shard_id, shard_count]`, gets the guilds of its shard
  (`(guild_id >> 22) % shard_count`), and every interaction goes to the connection of its
  guild's shard (direct messages to shard 0);
  command sync, messages, edits, DMs, interaction callbacks and webhooks;
- injects slash commands, autocompletes, button clicks and select choices as
  INTERACTION_CREATE events, checking them against the commands the bot synced
  and the components of the clicked message;
- records every message (public or DM), every edit, every interaction response
  (with its ephemeral flag) and every REST call;
- records as an error every unknown route or malformed payload; a test calls
  `assert_clean()` to fail on them;
- hands a check (`content_hook`) everything the bot sends toward members, whatever
  command, control or export made it: every message payload, edit, interaction answer,
  follow-up, DM, form and autocomplete list, and every uploaded file's bytes;
- models channel kinds (`add_channel`: text, announcement, voice, stage, category, forum
  and its posts, public and private threads) and the bot's permissions in each channel
  (`deny_bot` / `allow_bot`; a thread takes its parent's unless set): interactions carry
  them as `app_permissions`, and a post or edit without them is answered 403 as Discord
  answers it (50001 Missing Access without View Channel, or in a private thread the bot
  was not added to; 50013 Missing Permissions without Send Messages, Send Messages in
  Threads in a thread, Embed Links for an embed, Attach Files for a file);
- accepts the interaction callback LAUNCH_ACTIVITY (type 12) only for an application with an
  Activity (`activity=True`) and only in answer to a command or a component, as Discord
  does (else 400); such an application has its Entry Point command (type 4), which a
  global bulk overwrite must keep (else 400, code 50240); a launch starts an Activity
  instance in the interaction's channel with the clicker in it (a launch where one runs
  joins it), which the bot reads as Discord serves it (`GET
  /applications/{id}/activity-instances/{instance}`, bot token: `location` and `users`; an
  unknown instance or another application's: 404); checks link buttons (a url of at most
  512 characters, no custom id);
- honours a message post's `nonce` with `enforce_nonce` as Discord does: the same nonce
  in the same channel within `nonce_window` seconds returns the message already created
  (no new one); lists a channel's recent messages (`GET /channels/{id}/messages`, empty
  when `history_readable` is off, as without the Read Message History permission).

Only what discord.py 2.x sends and reads is modelled; payloads follow the
Discord API v10 shapes field by field, because a malformed gateway event
kills `Client.start()`.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import math
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import orjson
from aiohttp import BodyPartReader, WSMsgType, web

from deucebot_dev.discord_limits import DiscordLimits

DISCORD_EPOCH_MS = 1420070400000
EPHEMERAL = 64
LAUNCH_ACTIVITY = 12
"""The interaction callback type that opens the application's Activity."""
ENTRY_POINT = 4
"""The application command type of an Activity's Entry Point (the App Launcher's "Launch")."""
DEFERRED_PATIENCE = 30.0
"""Seconds a member waits on a deferred answer's "thinking..." before the stand-in fails."""
GUILD_TEXT = 0
DM = 1
GUILD_VOICE = 2
GUILD_CATEGORY = 4
GUILD_ANNOUNCEMENT = 5
ANNOUNCEMENT_THREAD = 10
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
GUILD_STAGE_VOICE = 13
GUILD_FORUM = 15
THREAD_KINDS = (ANNOUNCEMENT_THREAD, PUBLIC_THREAD, PRIVATE_THREAD)
NO_MESSAGES = (GUILD_CATEGORY, GUILD_FORUM)
"""Channel kinds that hold no messages (a forum holds posts, which are threads)."""
PERMISSION_BITS = {
    "view_channel": 1 << 10,
    "send_messages": 1 << 11,
    "embed_links": 1 << 14,
    "attach_files": 1 << 15,
    "manage_threads": 1 << 34,
    "send_messages_in_threads": 1 << 38,
}
"""The permission bits the stand-in checks (Discord's values)."""
ALL_PERMISSIONS = str((1 << 47) - 1)
READ_MESSAGE_HISTORY = 1 << 16
MEMBER_PERMISSIONS = str(0x0000000000000400 | 0x0000000000000800 | 0x80000000)
"""View channel, send messages, use application commands: what an ordinary member has."""
MANAGE_CHANNELS = 0x10
MANAGE_GUILD = 0x20


@dataclass
class User:
    """A member of the stand-in guild."""

    id: int
    name: str
    locale: str = "en-US"
    dms_open: bool = True
    manage_channels: bool = False
    bot: bool = False
    manage_guild: bool = False
    """Manage Server: sees commands whose default member permissions ask for it."""

    @property
    def permissions(self) -> int:
        """The member's permission bits in the guild's channels."""
        bits = int(MEMBER_PERMISSIONS) | (MANAGE_CHANNELS if self.manage_channels else 0)
        return bits | (MANAGE_GUILD if self.manage_guild else 0)

    def payload(self) -> dict[str, Any]:
        """The user object as Discord sends it."""
        return {
            "id": str(self.id),
            "username": self.name.lower(),
            "discriminator": "0",
            "global_name": self.name,
            "avatar": None,
            "public_flags": 0,
            "bot": self.bot,
        }


@dataclass
class Channel:
    """A guild channel other than the default text channels (`FakeDiscord.add_channel`)."""

    id: int
    kind: int
    parent: int | None = None
    """A thread's parent channel (a forum for a forum post), a channel's category."""
    members: set[int] = field(default_factory=set)
    """A private thread's members (user ids; the bot's application id once it was added)."""


@dataclass
class Message:
    """A message the bot posted (in the guild channel, a DM, or as an interaction response)."""

    id: int
    channel_id: int
    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    attachments: list[str]
    flags: int = 0
    descriptions: list[str] = field(default_factory=list)
    """Each attachment's description (its alt text; "" when none), in `attachments` order."""
    interaction_user: int | None = None
    """For interaction responses and followups: the user who triggered them."""
    answers: int | None = None
    """For interaction responses and followups: the interaction they answer (its id); on
    Discord a follow-up can show which command or click it answers."""
    edits: int = 0
    via: str = "rest"
    """How its last version came: "rest" (the bot's budgeted routes) or "interaction"
    (a callback or an interaction's webhook, outside the global limit)."""
    history: list[dict[str, Any]] = field(default_factory=list)
    """Every version of the message, oldest first (content, embeds, components, attachments)."""

    @property
    def ephemeral(self) -> bool:
        """True for ephemeral messages (only `interaction_user` sees them)."""
        return bool(self.flags & EPHEMERAL)

    def text(self) -> str:
        """All the readable text of the current version: content, embeds and component labels."""
        return version_text(self.history[-1])

    def custom_ids(self) -> list[str]:
        """Custom ids of every component in the current version."""
        return [c["custom_id"] for c in iter_components(self.components) if "custom_id" in c]

    def link_urls(self) -> list[str]:
        """The urls of its link buttons in the current version."""
        return [
            str(c["url"])
            for c in iter_components(self.components)
            if c.get("type") == 2 and c.get("url")
        ]

    def component(self, prefix: str) -> dict[str, Any]:
        """The first component whose custom id starts with `prefix`."""
        for comp in iter_components(self.components):
            if str(comp.get("custom_id", "")).startswith(prefix):
                return comp
        raise AssertionError(f"message {self.id} has no component {prefix!r}: {self.custom_ids()}")


_USER_MENTION = re.compile(r"<@!?(\d+)>")
_ROLE_MENTION = re.compile(r"<@&(\d+)>")
_EVERYONE = re.compile(r"@(everyone|here)")


def pings_of(payload: dict[str, Any]) -> tuple[list[int], list[int], bool]:
    """Whom a message body pings, as Discord decides it: the users, roles and whether
    everyone (``@everyone``, ``@here``) are mentioned in its content (embeds never ping)
    and allowed by its `allowed_mentions` (absent: every mention in the content pings;
    ``parse`` lists the kinds parsed, ``users``/``roles`` the ids allowed otherwise). A
    body that sets both ``parse: users`` and ``users`` is refused, as Discord does."""
    content = str(payload.get("content") or "")
    users = [int(found) for found in _USER_MENTION.findall(content)]
    roles = [int(found) for found in _ROLE_MENTION.findall(content)]
    everyone = bool(_EVERYONE.search(content))
    allowed = payload.get("allowed_mentions")
    if allowed is None:
        return list(dict.fromkeys(users)), list(dict.fromkeys(roles)), everyone
    parse = allowed.get("parse") or []
    listed = {int(uid) for uid in allowed.get("users") or []}
    listed_roles = {int(rid) for rid in allowed.get("roles") or []}
    if ("users" in parse and listed) or ("roles" in parse and listed_roles):
        raise BotSideError(f"allowed_mentions both parses and lists ids: {allowed}")
    if len(listed) > 100 or len(listed_roles) > 100:
        raise BotSideError("allowed_mentions lists more than 100 ids")
    users = [u for u in dict.fromkeys(users) if "users" in parse or u in listed]
    roles = [r for r in dict.fromkeys(roles) if "roles" in parse or r in listed_roles]
    return users, roles, everyone and "everyone" in parse


def iter_components(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every component in a list of action rows, flattened."""
    out: list[dict[str, Any]] = []
    for row in rows:
        out.extend(row.get("components", []))
    return out


def _descriptions(payload: dict[str, Any], files: list[str]) -> list[str]:
    """The description sent for each new file (matched by its upload index and name)."""
    sent = payload.get("attachments") or []
    found = []
    for index, name in enumerate(files):
        about = next(
            (
                str(a.get("description") or "")
                for a in sent
                if str(a.get("id")) == str(index) and a.get("filename") == name
            ),
            "",
        )
        found.append(about)
    return found


_FORM_NAME = re.compile(r'(?:^|;)\s*(filename|name)="([^"]*)"')


def _form_names(disposition: str) -> tuple[str | None, str | None]:
    """A form part's name and file name from its Content-Disposition (as discord.py writes
    it: `form-data; name="files[0]"; filename="table.png"`)."""
    found = {m.group(1): m.group(2) for m in _FORM_NAME.finditer(disposition)}
    return found.get("name"), found.get("filename")


def _padded(descriptions: list[str], attachments: list[str]) -> list[str]:
    """`descriptions` as long as `attachments` (messages stored before they were kept)."""
    return (descriptions + [""] * len(attachments))[: len(attachments)]


def _command_path(data: dict[str, Any]) -> str:
    """A command interaction's path: its name and sub-command group and sub-command."""
    words = [str(data.get("name", ""))]
    options = data.get("options") or []
    while options and options[0].get("type") in (1, 2):
        words.append(str(options[0].get("name", "")))
        options = options[0].get("options") or []
    return " ".join(words)


def version_text(version: dict[str, Any]) -> str:
    """All readable text of one message version."""
    parts = [version.get("content") or ""]
    for embed in version.get("embeds") or []:
        parts.append(embed.get("title") or "")
        parts.append(embed.get("description") or "")
        for fld in embed.get("fields") or []:
            parts.append(fld.get("name", ""))
            parts.append(fld.get("value", ""))
        parts.append((embed.get("footer") or {}).get("text", ""))
        parts.append((embed.get("author") or {}).get("name", ""))
    parts.extend(version.get("descriptions") or [])
    for comp in iter_components(version.get("components") or []):
        parts.append(str(comp.get("label") or ""))
        parts.append(str(comp.get("placeholder") or ""))
        for option in comp.get("options") or []:
            parts.append(str(option.get("label", "")))
            parts.append(str(option.get("description", "") or ""))
    return "\n".join(p for p in parts if p)


@dataclass
class Response:
    """One interaction's response as the user saw it."""

    interaction_id: int
    kind: int
    """4 message, 5 deferred message, 6 deferred update, 7 update message, 8 autocomplete,
    9 modal, 12 launch the Activity."""
    message: Message | None = None
    """The interaction's own answer (a deferred one as its first follow-up or an edit filled
    it in), whatever follow-ups came after it: a board or a deal's result riding on the
    interaction is in `followups`, and `final` returns the last of those."""
    choices: list[dict[str, Any]] | None = None
    modal: dict[str, Any] | None = None
    """The form shown (kind 9): its custom id, title and components."""
    modal_from: int | None = None
    """The message whose component opened the form (kind 9)."""
    followups: list[Message] = field(default_factory=list)
    at: float = 0.0

    @property
    def ephemeral(self) -> bool:
        """Whether the response message (or the deferred one) is ephemeral."""
        return self.message is not None and self.message.ephemeral

    def final(self) -> Message | None:
        """The message the user finally sees: the last followup, else the response message."""
        return self.followups[-1] if self.followups else self.message

    def beyond_answer(self) -> list[Message]:
        """The follow-ups sent after the answer: every one, but the first of a deferred answer
        (kind 5), which is the answer itself (its "thinking..." message, filled in)."""
        return self.followups[1:] if self.kind == 5 else list(self.followups)


def _check_modal(data: dict[str, Any]) -> None:
    """Discord's limits on a form: a title of 1-45 characters, 1-5 rows of text inputs with
    labels of 1-45 characters."""
    title = str(data.get("title") or "")
    if not 0 < len(title) <= 45 or not data.get("custom_id"):
        raise BotSideError(f"bad modal title or custom id: {data!r}")
    rows = data.get("components") or []
    if not 0 < len(rows) <= 5:
        raise BotSideError(f"a modal needs 1-5 rows, not {len(rows)}")
    for row in rows:
        for comp in row.get("components", [row.get("component")]):
            if comp and comp.get("type") == 4 and not 0 < len(str(comp.get("label") or "")) <= 45:
                raise BotSideError(f"bad text input label {comp.get('label')!r}")


LINK_STYLE = 5
URL_LENGTH = 512
"""Discord: a link button's URL (http, https or discord) is at most 512 characters."""


def _check_link_button(comp: dict[str, Any]) -> None:
    """Discord's rules on a button's URL: a link button (style 5) has a `url` of at most 512
    characters and no custom id; any other button has no `url`."""
    if comp.get("type") != 2:
        return
    url = comp.get("url")
    if comp.get("style") == LINK_STYLE:
        if comp.get("custom_id") is not None:
            raise BotSideError(f"a link button has no custom_id: {comp!r}")
        if not isinstance(url, str) or not re.match(r"^(https?|discord)://", url):
            raise BotSideError(f"a link button needs an http(s) or discord url: {comp!r}")
        if len(url) > URL_LENGTH:
            raise BotSideError(f"a button url is at most {URL_LENGTH} characters ({len(url)})")
    elif url is not None:
        raise BotSideError(f"only a link button (style 5) has a url: {comp!r}")


class CommandHidden(AssertionError):
    """A test ran a command Discord does not show that member (default member permissions)."""


class Upload(str):
    """An uploaded file's name, as messages list their attachments; with `keep_files` on it
    also carries the file's content (`data`), so a check can read what a picture shows."""

    data: bytes

    def __new__(cls, name: str, data: bytes = b"") -> Upload:
        """The name `name` of a file holding `data`."""
        upload = super().__new__(cls, name)
        upload.data = data
        return upload


class BotSideError(AssertionError):
    """Something the bot sent was wrong (unknown route, malformed payload) or it failed."""


class Refused(Exception):
    """A request Discord refuses with an error of its own (an expired interaction token,
    a message a webhook did not make): answered with `status` and the JSON error `code`."""

    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


REST, INTERACTION = "rest", "interaction"
"""`Message.via`: how a message version reached the stand-in."""
TOKEN_LIFETIME = 15 * 60.0
"""Seconds an interaction token lives (Discord: 15 minutes; its webhook then answers 401,
code 50027 "Invalid Webhook Token", and a callback 404, code 10062 "Unknown interaction")."""


NONCE_LENGTH = 25
"""Discord: a message nonce is an integer or a string of up to 25 characters."""


def _check_nonce(nonce: Any) -> str:
    """A post's nonce as Discord compares it, or an error for one Discord refuses: neither
    a string of at most 25 characters nor an integer (the stand-in takes a signed 64-bit
    one; discord.py always sends a string)."""
    if isinstance(nonce, str):
        if len(nonce) > NONCE_LENGTH:
            raise BotSideError(f"nonce longer than {NONCE_LENGTH} characters: {nonce!r}")
        return nonce
    if isinstance(nonce, int) and not isinstance(nonce, bool) and -(2**63) <= nonce < 2**63:
        return str(nonce)
    raise BotSideError(f"a nonce is an integer or a string, not {nonce!r}")


def check_select_options(select: dict[str, Any]) -> None:
    """Discord's rules on a string select's options (it answers 400 / 50035 otherwise): 1
    to 25 options, each value 1 to 100 characters and unique within the menu, each label
    1 to 100 characters, `max_values` no larger than the options."""
    options = select.get("options") or []
    if not 1 <= len(options) <= 25:
        raise BotSideError(f"a select holds 1 to 25 options, not {len(options)}")
    values = [str(option.get("value") or "") for option in options]
    for value in values:
        if not 1 <= len(value) <= 100:
            raise BotSideError(f"a select option's value must be 1-100 characters: {value!r}")
    repeated = sorted({value for value in values if values.count(value) > 1})
    if repeated:
        raise BotSideError(f"select option values must be unique, repeated: {repeated}")
    for option in options:
        if not 1 <= len(str(option.get("label") or "")) <= 100:
            raise BotSideError(f"a select option's label must be 1-100 characters: {option!r}")
    if int(select.get("max_values", 1)) > len(options):
        raise BotSideError("select max_values is larger than its options")


def activity_place(channel_id: str, guild_id: str | None) -> str:
    """The id Discord gives an Activity's location: `gc-<guild>-<channel>` in a guild
    channel, `pc-<channel>` in a private one."""
    return f"gc-{guild_id}-{channel_id}" if guild_id else f"pc-{channel_id}"


def activity_instance(
    app_id: str,
    instance_id: str,
    launch_id: str,
    channel_id: str,
    guild_id: str | None,
    users: list[str],
) -> dict[str, Any]:
    """A running Activity instance as Discord serves it (`GET /applications/{app}/activity-
    instances/{instance}`): launched in `channel_id` of guild `guild_id` (None: a private
    channel) with `users` in it."""
    kind = "gc" if guild_id else "pc"
    location: dict[str, Any] = {
        "id": activity_place(channel_id, guild_id),
        "kind": kind,
        "channel_id": channel_id,
    }
    if guild_id:
        location["guild_id"] = guild_id
    return {
        "application_id": app_id,
        "instance_id": instance_id,
        "launch_id": launch_id,
        "location": location,
        "users": list(users),
    }


JSONResponse = Callable[..., Awaitable[web.StreamResponse]]


_MESSAGE_PATH = re.compile(
    r"^/api/v10/(channels/\d+/messages(/\d+)?|webhooks/\d+/[^/]+(/messages/\d+)?)$"
)
"""A message post or edit: in a channel, or through an interaction's webhook."""


class FakeDiscord:
    """The stand-in: one or more guilds (guild `i` on shard `i % shard_count`), each with
    one or more text channels, users, and a bot application."""

    def __init__(
        self, *, channels: int = 1, guilds: int = 1, shard_count: int = 1, activity: bool = False
    ) -> None:
        """`channels` text channels in each of `guilds` guilds; `shard_count`: the shards
        the bot must connect (`GET /gateway/bot` recommends it); `activity`: the
        application has an Activity (Discord then accepts the LAUNCH_ACTIVITY callback)."""
        self.activity = activity
        self.activity_launches: list[int] = []
        """Interactions answered by launching the Activity (callback type 12), in order."""
        self.activity_instances: dict[str, dict[str, Any]] = {}
        """Running Activity instances by id, as Discord serves them (`location`, `users`)."""
        self._ids = itertools.count(1)
        self.app_id = self.snowflake()
        self.bot_user = User(self.app_id, "Deucebot", bot=True)
        self.shard_count = shard_count
        self.guild_ids = [self._guild_snowflake(i % shard_count) for i in range(guilds)]
        self.guild_id = self.guild_ids[0]
        """The first guild (the only one unless `guilds` > 1)."""
        self.owner = User(self.snowflake(), "Owner", manage_channels=True, manage_guild=True)
        self.users: dict[int, User] = {self.owner.id: self.owner}
        self.guild_channels = {
            g: [self.snowflake() for _ in range(channels)] for g in self.guild_ids
        }
        """Guild id -> its text channels."""
        self.channel_guild = {c: g for g, cs in self.guild_channels.items() for c in cs}
        """Guild text channel id -> its guild id."""
        self.channel_ids = [c for cs in self.guild_channels.values() for c in cs]
        """Every guild text channel, the first guild's first."""
        self.dm_channels: dict[int, int] = {}
        """DM channel id -> user id."""
        self.foreign_channels: dict[int, int] = {}
        """Text channels of other servers: channel id -> guild id (`add_foreign_channel`)."""
        self.channels: dict[int, Channel] = {}
        """Channels added by `add_channel` (the others are plain text channels)."""
        self.bot_permissions: dict[int, int] = {}
        """Channel id -> the bot's permission bits there (unset: all; a thread: its parent's)."""
        self.forbidden: list[tuple[str, int, int]] = []
        """Every post or edit refused for the bot's permissions: (method, channel, code)."""
        self.messages: dict[int, Message] = {}
        self.pings: list[tuple[Message, int]] = []
        """(message, user id) of every ping, in order: each message version whose
        content mentions a user and whose `allowed_mentions` allow it (`pings_of`; a post,
        or an edit that sets the content: stricter than Discord, which notifies on posts
        only, so that a mention an edit adds is caught too)."""
        self.role_pings: list[tuple[int, int]] = []
        """(message id, role id) of every role ping (`pings` for roles)."""
        self.everyone_pings: list[int] = []
        """The message of every version that pinged ``@everyone`` or ``@here``."""
        self.responses: dict[int, Response] = {}
        self.tokens: dict[str, int] = {}
        self.asked: dict[int, tuple[int, int | None, str | None]] = {}
        """Interaction id -> the user who made it, the message whose component they used
        (None for a command) and the command's path (``table create``; None for a
        component or a form): whom an answer to it reaches, and what it answers
        (`content_hook`s)."""
        self.commands: list[dict[str, Any]] = []
        self.global_commands: list[dict[str, Any]] = []
        """The application's global commands: what the bot last synced globally, and (with an
        Activity) the Entry Point command Discord made when Activities were enabled."""
        if self.activity:
            self.global_commands.append(
                {
                    "id": str(self.snowflake()),
                    "application_id": str(self.app_id),
                    "version": str(self.snowflake()),
                    "type": ENTRY_POINT,
                    "name": "launch",
                    "description": "",
                    "handler": 2,  # DISCORD_LAUNCH_ACTIVITY: Discord launches it itself
                }
            )
        self.identify: dict[str, Any] | None = None
        self.rest_calls: list[tuple[str, str]] = []
        """(method, route pattern) of every REST call the bot made, in order (`calls`)."""
        self.errors: list[str] = []
        self.locale = "en-US"
        self._sockets: list[web.WebSocketResponse] = []
        self.shard_sockets: dict[int, web.WebSocketResponse] = {}
        """Shard id -> the connection that identified as it (and is still open)."""
        self.identified: list[int] = []
        """The shard of every IDENTIFY, in order (a restarted process identifies again)."""
        self._seq = 0
        self._ready = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.port = 0
        self.response_waiters: dict[int, asyncio.Future[Response]] = {}
        self.changed = asyncio.Event()
        self.window = 3.0
        """Seconds the bot has to answer an interaction (Discord's limit)."""
        self.uploads = 0
        """Files the bot uploaded (pictures)."""
        self.keep_files = False
        """Keep every uploaded file's name and content in `files`, and each attachment's
        content with its name in the messages (`Upload.data`); off: benchmarks upload many."""
        self.files: list[tuple[str, bytes]] = []
        self.late: list[float] = []
        self.sent_at: dict[int, float] = {}
        """Interaction id -> when its INTERACTION_CREATE went to the gateway socket
        (perf_counter)."""
        """With `strict` off: how late (seconds) each answer after the window was."""
        self.strict = True
        """Fail at once when an answer misses the window (tests); off, record it (benchmark)."""
        self.public_hook: Callable[[Message], None] | None = None
        """Called with every new version of a public message (privacy checks)."""
        self.content_hook: Callable[[str, dict[str, Any], list[tuple[str, bytes]]], None] | None
        self.content_hook = None
        """Called with everything the bot sends toward members, before it is stored: the
        request's path, its JSON payload (content, embeds, components, attachments' names and
        alt texts, a form, autocomplete choices) and each uploaded file's name and bytes
        (pictures, history files). Every message, edit, interaction answer, follow-up and DM
        passes here, so a check set here covers a new command, control or export without
        anyone listing it; an `AssertionError` it raises is recorded in `errors`."""
        self.limits = DiscordLimits()
        """Discord's global and per-channel rate limits; `limits.refused` lists every 429."""
        self.slow: list[tuple[str, str, float]] = []
        """(method, path regex, seconds): such requests are answered that much later (a
        busy route, or a request waiting in the bot's own REST budget)."""
        self.storm_until = 0.0
        """Until this `time.monotonic()`, every message post and edit is refused (`storm`)."""
        self.storm_status = 429
        self._storm_armed: float | None = None
        """A storm's length in seconds while it waits for its first post or edit (`storm`
        with `from_first`)."""
        self.storm_refused = 0
        """How many posts and edits a storm refused."""
        self.nonce_window = 180.0
        """Seconds a post's nonce is remembered for `enforce_nonce` (Discord: "the past few
        minutes"); tests shorten it to play a restart that comes after the window."""
        self._nonces: dict[tuple[int, str], tuple[int, float]] = {}
        """(channel, nonce) -> (the message created with it, when: `time.monotonic()`)."""
        self.deduplicated = 0
        """Posts answered with the message already created by their nonce."""
        self.lose_answers = False
        """On: every new message post (channel or DM) is stored, then answered 503, as when
        Discord fails between storing a post and answering it; a repeat with the same
        enforced nonce gets the stored message. Public follow-ups too (they have no nonce:
        a repeat would be a second message)."""
        self.lost_followups = 0
        """Follow-ups stored and answered 503 (`lose_answers`)."""
        self.history_readable = True
        """Off: channel history reads return nothing (Discord without Read Message History),
        and interactions say the bot lacks that permission (`app_permissions`)."""
        self._routes: list[tuple[str, re.Pattern[str], Callable[..., Awaitable[Any]]]] = []
        self._pending: dict[int, dict[str, Any]] = {}
        self._originals: dict[str, int | None] = {}
        self.token_lifetime = TOKEN_LIFETIME
        """Seconds an interaction token lives (tests shorten it to expire one mid-deal)."""
        self.interaction_age = 0.0
        """Seconds every new interaction is dated back (its id's time, its token's birth):
        tests play a token near the end of its 15 minutes without waiting for them."""
        self._token_born: dict[str, float] = {}
        self._token_made: dict[str, set[int]] = {}
        """Token -> the follow-ups it created (a webhook edits only its own messages)."""
        self._add_routes()

    def expire_tokens(self) -> None:
        """Expire every interaction token given out so far, as 15 minutes would."""
        for token in self._token_born:
            self._token_born[token] = float("-inf")

    def _token_alive(self, token: str) -> bool:
        born = self._token_born.get(token)
        return born is not None and time.monotonic() - born < self.token_lifetime

    def storm(self, seconds: float, status: int = 429, *, from_first: bool = False) -> None:
        """For the next `seconds`, answer every message post and edit (channels, DMs and
        interaction webhooks' follow-ups and edits; not the interaction callbacks) with
        `status`: 429 (rate limited until the storm ends) or a 5xx (503: the bot's HTTP
        library does not retry it itself), as Discord does in an outage. `from_first`: the
        `seconds` begin at the next post or edit (the storm is sure to meet one, even on a
        loaded machine where none may come within `seconds` of this call)."""
        self.storm_status = status
        if from_first:
            self._storm_armed = seconds
            self.storm_until = math.inf
        else:
            self._storm_armed = None
            self.storm_until = time.monotonic() + seconds

    def _stormy(self, method: str, path: str) -> web.Response | None:
        """The refusal of a post or edit during a storm, or None."""
        if method not in ("POST", "PATCH") or not _MESSAGE_PATH.match(path):
            return None
        if self._storm_armed is not None:
            self.storm_until = time.monotonic() + self._storm_armed
            self._storm_armed = None
        if time.monotonic() >= self.storm_until:
            return None
        self.storm_refused += 1
        if self.storm_status == 429:
            # As Discord's 429s: `retry_after` says when the limit lifts (the storm's end,
            # rounded up to the millisecond), and `Via` is there. Without `Via` discord.py
            # reads a Cloudflare ban and gives up on an interaction's answer at once; with a
            # shorter `retry_after` its five tries could all fall inside the storm.
            left = math.ceil((self.storm_until - time.monotonic()) * 1000) / 1000
            refused = self._json(
                {"message": "You are being rate limited.", "retry_after": left, "global": False},
                429,
            )
            refused.headers.update(
                {
                    "Retry-After": str(math.ceil(left)),
                    "X-RateLimit-Scope": "user",
                    "Via": "1.1 google",
                }
            )
            return refused
        return self._json({"message": "Service Unavailable", "code": 0}, self.storm_status)

    # -- identities ---------------------------------------------------------------------------

    def snowflake(self, ago: float = 0.0) -> int:
        """A fresh, time-ordered id (of a moment `ago` seconds back)."""
        ms = int((time.time() - ago) * 1000) - DISCORD_EPOCH_MS
        return (ms << 22) | (next(self._ids) & 0x3FFFFF)

    def _guild_snowflake(self, shard: int) -> int:
        """A fresh guild id on `shard`: its timestamp nudged forward to the next
        millisecond that puts it there."""
        raw = self.snowflake()
        ms = raw >> 22
        ms += (shard - ms) % self.shard_count
        return (ms << 22) | (raw & 0x3FFFFF)

    def shard_of(self, guild_id: int | None) -> int:
        """The shard Discord puts `guild_id` on (None, a direct message: shard 0)."""
        return 0 if guild_id is None else (guild_id >> 22) % self.shard_count

    def guild_of(self, channel_id: int) -> int | None:
        """The guild of a text channel (None for a DM channel); a channel a test appended
        to `channel_ids` belongs to the first guild."""
        if channel_id in self.channel_guild:
            return self.channel_guild[channel_id]
        if channel_id in self.foreign_channels:
            return self.foreign_channels[channel_id]
        return self.guild_id if channel_id in self.channel_ids else None

    def add_user(
        self,
        name: str,
        *,
        locale: str = "en-US",
        dms_open: bool = True,
        manage_channels: bool = False,
        manage_guild: bool = False,
    ) -> User:
        """A new guild member."""
        user = User(
            self.snowflake(), name, locale, dms_open, manage_channels, manage_guild=manage_guild
        )
        self.users[user.id] = user
        return user

    def add_foreign_channel(self) -> int:
        """A text channel of another server (one the bot is not told about); its id."""
        channel_id = self.snowflake()
        self.foreign_channels[channel_id] = self.snowflake()
        return channel_id

    def add_channel(self, kind: int, *, parent: int | None = None, bot_added: bool = True) -> int:
        """A new channel of `kind` (a Discord channel type) in the first guild, under
        `parent` (a thread's channel, a forum for a forum post); its id. A private thread
        has the bot among its members unless `bot_added` is False. Add channels before the
        bot connects to have them in its cache (else it reads them from each interaction)."""
        channel_id = self.snowflake()
        self.channels[channel_id] = Channel(channel_id, kind, parent)
        if kind == PRIVATE_THREAD and bot_added:
            self.channels[channel_id].members.add(self.app_id)
        self.channel_ids.append(channel_id)
        return channel_id

    def deny_bot(self, channel_id: int, *names: str) -> None:
        """Take the permissions `names` (``"embed_links"``...) from the bot in a channel."""
        bits = self.bot_permissions_in(channel_id)
        for name in names:
            bits &= ~PERMISSION_BITS[name]
        self.bot_permissions[channel_id] = bits

    def allow_bot(self, channel_id: int, *names: str) -> None:
        """Give the bot the permissions `names` in a channel again."""
        bits = self.bot_permissions_in(channel_id)
        for name in names:
            bits |= PERMISSION_BITS[name]
        self.bot_permissions[channel_id] = bits

    def bot_permissions_in(self, channel_id: int) -> int:
        """The bot's permission bits in a channel (a thread without its own: its parent's)."""
        if channel_id in self.bot_permissions:
            return self.bot_permissions[channel_id]
        channel = self.channels.get(channel_id)
        if channel is not None and channel.kind in THREAD_KINDS and channel.parent is not None:
            return self.bot_permissions_in(channel.parent)
        return int(ALL_PERMISSIONS)

    def kind_of(self, channel_id: int) -> int:
        """A channel's Discord type (a plain text channel unless `add_channel` said else)."""
        channel = self.channels.get(channel_id)
        if channel is not None:
            return channel.kind
        return DM if channel_id in self.dm_channels else GUILD_TEXT

    def _refused_post(
        self, channel_id: int, payload: dict[str, Any], files: list[str], *, edit: bool
    ) -> web.Response | None:
        """Discord's 403 for a post (or an edit) the bot's permissions do not allow."""
        perms = self.bot_permissions_in(channel_id)
        channel = self.channels.get(channel_id)
        kind = self.kind_of(channel_id)
        if kind in NO_MESSAGES:
            raise BotSideError(f"a message to channel {channel_id}, of a kind ({kind}) without any")

        def has(name: str) -> bool:
            return bool(perms & PERMISSION_BITS[name])

        access = has("view_channel")
        if channel is not None and kind == PRIVATE_THREAD:
            access = access and (self.app_id in channel.members or has("manage_threads"))
        method = "PATCH" if edit else "POST"
        if not access:
            self.forbidden.append((method, channel_id, 50001))
            return self._json({"message": "Missing Access", "code": 50001}, 403)
        needed: list[str] = []
        if not edit:
            needed.append("send_messages_in_threads" if kind in THREAD_KINDS else "send_messages")
        if payload.get("embeds"):
            needed.append("embed_links")
        if files:
            needed.append("attach_files")
        if not all(has(name) for name in needed):
            self.forbidden.append((method, channel_id, 50013))
            return self._json({"message": "Missing Permissions", "code": 50013}, 403)
        return None

    @property
    def channel_id(self) -> int:
        """The first guild text channel."""
        return self.channel_ids[0]

    # -- server lifecycle -------------------------------------------------------------------

    async def start(self) -> None:
        """Listen on 127.0.0.1 (a free port)."""
        app = web.Application(client_max_size=32 * 1024 * 1024)
        app.router.add_route("*", "/{tail:.*}", self._dispatch)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]

    async def stop(self) -> None:
        """Close every socket and stop listening."""
        for ws in list(self._sockets):
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def api_base(self) -> str:
        """What to put in DISCORD_API_BASE."""
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        """What to put in DISCORD_GATEWAY_URL."""
        return f"ws://127.0.0.1:{self.port}/gateway"

    def env(self) -> dict[str, str]:
        """Environment variables pointing a bot process at the stand-in."""
        return {
            "DISCORD_TOKEN": "standin-token",
            "DISCORD_API_BASE": self.api_base,
            "DISCORD_GATEWAY_URL": self.gateway_url,
            "DEV_GUILD_ID": str(self.guild_id),
        }

    async def wait_ready(self, timeout: float = 15.0, *, shards: list[int] | None = None) -> None:
        """Wait until a bot has identified and synced its commands (with `shards`: until
        each of those shards is connected too)."""
        async with asyncio.timeout(timeout):
            await self._ready.wait()
            while not self.commands or any(i not in self.shard_sockets for i in shards or ()):
                await asyncio.sleep(0.01)

    def calls(self, method: str, fragment: str) -> int:
        """How many REST calls so far were `method` on a route whose pattern contains
        `fragment` (e.g. ``calls("POST", "/callback")``: interaction answers)."""
        return sum(1 for m, route in self.rest_calls if m == method and fragment in route)

    def reset_ready(self, *, shards: list[int] | None = None) -> None:
        """Forget the last connection (before starting a new bot process); with `shards`,
        only those shards' connections (one process of several restarts)."""
        if shards is not None:
            for shard in shards:
                ws = self.shard_sockets.pop(shard, None)
                if ws is not None and ws in self._sockets:
                    self._sockets.remove(ws)
            return
        self._ready = asyncio.Event()
        self.commands = []
        self._sockets = []
        self.shard_sockets = {}

    def assert_clean(self) -> None:
        """Fail when the bot called an unknown route, sent a malformed payload or reported an
        error."""
        if self.errors:
            raise BotSideError("\n".join(self.errors))

    # -- REST -------------------------------------------------------------------------------

    def _add_routes(self) -> None:
        r = self._route
        app = r"/applications/(?P<app>\d+)"
        guild_commands = rf"{app}/guilds/(?P<guild>\d+)/commands"
        channel = r"/channels/(?P<channel>\d+)"
        message = rf"{channel}/messages/(?P<message>\d+)"
        webhook = r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)"
        r("GET", r"/users/@me", self._me)
        r("GET", r"/oauth2/applications/@me", self._application)
        r("GET", r"/gateway", self._gateway_info)
        r("GET", r"/gateway/bot", self._gateway_bot)
        r("PUT", rf"{app}/commands", self._sync_global)
        r("PUT", guild_commands, self._sync_guild)
        r("GET", guild_commands, self._list_guild)
        r("GET", rf"{app}/commands", self._list_global)
        r("GET", rf"{app}/activity-instances/(?P<instance>[A-Za-z0-9_-]+)", self._activity_instance)
        r("POST", rf"{channel}/messages", self._post_message)
        r("PATCH", message, self._edit_message)
        r("GET", message, self._get_message)
        r("GET", rf"{channel}/messages", self._list_messages)
        r("DELETE", message, self._delete_message)
        r("GET", channel, self._get_channel)
        r("GET", rf"{channel}/thread-members/(?P<user>\d+)", self._get_thread_member)
        r("POST", r"/users/@me/channels", self._open_dm)
        r("GET", r"/users/(?P<user>\d+)", self._get_user)
        r("GET", r"/guilds/(?P<guild>\d+)/members/(?P<user>\d+)", self._get_member)
        r("POST", r"/interactions/(?P<iid>\d+)/(?P<token>[^/]+)/callback", self._callback)
        r("POST", webhook, self._followup)
        webhook_message = rf"{webhook}/messages/(?P<message>@original|\d+)"
        r("PATCH", webhook_message, self._edit_webhook)
        r("GET", webhook_message, self._get_webhook)
        r("DELETE", webhook_message, self._delete_webhook)
        r("POST", rf"{channel}/typing", self._typing)

    def _route(self, method: str, pattern: str, handler: Callable[..., Awaitable[Any]]) -> None:
        self._routes.append((method, re.compile(f"^/api/v10{pattern}$"), handler))

    async def _dispatch(self, request: web.Request) -> web.StreamResponse:
        if request.path == "/gateway" and request.method == "GET" and "v" in request.query:
            return await self._gateway(request)
        for method, pattern, handler in self._routes:
            match = pattern.match(request.path)
            if match and method == request.method:
                self.rest_calls.append((request.method, pattern.pattern))
                if not request.path.startswith("/api/v10/interactions/") and not (
                    request.path.startswith("/api/v10/webhooks/")
                ):
                    auth = request.headers.get("Authorization", "")
                    if auth != "Bot standin-token":
                        return self._json({"message": "401: Unauthorized", "code": 0}, 401)
                for slow_method, slow_path, seconds in self.slow:
                    if slow_method == request.method and re.search(slow_path, request.path):
                        await asyncio.sleep(seconds)
                stormy = self._stormy(request.method, request.path)
                if stormy is not None:
                    return stormy
                verdict = self.limits.check(request.method, request.path)
                if verdict.refusal is not None:
                    refused = self._json(verdict.refusal, 429)
                    refused.headers.update(verdict.headers)
                    return refused
                try:
                    result: web.StreamResponse = await handler(request, **match.groupdict())
                except BotSideError as error:
                    self.errors.append(str(error))
                    self.changed.set()
                    return self._json({"message": str(error), "code": 50035}, 400)
                except Refused as refused:
                    return self._json(
                        {"message": refused.message, "code": refused.code}, refused.status
                    )
                except ConnectionResetError:
                    # The client went away mid-request (a bot killed while uploading): as
                    # for Discord, nothing to answer and nothing wrong on this side.
                    return web.Response(status=499)
                result.headers.update(verdict.headers)
                self.changed.set()
                return result
        self.errors.append(f"unknown route: {request.method} {request.path}")
        return self._json({"message": "404: Not Found", "code": 0}, 404)

    @staticmethod
    def _json(data: Any, status: int = 200) -> web.Response:
        # discord.py parses JSON only when the content type is exactly application/json.
        return web.Response(
            body=orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS),
            status=status,
            headers={"Content-Type": "application/json"},
        )

    async def _payload(self, request: web.Request) -> tuple[dict[str, Any], list[str]]:
        """The JSON payload and attachment file names of a JSON or multipart request, shown
        to `content_hook` first."""
        payload, files, contents = await self._read_payload(request)
        if self.content_hook is not None:
            try:
                self.content_hook(request.path, payload, contents)
            except AssertionError as error:
                self.errors.append(f"{request.method} {request.path}: {error}")
        return payload, files

    async def _read_payload(
        self, request: web.Request
    ) -> tuple[dict[str, Any], list[str], list[tuple[str, bytes]]]:
        # The media type read by hand: aiohttp's `content_type` (and a part's `text()`)
        # parse the header with the email package, most of this stand-in's own CPU when
        # hundreds of tables upload pictures.
        media = request.headers.get("Content-Type", "").partition(";")[0].strip().lower()
        contents: list[tuple[str, bytes]] = []
        if media == "multipart/form-data":
            payload: dict[str, Any] = {}
            files: list[str] = []
            reader = await request.multipart()
            while True:
                part = await reader.next()
                if part is None:
                    break
                if not isinstance(part, BodyPartReader):
                    raise BotSideError("nested multipart body")
                name, filename = _form_names(part.headers.get("Content-Disposition", ""))
                if name == "payload_json":
                    payload = json.loads(await part.read())  # JSON is UTF-8
                else:
                    data = await part.read()
                    if not data:
                        raise BotSideError(f"empty file {filename!r}")
                    files.append(Upload(str(filename), bytes(data) if self.keep_files else b""))
                    if self.keep_files:
                        self.files.append((str(filename), bytes(data)))
                    if self.content_hook is not None:
                        contents.append((str(filename), bytes(data)))
                    self.uploads += 1
            return payload, files, contents
        if request.can_read_body:
            return orjson.loads(await request.read()), [], contents
        return {}, [], contents

    def _message_payload(self, msg: Message) -> dict[str, Any]:
        author = self.bot_user.payload()
        author["bot"] = True
        data: dict[str, Any] = {
            "id": str(msg.id),
            "channel_id": str(msg.channel_id),
            "type": 0 if msg.interaction_user is None else 19,
            "author": author,
            "content": msg.content,
            "timestamp": "2026-01-01T00:00:00.000000+00:00",
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [
                {
                    "id": str(i + 1),
                    "filename": name,
                    "size": 1,
                    "url": f"http://127.0.0.1/{name}",
                    "proxy_url": f"http://127.0.0.1/{name}",
                    **({"description": about} if about else {}),
                }
                for i, (name, about) in enumerate(
                    zip(msg.attachments, _padded(msg.descriptions, msg.attachments), strict=True)
                )
            ],
            "embeds": msg.embeds,
            "pinned": False,
            "components": msg.components,
            "flags": msg.flags,
        }
        if msg.interaction_user is not None:
            data["webhook_id"] = str(self.app_id)  # made through an interaction's webhook
        if msg.channel_id in self.channel_ids:
            data["guild_id"] = str(self.guild_of(msg.channel_id))
        elif msg.channel_id in self.foreign_channels:
            data["guild_id"] = str(self.foreign_channels[msg.channel_id])
        return data

    def _check_message_payload(self, payload: dict[str, Any]) -> None:
        content = payload.get("content")
        if content is not None and len(content) > 2000:
            raise BotSideError(f"message content longer than 2000 characters ({len(content)})")
        embeds = payload.get("embeds") or []
        if len(embeds) > 10:
            raise BotSideError("more than 10 embeds")
        for embed in embeds:
            if len(embed.get("description") or "") > 4096:
                raise BotSideError("embed description longer than 4096 characters")
            if len(embed.get("fields") or []) > 25:
                raise BotSideError("more than 25 embed fields")
        for attachment in payload.get("attachments") or []:
            about = attachment.get("description")
            if about is not None and (not isinstance(about, str) or len(about) > 1024):
                raise BotSideError(
                    "attachment description is not a text of at most 1024 characters"
                )
        rows = payload.get("components") or []
        if len(rows) > 5:
            raise BotSideError("more than 5 action rows")
        seen: set[str] = set()
        for row in rows:
            if row.get("type") != 1:
                raise BotSideError(f"top-level component is not an action row: {row}")
            comps = row.get("components") or []
            if not 1 <= len(comps) <= 5:
                raise BotSideError(f"an action row holds 1 to 5 components, not {len(comps)}")
            for comp in comps:
                cid = comp.get("custom_id")
                _check_link_button(comp)
                if comp.get("type") != 2 or comp.get("style") != 5:
                    if not cid or len(cid) > 100:
                        raise BotSideError(f"bad custom_id {cid!r}")
                    if cid in seen:
                        raise BotSideError(f"duplicate custom_id {cid!r}")
                    seen.add(cid)
                if comp.get("type") == 3:
                    check_select_options(comp)
                if comp.get("type") == 2 and len(str(comp.get("label") or "")) > 80:
                    raise BotSideError("button label longer than 80 characters")

    def _store(
        self,
        channel_id: int,
        payload: dict[str, Any],
        files: list[str],
        *,
        flags: int = 0,
        user: int | None = None,
        via: str = REST,
        answers: int | None = None,
    ) -> Message:
        self._check_message_payload(payload)
        msg = Message(
            id=self.snowflake(),
            channel_id=channel_id,
            content=payload.get("content") or "",
            embeds=payload.get("embeds") or [],
            components=payload.get("components") or [],
            attachments=files,
            flags=flags | int(payload.get("flags") or 0),
            interaction_user=user,
            answers=answers,
            via=via,
            descriptions=_descriptions(payload, files),
        )
        msg.history.append(self._version(msg))
        self.messages[msg.id] = msg
        self._record_pings(msg, payload)
        self._check_public(msg)
        return msg

    def _record_pings(self, msg: Message, payload: dict[str, Any]) -> None:
        """Record whom this version of `msg` pings (`pings_of`)."""
        users, roles, everyone = pings_of(payload)
        self.pings.extend((msg, user) for user in users)
        self.role_pings.extend((msg.id, role) for role in roles)
        if everyone:
            self.everyone_pings.append(msg.id)

    def pinged(self, user: User | int) -> list[Message]:
        """The messages that pinged `user` (once per version that did), oldest first."""
        uid = user if isinstance(user, int) else user.id
        return [msg for msg, pinged in self.pings if pinged == uid]

    @staticmethod
    def _version(msg: Message) -> dict[str, Any]:
        return {
            "content": msg.content,
            "embeds": msg.embeds,
            "components": msg.components,
            "attachments": list(msg.attachments),
            "descriptions": list(_padded(msg.descriptions, msg.attachments)),
        }

    def _apply_edit(
        self, msg: Message, payload: dict[str, Any], files: list[str], via: str = REST
    ) -> None:
        self._check_message_payload(payload)
        msg.via = via
        if "content" in payload:
            msg.content = payload["content"] or ""
        if "embeds" in payload:
            msg.embeds = payload["embeds"] or []
        if "components" in payload:
            msg.components = payload["components"] or []
        if "attachments" in payload or files:
            indices = [
                int(a["id"]) - 1
                for a in payload.get("attachments") or []
                if str(a.get("id", "")).isdigit()
                and 0 < int(a["id"]) <= len(msg.attachments)
                and a.get("filename") in (None, msg.attachments[int(a["id"]) - 1])
            ]
            about = _padded(msg.descriptions, msg.attachments)
            msg.attachments = [msg.attachments[i] for i in indices] + files
            msg.descriptions = [about[i] for i in indices] + _descriptions(payload, files)
        msg.edits += 1
        msg.history.append(self._version(msg))
        if "content" in payload:
            self._record_pings(msg, payload)
        self._check_public(msg)

    def _check_public(self, msg: Message) -> None:
        if self.public_hook is None or msg.ephemeral or msg.channel_id not in self.channel_ids:
            return
        try:
            self.public_hook(msg)
        except AssertionError as error:
            self.errors.append(f"public message {msg.id}: {error}")

    async def _me(self, request: web.Request) -> web.Response:
        data = self.bot_user.payload()
        data.update(bot=True, verified=True, mfa_enabled=False, flags=0)
        return self._json(data)

    async def _application(self, request: web.Request) -> web.Response:
        return self._json(
            {
                "id": str(self.app_id),
                "name": "Deucebot",
                "icon": None,
                "description": "",
                "rpc_origins": [],
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self.owner.payload(),
                "summary": "",
                "verify_key": "0" * 64,
                "team": None,
                "flags": 0,
                "bot": self.bot_user.payload(),
            }
        )

    async def _gateway_info(self, request: web.Request) -> web.Response:
        return self._json({"url": self.gateway_url})

    async def _gateway_bot(self, request: web.Request) -> web.Response:
        return self._json(
            {
                "url": self.gateway_url,
                "shards": self.shard_count,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 1000,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    def _synced(self, commands: list[dict[str, Any]], guild: int | None) -> list[dict[str, Any]]:
        out = []
        for command in commands:
            name = command.get("name", "")
            if not re.fullmatch(r"[-_\w]{1,32}", name) or name != name.lower():
                raise BotSideError(f"bad command name {name!r}")
            if len(command.get("description", "")) > 100:
                raise BotSideError(f"description of {name!r} is longer than 100 characters")
            for lang, local in (command.get("name_localizations") or {}).items():
                if not re.fullmatch(r"[-_\w]{1,32}", local) or local != local.lower():
                    raise BotSideError(f"bad {lang} name {local!r} for {name!r}")
            data = dict(command)
            data.update(
                id=str(self.snowflake()),
                application_id=str(self.app_id),
                version=str(self.snowflake()),
                type=command.get("type", 1),
            )
            if guild is not None:
                data["guild_id"] = str(guild)
            out.append(data)
        self.commands = out
        return out

    def _launch_instance(self, interaction_id: int, pending: dict[str, Any]) -> str:
        """The Activity instance a launch connects the clicker to: the one already running
        in the interaction's channel (Discord: everyone launching there joins the same
        instance), else a new one; its id."""
        channel = int(pending["channel"])
        user = str(pending["user"])
        for running in self.activity_instances.values():
            if running["location"]["channel_id"] == str(channel):
                if user not in running["users"]:
                    running["users"].append(user)
                return str(running["instance_id"])
        guild = self.guild_of(channel)
        guild_id = str(guild) if guild else None
        instance_id = f"i-{interaction_id}-{activity_place(str(channel), guild_id)}"
        self.activity_instances[instance_id] = activity_instance(
            str(self.app_id), instance_id, str(interaction_id), str(channel), guild_id, [user]
        )
        return instance_id

    async def _activity_instance(
        self, request: web.Request, app: str, instance: str
    ) -> web.Response:
        found = self.activity_instances.get(instance)
        if int(app) != self.app_id or found is None:
            # Discord serves a running instance of the asking application only.
            raise Refused(404, 0, "404: Not Found")
        return self._json(found)

    async def _sync_global(self, request: web.Request, app: str) -> web.Response:
        body = await request.json()
        had_entry = any(c.get("type") == ENTRY_POINT for c in self.global_commands)
        if had_entry and not any(c.get("type") == ENTRY_POINT for c in body):
            # Discord keeps an Activity's Entry Point command out of a bulk overwrite's reach.
            raise Refused(
                400,
                50240,
                "You cannot remove this app's Entry Point command in a bulk update"
                " operation. Please include the Entry Point command in your update request"
                " or delete it separately.",
            )
        self.global_commands = self._synced(body, None)
        return self._json(self.global_commands)

    async def _sync_guild(self, request: web.Request, app: str, guild: str) -> web.Response:
        if int(guild) not in self.guild_ids:
            raise BotSideError(f"sync to an unknown guild {guild}")
        return self._json(self._synced(await request.json(), int(guild)))

    async def _list_guild(self, request: web.Request, app: str, guild: str) -> web.Response:
        return self._json(self.commands)

    async def _list_global(self, request: web.Request, app: str) -> web.Response:
        return self._json(self.global_commands)

    def _channel_payload(self, channel_id: int) -> dict[str, Any]:
        if channel_id in self.dm_channels:
            user = self.users[self.dm_channels[channel_id]]
            return {
                "id": str(channel_id),
                "type": DM,
                "last_message_id": None,
                "recipients": [user.payload()],
            }
        if channel_id in self.foreign_channels:
            guild, name, position = self.foreign_channels[channel_id], "elsewhere", 0
        elif channel_id in self.channel_ids:
            guild = self.guild_of(channel_id) or self.guild_id
            ours = [c for c in self.channel_ids if self.guild_of(c) == guild]
            position = ours.index(channel_id)
            name = f"cards-{position + 1}"
        else:
            raise BotSideError(f"unknown channel {channel_id}")
        kind = self.kind_of(channel_id)
        channel = self.channels.get(channel_id)
        parent = None if channel is None or channel.parent is None else str(channel.parent)
        if kind in THREAD_KINDS:
            metadata: dict[str, Any] = {
                "archived": False,
                "auto_archive_duration": 1440,
                "archive_timestamp": "2026-01-01T00:00:00.000000+00:00",
                "locked": False,
            }
            if kind == PRIVATE_THREAD:
                metadata["invitable"] = True
            return {
                "id": str(channel_id),
                "type": kind,
                "guild_id": str(guild),
                "parent_id": parent,
                "owner_id": str(self.owner.id),
                "name": name,
                "last_message_id": None,
                "message_count": 0,
                "member_count": len(channel.members) if channel is not None else 0,
                "total_message_sent": 0,
                "rate_limit_per_user": 0,
                "thread_metadata": metadata,
                "flags": 0,
            }
        data: dict[str, Any] = {
            "id": str(channel_id),
            "type": kind,
            "guild_id": str(guild),
            "name": name,
            "position": position,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": parent,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        if kind in (GUILD_VOICE, GUILD_STAGE_VOICE):
            data.update(bitrate=64000, user_limit=0, rtc_region=None, video_quality_mode=1)
        if kind == GUILD_FORUM:
            data.update(
                available_tags=[],
                default_reaction_emoji=None,
                default_thread_rate_limit_per_user=0,
                default_sort_order=None,
                default_forum_layout=0,
            )
        return data

    async def _get_channel(self, request: web.Request, channel: str) -> web.Response:
        return self._json(self._channel_payload(int(channel)))

    async def _get_thread_member(
        self, request: web.Request, channel: str, user: str
    ) -> web.Response:
        thread = self.channels.get(int(channel))
        if thread is None or thread.kind not in THREAD_KINDS:
            raise BotSideError(f"thread members of channel {channel}, which is not a thread")
        if thread.kind == PRIVATE_THREAD and int(user) not in thread.members:
            return self._json({"message": "Unknown Member", "code": 10007}, 404)
        return self._json(
            {
                "id": channel,
                "user_id": user,
                "join_timestamp": "2026-01-01T00:00:00.000000+00:00",
                "flags": 0,
            }
        )

    async def _open_dm(self, request: web.Request) -> web.Response:
        payload = await request.json()
        user_id = int(payload["recipient_id"])
        if user_id not in self.users:
            raise BotSideError(f"DM to an unknown user {user_id}")
        for cid, uid in self.dm_channels.items():
            if uid == user_id:
                return self._json(self._channel_payload(cid))
        cid = self.snowflake()
        self.dm_channels[cid] = user_id
        return self._json(self._channel_payload(cid))

    async def _get_user(self, request: web.Request, user: str) -> web.Response:
        if int(user) not in self.users:
            return self._json({"message": "Unknown User", "code": 10013}, 404)
        return self._json(self.users[int(user)].payload())

    async def _get_member(self, request: web.Request, guild: str, user: str) -> web.Response:
        if int(user) not in self.users:
            return self._json({"message": "Unknown Member", "code": 10007}, 404)
        return self._json(self._member_payload(self.users[int(user)]))

    async def _post_message(self, request: web.Request, channel: str) -> web.Response:
        cid = int(channel)
        payload, files = await self._payload(request)
        if cid in self.dm_channels:
            if not self.users[self.dm_channels[cid]].dms_open:
                return self._json(
                    {"message": "Cannot send messages to this user", "code": 50007}, 403
                )
        elif cid not in self.channel_ids:
            raise BotSideError(f"message to an unknown channel {cid}")
        elif (refused := self._refused_post(cid, payload, files, edit=False)) is not None:
            return refused
        if not (payload.get("content") or payload.get("embeds") or files):
            raise BotSideError("empty message")
        nonce = None if payload.get("nonce") is None else _check_nonce(payload["nonce"])
        if nonce is not None and payload.get("enforce_nonce") is True:
            created = self._nonces.get((cid, nonce))
            if created is not None and time.monotonic() - created[1] < self.nonce_window:
                self.deduplicated += 1
                earlier = self.messages.get(created[0])
                if earlier is None:  # deleted since (discord.py: NotFound)
                    return self._json({"message": "Unknown Message", "code": 10008}, 404)
                return self._json({**self._message_payload(earlier), "nonce": payload["nonce"]})
        msg = self._store(cid, payload, files)
        if nonce is not None:
            self._nonces[(cid, nonce)] = (msg.id, time.monotonic())
        if self.lose_answers:
            return self._json({"message": "Service Unavailable", "code": 0}, 503)
        answer = self._message_payload(msg)
        if nonce is not None:  # in the answer to the post only: Discord does not keep it
            answer["nonce"] = payload["nonce"]
        return self._json(answer)

    async def _edit_message(self, request: web.Request, channel: str, message: str) -> web.Response:
        msg = self.messages.get(int(message))
        if msg is None or msg.channel_id != int(channel):
            return self._json({"message": "Unknown Message", "code": 10008}, 404)
        payload, files = await self._payload(request)
        if msg.channel_id in self.channel_ids:
            refused = self._refused_post(msg.channel_id, payload, files, edit=True)
            if refused is not None:
                return refused
        self._apply_edit(msg, payload, files)
        return self._json(self._message_payload(msg))

    async def _get_message(self, request: web.Request, channel: str, message: str) -> web.Response:
        msg = self.messages.get(int(message))
        if msg is None or msg.channel_id != int(channel):
            return self._json({"message": "Unknown Message", "code": 10008}, 404)
        return self._json(self._message_payload(msg))

    async def _list_messages(self, request: web.Request, channel: str) -> web.Response:
        """A channel's messages as Discord lists them: at most `limit` (1-100, 50 by
        default), newest first; `before`, `after` or `around` a message id (one at most);
        with `after`, the ones right after it. No ephemeral message, no nonce."""
        cid = int(channel)
        if cid not in self.channel_ids and cid not in self.dm_channels:
            raise BotSideError(f"history of an unknown channel {cid}")
        query = request.query
        marks = [k for k in ("before", "after", "around") if k in query]
        raw = query.get("limit", "50")
        if len(marks) > 1 or not raw.isdigit() or not 1 <= int(raw) <= 100:
            raise BotSideError(f"bad history query {dict(query)}")
        if any(not query[k].isdigit() for k in marks):
            raise BotSideError(f"bad history query {dict(query)}")
        limit = int(raw)
        if not self.history_readable:
            return self._json([])
        found = sorted(
            (m for m in self.messages.values() if m.channel_id == cid and not m.ephemeral),
            key=lambda m: m.id,
        )
        if "after" in query:
            found = [m for m in found if m.id > int(query["after"])][:limit]
        elif "before" in query:
            found = [m for m in found if m.id < int(query["before"])][-limit:]
        elif "around" in query:
            at = sum(1 for m in found if m.id < int(query["around"]))
            found = found[max(0, at - limit // 2) :][:limit]
        else:
            found = found[-limit:]
        return self._json([self._message_payload(m) for m in reversed(found)])

    async def _delete_message(
        self, request: web.Request, channel: str, message: str
    ) -> web.Response:
        self.messages.pop(int(message), None)
        return web.Response(status=204)

    async def _typing(self, request: web.Request, channel: str) -> web.Response:
        return web.Response(status=204)

    # -- interactions -----------------------------------------------------------------------

    async def _callback(self, request: web.Request, iid: str, token: str) -> web.Response:
        interaction_id = int(iid)
        if self.tokens.get(token) != interaction_id:
            raise BotSideError(f"callback with an unknown interaction token for {iid}")
        if not self._token_alive(token):
            raise Refused(404, 10062, "Unknown interaction")
        if request.query.get("with_response") != "1":
            raise BotSideError("interaction callback without with_response=1")
        if interaction_id in self.responses:
            # Discord refuses a second response to the same interaction.
            self.errors.append(f"interaction {iid} answered twice")
            return self._json(
                {"message": "Interaction has already been acknowledged.", "code": 40060}, 400
            )
        body, files = await self._payload(request)
        kind = int(body["type"])
        data = body.get("data") or {}
        pending = self._pending.pop(interaction_id)
        response = Response(interaction_id, kind, at=time.perf_counter())
        message_payload: dict[str, Any] | None = None
        if kind == 4:
            flags = int(data.get("flags") or 0)
            response.message = self._store(
                pending["channel"],
                data,
                files,
                flags=flags,
                user=pending["user"],
                via=INTERACTION,
                answers=interaction_id,
            )
            message_payload = self._message_payload(response.message)
        elif kind == 5:
            flags = int(data.get("flags") or 0)
            response.message = self._store(
                pending["channel"],
                {"content": ""},
                [],
                flags=flags | 128,
                user=pending["user"],
                answers=interaction_id,
            )
            message_payload = self._message_payload(response.message)
        elif kind in (6, 7):
            target = pending.get("message")
            if target is None:
                raise BotSideError(f"response type {kind} to an interaction without a message")
            if kind == 7:
                self._apply_edit(self.messages[target], data, files, INTERACTION)
            response.message = self.messages[target]
            message_payload = self._message_payload(response.message)
        elif kind == 9:
            if pending["type"] == 5:
                raise BotSideError("a modal opened in answer to a modal submit")
            _check_modal(data)
            response.modal = data
            response.modal_from = pending.get("message")
        elif kind == LAUNCH_ACTIVITY:
            # Discord: "only available for apps with Activities enabled", and only as the
            # answer to a command or a component (never to an autocomplete or a form).
            if pending["type"] not in (2, 3):
                raise BotSideError("LAUNCH_ACTIVITY answers only a command or a component")
            if not self.activity:
                self._pending[interaction_id] = pending  # refused: still unanswered
                raise Refused(400, 50035, "Invalid Form Body: the application has no Activity")
            self.activity_launches.append(interaction_id)
            instance_id = self._launch_instance(interaction_id, pending)
        elif kind == 8:
            choices = data.get("choices")
            if not isinstance(choices, list) or len(choices) > 25:
                raise BotSideError(f"bad autocomplete choices {choices!r}")
            response.choices = choices
        else:
            raise BotSideError(f"unexpected interaction response type {kind}")
        self.responses[interaction_id] = response
        self._originals[token] = response.message.id if response.message else None
        waiter = self.response_waiters.pop(interaction_id, None)
        if waiter is not None and not waiter.done():
            waiter.set_result(response)
        result: dict[str, Any] = {
            "interaction": {
                "id": iid,
                "type": pending["type"],
                "response_message_id": str(response.message.id) if response.message else None,
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(response.message and response.message.ephemeral),
            }
        }
        if message_payload is not None:
            result["resource"] = {"type": kind, "message": message_payload}
        elif kind == LAUNCH_ACTIVITY:
            result["resource"] = {"type": kind, "activity_instance": {"id": instance_id}}
        else:
            result["resource"] = {"type": kind}
        return self._json(result)

    def _interaction_for(self, token: str) -> Response:
        iid = self.tokens.get(token)
        if iid is None or iid not in self.responses:
            raise BotSideError("webhook call for an interaction that was not answered first")
        if not self._token_alive(token):
            raise Refused(401, 50027, "Invalid Webhook Token")
        return self.responses[iid]

    async def _followup(self, request: web.Request, app: str, token: str) -> web.Response:
        if int(app) != self.app_id:
            raise BotSideError(f"followup for an unknown application {app}")
        response = self._interaction_for(token)
        payload, files = await self._payload(request)
        original = self.messages.get(self._originals.get(token) or 0)
        if response.kind == 5 and original is not None and original.flags & 128:
            # As on Discord: the first follow-up of a deferred answer is its "thinking"
            # message, with that message's visibility whatever flags the follow-up asks.
            original.flags &= ~128
            self._apply_edit(original, payload, files, INTERACTION)
            response.followups.append(original)
            return self._json(self._message_payload(original))
        channel = original.channel_id if original else self.channel_id
        user = original.interaction_user if original else None
        msg = self._store(
            channel,
            payload,
            files,
            flags=int(payload.get("flags") or 0),
            user=user,
            via=INTERACTION,
            answers=response.interaction_id,
        )
        response.followups.append(msg)
        self._token_made.setdefault(token, set()).add(msg.id)
        if self.lose_answers and not msg.ephemeral:  # stored, answer lost (and no nonce)
            self.lost_followups += 1
            return self._json({"message": "Service Unavailable", "code": 0}, 503)
        return self._json(self._message_payload(msg))

    def _webhook_target(self, token: str, message: str) -> Message:
        self._interaction_for(token)
        original = self._originals.get(token)
        mid = original if message == "@original" else int(message)
        msg = self.messages.get(mid or 0)
        if msg is None:
            raise BotSideError(f"webhook edit of an unknown message {message}")
        if mid != original and mid not in self._token_made.get(token, set()):
            # As on Discord: an interaction's webhook reaches only what its token made.
            raise Refused(404, 10008, "Unknown Message")
        return msg

    async def _edit_webhook(
        self, request: web.Request, app: str, token: str, message: str
    ) -> web.Response:
        msg = self._webhook_target(token, message)
        payload, files = await self._payload(request)
        msg.flags &= ~128
        self._apply_edit(msg, payload, files, INTERACTION)
        response = self._interaction_for(token)
        if message == "@original" and response.kind == 5 and msg not in response.followups:
            response.followups.append(msg)
        return self._json(self._message_payload(msg))

    async def _get_webhook(
        self, request: web.Request, app: str, token: str, message: str
    ) -> web.Response:
        return self._json(self._message_payload(self._webhook_target(token, message)))

    async def _delete_webhook(
        self, request: web.Request, app: str, token: str, message: str
    ) -> web.Response:
        msg = self._webhook_target(token, message)
        self.messages.pop(msg.id, None)
        return web.Response(status=204)

    # -- gateway ----------------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        self._sockets.append(ws)
        await ws.send_str(
            json.dumps({"op": 10, "d": {"heartbeat_interval": 41250}, "s": None, "t": None})
        )
        # A bot killed mid-session leaves a closed socket behind: Discord drops it quietly.
        with contextlib.suppress(ConnectionResetError):
            async for frame in ws:
                if frame.type is not WSMsgType.TEXT:
                    break
                msg = json.loads(frame.data)
                op = msg.get("op")
                if op == 1:
                    await ws.send_str(json.dumps({"op": 11, "d": None, "s": None, "t": None}))
                elif op == 2:
                    self.identify = msg["d"]
                    if msg["d"].get("token") != "standin-token":
                        await ws.close(code=4004, message=b"Authentication failed.")
                        break
                    shard, count = msg["d"].get("shard") or [0, 1]
                    if count != self.shard_count:
                        # Discord: 4011 sharding required, 4010 invalid shard.
                        code = 4011 if count == 1 else 4010
                        await ws.close(code=code, message=b"Invalid shard.")
                        break
                    if not 0 <= shard < count:
                        await ws.close(code=4010, message=b"Invalid shard.")
                        break
                    # Like Discord, a second session on a shard is allowed (the database lease
                    # is what fences processes); the newest one gets the shard's events.
                    self.shard_sockets[shard] = ws
                    self.identified.append(shard)
                    await self._send_ready(ws, shard)
                elif op in (3, 8):
                    continue
                else:
                    self.errors.append(f"unexpected gateway opcode {op}: {msg}")
        if ws in self._sockets:
            self._sockets.remove(ws)
        for shard, open_ws in list(self.shard_sockets.items()):
            if open_ws is ws:
                del self.shard_sockets[shard]
        return ws

    async def _dispatch_event(self, ws: web.WebSocketResponse, name: str, data: Any) -> None:
        self._seq += 1
        frame = {"op": 0, "t": name, "s": self._seq, "d": data}
        await ws.send_str(orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS).decode())

    async def _send_ready(self, ws: web.WebSocketResponse, shard: int) -> None:
        user = self.bot_user.payload()
        user.update(bot=True, verified=True, mfa_enabled=False, flags=0)
        await self._dispatch_event(
            ws,
            "READY",
            {
                "v": 10,
                "user": user,
                "guilds": [{"id": str(g), "unavailable": True} for g in self._guilds_on(shard)],
                "session_id": f"session-{self.snowflake()}",
                "resume_gateway_url": self.gateway_url,
                "shard": [shard, self.shard_count],
                "application": {"id": str(self.app_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "user_settings": {},
                "guild_join_requests": [],
                "geo_ordered_rtc_regions": [],
            },
        )
        for guild in self._guilds_on(shard):
            await self._dispatch_event(ws, "GUILD_CREATE", self._guild_payload(guild))
        self._ready.set()

    def _guilds_on(self, shard: int) -> list[int]:
        return [g for g in self.guild_ids if self.shard_of(g) == shard]

    def _role_payload(self, guild: int) -> dict[str, Any]:
        return {
            "id": str(guild),
            "name": "@everyone",
            "permissions": MEMBER_PERMISSIONS,
            "position": 0,
            "color": 0,
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }

    def _member_payload(self, user: User) -> dict[str, Any]:
        return {
            "user": user.payload(),
            "roles": [],
            "joined_at": "2026-01-01T00:00:00.000000+00:00",
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "nick": None,
            "avatar": None,
        }

    def _guild_payload(self, guild: int) -> dict[str, Any]:
        me = dict(self._member_payload(self.bot_user))
        return {
            "id": str(guild),
            "name": "Card room",
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(self.owner.id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [self._role_payload(guild)],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "preferred_locale": self.locale,
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "joined_at": "2026-01-01T00:00:00.000000+00:00",
            "large": False,
            "unavailable": False,
            "member_count": len(self.users) + 1,
            "voice_states": [],
            "members": [me],
            "channels": [
                self._channel_payload(cid)
                for cid in self.channel_ids
                if self.guild_of(cid) == guild and self.kind_of(cid) not in THREAD_KINDS
            ],
            "threads": [
                self._channel_payload(cid)
                for cid in self.channel_ids
                if self.guild_of(cid) == guild and self.kind_of(cid) in THREAD_KINDS
            ],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    # -- injecting user actions -------------------------------------------------------------

    def _interaction_payload(
        self,
        user: User,
        kind: int,
        data: dict[str, Any],
        channel_id: int | None,
        message: Message | None = None,
    ) -> tuple[int, dict[str, Any]]:
        iid = self.snowflake(self.interaction_age)
        token = f"tok{iid}"
        self.tokens[token] = iid
        path = _command_path(data) if kind in (2, 4) else None
        self.asked[iid] = (user.id, message.id if message is not None else None, path)
        self._token_born[token] = time.monotonic() - self.interaction_age
        cid = channel_id if channel_id is not None else self.channel_id
        in_guild = cid in self.channel_ids or cid in self.foreign_channels
        guild_id = self.guild_of(cid) or self.guild_id
        perms = user.permissions
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(self.app_id),
            "type": kind,
            "data": data,
            "channel_id": str(cid),
            "channel": self._channel_payload(cid),
            "token": token,
            "version": 1,
            "locale": user.locale,
            "app_permissions": str(
                self.bot_permissions_in(cid)
                & (~0 if self.history_readable else ~READ_MESSAGE_HISTORY)
            ),
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild_id)},
            "context": 0 if in_guild else 1,
            "attachment_size_limit": 26214400,
        }
        if in_guild:
            member = self._member_payload(user)
            member["permissions"] = str(perms)
            payload.update(guild_id=str(guild_id), guild_locale=self.locale, member=member)
        else:
            payload["user"] = user.payload()
        if message is not None:
            payload["message"] = self._message_payload(message)
        self._pending[iid] = {
            "type": kind,
            "channel": cid,
            "user": user.id,
            "message": message.id if message else None,
        }
        return iid, payload

    async def _send_interaction(self, iid: int, payload: dict[str, Any], wait: bool) -> Response:
        if not self._sockets:
            raise AssertionError("no bot is connected to the gateway")
        guild = payload.get("guild_id")
        shard = self.shard_of(int(guild) if guild else None)
        ws = self._sockets[-1] if self.shard_count == 1 else self.shard_sockets.get(shard)
        if ws is None:
            raise AssertionError(f"no bot is connected for shard {shard}")
        future: asyncio.Future[Response] = asyncio.get_running_loop().create_future()
        self.response_waiters[iid] = future
        self.sent_at[iid] = time.perf_counter()
        await self._dispatch_event(ws, "INTERACTION_CREATE", payload)
        if not wait:
            return Response(iid, 0)
        sent = time.perf_counter()
        try:
            async with asyncio.timeout(self.window if self.strict else 60.0):
                response = await future
        except TimeoutError:
            raise AssertionError(
                f"no interaction response within Discord's 3 s window: {payload['data']}"
            ) from None
        if response.at - sent > self.window:
            self.late.append(response.at - sent)
        if response.kind == 5:
            # A member who sees "thinking..." waits for the answer before typing on.
            await self._until_followed_up(response)
        return response

    async def _until_followed_up(self, response: Response) -> None:
        """Wait until a deferred answer (kind 5) got its first follow-up or edit."""
        try:
            async with asyncio.timeout(DEFERRED_PATIENCE):
                while not response.followups:
                    await asyncio.sleep(0.01)
        except TimeoutError:
            raise AssertionError(
                f"a deferred answer still shows 'thinking...' after {DEFERRED_PATIENCE} s"
            ) from None

    def sees(self, user: User, command: str) -> bool:
        """Whether Discord lists the synced command `command` (its top name) for `user`:
        always for the server's owner, else when they have its default member permissions."""
        top = next((c for c in self.commands if c["name"] == command.split()[0]), None)
        if top is None or top.get("default_member_permissions") is None or user is self.owner:
            return True
        wanted = int(top["default_member_permissions"])
        return user.permissions & wanted == wanted

    def _command_data(
        self,
        path: list[str],
        options: dict[str, Any],
        focused: str | None,
        user: User | None = None,
    ) -> dict[str, Any]:
        """Build the `data` of a slash command from the synced definitions (fails on unknown
        ones)."""
        top = next((c for c in self.commands if c["name"] == path[0]), None)
        if top is None:
            raise AssertionError(f"/{path[0]} was not synced: {[c['name'] for c in self.commands]}")
        if user is not None and not self.sees(user, path[0]):
            # Discord does not even list the command for this member.
            raise CommandHidden(f"/{path[0]} is not shown to {user.name}")
        node: dict[str, Any] = top
        chain: list[dict[str, Any]] = []
        for name in path[1:]:
            sub = next(
                (o for o in node.get("options", []) if o["name"] == name and o["type"] in (1, 2)),
                None,
            )
            if sub is None:
                raise AssertionError(f"/{' '.join(path)}: no sub-command {name!r}")
            chain.append(sub)
            node = sub
        leaf_options = []
        resolved: dict[str, Any] = {}
        declared = {o["name"]: o for o in node.get("options", []) if o["type"] not in (1, 2)}
        for name, value in options.items():
            if name not in declared:
                raise AssertionError(f"/{' '.join(path)} has no option {name!r}: {list(declared)}")
            decl = declared[name]
            if decl.get("choices") and name != focused:
                allowed = [c["value"] for c in decl["choices"]]
                if value not in allowed:
                    raise AssertionError(f"{name}={value!r} is not one of the choices {allowed}")
            if decl["type"] == 6:  # a user option: the id, and the member resolved
                member = value if isinstance(value, User) else self.users[int(value)]
                value = str(member.id)
                payload = self._member_payload(member)
                resolved.setdefault("users", {})[value] = payload.pop("user")
                resolved.setdefault("members", {})[value] = payload
            opt: dict[str, Any] = {"name": name, "type": decl["type"], "value": value}
            if name == focused:
                opt["focused"] = True
            leaf_options.append(opt)
        for name, decl in declared.items():
            if decl.get("required") and name not in options:
                raise AssertionError(f"/{' '.join(path)} needs option {name!r}")
        wrapped: list[dict[str, Any]] = leaf_options
        for sub in reversed(chain):
            wrapped = [{"name": sub["name"], "type": sub["type"], "options": wrapped}]
        data: dict[str, Any] = {"id": top["id"], "name": top["name"], "type": 1, "options": wrapped}
        if resolved:
            data["resolved"] = resolved
        if "guild_id" in top:
            data["guild_id"] = top["guild_id"]
        return data

    async def command(
        self,
        user: User,
        line: str,
        *,
        channel_id: int | None = None,
        wait: bool = True,
        values: dict[str, Any] | None = None,
        **options: Any,
    ) -> Response:
        """Run a slash command as `user`, e.g. ``command(alice, "table create", game="bigtwo")``
        (`values`: options whose names clash with these parameters, such as ``user``)."""
        data = self._command_data(line.split(), {**(values or {}), **options}, None, user)
        iid, payload = self._interaction_payload(user, 2, data, channel_id)
        return await self._send_interaction(iid, payload, wait)

    async def autocomplete(
        self,
        user: User,
        line: str,
        focused: str,
        *,
        channel_id: int | None = None,
        values: dict[str, Any] | None = None,
        **options: Any,
    ) -> list[dict[str, Any]]:
        """Ask for autocomplete choices of option `focused` (`values` as for `command`)."""
        data = self._command_data(line.split(), {**(values or {}), **options}, focused)
        iid, payload = self._interaction_payload(user, 4, data, channel_id)
        response = await self._send_interaction(iid, payload, True)
        assert response.choices is not None
        return response.choices

    def _visible_to(self, user: User, message: Message) -> None:
        if message.ephemeral and message.interaction_user != user.id:
            raise AssertionError(f"{user.name} cannot see ephemeral message {message.id}")

    async def click(
        self, user: User, message: Message, custom_id: str, *, wait: bool = True
    ) -> Response:
        """Click the button `custom_id` (or the first whose id starts with it) on `message`."""
        self._visible_to(user, message)
        comp = message.component(custom_id)
        if comp.get("type") != 2:
            raise AssertionError(f"{comp['custom_id']} is not a button")
        if comp.get("disabled"):
            raise AssertionError(f"button {comp['custom_id']} is disabled")
        data = {"custom_id": comp["custom_id"], "component_type": 2}
        iid, payload = self._interaction_payload(user, 3, data, message.channel_id, message)
        return await self._send_interaction(iid, payload, wait)

    async def click_copy(
        self, user: User, message: Message, custom_id: str, *, channel_id: int
    ) -> Response:
        """Click the button `custom_id` (prefix) of `message` on a copy of it posted in
        `channel_id` (another channel, or `add_foreign_channel`'s): the bot gets the very
        same custom id, but from elsewhere (a copied or forged control)."""
        self._visible_to(user, message)
        comp = message.component(custom_id)
        if comp.get("type") != 2:
            raise AssertionError(f"{comp['custom_id']} is not a button")
        copy = Message(self.snowflake(), channel_id, "", [], message.components, [], message.flags)
        copy.interaction_user = message.interaction_user
        copy.history.append(self._version(copy))
        self.messages[copy.id] = copy
        data = {"custom_id": comp["custom_id"], "component_type": 2}
        iid, payload = self._interaction_payload(user, 3, data, channel_id, copy)
        return await self._send_interaction(iid, payload, True)

    async def select(
        self, user: User, message: Message, custom_id: str, values: list[str]
    ) -> Response:
        """Choose `values` in the select menu `custom_id` (prefix) of `message`."""
        self._visible_to(user, message)
        comp = message.component(custom_id)
        if comp.get("type") != 3:
            raise AssertionError(f"{comp['custom_id']} is not a select menu")
        offered = {o["value"] for o in comp.get("options", [])}
        if not set(values) <= offered:
            raise AssertionError(f"{values} are not all offered by {comp['custom_id']}: {offered}")
        if not comp.get("min_values", 1) <= len(values) <= comp.get("max_values", 1):
            raise AssertionError(f"{len(values)} values are outside the select's range")
        data = {"custom_id": comp["custom_id"], "component_type": 3, "values": values}
        iid, payload = self._interaction_payload(user, 3, data, message.channel_id, message)
        return await self._send_interaction(iid, payload, True)

    async def submit_modal(self, user: User, opened: Response, values: dict[str, str]) -> Response:
        """Fill the form `opened` showed (text inputs by custom id) and submit it as `user`."""
        if opened.modal is None:
            raise AssertionError("that interaction did not open a form")
        rows = []
        for row in opened.modal.get("components", []):
            inputs = row.get("components", [row.get("component")] if "component" in row else [])
            rows.append(
                {
                    "type": 1,
                    "components": [
                        {
                            "type": 4,
                            "custom_id": c["custom_id"],
                            "value": values.get(c["custom_id"], ""),
                        }
                        for c in inputs
                        if c and c.get("type") == 4
                    ],
                }
            )
        data = {"custom_id": opened.modal["custom_id"], "components": rows}
        message = self.messages.get(opened.modal_from) if opened.modal_from else None
        channel = message.channel_id if message is not None else None
        iid, payload = self._interaction_payload(user, 5, data, channel, message)
        return await self._send_interaction(iid, payload, True)

    # -- reading what people see ------------------------------------------------------------

    def original_of(self, token: str) -> Message | None:
        """The response message of the interaction with `token`, once it has one."""
        return self.messages.get(self._originals.get(token) or 0)

    def public_messages(self, channel_id: int | None = None) -> list[Message]:
        """Non-ephemeral messages in the guild channel(s), oldest first."""
        cids = {channel_id} if channel_id else set(self.channel_ids)
        return [m for m in self.messages.values() if m.channel_id in cids and not m.ephemeral]

    def dms(self, user: User) -> list[Message]:
        """Messages delivered to `user` by DM, oldest first."""
        return [
            m
            for m in self.messages.values()
            if m.channel_id in self.dm_channels and self.dm_channels[m.channel_id] == user.id
        ]

    def public_versions(self) -> list[str]:
        """The text of every version of every public message (what any member ever saw)."""
        out: list[str] = []
        for msg in self.public_messages():
            out.extend(version_text(v) for v in msg.history)
        return out

    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 10.0) -> Any:
        """Wait until `predicate()` is truthy (checked after every REST call); return its value.

        A predicate that fails an assertion ("no board was posted") is not true *yet*:
        the bot may simply not have sent that message. If the wait times out, the last
        such assertion is the `TimeoutError`'s cause. Any other exception ends the wait."""
        failed: AssertionError | None = None
        try:
            async with asyncio.timeout(timeout):
                while True:
                    try:
                        value = predicate()
                    except AssertionError as error:
                        failed, value = error, None
                    if value:
                        return value
                    self.changed.clear()
                    try:
                        async with asyncio.timeout(0.2):
                            await self.changed.wait()
                    except TimeoutError:
                        pass
        except TimeoutError as timeout_error:
            raise timeout_error from failed
