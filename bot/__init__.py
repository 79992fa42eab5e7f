"""Everything that talks to people: the runtime, the Discord and terminal fronts, the CLI."""
