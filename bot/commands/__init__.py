"""The `deucebot` sub-commands run outside the bot and the terminal game: simulate (and
its pool of opponents, its progress bar), verify, backup, ratings and stats."""
