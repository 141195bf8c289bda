"""playtest package."""
