"""The terminal front (`deucebot play`, `deucebot leaderboard`): the console and its
reading of stdin lines on the event loop."""
