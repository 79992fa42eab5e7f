"""The stand-in, like Discord, shrugs off a client that disconnects mid-request (a bot
killed while uploading a board): no error is charged to the bot."""

from __future__ import annotations

import asyncio

from deucebot_dev.discord_standin import FakeDiscord
from tests.e2e.conftest import running_standin


async def _upload_and_vanish(fake: FakeDiscord) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", fake.port)
    boundary = "b0undary"
    head = (
        f"POST /api/v10/channels/{fake.channel_id}/messages HTTP/1.1\r\n"
        "Host: 127.0.0.1\r\nAuthorization: Bot standin-token\r\n"
        f"Content-Type: multipart/form-data; boundary={boundary}\r\n"
        "Content-Length: 100000\r\n\r\n"
        f'--{boundary}\r\nContent-Disposition: form-data; name="files[0]"; '
    )
    writer.write(head.encode())  # the part's headers never end: the body is cut here
    await writer.drain()
    await asyncio.sleep(0.2)
    writer.transport.abort()  # a reset, as when the process is killed
    await asyncio.sleep(0.3)
    del reader


async def test_a_client_killed_mid_upload_is_not_an_error_of_the_bot() -> None:
    async with running_standin() as fake:
        await _upload_and_vanish(fake)
        assert fake.errors == []
    # running_standin checked on exit that nothing was logged as an error either
