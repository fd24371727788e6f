"""patchwork-toolkit: specs, print kits, rules engines, bots and balance simulation for Patchwork."""

__version__ = "0.1.0"
