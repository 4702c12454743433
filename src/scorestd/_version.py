"""The package version (one place: the root and the CLI read it here)."""

__version__ = "0.1.0.dev0"
