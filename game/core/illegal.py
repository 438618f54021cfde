"""The exception a system raises, before changing anything, to refuse a command."""

from __future__ import annotations


class Illegal(Exception):
    """Raised with a sentence a player can read: why the command cannot be carried out."""
