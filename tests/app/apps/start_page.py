"""Renders the start page (open studies and the designer's sign-in), for AppTest."""

from playtest.app_pages import home

home.start_page()
