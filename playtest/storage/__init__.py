"""Playtest data storage: schema, engines, migrations, event logger, exchange, privacy.

Modules: ``db`` (engines, migrations), ``models`` (tables), ``repository`` (studies,
participants, sessions, games, responses, assignments), ``events`` (``EventLogger``),
``exchange`` (export/import, ``load_study_data``), ``privacy``, ``commands``
(the CLI's storage subcommands). Import from the modules; this package imports nothing
heavy on its own so the CLI starts fast.
"""
