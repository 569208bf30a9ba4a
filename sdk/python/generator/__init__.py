"""Writes berth/_generated/ from docs/openapi.json (standard library only, deterministic output)."""
