"""Small UI helpers for the Streamlit pages: engine handle, escaped highlighting, charts, export, state.

Modules that need Streamlit (`engine`, `navigation`, `report_view`, `state`) are separate from the pure ones
(`status`, `highlight`, `charts`, `export`) so that the pure ones are unit-tested without a running app.
"""
