"""One action grammar: an engine's verbs and their typed arguments, in a table.

A saved game's actions are text in signed files, so an engine's notation must never
drift; and the terminal's completion, ``pbem legal UNIT`` and the board's clicks need to
know which words of an action are units and which are hexes.  Each engine used to keep
its own notation (regular expressions, dataclasses, bare text split on spaces and indexed
by position).  Here an engine declares its forms once, python-chess style: the typed
action (:class:`Act`, like ``chess.Move``) is apart from its text, and the table gives
both directions::

    GRAMMAR = Grammar(
        Form("move", "move {unit:unit} {to:hex}"),
        Form("end", "end movement"),
        types={"unit": Type.token("a unit id"), "hex": Type.hex()},
    )
    act = GRAMMAR["move"]("G01", "3110")      # build: typed, checked against the types
    act.notation() == "move G01 3110"           # write
    GRAMMAR.parse("move G01 3110") == act       # read; canonical: writes back the same
    act.text("to"), act.units(), act.hexes()    # typed arguments, by name and by kind

A template is words separated by single spaces: a literal word, a slot ``{name:type}``
(``{name:type+}``: one or more of that type, one a word), or an optional group in
brackets (``[and air]``: a flag; ``[to {to:hex}]``: its slots are ``None`` when the
group is absent).  Forms are tried in table order, the first that matches wins; a text
that none matches is refused with :class:`~pbem.errors.ActionSyntaxError` naming the verb,
the argument and what was expected there.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pbem.engine import Action
from pbem.errors import ActionSyntaxError

# re-exported: the engines' data records import their base from here
from pbem.history import Frozen as Frozen

#: what one argument holds: a word (unit, hex, word from a set), a number, a flag, or the
#: words of a list argument; ``None`` for a slot in an absent optional group
Value = str | int | bool | tuple[str, ...] | None


class Type(Frozen):
    """What one word of an action may be.

    ``kind`` says what the word names, for the tools that pick actions by the things they
    name: ``"unit"``, ``"hex"`` (``joined``: several hexes in one word, ``2914/3014``),
    ``"int"`` (the value is an ``int``) or ``"word"`` (anything else: a value from a fixed
    set, a fraction kept as its text)."""

    __match_args__ = ("kind", "pattern", "what", "joined")
    kind: str
    pattern: str
    #: what the word should be, for a refusal: "a hex (four digits)"
    what: str
    joined: str

    def __init__(self, kind: str, pattern: str, what: str, joined: str = "") -> None:
        put = object.__setattr__
        put(self, "kind", kind)
        put(self, "pattern", pattern)
        put(self, "what", what)
        put(self, "joined", joined)
        self.__post_init__()

    def __post_init__(self) -> None:
        if self.kind not in ("unit", "hex", "int", "word"):
            raise ValueError(f"unknown argument kind {self.kind!r}")

    @functools.cached_property
    def _regex(self) -> re.Pattern[str]:
        # compiled when a word of this type is first read or written, not when the
        # engine's grammar is made at import: a command that parses no such word (an
        # 'end combat', a listing of literal words) compiles none (about 0.35 M
        # instructions a pattern, issue 35)
        return re.compile(self.pattern)

    @functools.cached_property
    def _test(self) -> Callable[[str], bool]:
        """Whether a word is one of this type: ``fullmatch`` of the pattern, answered
        without compiling it for the engines' own patterns (each a word set from
        :meth:`one_of` or a pattern of :data:`_FAST`): every turn command read or wrote
        words of two to five types, at about 0.35 M instructions a pattern compiled
        (issue 35)."""
        fast = _FAST.get(self.pattern) or _ONE_OF.get(self.pattern)
        if fast is not None:
            return fast
        regex = self._regex
        return lambda word: regex.fullmatch(word) is not None

    @staticmethod
    def token(what: str = "a unit id", pattern: str = r"[^\s\[\]{}]+") -> Type:
        """A unit id: one word of the engine's id characters."""
        return Type("unit", pattern, what)

    @staticmethod
    def hex(what: str = "a hex (four digits)", pattern: str = r"\d{4}",
            joined: str = "") -> Type:
        return Type("hex", pattern, what, joined)

    @staticmethod
    def number(what: str = "a whole number") -> Type:
        """An integer, written without sign or leading zeros (one spelling per value)."""
        return Type("int", r"0|[1-9][0-9]*", what)

    @staticmethod
    def one_of(*words: str, what: str = "") -> Type:
        pattern = "|".join(re.escape(w) for w in words)
        # the pattern fully matches a word exactly when the word is one of them (each
        # alternative escaped: a literal); the same pattern always spells the same set
        _ONE_OF.setdefault(pattern, frozenset(words).__contains__)
        return Type("word", pattern, what or "one of " + ", ".join(words))

    def read(self, word: str) -> str | int | None:
        """The value ``word`` spells, or ``None`` when it is not one of this type."""
        if not self._test(word):
            return None
        return int(word) if self.kind == "int" else word

    def write(self, value: Value) -> str:
        if isinstance(value, bool) or value is None or isinstance(value, tuple):
            raise TypeError(f"{value!r} is not {self.what}")
        text = str(value)
        if not self._test(text) or (self.kind == "int") != isinstance(value, int):
            raise ValueError(f"{value!r} is not {self.what}")
        return text


#: the word sets of :meth:`Type.one_of`, by the pattern that spells them
_ONE_OF: dict[str, Callable[[str], bool]] = {}

_DIGITS = "0123456789"
_UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_ALPHA = _UPPER + "abcdefghijklmnopqrstuvwxyz"
_ALNUM = _ALPHA + _DIGITS


def _hex(w: str) -> bool:
    # \d is a Unicode decimal digit (category Nd), as str.isdecimal takes
    return len(w) == 4 and w.isdecimal()


def _route(w: str) -> bool:
    return all(len(h) == 4 and h.isdecimal() for h in w.split("-"))


def _of(chars: str) -> Callable[[str], bool]:
    """``[chars]+``: a word of those characters alone (str.strip, in C)."""
    return lambda w: w != "" and not w.strip(chars)


def _headed(head: str, chars: str) -> Callable[[str], bool]:
    """``[head][chars]*``"""
    return lambda w: w != "" and w[0] in head and not w[1:].strip(chars)


def _amount(w: str) -> bool:
    parts = w.split("/")
    return len(parts) <= 2 and all(p != "" and not p.strip(_DIGITS) for p in parts)


_FTM_ID = _headed(_ALNUM, _ALNUM + "*_.-")

#: the engines' patterns, each answered as ``re.fullmatch`` answers it for every text
#: (tests/core/test_grammar_types.py compares the two on hostile and near-miss words)
_FAST: dict[str, Callable[[str], bool]] = {
    r"\d{4}": _hex,
    r"0|[1-9][0-9]*": lambda w: w == "0" or (w != "" and w[0] in "123456789"
                                               and not w.strip(_DIGITS)),
    r"[A-Za-z0-9/._-]+": _of(_ALNUM + "/._-"),
    r"[A-Za-z0-9_-]+": _of(_ALNUM + "_-"),
    r"[A-Za-z0-9]+": _of(_ALNUM),
    r"[A-Z0-9/]+": _of(_UPPER + _DIGITS + "/"),
    r"[A-Za-z]+": _of(_ALPHA),
    r"[A-Za-z0-9][A-Za-z0-9/]*": _headed(_ALNUM, _ALNUM + "/"),
    r"[A-Za-z0-9][A-Za-z0-9*_.-]*": _FTM_ID,
    # (?!and$): the word is not "and" ($ matches before a final newline too, which the
    # class after it never takes)
    r"(?!and$)[A-Za-z0-9][A-Za-z0-9*_.-]*": lambda w: w != "and" and _FTM_ID(w),
    # \w: a character str.isalnum takes, or '_'
    r"[\w/.-]+": lambda w: w != "" and w.replace("/", "_").replace(".", "_").replace(
        "-", "_").replace("_", "a").isalnum(),
    # \s: what str.split() splits at (Unicode whitespace)
    r"[^\s]+": lambda w: w.split() == [w],
    r"[^\s\[\]{}]+": lambda w: w.split() == [w] and not (
        "[" in w or "]" in w or "{" in w or "}" in w),
    r"\d{4}/\d{4}": lambda w: len(w) == 9 and w[4] == "/" and _hex(w[:4]) and _hex(w[5:]),
    r"\d{4}(?:-\d{4})*": _route,
    r"\d{4}(?:-\d{4})*-off": lambda w: w.endswith("-off") and _route(w[:-4]),
    r"[0-9]{4}|box1|box2": lambda w: (len(w) == 4 and not w.strip(_DIGITS)) or w in (
        "box1", "box2"),
    r"[0-9]+(?:/[0-9]+)?": _amount,
}


# -- templates ---------------------------------------------------------------------------


class _Lit(Frozen):
    """A literal word of a form's template."""

    __match_args__ = ("word",)
    word: str

    def __init__(self, word: str) -> None:
        object.__setattr__(self, "word", word)


class _Slot(Frozen):
    """A typed argument of a form's template (``{name:type}``; ``many``: a list of them)."""

    __match_args__ = ("name", "type", "many")
    name: str
    type: Type
    many: bool

    def __init__(self, name: str, type: Type, many: bool) -> None:
        super().__init__(name, type, many)


class _Opt(Frozen):
    """An optional group: a flag named by its words when it has no slot."""

    __match_args__ = ("name", "parts")
    name: str
    parts: tuple[_Lit | _Slot, ...]

    def __init__(self, name: str, parts: tuple[_Lit | _Slot, ...]) -> None:
        super().__init__(name, parts)


_Part = _Lit | _Slot | _Opt
#: a slot's name and its type's name: a lower-case letter or '_', then those or digits
_HEAD = frozenset("abcdefghijklmnopqrstuvwxyz_")


_NAME_CHARS = "abcdefghijklmnopqrstuvwxyz_0123456789"


def _ident(text: str) -> bool:
    # strip in C, not a generator over the characters: every slot of every engine's
    # grammar is read at import (issue 35)
    return bool(text) and text[0] in _HEAD and not text.strip(_NAME_CHARS)


def _slot(word: str) -> tuple[str, str, bool] | None:
    """A template word's slot, ``{name:type}`` or ``{name:type+}``: its name, its type's
    name and whether it takes a list; ``None`` for any other word.  Read by hand, not by a
    pattern: every engine's grammar reads its templates when the engine is imported, and
    that pattern was one more compiled by every turn command (issue 35)."""
    if len(word) < 5 or word[0] != "{" or word[-1] != "}":
        return None
    name, colon, kind = word[1:-1].partition(":")
    many = kind.endswith("+")
    if many:
        kind = kind[:-1]
    if not (colon and _ident(name) and _ident(kind)):
        return None
    return name, kind, many


def _word(word: str) -> tuple[str, str, bool] | tuple[()] | None:
    """A template word as :meth:`Form._declared` vouches for it: ``()`` for a literal
    word, its :func:`_slot` for a slot, ``None`` for any other (a word with a bracket or
    a brace that is not a slot)."""
    if "{" not in word and "}" not in word and "[" not in word and "]" not in word:
        return ()
    return _slot(word)


#: :func:`_word` of each template word read, by the word
_WORDS: dict[str, tuple[str, str, bool] | tuple[()] | None] = {}


#: a form's template read: its parts, and its arguments in the order they are written
#: (slots, and the flags of optional groups that have no slot) with their parts
_Declared = tuple[tuple[_Part, ...], tuple[str, ...], tuple["_Slot | _Opt", ...]]


def _declare(template: str, types: Mapping[str, Type]) -> _Declared:
    """Read ``template`` once for its parts and its arguments: every engine's grammar
    reads each of its templates when the engine is imported, by every turn command, so
    one pass and no generator (48th Panzer Korps' 37 forms were 2.6 M instructions at
    import, issue 35)."""
    if "{" not in template and "[" not in template and "}" not in template \
            and "]" not in template:
        words = template.split(" ")
        if "" in words:
            raise ValueError(f"{template!r}: words are separated by one space")
        return tuple([_Lit(w) for w in words]), (), ()
    out: list[_Part] = []
    args: list[str] = []
    slots: list[_Slot | _Opt] = []
    group: list[_Lit | _Slot] | None = None
    inner = False  # the open group has a slot
    for raw in template.split(" "):
        word = raw
        opens, closes = word.startswith("["), word.endswith("]")
        if opens:
            if group is not None:
                raise ValueError(f"{template!r}: optional groups do not nest")
            group, word, inner = [], word[1:], False
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
            args.append(name)
            slots.append(part)
            inner = True
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
            name = " ".join([p.word for p in group if isinstance(p, _Lit)])
            opt = _Opt(name, tuple(group))
            out.append(opt)
            if not inner:
                args.append(name)
                slots.append(opt)
            group = None
    if group is not None:
        raise ValueError(f"{template!r}: '[' without ']'")
    return tuple(out), tuple(args), tuple(slots)


_MADE = 200_000
#: a form's attributes :meth:`Form._bind` sets from its template
_BOUND = frozenset(("parts", "args", "_index", "_slots", "_ints", "_flat", "_writes_back"))


class Form:
    """One shape of action: a name (its kind), a template, and its arguments by name."""

    def __init__(self, name: str, template: str, *, hint: str = "") -> None:
        self.name = name
        self.template = template
        #: what a text with a word too many or too few most likely meant, with the rule:
        #: White Death's "move 1190/357 3911 3910 3909" is a path where a move is one hex
        #: (Rule 6.A), which the bare grammar cannot know
        self.hint = hint
        #: the grammar's types, until the template is read (:meth:`_bind`, at the first
        #: use of what it gives: :meth:`__getattr__`)
        self._types: Mapping[str, Type] | None = None
        #: the actions made, by their values: a step lists the same thousands of moves
        #: position after position (Mortain's US movement, some 2,300), and the action a
        #: file's text parses to is then the very object listed, found in the list by
        #: identity; checking and writing one again tripled a whole game's time
        self._made: dict[tuple[Value, ...], Act] = {}

    # what :meth:`_bind` reads of the template, set there
    parts: tuple[_Part, ...]
    args: tuple[str, ...]
    _index: dict[str, int]
    _slots: tuple[_Slot | _Opt, ...]
    #: a form with a number argument: True == 1, so a flag passed there is no key
    _ints: bool
    #: a form of literal words and one-word slots alone (no optional group, no list):
    #: per word, its literal or its slot's type; read by :meth:`_read_flat` without
    #: the backtracking matcher, whose dict per word was most of a turn file's parse
    #: (issue 35).  ``None``: any other form
    _flat: tuple[tuple[str, Type | None], ...] | None
    #: a flat form with no number slot: the text it reads is the text its values
    #: write (a word slot's value is its word), so the action keeps that text
    _writes_back: bool

    def _declared(self, types: Mapping[str, Type]) -> str:
        """The form's verb, its template checked against ``types`` when its grammar is
        declared, as :meth:`_bind` would check it, which then runs at the form's first
        use (:meth:`__getattr__`): a turn command uses a few of its engine's forms, and
        reading all of them at import was 1.5 M instructions of White Death's act
        (issue 35).  A template of literal words and ``{name:type}`` slots, the forms
        engines declare most, and optional groups of them (``[and air]``), is checked
        here word by word; any other (a word this does not vouch for) is read whole now,
        so a bad template is refused when declared, with :meth:`_bind`'s words."""
        words = self.template.split(" ")
        verb = words[0]
        if "{" in verb or "}" in verb or "[" in verb or "]" in verb or "" in words:
            return self._bound(types)
        names: set[str] = set()
        #: the literal words of the optional group open, and whether it has a slot: a
        #: group with none is a flag named by its words (an argument, as a slot is).
        #: Read here, not by _bind: an attack's '[and air]' kept each form with a group
        #: read whole at import, an overrun's too in a receive that has none (issue 35)
        group: list[str] | None = None
        inner = False
        for raw in words[1:]:
            word = raw
            if raw[0] == "[":
                if group is not None:
                    return self._bound(types)
                group, inner, word = [], False, raw[1:]
            closes = word.endswith("]")
            if closes:
                if group is None:
                    return self._bound(types)
                word = word[:-1]
            # each word read once a process: the engines' templates repeat a few words
            # ('{unit:unit}' is in 25 of For the Motherland!'s 28), and reading each anew
            # was a third of the 1.35 M instructions its grammar took at import (issue 35)
            slot = _WORDS[word] if word in _WORDS else _WORDS.setdefault(word, _word(word))
            if not slot:
                if slot is None or not word:
                    return self._bound(types)
                if group is not None:
                    group.append(word)
            else:
                if slot[1] not in types or slot[0] in names:
                    return self._bound(types)
                names.add(slot[0])
                inner = True
            if closes:
                assert group is not None
                if not inner:
                    flag = " ".join(group)
                    if flag in names:
                        return self._bound(types)
                    names.add(flag)
                group = None
        if group is not None:
            return self._bound(types)
        self._types = types
        return verb

    def _bound(self, types: Mapping[str, Type]) -> str:
        self._bind(types)
        first = self.parts[0]
        assert isinstance(first, _Lit)
        return first.word

    if not TYPE_CHECKING:  # hidden from mypy, which would then type any misspelt
        # attribute of a form as object instead of naming it: the attributes _bind sets
        # are declared above, with their types

        def __getattr__(self, name: str) -> object:
            # called only for an attribute not set: what _bind sets, before it has run
            types = self.__dict__.get("_types")
            if types is None or name not in _BOUND:
                raise AttributeError(
                    f"{type(self).__name__!r} object has no attribute {name!r}")
            self._bind(types)
            return self.__dict__[name]

    def _bind(self, types: Mapping[str, Type]) -> None:
        self._types = None
        self.parts, self.args, self._slots = _declare(self.template, types)
        if self.parts[0].__class__ is not _Lit:
            raise ValueError(f"{self.template!r}: a form begins with its verb, a literal word")
        self._ints = self._writes_back = False
        self._flat = None
        self._index = {}
        flat: list[tuple[str, Type | None]] = []
        for p in self.parts:
            if isinstance(p, _Lit):
                flat.append((p.word, None))
            elif isinstance(p, _Slot) and not p.many:
                flat.append(("", p.type))
            else:
                break
        else:
            self._flat = tuple(flat)
            self._writes_back = all(t is None or t.kind != "int" for _, t in flat)
        if not self.args:  # a verb and literal words: no argument to index
            return
        self._index = index = {n: i for i, n in enumerate(self.args)}
        if len(index) != len(self.args):
            raise ValueError(f"{self.template!r}: two arguments named alike")
        for s in self._slots:
            if isinstance(s, _Slot) and s.type.kind == "int":
                self._ints = True

    @property
    def verb(self) -> str:
        first = self.parts[0]
        assert isinstance(first, _Lit)
        return first.word

    def __call__(self, *values: Value, **named: Value) -> Act:
        """The action with these arguments (positional in template order, or by name),
        each checked against its type: an engine cannot list an action it could not
        write."""
        if named or len(values) != len(self.args) or (
                self._ints and any(v.__class__ is bool for v in values)):
            return self._build(values, named)
        made = self._made.get(values)
        if made is None:
            made = self.made(values, lambda: self._build(values, named))
        return made

    def made(self, values: tuple[Value, ...], make: Callable[[], Act]) -> Act:
        """The action with ``values`` made before, else ``make()``'s, kept (a cache of at
        most _MADE actions a form: a campaign lists new moves all game long)."""
        found = self._made.get(values)
        if found is None:
            if len(self._made) >= _MADE:
                self._made.clear()
            found = self._made[values] = make()
        return found

    def _read_flat(self, words: list[str]) -> tuple[Value, ...] | None:
        """The values ``words`` spell against a flat form (:attr:`_flat`), or ``None``:
        what :func:`_match` answers for such a form, the words one to one with its parts."""
        flat = self._flat
        assert flat is not None
        if len(words) != len(flat):
            return None
        values: list[Value] = []
        for (word, kind), w in zip(flat, words, strict=True):
            if kind is None:
                if w != word:
                    return None
                continue
            value = kind.read(w)
            if value is None:
                return None
            values.append(value)
        return tuple(values)

    def _parsed(self, values: tuple[Value, ...], text: str | None) -> Act:
        act = Act(self, values)
        if text is not None:
            object.__setattr__(act, "_text", text)
        return act

    def unchecked(self, many: Iterable[tuple[Value, ...]]) -> list[Act]:
        """The actions with each of ``many``'s values in their order (positional, every
        argument given), those not :meth:`made` before made now without checking the
        values against their types or writing the text until asked: for an engine that
        lists thousands of actions whose values come from its own tables (For the
        Motherland!'s moves: the ids of the map and the counter sheet; the contract
        tests parse every listed action's text back to it).  One call for the lot: a
        call and a closure an action were a fifth of a movement phase's first listing
        (issue 35 item 5)."""
        kept, out = self._made, []
        for values in many:
            found = kept.get(values)
            if found is None:
                if len(kept) >= _MADE:
                    kept.clear()
                found = kept[values] = Act(self, values)
            out.append(found)
        return out

    def _build(self, values: tuple[Value, ...], named: dict[str, Value]) -> Act:
        if len(values) > len(self.args):
            raise TypeError(f"{self.name}: {len(values)} arguments for {len(self.args)}")
        got: list[Value] = list(values) + [None] * (len(self.args) - len(values))
        for k, v in named.items():
            if k not in self._index:
                raise TypeError(f"{self.name} has no argument {k!r} ({self.template!r})")
            got[self._index[k]] = v
        for slot, v in zip(self._slots, got, strict=True):
            if isinstance(slot, _Opt):
                got[self._index[slot.name]] = bool(v)
            elif slot.many:
                if not isinstance(v, tuple) or not v:
                    raise TypeError(f"{self.name}: {slot.name} is one or more words "
                                    f"({slot.type.what}), a non-empty tuple")
                for w in v:
                    slot.type.write(w)
            elif v is not None:
                slot.type.write(v)
        act = Act(self, tuple(got))
        act.notation()  # a required slot left empty fails here, not in a turn file
        return act

    def write(self, values: tuple[Value, ...]) -> str:
        words: list[str] = []
        for p in self.parts:
            if isinstance(p, _Lit):
                words.append(p.word)
            elif isinstance(p, _Slot):
                words += self._write_slot(p, values[self._index[p.name]])
            else:
                inner = [q for q in p.parts if isinstance(q, _Slot)]
                present = (values[self._index[inner[0].name]] is not None if inner
                           else values[self._index[p.name]])
                if not present:
                    continue
                for q in p.parts:
                    words += ([q.word] if isinstance(q, _Lit)
                              else self._write_slot(q, values[self._index[q.name]]))
        return " ".join(words)

    def _write_slot(self, slot: _Slot, value: Value) -> list[str]:
        if value is None:
            raise TypeError(f"{self.name}: argument {slot.name!r} ({slot.type.what}) is "
                            "missing")
        if slot.many:
            assert isinstance(value, tuple)
            return [slot.type.write(v) for v in value]
        return [slot.type.write(value)]

    def __repr__(self) -> str:
        return f"Form({self.name!r}, {self.template!r})"


class _Miss:
    """The furthest a text got into a form before it failed: for the refusal (a plain
    class: made a dataclass at every import, it was about 0.2 M instructions of each
    turn command, issue 35)."""

    __slots__ = ("at", "miscounted", "why", "words")

    def __init__(self) -> None:
        self.at = -1
        self.why = ""
        #: the literal words forms wanted at ``at``: "end turn" is refused naming both
        #: "movement" and "combat"
        self.words: list[str] = []
        #: the furthest failure is a word too many or too few: no one word's spelling
        #: is wrong, so no "did you mean" a word (pbem.play.suggest)
        self.miscounted = False

    def fail(self, at: int, why: str, *, miscounted: bool = False) -> None:
        if at >= self.at:
            self.at, self.why, self.words = at, why, []
            self.miscounted = miscounted

    def want(self, at: int, word: str, why: str) -> None:
        if at > self.at or (at == self.at and not self.words):
            self.at, self.why, self.words = at, why, [word]
            self.miscounted = False
        elif at == self.at and word not in self.words:
            self.words.append(word)

    def says(self, verb: str, words: Sequence[str]) -> str:
        if len(self.words) > 1:
            wanted = " or ".join(repr(w) for w in self.words)
            return f"{verb}: expected {wanted}, not {words[self.at]!r}"
        return self.why


def _openers(parts: Sequence[_Part]) -> frozenset[str]:
    """The literal words that may come first in ``parts``: the first literal, and that of
    each optional group before it (an optional group may be left out)."""
    found: set[str] = set()
    for q in parts:
        if isinstance(q, _Lit):
            found.add(q.word)
            break
        if isinstance(q, _Opt):
            if q.parts and isinstance(q.parts[0], _Lit):
                found.add(q.parts[0].word)
            continue
        break
    return frozenset(found)


def _match(parts: Sequence[_Part], words: Sequence[str], form: Form, miss: _Miss,
           i: int = 0, got: dict[str, Value] | None = None) -> dict[str, Value] | None:
    """The arguments ``words[i:]`` spells against ``parts``, or ``None`` (``miss`` then
    holds the furthest failure).  Backtracks: a list argument gives back words to what
    follows it."""
    got = {} if got is None else got
    if not parts:
        if i == len(words):
            return got
        left = " ".join(words[i:])
        why = f": {form.hint}" if form.hint else ""
        miss.fail(i, f"{form.name}: too many words: nothing follows {' '.join(words[:i])!r}, "
                     f"so {left!r} is left over{why} (the form is {form.template!r})",
                  miscounted=True)
        return None
    p, rest = parts[0], parts[1:]
    if isinstance(p, _Opt):
        if not any(isinstance(q, _Slot) for q in p.parts):
            taken = _match([*p.parts, *rest], words, form, miss, i, {**got, p.name: True})
            return taken if taken is not None else _match(rest, words, form, miss, i,
                                                          {**got, p.name: False})
        taken = _match([*p.parts, *rest], words, form, miss, i, got)
        if taken is not None:
            return taken
        blank: dict[str, Value] = {q.name: None for q in p.parts if isinstance(q, _Slot)}
        return _match(rest, words, form, miss, i, {**got, **blank})
    if i >= len(words):
        want = f"{p.word!r}" if isinstance(p, _Lit) else f"{p.name} ({p.type.what})"
        why = f": {form.hint}" if form.hint else ""
        miss.fail(i, f"{form.name}: {want} is missing{why} (the form is {form.template!r})",
                  miscounted=True)
        return None
    if isinstance(p, _Lit):
        if words[i] == p.word:
            return _match(rest, words, form, miss, i + 1, got)
        miss.want(i, p.word, f"{form.name}: expected {p.word!r}, not {words[i]!r} (the form "
                             f"is {form.template!r})")
        return None
    if not p.many:
        value = p.type.read(words[i])
        if value is None:
            miss.fail(i, f"{form.name}: argument {p.name} wants {p.type.what}, not "
                         f"{words[i]!r}")
            return None
        return _match(rest, words, form, miss, i + 1, {**got, p.name: value})
    # a list: as many words as read, up to a word that may open what follows (a unit
    # type that reads "and" must not swallow an optional "[and air]": the flag would be
    # lost while the text still wrote back the same), then give back one at a time
    stops = _openers(rest)
    n = 0
    while (i + n < len(words) and words[i + n] not in stops
           and p.type.read(words[i + n]) is not None):
        n += 1
    if n == 0:
        miss.fail(i, f"{form.name}: argument {p.name} wants one or more of {p.type.what}, "
                     f"not {words[i]!r}")
    for k in range(n, 0, -1):
        found = _match(rest, words, form, miss, i + k,
                       {**got, p.name: tuple(words[i:i + k])})
        if found is not None:
            return found
    return None


class Act(Action):
    """A typed action: its form and its arguments' values (in the form's order).

    Equal when the form's name and the values are; its text is the form's writing of the
    values, made once."""

    __slots__ = ("_text", "form", "values")

    form: Form
    values: tuple[Value, ...]
    _text: str | None

    def __init__(self, form: Form, values: tuple[Value, ...]) -> None:
        object.__setattr__(self, "form", form)
        object.__setattr__(self, "values", values)
        object.__setattr__(self, "_text", None)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"an action is frozen ({name})")

    def notation(self) -> str:
        text = self._text
        if text is None:
            text = self.form.write(self.values)
            object.__setattr__(self, "_text", text)
        return text

    @property
    def kind(self) -> str:
        """The form's name: ``"move"``, ``"end-movement"``."""
        return self.form.name

    @property
    def verb(self) -> str:
        return self.form.verb

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Act) and self.form.name == other.form.name
                and self.values == other.values)

    def __hash__(self) -> int:
        return hash((self.form.name, self.values))

    def __repr__(self) -> str:
        args = ", ".join(f"{n}={v!r}" for n, v in zip(self.form.args, self.values,
                                                        strict=True))
        return f"Act({self.form.name}: {args})"

    def __getitem__(self, name: str) -> Value:
        try:
            return self.values[self.form._index[name]]
        except KeyError:
            raise KeyError(f"{self.form.name} has no argument {name!r} "
                           f"({self.form.template!r})") from None

    def text(self, name: str) -> str:
        """A word argument (a unit, a hex, a word from a set)."""
        # read here, not through __getitem__: the rules read every action's words by
        # name, some ten a move replayed (issue 35)
        i = self.form._index.get(name)
        if i is None:
            raise KeyError(f"{self.form.name} has no argument {name!r} "
                           f"({self.form.template!r})")
        value = self.values[i]
        if not isinstance(value, str):
            raise TypeError(f"{self.form.name}'s {name} is {value!r}, not a word")
        return value

    def number(self, name: str) -> int:
        value = self[name]
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{self.form.name}'s {name} is {value!r}, not a number")
        return value

    def words(self, name: str) -> tuple[str, ...]:
        """A list argument's words."""
        value = self[name]
        if not isinstance(value, tuple):
            raise TypeError(f"{self.form.name}'s {name} is {value!r}, not a list")
        return value

    def flag(self, name: str) -> bool:
        return bool(self[name])

    def _of(self, kind: str) -> tuple[str, ...]:
        out: list[str] = []
        for slot, value in zip(self.form._slots, self.values, strict=True):
            if isinstance(slot, _Opt) or slot.type.kind != kind or value is None:
                continue
            words = value if isinstance(value, tuple) else (str(value),)
            for w in words:
                out += w.split(slot.type.joined) if slot.type.joined else [w]
        return tuple(out)

    def units(self) -> tuple[str, ...]:
        """The units this action names, in the order it names them."""
        return self._of("unit")

    def hexes(self) -> tuple[str, ...]:
        """The hexes this action names, in order (a bridge ``2914/3014`` names two)."""
        return self._of("hex")


class Grammar:
    """An engine's forms: parsing, writing, the canonical check and completion."""

    def __init__(self, *forms: Form, types: Mapping[str, Type]) -> None:
        self.types = dict(types)
        self.forms: dict[str, Form] = {}
        self._by_verb: dict[str, list[Form]] = {}
        for f in forms:
            if f.name in self.forms:
                raise ValueError(f"two forms named {f.name!r}")
            self.forms[f.name] = f
            self._by_verb.setdefault(f._declared(self.types), []).append(f)

    def __getitem__(self, name: str) -> Form:
        return self.forms[name]

    @property
    def verbs(self) -> tuple[str, ...]:
        return tuple(self._by_verb)

    def parse(self, text: str) -> Act:
        """The action ``text`` spells; :class:`ActionSyntaxError` naming the verb, the
        argument and what was expected, when no form reads it."""
        words = text.split(" ")
        if not all(words):
            raise ActionSyntaxError(f"cannot read {text!r}: words are separated by one space")
        forms = self._by_verb.get(words[0])
        if forms is None:
            raise ActionSyntaxError(f"cannot read {text!r}: no action begins with "
                                    f"{words[0]!r} (the verbs are {', '.join(self.verbs)})")
        for f in forms:
            if f._flat is not None:
                read = f._read_flat(words)
                if read is not None:
                    # its slots are its arguments, in the template's order
                    return f.made(read, functools.partial(
                        f._parsed, read, text if f._writes_back else None))
                continue
            # the furthest failure is wanted only for a refusal, made below
            got = _match(f.parts, words, f, _Miss())
            if got is not None:
                values = tuple(got[n] for n in f.args)
                return f.made(values, functools.partial(Act, f, values))
        # refused: the furthest any form got, every form read again by the matcher
        miss = _Miss()
        for f in forms:
            _match(f.parts, words, f, miss)
        exc = ActionSyntaxError(f"cannot read {text!r}: {miss.says(words[0], words)}")
        exc.miscounted = miss.miscounted and len(miss.words) <= 1
        raise exc

    def canonical(self, text: str) -> Act:
        """Parse ``text`` and require that it is how its action is written (one spelling
        per action: the text a turn file signs)."""
        act = self.parse(text)
        if act.notation() != text:
            raise ActionSyntaxError(f"{text!r} is not in canonical notation (expected "
                                    f"{act.notation()!r})")
        return act

    def complete(self, prefix: str, actions: Iterable[Action]) -> list[str]:
        """What may follow ``prefix`` among ``actions``: :func:`complete`."""
        return complete(prefix, actions)

    def expects(self, prefix: str) -> list[str]:
        """What the table says may come next after the whole words of ``prefix``, for a
        prompt that has no list of legal actions at hand: literal words as they are, an
        argument as ``<name: what>``, and ``""`` where the action may end."""
        words = prefix.split(" ")[:-1] if prefix else []
        forms = list(self.forms.values()) if not words else self._by_verb.get(words[0], [])
        out: dict[str, None] = {}
        for f in forms:
            _next_after(f.parts, words, 0, out)
        return list(out)


def complete(prefix: str, actions: Iterable[Action]) -> list[str]:
    """What may follow ``prefix`` among ``actions`` (the legal ones), a word at a time:
    each distinct continuation through the end of the next word, with a trailing space
    where more words follow; in the actions' order.  Mortain's US movement lists some
    2,300 moves: a word at a time, Tab offers the units, then one unit's hexes."""
    out: dict[str, None] = {}
    for a in actions:
        text = a.notation()
        if not text.startswith(prefix):
            continue
        end = text.find(" ", len(prefix))
        out[text if end < 0 else text[:end + 1]] = None
    # an action that is whole and also goes on ('move 8A 0807 0806', a path that may
    # go further): offered once, whole; readline shows 'x' and 'x ' as the same word twice,
    # and a space after it reaches the longer ones
    return [o for o in out if not (o.endswith(" ") and o[:-1] in out)]


def _next_after(parts: Sequence[_Part], words: Sequence[str], i: int,
                out: dict[str, None]) -> None:
    if i == len(words):
        if not parts:
            out[""] = None
            return
        p = parts[0]
        if isinstance(p, _Opt):
            _next_after([*p.parts, *parts[1:]], words, i, out)
            _next_after(parts[1:], words, i, out)
        else:
            out[p.word if isinstance(p, _Lit) else f"<{p.name}: {p.type.what}>"] = None
        return
    if not parts:
        return
    p, rest = parts[0], parts[1:]
    if isinstance(p, _Opt):
        _next_after([*p.parts, *rest], words, i, out)
        _next_after(rest, words, i, out)
    elif isinstance(p, _Lit):
        if words[i] == p.word:
            _next_after(rest, words, i + 1, out)
    elif p.type.read(words[i]) is not None:
        if p.many:  # another of the list first: it is what the list is for
            _next_after(parts, words, i + 1, out)
        _next_after(rest, words, i + 1, out)


def names(action: Action) -> tuple[str, ...]:
    """What an action names, for picking it by a unit or a hex (``pbem legal GAME UNIT``):
    its units and hexes for an :class:`Act` (a bridge ``2407/2408`` names both hexes);
    else, for an engine not yet on the grammar, every word of its text."""
    if isinstance(action, Act):
        return action.units() + action.hexes()
    return tuple(action.notation().split())


def units_of(action: Action, known: Callable[[str], bool]) -> tuple[str, ...]:
    """The units an action names: its typed arguments for an :class:`Act`; else (an engine
    not yet on the grammar) the words of its text that ``known`` accepts."""
    if isinstance(action, Act):
        return action.units()
    return tuple(w for w in action.notation().split() if known(w))


def hexes_of(action: Action, known: Callable[[str], bool]) -> tuple[str, ...]:
    """The hexes an action names, as :func:`units_of` does for units."""
    if isinstance(action, Act):
        return action.hexes()
    return tuple(w for w in action.notation().split() if known(w))
