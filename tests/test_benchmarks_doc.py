"""docs/benchmarks.md opens with today's figures: one row per `deucebot bench` target, each
linking to the dated runs below it, which are kept."""

from __future__ import annotations

import re

from bot.cli import BENCH_TARGETS
from tests.packages import ROOT

DOC = ROOT / "docs" / "benchmarks.md"


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to
    hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _sections(text: str) -> list[tuple[str, str]]:
    """(heading, body) of every `## ` section, in order."""
    parts = re.split(r"^## (.+)$", text, flags=re.MULTILINE)
    return list(zip(parts[1::2], parts[2::2], strict=True))


def test_the_slug_is_github_s() -> None:
    assert slug("Issue 20's goal: own processing (2 Dec)") == "issue-20s-goal-own-processing-2-dec"
    assert slug("Ratings at 100,000 matches") == "ratings-at-100000-matches"


def test_the_doc_opens_with_one_row_of_figures_per_target() -> None:
    sections = _sections(DOC.read_text())
    heading, summary = sections[0]
    assert heading == "Today's figures, per target"
    rows = [line for line in summary.splitlines() if line.startswith("| `")]
    targets = [re.match(r"\| `([^`]+)`", row).group(1) for row in rows]  # type: ignore[union-attr]
    assert targets == list(BENCH_TARGETS)
    for row in rows:
        assert re.search(r"\]\(#[^)]+\)", row), row  # where its figures come from


def test_every_link_names_a_dated_run_below() -> None:
    text = DOC.read_text()
    sections = dict((slug(heading), body) for heading, body in _sections(text))
    links = re.findall(r"\]\(#([^)]+)\)", text)
    assert len(links) >= len(BENCH_TARGETS)
    for anchor in links:
        assert anchor in sections, anchor
        assert re.search(r"^_20\d\d-\d\d-\d\d", sections[anchor], flags=re.MULTILINE), anchor
