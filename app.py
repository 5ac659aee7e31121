"""Reliable RAG dashboard: routing only. Each page lives in pages/ and talks to the engine via ui/."""

from ui.navigation import run_app

run_app()
