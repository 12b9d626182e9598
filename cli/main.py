def main() -> None:
    """Entry point (filled in by the CLI)."""
