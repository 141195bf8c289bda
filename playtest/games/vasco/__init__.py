"""Vasco on the platform: its plug-in (``plugin.py``, ``PLUGIN``), board view (``view.py``,
``static/``) and message catalog (``messages.yaml``, ``messages.py``), with its engine in
``engine/vasco/`` and its analytics in ``analytics/games/vasco/``.
"""
