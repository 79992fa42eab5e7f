"""Hand histories: what happened in a match, as one player saw it (or all of it).

- `bot.history.build`: replay a stored match and cut it into deals, filtered for a viewer
  (`build_match_history`, `export_matches`, `recent_deals`);
- `bot.history.model`: the documented JSON form (pydantic, docs/hand-history.md);
- `bot.history.phh`: hold'em deals in the Poker Hand History format (PHH);
- `bot.history.command`: ``deucebot history``; `bot.history.replay`: ``deucebot replay``.
"""
