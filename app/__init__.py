"""Realmsmith desktop app (PySide6): thin widgets over engine objects."""
