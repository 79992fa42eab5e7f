"""The Discord stand-in checks link buttons as Discord does (the "Open in browser" answer
is one): a url of at most 512 characters on a link button only, and no custom id on it; a
response tells its answer from the follow-ups that rode on it."""

from __future__ import annotations

import pytest

from deucebot_dev.discord_standin import BotSideError, FakeDiscord, Message, Response

GOOD = {"type": 2, "style": 5, "label": "Open in browser", "url": "https://d.example/link/x"}


def _payload(*buttons: dict[str, object]) -> dict[str, object]:
    return {"content": "x", "components": [{"type": 1, "components": list(buttons)}]}


def test_a_link_button_with_a_url_passes() -> None:
    FakeDiscord()._check_message_payload(_payload(GOOD, {**GOOD, "url": "https://" + "a" * 504}))


@pytest.mark.parametrize(
    "button",
    [
        {**GOOD, "url": None},  # a link button without its url
        {**GOOD, "url": "javascript:alert(1)"},
        {**GOOD, "url": "https://" + "a" * 505},  # 513 characters
        {**GOOD, "custom_id": "db:x"},  # a link button has no custom id
        {"type": 2, "style": 1, "label": "Play", "custom_id": "db:y", "url": GOOD["url"]},
    ],
)
def test_bad_link_buttons_are_refused(button: dict[str, object]) -> None:
    with pytest.raises(BotSideError):
        FakeDiscord()._check_message_payload(_payload(button))


def test_an_answer_is_the_response_not_a_board_that_rode_on_it_after() -> None:
    # A deal's result posted as a follow-up of the member's /act comes after the answer:
    # `final` is that result, `answer` the member's own acknowledgement.
    def message(mid: int, flags: int) -> Message:
        return Message(mid, 1, f"m{mid}", [], [], [], flags=flags, answers=9)

    ack, result = message(1, 64), message(2, 0)
    response = Response(interaction_id=9, kind=4, message=ack, followups=[result])
    answer = response.answer()
    assert answer is ack and answer.ephemeral
    assert response.final() is result and response.beyond_answer() == [result]
