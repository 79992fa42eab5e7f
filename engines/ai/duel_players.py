"""Every Deuce Duel AI policy by name (`engines.duel.SPEC` reads them lazily from here).

Apart from `engines.ai.duel` because the `cfr` player (`engines.ai.duel_hard`) builds on
that module's `strong`: one module naming both keeps the import graph free of circles.
"""

from __future__ import annotations

from collections.abc import Mapping

from engines.ai.duel import CasualPolicy, HonestPolicy, RandomPolicy, StrongPolicy
from engines.ai.duel_hard import CfrPolicy
from engines.registry import PolicyFactory

POLICIES: Mapping[str, PolicyFactory] = {
    "random": RandomPolicy,
    "honest": HonestPolicy,
    "casual": CasualPolicy,
    "strong": StrongPolicy,
    "cfr": CfrPolicy,
}
"""The duel's AI policies by name; each is built with its own `random.Random`."""
