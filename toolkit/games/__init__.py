"""Rules engines, one per family, registered by name; actions, records and replay."""
