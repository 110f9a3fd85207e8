"""builder: one folder of wargame data in, print files, a VASSAL module and a rules assistant out."""

__version__ = "0.1.0"
