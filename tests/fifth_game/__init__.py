"""The test suite's fifth game, High Card, in a package of its own: rules (`engine`), AI
(`ai`), renderer and bot-side declaration (`face`), pictures (`pictures`), catalogs
(`locales/`). `plugin` registers it, the way any game outside the product is registered:
a bot process loads it with `DEUCEBOT_EXTRA_GAMES=tests.fifth_game.plugin` (its workers
too); importing this package registers nothing, so other tests never see the game.
"""
