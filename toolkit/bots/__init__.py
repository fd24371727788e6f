"""Bots: one protocol (toolkit.bots.base.Bot), one file per bot, built by name with make_bot."""
from toolkit.bots.base import Bot, bot_names, make_bot, register_bot

__all__ = ["Bot", "bot_names", "make_bot", "register_bot"]
