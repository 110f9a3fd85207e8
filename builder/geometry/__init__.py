"""Hex and area geometry: numbering, neighbours, distance and physical layout, computed once."""
