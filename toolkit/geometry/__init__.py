"""Polyomino geometry: patch shapes (toolkit.geometry.shape) and quilt boards (toolkit.geometry.board).

Pure functions and frozen values; imports nothing above toolkit.errors.
"""
from toolkit.geometry.shape import Cell, Cut, Shape

__all__ = ["Cell", "Cut", "Shape"]
