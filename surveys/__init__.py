"""surveys package."""
