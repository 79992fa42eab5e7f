"""engines/ai package."""
