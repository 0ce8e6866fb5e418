"""dobbm: a double-dummy solver and hand analyzer for Dobbm, the Tarock game of the Stubai valley."""

__version__ = "0.1.0"
