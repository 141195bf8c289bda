"""Dokusen on the platform: its plug-in (``plugin.py``, ``PLUGIN``), board view
(``view.py``, ``static/``) and message catalog (``messages.yaml``, ``catalog.py``). The
engine is ``engine/dokusen/``, the analytics ``analytics/games/dokusen/``.
"""
