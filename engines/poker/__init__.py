"""engines/poker package."""
