"""The app's pages (not named ``pages/``: that folder name turns on Streamlit's legacy
auto-discovery)."""
