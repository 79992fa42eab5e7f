"""Signed per-member browser links (`bot.web.links`): tokens, their refusals, and the
``/s/{shard}/link/{token}`` route on a minimal aiohttp app (the web server mounts the same)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from hypothesis import example, given
from hypothesis import strategies as st

from bot.web.identity import WebAuthError
from bot.web.links import COOKIE, LinkAuthenticator, LinkSigner, add_routes, link_url
from bot.web.signing import sign, unsign

SECRET = "s3cret-for-tests"


class Clock:
    """A wall clock the test moves."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def _signer(clock: Clock | None = None, secret: str = SECRET) -> LinkSigner:
    return LinkSigner(secret, lifetime=3600, clock=clock or Clock())


def _token(signer: LinkSigner, **over: object) -> str:
    fields: dict[str, object] = {
        "place": "4242",
        "table_id": 7,
        "player_id": "1001",
        "name": "Ada",
        "locale": "fr",
        "generation": 0,
    }
    fields.update(over)
    return signer.make(**fields)  # type: ignore[arg-type]


class Generations:
    """Stored link generations, as `Storage.link_generation` reads them."""

    def __init__(self) -> None:
        self.values: dict[str, int] = {}

    async def __call__(self, player_id: str) -> int:
        return self.values.get(player_id, 0)


def _code(error: pytest.ExceptionInfo[WebAuthError]) -> str:
    return error.value.code


@given(
    payload=st.dictionaries(st.text(max_size=5), st.one_of(st.integers(), st.text(max_size=20))),
    purpose=st.sampled_from(["hand-link", "activity-session"]),
)
def test_signed_payloads_read_back(payload: dict[str, object], purpose: str) -> None:
    assert unsign(SECRET, purpose, sign(SECRET, purpose, payload)) == payload


@given(data=st.data())
def test_any_change_to_a_token_is_forged(data: st.DataObject) -> None:
    token = _token(_signer())
    at = data.draw(st.integers(0, len(token) - 1))
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_."
    new = data.draw(st.sampled_from(alphabet).filter(lambda c: c != token[at]))
    changed = token[:at] + new + token[at + 1 :]
    with pytest.raises(WebAuthError) as refused:
        _signer().read(changed)
    assert _code(refused) == "forged"


@given(name=st.text(min_size=1, max_size=32), locale=st.sampled_from(["en", "fr", "uk"]))
@example(name="😀" * 32, locale="uk")
def test_a_link_fits_a_discord_link_button(name: str, locale: str) -> None:
    """Discord takes a button URL of at most 512 characters: any member name (32 characters
    of anything) at the longest ids, behind a 60-character public URL, fits."""
    signer = _signer()
    token = _token(
        signer, place="9" * 20, table_id=2**31, player_id="9" * 20, name=name, locale=locale
    )
    assert len(link_url("https://" + "d" * 52, token, 4095)) <= 512
    assert signer.read(token).name == name


def test_another_secret_or_purpose_is_forged() -> None:
    token = _token(_signer())
    with pytest.raises(WebAuthError) as refused:
        _signer(secret="another secret").read(token)
    assert _code(refused) == "forged"
    with pytest.raises(WebAuthError) as refused:
        unsign(SECRET, "activity-session", token)
    assert _code(refused) == "forged"


def test_a_link_expires_after_its_lifetime() -> None:
    clock = Clock()
    signer = _signer(clock)
    token = _token(signer)
    clock.now += 3599
    assert signer.read(token).player_id == "1001"
    clock.now += 1
    with pytest.raises(WebAuthError) as refused:
        signer.read(token)
    assert _code(refused) == "expired"


async def test_revoked_and_other_table_links_are_refused() -> None:
    signer = _signer()
    generations = Generations()
    tables = {"4242": 7}
    auth = LinkAuthenticator(signer, generations, tables.get)
    token = _token(signer)
    assert (await auth.check(token)).table_id == 7
    with pytest.raises(WebAuthError) as refused:
        await auth.check(token, place="5555")  # a page of another channel's table
    assert _code(refused) == "other_table"
    generations.values["1001"] = 1  # revoked
    with pytest.raises(WebAuthError) as refused:
        await auth.check(token)
    assert _code(refused) == "revoked"
    assert (await auth.check(_token(signer, generation=1))).generation == 1
    tables["4242"] = 8  # the table was stopped and another opened in the channel
    with pytest.raises(WebAuthError) as refused:
        await auth.check(_token(signer, generation=1))
    assert _code(refused) == "other_table"
    del tables["4242"]
    with pytest.raises(WebAuthError) as refused:
        await auth.check(_token(signer, generation=1))
    assert _code(refused) == "other_table"


@pytest.fixture
async def linked() -> AsyncIterator[
    tuple[TestClient[web.Request, web.Application], LinkSigner, Generations, Clock]
]:
    """A minimal app: the link route, and a stand-in table page that names its viewer."""
    clock = Clock()
    signer = _signer(clock)
    generations = Generations()
    auth = LinkAuthenticator(signer, generations, {"4242": 7, "5555": 9}.get)
    app = web.Application()
    add_routes(app, auth)

    async def page(request: web.Request) -> web.Response:
        try:
            viewer = await auth.authenticate(request)
        except WebAuthError as refused:
            return web.json_response({"refused": refused.code}, status=403)
        if viewer is None:
            return web.json_response({"viewer": None})
        return web.json_response({"place": viewer.place, "member": viewer.player_id})

    app.router.add_get("/s/{shard}/table/{place}/", page)
    client = TestClient(TestServer(app))
    await client.start_server()
    try:
        yield client, signer, generations, clock
    finally:
        await client.close()


async def test_opening_a_link_sets_a_scoped_cookie_and_signs_the_page_in(linked) -> None:  # type: ignore[no-untyped-def]
    client, signer, _, _ = linked
    token = _token(signer)
    assert link_url("https://deuce.example/", token, 1) == f"https://deuce.example/s/1/link/{token}"
    # The link's shard prefix (the process driving the table) carries over to the page.
    answer = await client.get(f"/s/1/link/{token}", allow_redirects=False)
    assert answer.status == 303
    assert answer.headers["Location"] == "/s/1/table/4242/"
    cookie = answer.headers["Set-Cookie"]
    assert cookie.startswith(f"{COOKIE}={token};")
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Path=/s/1/table/4242/" in cookie
    assert "Max-Age=3600" in cookie
    client.session.cookie_jar.clear()  # each request below names its cookies itself
    page = await client.get("/s/1/table/4242/", cookies={COOKIE: token})
    assert await page.json() == {"place": "4242", "member": "1001"}
    # Another table's page is refused with the same cookie, and nothing signs in without.
    other = await client.get("/s/1/table/5555/", cookies={COOKIE: token})
    assert other.status == 403 and (await other.json())["refused"] == "other_table"
    assert await (await client.get("/s/1/table/4242/")).json() == {"viewer": None}
    # The token on the URL itself signs the page in too.
    direct = await client.get(f"/s/1/table/4242/?link={token}")
    assert (await direct.json())["member"] == "1001"


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "This link was revoked."),
        ("fr", "Ce lien a été révoqué."),
        ("uk", "Це посилання відкликано."),
    ],
)
async def test_a_refused_link_says_why_in_the_members_language(
    linked, lang: str, words: str
) -> None:  # type: ignore[no-untyped-def]
    client, signer, generations, _ = linked
    token = _token(signer, locale=lang)
    generations.values["1001"] = 3
    answer = await client.get(f"/s/0/link/{token}", allow_redirects=False)
    assert answer.status == 403
    assert answer.headers["X-Deucebot-Refusal"] == "revoked"
    assert "Set-Cookie" not in answer.headers
    assert words in await answer.text()


async def test_forged_and_expired_links_are_refused_by_the_route(linked) -> None:  # type: ignore[no-untyped-def]
    client, signer, _, clock = linked
    token = _token(signer)
    forged = await client.get(
        f"/s/0/link/{token[:-2]}xx", headers={"Accept-Language": "uk-UA,uk;q=0.9"}
    )
    assert forged.status == 403 and forged.headers["X-Deucebot-Refusal"] == "forged"
    assert "Це посилання або сеанс недійсні." in await forged.text()
    clock.now += 3600
    expired = await client.get(f"/s/0/link/{token}", allow_redirects=False)
    assert expired.headers["X-Deucebot-Refusal"] == "expired"
    assert "Ce lien a expiré." in await expired.text()  # the token says French
    page = await client.get("/s/1/table/4242/", cookies={COOKIE: token})
    assert (await page.json())["refused"] == "expired"
