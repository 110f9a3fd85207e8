"""The validated, immutable game model every output reads."""

from builder.model.game_model import Game

__all__ = ["Game"]
