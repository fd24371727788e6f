"""Bots: one protocol (toolkit.bots.base.Bot), one file per bot, one registry entry per (family,
bot) that parses its text and builds it (toolkit.bots.registry)."""
from toolkit.bots.base import Bot, make_bot
from toolkit.bots.registry import BotSpec, bot_names, parse_bot

__all__ = ["Bot", "BotSpec", "bot_names", "make_bot", "parse_bot"]
