"""Table settings of a French draw poker match (rules: docs/draw.md, "Table settings")."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator

DEFAULT_DEALS = 20
"""The match length a new table gets when it names none: the rules leave it open, and
without a limit a human at a table of AI players (who buy back in) has no natural end.
Stored matches keep their own `deals` (the whole config is stored), so old ones replay
as they were played."""


class DrawConfig(BaseModel):
    """Seats, the three units of the cave game, and the match length.

    `deals` is the number of deals in the match (`DEFAULT_DEALS` unless named); None
    plays on until fewer than two players have chips. Chips still carried on the table
    when the match ends go back to the players who put them in (event `PotReturned`).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    seats: int = Field(default=4, ge=2, le=6, description="players at the table (2-6)")
    cave_unit: int = Field(default=200, ge=1, description="chips in one cave unit (buy-in)")
    blind_unit: int = Field(default=2, ge=1, description="the blind; the minimum bet")
    pot_unit: int = Field(default=2, ge=1, description="the ante of a jackpot deal")
    deals: int | None = Field(
        default=DEFAULT_DEALS, ge=1, description="deals in the match (None: no limit)"
    )
    max_rebuy_units: int = Field(
        default=10, ge=1, description="most cave units one rebuy may buy at once"
    )

    @model_validator(mode="after")
    def _cave_covers_the_stakes(self) -> DrawConfig:
        if self.cave_unit < 4 * self.blind_unit:
            raise ValueError(
                f"cave_unit ({self.cave_unit}) must be at least four blinds "
                f"({4 * self.blind_unit}) so a player can come in over a surblind"
            )
        if self.cave_unit < self.pot_unit:
            raise ValueError(
                f"cave_unit ({self.cave_unit}) must cover one pot unit ({self.pot_unit})"
            )
        return self
