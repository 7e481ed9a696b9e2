"""Declaring a form reads its template in one pass (issue 35: every engine's grammar is
declared at import, by every turn command): the same parts and arguments as the reading
it replaced, and the same refusal of a bad template, word for word."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.grammar import Form, Grammar, Type, _declare, _Lit, _Opt, _Part, _Slot, _slot

TYPES = {"unit": Type.token(), "hex": Type.hex(), "int": Type.number()}


def _old_compile(template: str, types: Mapping[str, Type]) -> tuple[_Part, ...]:
    """The reading before issue 35's one pass, kept to compare with."""
    out: list[_Part] = []
    group: list[_Lit | _Slot] | None = None
    for raw in template.split(" "):
        word = raw
        opens, closes = word.startswith("["), word.endswith("]")
        if opens:
            if group is not None:
                raise ValueError(f"{template!r}: optional groups do not nest")
            group, word = [], word[1:]
        if closes:
            word = word[:-1]
        if not word:
            raise ValueError(f"{template!r}: words are separated by one space")
        slot = _slot(word)
        part: _Lit | _Slot
        if slot is not None:
            name, kind, many = slot
            if kind not in types:
                raise ValueError(f"{template!r}: no type {kind!r} (the grammar has "
                                 f"{', '.join(sorted(types))})")
            part = _Slot(name, types[kind], many)
        elif "{" in word or "}" in word or "[" in word or "]" in word:
            raise ValueError(f"{template!r}: cannot read {word!r}")
        else:
            part = _Lit(word)
        if group is not None:
            group.append(part)
        else:
            out.append(part)
        if closes:
            if group is None:
                raise ValueError(f"{template!r}: ']' without '['")
            name = " ".join(p.word for p in group if isinstance(p, _Lit))
            out.append(_Opt(name, tuple(group)))
            group = None
    if group is not None:
        raise ValueError(f"{template!r}: '[' without ']'")
    return tuple(out)


def _old_names(parts: Sequence[_Part]) -> list[tuple[str, _Slot | _Opt]]:
    out: list[tuple[str, _Slot | _Opt]] = []
    for p in parts:
        if isinstance(p, _Slot):
            out.append((p.name, p))
        elif isinstance(p, _Opt):
            inner = [q for q in p.parts if isinstance(q, _Slot)]
            if inner:
                out += [(q.name, q) for q in inner]
            else:
                out.append((p.name, p))
    return out


def _old_declare(template: str) -> object:
    """What the old reading made of ``template`` as a form: its parts, argument names,
    slots and whether it takes a number; or the refusal's text."""
    try:
        parts = _old_compile(template, TYPES)
        if not isinstance(parts[0], _Lit):
            raise ValueError(f"{template!r}: a form begins with its verb, a literal word")
        named = _old_names(parts)
        args = tuple(n for n, _ in named)
        if len(set(args)) != len(args):
            raise ValueError(f"{template!r}: two arguments named alike")
    except ValueError as e:
        return str(e)
    slots = tuple(s for _, s in named)
    ints = any(isinstance(s, _Slot) and s.type.kind == "int" for s in slots)
    return parts, args, slots, ints


def _new_declare(template: str) -> object:
    form = Form("f", template)
    try:
        Grammar(form, types=TYPES)
    except ValueError as e:
        return str(e)
    return form.parts, form.args, form._slots, form._ints


WORDS = ["move", "with", "and", "air", "{u:unit}", "{u:unit+}", "{h:hex}", "{n:int}",
         "{u:hx}", "[and", "air]", "[{h:hex}]", "[to", "{h:hex}]", "{a}", "x]", "[", "]",
         "", "[air]", "{air:unit}", "a{b", "[x]"]


@settings(max_examples=400)
@given(st.lists(st.sampled_from(WORDS), min_size=1, max_size=6))
def test_a_template_declares_as_the_old_reading_did(words: list[str]) -> None:
    template = " ".join(words)
    assert _new_declare(template) == _old_declare(template)


@given(st.text(alphabet="{}[]:+ aux_9", max_size=16))
def test_any_text_declares_as_the_old_reading_did(template: str) -> None:
    assert _new_declare(template) == _old_declare(template)


@pytest.mark.parametrize("template", [
    "end combat", "end  combat", "move {u:unit} {h:hex+}", "attack {h:hex} [and air]",
    "retreat [{u:unit} {h:hex}]", "x [air] {air:unit}", "x {u:unit} {u:hex}",
    "{u:unit} x", "x [a [b]]", "x a]", "x [a", "x {u:hx}", "support {n:int}"])
def test_the_engines_kinds_of_template_declare_as_before(template: str) -> None:
    assert _new_declare(template) == _old_declare(template)


def test_the_parts_are_read_once_for_a_literal_form() -> None:
    parts, args, slots = _declare("end combat", TYPES)
    assert parts == (_Lit("end"), _Lit("combat")) and args == () and slots == ()
