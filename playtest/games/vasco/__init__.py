"""Vasco on the platform: its board view (``view``, ``board`` and ``static/``) and its
message catalog (``messages.yaml``), with its engine in ``engine/vasco/`` and its
analytics in ``analytics/games/vasco/``.
"""
