"""``pbem engines`` and ``pbem scenario``: the installed games.

Loaded only when one of its commands runs (:class:`pbem.cli.LazyGroup`).
"""

from __future__ import annotations

import json
import sys

import click

from pbem.cli import (
    complete_engine,
    complete_scenario,
    echo,
    handled,
    typed_names,
)


@click.command("engines")
@click.option("--json", "as_json", is_flag=True)
def engines_cmd(as_json: bool) -> None:
    """Installed games and their scenarios."""
    from pbem.registry import engines

    with handled():
        found = engines()
        if as_json:
            click.echo(json.dumps([
                {"id": e.id, "title": e.title, "rules_version": e.rules_version,
                 "sides": list(e.sides),
                 "scenarios": [{"id": s.id, "title": s.title, "turns": list(s.turns)}
                               for s in e.scenarios()],
                 "options": [{"key": o.key, "choices": list(o.choices), "default": o.default,
                              "description": o.description} for o in e.options()]}
                for e in found.values()], indent=2))
            return
        # plain lines, not a table: an id is what you type, so it is never cut
        for e in found.values():
            echo(f"{e.id}: {e.title} ({' / '.join(e.sides)})")
            scenarios = e.scenarios()
            width = max((len(sc.id) for sc in scenarios), default=0)
            for sc in scenarios:
                echo(f"  {sc.id:<{width}}  {sc.title}")
        echo("start one: pbem new ENGINE SCENARIO --side SIDE")


@click.group("scenario")
def scenario_group() -> None:
    """Scenario data: check what is installed."""


@scenario_group.command("check")
@click.argument("engine_id", required=False, shell_complete=complete_engine)
@click.argument("scenario", required=False, shell_complete=complete_scenario)
def scenario_check(engine_id: str | None, scenario: str | None) -> None:
    """Load and validate every scenario, and every hex the rulebook names."""
    from pbem.registry import engines, get

    with handled():
        typed_names(engine_id, scenario)
        chosen = [get(engine_id)] if engine_id else list(engines().values())
        problems: list[str] = []
        for engine in chosen:
            found = [p for p in engine.check_scenarios()
                     if scenario is None or f"/{scenario}" in p or scenario in p]
            if scenario:
                engine.new_state(scenario)
            problems += found
            status = "ok" if not found else f"{len(found)} problems"
            echo(f"{engine.id}: {len(engine.scenarios())} scenarios, {status}")
        for p in problems:
            echo(f"  {p}")
        if problems:
            sys.exit(12)
