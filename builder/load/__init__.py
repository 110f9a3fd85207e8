"""Reading a game folder into the validated, immutable model: the only code that opens sources/."""

from builder.load.game import find_game, list_games, load_game

__all__ = ["find_game", "list_games", "load_game"]
