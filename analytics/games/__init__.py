"""Games' analytics plug-ins: one folder per game, each exposing ``ANALYTICS``
(:class:`analytics.game_analytics.GameAnalytics`); :func:`analytics.game_analytics.load`
finds a game's by its folder name. Nothing outside a game's folder names the game.
"""
