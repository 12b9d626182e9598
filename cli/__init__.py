"""The catbox command line (Typer)."""
