"""The bundled puzzle collection: ``catbox-puzzle/1`` TOML files (data, no code).

``catbox puzzles list`` lists them; ``catbox solve NAME`` solves one by name.
"""
