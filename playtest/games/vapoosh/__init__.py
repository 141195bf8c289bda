"""Vapoosh! on the platform: its plug-in (``plugin.py``, ``PLUGIN``), board view, message
catalog, sounds and play-screen cues (this folder), with its engine in ``engine/vapoosh/``,
its surveys in ``surveys/games/vapoosh/`` and its analytics in ``analytics/games/vapoosh/``.
"""
