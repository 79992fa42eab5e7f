"""`bench scale`'s picture staleness (`_pictured`): a board version sent before its
picture counts as showing the picture only once a later version of the same turn brings
it; a move that leaves the picture as it was shows it at once."""

from __future__ import annotations

from deucebot_dev.bench.scale import _pictured, _staleness


def test_a_version_sent_before_its_picture_is_not_counted_as_showing_it() -> None:
    shown = [
        (10.0, 1, 5),  # turn 5, picture A
        (11.0, 1, 6),  # turn 6 at once, still picture A ...
        (13.0, 1, 6),  # ... picture B follows
        (14.0, 1, 7),  # turn 7 left the picture as it was (a pass)
        (10.5, 2, 3),  # another channel, its own picture
    ]
    images = ["A", "A", "B", "B", "C"]
    assert _pictured(shown, images) == [shown[0], shown[2], shown[3], shown[4]]
    commits = [(9.9, 1, 5), (10.9, 1, 6), (13.9, 1, 7)]
    text, _ = _staleness(commits, shown, 20.0)
    drawn, _ = _staleness(commits, _pictured(shown, images), 20.0)
    assert [round(s, 2) for s in text] == [0.1, 0.1, 0.1]
    assert [round(s, 2) for s in drawn] == [0.1, 2.1, 0.1]


def test_hand_versions_without_their_picture_are_counted_among_hands_with_cards() -> None:
    from types import SimpleNamespace

    from deucebot_dev.bench.scale import _hands_without_picture

    def version(options: int, attachments: list[str]) -> dict[str, object]:
        menu = {"type": 3, "custom_id": "db:sel:1:0:r", "options": [{}] * options}
        return {"components": [{"type": 1, "components": [menu]}], "attachments": attachments}

    hand = SimpleNamespace(
        ephemeral=True,
        history=[version(13, []), version(13, ["hand-two-3D.png"]), version(0, [])],
    )
    board = SimpleNamespace(ephemeral=False, history=[version(13, [])])  # not a hand
    note = SimpleNamespace(ephemeral=True, history=[{"components": [], "attachments": []}])
    fake = SimpleNamespace(messages={1: hand, 2: board, 3: note})
    # The first version went out bare, its edit brought the picture; a hand with no card
    # left has no picture to show and is not counted.
    assert _hands_without_picture(fake) == (1, 2)  # type: ignore[arg-type]
