"""Golden images of the charts: an image's pixels compared with the digest stored for it
(`DEUCEBOT_WRITE_GOLDEN=1` writes the digest and the PNG again, after a deliberate change:
review the PNGs)."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from PIL import Image

GOLDEN = Path(__file__).resolve().parent / "data"


def check_golden(image: Image.Image, stem: str) -> None:
    """Assert `image` is the golden image `data/<stem>.png` (by its pixels' digest)."""
    digest = hashlib.sha256(image.tobytes()).hexdigest()
    golden = GOLDEN / f"{stem}.sha256"
    if os.environ.get("DEUCEBOT_WRITE_GOLDEN"):
        golden.write_text(digest + "\n")
        image.save(GOLDEN / f"{stem}.png")
    assert digest == golden.read_text().strip(), f"see {GOLDEN / f'{stem}.png'}"
