"""What the bot's processes run on: settings from the environment, the event loop, JSON
logs."""
