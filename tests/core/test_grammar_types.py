"""A word type answers without compiling its pattern (issue 35: each pattern compiled
was about 0.35 M instructions of a turn command): for every engine's pattern and every
word set, exactly what ``re.fullmatch`` of the pattern answers, on the engines' real
words and on hostile and near-miss text (Unicode digits and spaces, newlines, brackets,
empty words)."""

from __future__ import annotations

import importlib
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pbem.grammar as grammar_module
from pbem.errors import ActionSyntaxError
from pbem.grammar import _FAST, Form, Grammar, Type
from tests.core.test_grammar_engines import played

#: the engines' notation modules: each declares its grammar, GRAMMAR
ENGINES = ("panzer48", "motherland", "white_death", "backhand", "mortain")
#: characters near every pattern's edges: ASCII classes, the punctuation the ids use,
#: Unicode decimal digits (Arabic-Indic, fullwidth), digits that are no decimal
#: (superscript two), Unicode spaces and line ends, and letters \w takes
NEAR = ("0123456789aAzZ/._-*+|\\[]{}() \t\n\r\x0b\x0c\x1c\x85\xa0\u2028\u3000"
        "\u0663\uff11\u00b2\u00e9\u00df\u2160\u0130ando offbox12")


def _grammars() -> list[Grammar]:
    return [importlib.import_module(f"engines.{e}.notation").GRAMMAR for e in ENGINES]


def _patterns() -> list[str]:
    return sorted({t.pattern for g in _grammars() for t in g.types.values()})


def test_every_engine_pattern_is_answered_without_compiling_it() -> None:
    """The engines' own patterns all have their answer in the grammar: a turn command
    that reads a hex, a unit and a number compiles none of them."""
    for pattern in _patterns():
        t = Type("word", pattern, "a word")
        t.read("x")
        assert "_regex" not in vars(t), pattern


WORDS = st.one_of(st.text(alphabet=NEAR, max_size=12),
                  st.text(max_size=6),
                  st.sampled_from(["and", "and\n", "3508-off", "3508-3509-off", "3508--off",
                                   "0", "00", "01", "10", "2407/2408", "3/2", "3//2", "/3",
                                   "box1", "box3", "box", "C3-3*", "LAH-1", "12T", "685/I",
                                   "\u0663\u0663\u0663\u0663", "1\u00b234", "A\n"]))


@settings(max_examples=3000)
@given(WORDS)
def test_each_fast_answer_is_the_patterns(word: str) -> None:
    for pattern, test in _FAST.items():
        assert test(word) == (re.fullmatch(pattern, word) is not None), (pattern, word)


@settings(max_examples=500)
@given(st.lists(st.text(alphabet="ab|.*-\\ ", max_size=4), min_size=1, max_size=4),
       st.text(alphabet="ab|.*-\\ ", max_size=6))
def test_a_word_set_answers_as_its_pattern(words: list[str], word: str) -> None:
    t = Type.one_of(*words)
    assert (t.read(word) is not None) == (re.fullmatch(t.pattern, word) is not None)


@pytest.mark.parametrize("engine_id", ENGINES)
def test_an_engines_types_read_and_write_as_their_patterns(engine_id: str) -> None:
    """Every type of the engine's table, on near-miss words: read gives the word (or
    its number) exactly when the pattern takes it, and write refuses the rest."""
    grammar = _grammars()[ENGINES.index(engine_id)]
    samples = ["0812", "3508-3509", "3508-off", "41Pz", "and", "air", "C3-3*", "1190/357",
               "7", "07", "3/2", "EX", "A1", "movement", "combat-first", "box2", "",
               "08 12", "\u0660812", "LAH-1", "g\u00e9", "x\n"]
    for t in grammar.types.values():
        for word in samples:
            took = re.fullmatch(t.pattern, word) is not None
            assert (t.read(word) is not None) == took, (t.pattern, word)
            if took and t.kind != "int":
                assert t.write(word) == word
            elif not took:
                with pytest.raises(ValueError):
                    t.write(word)


def _regex_twin(grammar: Grammar, monkeypatch: pytest.MonkeyPatch) -> Grammar:
    """The same table with every type answered by its compiled pattern, as before."""
    monkeypatch.setattr(grammar_module, "_FAST", {})
    monkeypatch.setattr(grammar_module, "_ONE_OF", {})
    types = {n: Type(t.kind, t.pattern, t.what, t.joined) for n, t in grammar.types.items()}
    forms = [Form(f.name, f.template, hint=f.hint) for f in grammar.forms.values()]
    twin = Grammar(*forms, types=types)
    for t in types.values():
        t.read("")  # each its regex answer, before the tables come back
    return twin


def _read(grammar: Grammar, text: str) -> object:
    try:
        act = grammar.canonical(text)
    except ActionSyntaxError as e:
        return str(e), getattr(e, "miscounted", None)
    return act.kind, act.values, act.notation()


def _near_misses(text: str) -> list[str]:
    words = text.split(" ")
    out = [text, text + " x", " ".join(words[:-1]), text + " and air", text.upper()]
    for i, w in enumerate(words):
        for other in (w + "x", w[:-1], "\u0663" + w[1:], w[:-1] + "\u00b2", w + "-off",
                      w + "/1", w + "\n", "and", "0" + w, w.replace("-", "--")):
            out.append(" ".join([*words[:i], other, *words[i + 1:]]))
    return out


@pytest.mark.parametrize(("engine_id", "module"), [
    ("48th-panzer-korps", "panzer48"), ("for-the-motherland", "motherland"),
    ("white-death", "white_death"), ("backhand-blow", "backhand"), ("mortain", "mortain")])
def test_an_engine_parses_listed_actions_and_near_misses_as_its_patterns_did(
        engine_id: str, module: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A turn file's text reads to the same action, or is refused with the same words,
    whether the types answer by their patterns or by the grammar's own answers: along a
    seeded game, every listed action and near misses of each of its words."""
    grammar = importlib.import_module(f"engines.{module}.notation").GRAMMAR
    with monkeypatch.context() as m:
        twin = _regex_twin(grammar, m)
    texts = played(engine_id, 40)
    assert len(texts) > 20
    for text in texts[:400]:
        for near in _near_misses(text):
            assert _read(grammar, near) == _read(twin, near), near


def test_types_and_template_parts_keep_a_frozen_records_behaviour() -> None:
    """A word type and a template's parts, made without dataclasses (issue 35), behave as
    the frozen dataclasses they were: equal and hashed by their fields, shown by them,
    refusing a change, and copied whole (a state's clone copies the actions it holds,
    each with its form)."""
    import copy
    from dataclasses import FrozenInstanceError

    for grammar in _grammars():
        for t in grammar.types.values():
            twin = Type(t.kind, t.pattern, t.what, t.joined)
            assert twin == t and hash(twin) == hash(t) and twin != (t.kind, t.pattern)
            assert repr(t) == (f"Type(kind={t.kind!r}, pattern={t.pattern!r}, "
                               f"what={t.what!r}, joined={t.joined!r})")
            with pytest.raises(FrozenInstanceError, match="cannot assign to field 'kind'"):
                t.kind = "word"
        for form in grammar.forms.values():
            parts = form.parts
            assert copy.deepcopy(parts) == parts
            assert hash(copy.copy(parts)) == hash(parts)
            assert repr(parts[0]) == f"_Lit(word={parts[0].word!r})"  # type: ignore[union-attr]
            with pytest.raises(FrozenInstanceError):
                parts[0].word = "x"
    with pytest.raises(ValueError, match="unknown argument kind 'place'"):
        Type("place", "x", "a place")
