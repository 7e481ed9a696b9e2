"""A form of literal words and one-word slots alone is read without the backtracking
matcher (issue 35: the matcher's dict per word was most of a turn file's parse), and the
text it reads is the action's text, not written again.  It must read exactly what the
matcher reads: the same action for every text, refused where the matcher refuses, with
the matcher's words."""

from __future__ import annotations

import itertools

import pytest

from engines.backhand.notation import GRAMMAR as BACKHAND
from engines.mortain.notation import GRAMMAR as MORTAIN
from engines.motherland.notation import GRAMMAR as MOTHERLAND
from engines.panzer48.notation import GRAMMAR as PANZER48
from engines.white_death.notation import GRAMMAR as WHITE_DEATH
from pbem.errors import ActionSyntaxError
from pbem.grammar import Act, Form, Grammar, Type, _match, _Miss, _Slot
from tests.core.test_grammar_engines import played

GRAMMARS = [("white-death", WHITE_DEATH), ("48th-panzer-korps", PANZER48),
            ("backhand-blow", BACKHAND), ("for-the-motherland", MOTHERLAND),
            ("mortain", MORTAIN)]

#: words for a slot: right for some types, wrong for others (hostile spellings too)
SAMPLES = ("2405", "0101", "240", "24055", "1188/357", "I/277", "3", "0", "07", "3/2",
           "and", "x", "a]", "{b}", "\u0662\u0664\u0660\u0665", "2405/2505", "box1",
           "0807-0806", "")


def by_matcher(grammar: Grammar, text: str) -> tuple[str, tuple[object, ...]] | str:
    """What the matcher alone reads: the first form's name and values, or the refusal."""
    words = text.split(" ")
    for f in grammar._by_verb.get(words[0], []):
        got = _match(f.parts, words, f, _Miss())
        if got is not None:
            return f.name, tuple(got[n] for n in f.args)
    return "refused"


def texts_for(form: Form) -> list[str]:
    """The form's texts with every slot spelled by each sample, a word wrong, missing or
    one too many."""
    slots = [i for i, p in enumerate(form.parts) if isinstance(p, _Slot)]
    out: list[str] = []
    words = [getattr(p, "word", "") for p in form.parts]
    for spelled in itertools.product(SAMPLES[:10], repeat=min(len(slots), 2)):
        w = list(words)
        for i, s in zip(slots, spelled, strict=False):
            w[i] = s
        for i in slots[2:]:
            w[i] = "2405"
        out += [" ".join(w), " ".join(w[:-1]), " ".join([*w, "2405"])]
        if len(w) > 1:
            out.append(" ".join([*w[:-1], w[-1] + "x"]))
    for i, s in itertools.product(slots, SAMPLES):
        w = ["2405" if j in slots else x for j, x in enumerate(words)]
        w[i] = s
        out.append(" ".join(w))
    return [t for t in out if t and "  " not in t and not t.endswith(" ")
            and not t.startswith(" ")]


@pytest.mark.parametrize(("engine_id", "grammar"), GRAMMARS)
def test_a_flat_form_reads_what_the_matcher_reads(engine_id: str, grammar: Grammar) -> None:
    flat = [f for f in grammar.forms.values() if f._flat is not None]
    assert flat, engine_id
    texts = [t for f in grammar.forms.values() for t in texts_for(f)]
    texts += played(engine_id, 60)
    accepted = 0
    for text in texts:
        want = by_matcher(grammar, text)
        try:
            got = grammar.parse(text)
        except ActionSyntaxError:
            assert want == "refused", text
            continue
        assert want == (got.form.name, got.values), text
        accepted += 1
        # the text it keeps is the text its values write
        assert got.notation() == got.form.write(got.values)
    assert accepted > 50


def test_a_flat_form_keeps_the_text_it_read_and_writes_nothing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    g = Grammar(Form("move", "move {unit:unit} {frm:hex} {hex:hex}"),
                types={"unit": Type.token(), "hex": Type.hex()})

    def no_write(self: Form, values: object) -> str:
        raise AssertionError(f"{self.name} wrote {values!r} again")

    monkeypatch.setattr(Form, "write", no_write)
    act = g.canonical("move 1188/357 2405 2404")
    assert isinstance(act, Act) and act.values == ("1188/357", "2405", "2404")
    assert act.notation() == "move 1188/357 2405 2404"


def test_a_refusal_names_the_furthest_failure_of_every_form() -> None:
    g = Grammar(Form("end-movement", "end movement"), Form("end-combat", "end combat"),
                Form("end", "end turn [now]"), types={})
    with pytest.raises(ActionSyntaxError) as exc:
        g.parse("end march")
    assert "'movement' or 'combat' or 'turn'" in str(exc.value)
    with pytest.raises(ActionSyntaxError, match="too many words"):
        g.parse("end movement now")
