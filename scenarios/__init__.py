"""Scenario data, one folder per engine id (TOML only; no code lives here).

Shipped inside the wheel so an installed engine finds its data with
``importlib.resources.files("scenarios") / engine_id``.
"""
