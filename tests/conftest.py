"""Suite-wide test settings.

Hypothesis: no per-example deadline (the machine is shared and slow timing
is not a failure; speed is measured by `deucebot bench`), and on CI the
examples are derandomised so a red run can be reproduced exactly.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "ci",
    deadline=None,
    derandomize=True,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("ci" if os.environ.get("CI") else "default")
