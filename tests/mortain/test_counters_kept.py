"""Mortain Counterattack's counter texts (how each unit reads: name and factors, halved
when depleted) are made once per unit and strength and kept with the scenario's rules:
every legal and every redraw of a board click names the units again (issue 35)."""

from __future__ import annotations

import pytest

from engines.mortain import ENGINE, view
from engines.mortain.position import Status
from engines.mortain.state import MortainState
from pbem.engine import counter_text


def test_a_counter_reads_the_same_and_is_written_once(monkeypatch: pytest.MonkeyPatch) -> None:
    st = ENGINE.new_state("counterattack", ENGINE.resolve_options({}))
    assert isinstance(st, MortainState)
    st.r.__dict__.pop("_counter_texts", None)
    written: list[str] = []

    def counted(unit: str, name: str, label: str) -> str:
        written.append(unit)
        return counter_text(unit, name, label)

    monkeypatch.setattr(view, "counter_text", counted)
    first = st.counters(None)
    assert len(written) == len(first) == len(st.r.order)
    assert st.counters(None) == first and st.counters("us") == {
        u: t for u, t in first.items() if st.side_of(u) == "us"
        or st.pos.units[u].status is Status.MAP}
    assert len(written) == len(first)
    # a depleted unit reads its halved factors (written once more, for that strength)
    unit = st.r.order[0]
    info = st.r.units[unit]
    st.pos.units[unit].depleted = True
    a, d = info.factors(True)
    assert st.counters(None)[unit] == counter_text(unit, info.name, f"{a}-{d}-{info.ma}")
    assert written.count(unit) == 2
