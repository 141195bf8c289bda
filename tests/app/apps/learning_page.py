"""Renders the designer's Learning page, for AppTest."""

from playtest.app_pages import learning

learning.page()
