"""Every hold'em AI policy by name (what `engines.holdem.SPEC` offers).

The baselines and `strong` live in `engines.ai.holdem`, `hard` in `engines.ai.holdem_hard`,
the sparring pool in `engines.ai.holdem_styles`; those import `engines.ai.holdem`, so the
names are gathered here rather than there (no import circle).
"""

from __future__ import annotations

import random

from engines.ai.holdem import POLICIES as BASELINES
from engines.ai.holdem_hard import HardPolicy
from engines.ai.holdem_styles import STYLES, StylePolicy, frozen_policy
from engines.registry import PolicyFactory


def _style(name: str) -> PolicyFactory:
    def make(rng: random.Random) -> StylePolicy:
        return StylePolicy(STYLES[name], rng)

    return make


POLICIES: dict[str, PolicyFactory] = {
    **BASELINES,
    "hard": HardPolicy,
    # The sparring pool: styles that do not think like `hard`.
    **{name: _style(name) for name in STYLES},
    "frozen": frozen_policy,
}
"""Policy name -> factory taking the policy's own `random.Random`."""
