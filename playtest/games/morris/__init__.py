"""Bricks & Walls on the platform: its plug-in (``plugin.py``, ``PLUGIN``), board view
(``view.py``, ``static/``) and message catalog (``messages.yaml``, ``catalog.py``). The
engine is ``engine/morris/``, the analytics ``analytics/games/morris/``.
"""
