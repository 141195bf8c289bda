"""Games on the platform: one folder per game (``playtest/games/<game>/``: its board view,
message catalog, sounds and page glue) and the one registry, :mod:`playtest.games.registry`.
"""
