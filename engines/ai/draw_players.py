"""Every AI player of French draw poker by name: what `SPEC.policies` reads.

The baselines and `strong` (`engines.ai.draw`), the `hard` level (`engines.ai.draw_hard`)
and the sparring pool's styles (`engines.ai.draw_pool`). `strong_v1` is `strong` frozen as
it was when `hard` was built (the pool's reference: `strong` may change, `strong_v1` may
not).
"""

from __future__ import annotations

from functools import partial

from engines.ai.draw import POLICIES as BASELINES
from engines.ai.draw import StrongPolicy
from engines.ai.draw_hard import HardPolicy
from engines.ai.draw_pool import STYLES, StylePolicy
from engines.registry import PolicyFactory

POLICIES: dict[str, PolicyFactory] = {
    **BASELINES,
    "strong_v1": StrongPolicy,
    "hard": HardPolicy,
    **{name: partial(StylePolicy, style) for name, style in STYLES.items()},
}
"""Policy name -> factory taking the policy's own `random.Random`."""
