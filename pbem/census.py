"""The rules census: random games counted by rule, to find rule bugs without a reader.

Random legal play (:class:`pbem.testing.Chooser`: SHA-256 of a seed and a counter, never
Python's ``random``) through the engine API, counting per rule what fired and what
refused:

* every :class:`~pbem.engine.Event` by its ``rule``, every chance request by its
  ``rule``, every decision offered by its ``kind`` (and ``rule``);
* refusals: at sampled decisions, plausible actions that were *not* listed (listed paths
  one step longer by a step another listed path takes from there; the listed actions
  with one word swapped for the same word of another listed action, so another unit of
  the stack on its neighbour's path; actions listed at the previous decision of the same
  kind) are applied to a copy, and the rule of each :class:`IllegalAction` counted.

and flagging what a rule bug leaves behind:

* a rule of the engine's coverage list that never fires nor refuses (:func:`coverage_rows`
  reads the "Rules coverage" table of the engine's page);
* a declared decision kind (:meth:`Engine.decision_kinds`) never offered, or one offered
  but not declared;
* a state collection that only grows over a game (:class:`GrowthTracker`: the size of
  every list and map of the snapshot, by path);
* an action ``legal_actions`` listed that ``apply`` refused, a decision whose default is
  not among the legal actions, an unlisted action that crashed the engine instead of
  being refused.

Everything here is deterministic: the same engine, scenario and seed count the same.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgpack

from pbem.engine import Engine, Event, State
from pbem.errors import IllegalAction, PbemError
from pbem.testing import Chooser

NO_RULE = "(no rule)"


# --- collections that only grow ---------------------------------------------------------


def sizes(data: Any, path: str = "") -> dict[str, int]:
    """The size of every list and map in snapshot data, by path (``units.10A``,
    ``queue.0.group``); the root is ``""``."""
    # it runs at every step of a census game over the whole snapshot: exact types (what
    # snapshots hold) and bound methods keep it a third of the isinstance walk's time
    out: dict[str, int] = {}
    if type(data) not in (dict, list, tuple):
        return out
    stack: list[tuple[str, Any]] = [(path, data)]
    push = stack.append
    pop = stack.pop
    nested = (dict, list, tuple)
    while stack:
        here, value = pop()
        out[here] = len(value)
        prefix = here + "." if here else ""
        items = value.items() if type(value) is dict else enumerate(value)
        for k, v in items:
            if type(v) in nested:
                push((f"{prefix}{k}", v))
    return out


@dataclass
class Growth:
    """One collection over one game: its size when first seen and last, and whether it
    ever shrank (a collection that disappears shrinks to 0).  A collection that appears
    later starts at its size then: a record added whole (a unit entering) is not growth."""

    first: int
    last: int
    peak: int
    shrank: bool = False

    def only_grew(self, min_growth: int) -> bool:
        return (not self.shrank and self.last - self.first >= min_growth
                and self.last >= 2 * self.first)


class GrowthTracker:
    """Sizes of every collection of a game's successive snapshots, by path."""

    def __init__(self) -> None:
        self.paths: dict[str, Growth] = {}
        self._prev: dict[str, int] = {}
        self.samples = 0

    def observe(self, data: Any) -> None:
        now = sizes(data)
        for path, n in self._prev.items():
            if path not in now and n > 0:
                self.paths[path].shrank = True
                self.paths[path].last = 0
        for path, n in now.items():
            g = self.paths.get(path)
            if g is None:
                self.paths[path] = Growth(n, n, n)
                continue
            if n < self._prev.get(path, 0):
                g.shrank = True
            g.last = n
            g.peak = max(g.peak, n)
        self._prev = now
        self.samples += 1

    def flagged(self, min_growth: int = 8) -> dict[str, Growth]:
        """Collections that never shrank and ended at least ``min_growth`` larger and at
        least twice as large as they started."""
        return {p: g for p, g in sorted(self.paths.items()) if g.only_grew(min_growth)}


# --- the counts -------------------------------------------------------------------------


@dataclass
class CensusResult:
    """Counts of one or more games (results of several games add up with :meth:`merge`)."""

    engine: str
    games: int = 0
    capped: int = 0
    actions: int = 0
    rolls: int = 0
    scenarios: Counter[str] = field(default_factory=Counter)
    events: Counter[str] = field(default_factory=Counter)
    #: rules an event's text cites besides its own ("defense doubled (8.4.1)"): a
    #: modifier or a case applied inside another rule's event
    cited: Counter[str] = field(default_factory=Counter)
    untagged_events: Counter[str] = field(default_factory=Counter)
    chance: Counter[str] = field(default_factory=Counter)
    decisions: Counter[str] = field(default_factory=Counter)
    decision_rules: Counter[str] = field(default_factory=Counter)
    refusals: Counter[str] = field(default_factory=Counter)
    #: rule -> one refused action and its message, to read what the rule refuses
    refusal_examples: dict[str, str] = field(default_factory=dict)
    probes: int = 0
    #: unlisted actions apply() accepted: allowed (parameter variants), shown as examples
    accepted_unlisted: list[str] = field(default_factory=list)
    accepted_unlisted_count: int = 0
    #: the same by the action's first word: the examples are capped, a count per kind is
    #: not, so a kind of accepted action no list offers cannot hide among ten examples
    accepted_kinds: Counter[str] = field(default_factory=Counter)
    #: the flags: each entry names scenario, seed and step, enough to reproduce it
    listed_refused: list[str] = field(default_factory=list)
    bad_defaults: list[str] = field(default_factory=list)
    crashes: list[str] = field(default_factory=list)
    #: path -> games in which it only grew; with the largest first/last seen
    growth: Counter[str] = field(default_factory=Counter)
    growth_sizes: dict[str, tuple[int, int]] = field(default_factory=dict)
    #: path -> games in which it was seen at all
    growth_seen: Counter[str] = field(default_factory=Counter)

    def merge(self, other: CensusResult) -> None:
        self.games += other.games
        self.capped += other.capped
        self.actions += other.actions
        self.rolls += other.rolls
        self.probes += other.probes
        self.accepted_unlisted_count += other.accepted_unlisted_count
        for mine, theirs in ((self.scenarios, other.scenarios), (self.events, other.events),
                             (self.cited, other.cited),
                             (self.untagged_events, other.untagged_events),
                             (self.chance, other.chance), (self.decisions, other.decisions),
                             (self.decision_rules, other.decision_rules),
                             (self.refusals, other.refusals), (self.growth, other.growth),
                             (self.accepted_kinds, other.accepted_kinds),
                             (self.growth_seen, other.growth_seen)):
            mine.update(theirs)
        self.accepted_unlisted = (self.accepted_unlisted + other.accepted_unlisted)[:10]
        self.listed_refused += other.listed_refused
        self.bad_defaults += other.bad_defaults
        self.crashes += other.crashes
        for rule, text in other.refusal_examples.items():
            self.refusal_examples.setdefault(rule, text)
        for path, (a, b) in other.growth_sizes.items():
            old = self.growth_sizes.get(path)
            if old is None or b - a > old[1] - old[0]:
                self.growth_sizes[path] = (a, b)

    def to_data(self) -> dict[str, Any]:
        """Plain data (for a JSON file a report can be made from again)."""
        return {k: (dict(sorted(v.items())) if isinstance(v, Counter) else v)
                for k, v in vars(self).items()}

    @staticmethod
    def from_data(data: Mapping[str, Any]) -> CensusResult:
        out = CensusResult(str(data["engine"]))
        for k, v in data.items():
            mine = getattr(out, k)
            if isinstance(mine, Counter):
                setattr(out, k, Counter(v))
            elif k == "growth_sizes":
                out.growth_sizes = {p: (int(a), int(b)) for p, (a, b) in v.items()}
            else:
                setattr(out, k, v)
        return out

    def rules(self) -> dict[str, tuple[int, int]]:
        """Rule -> (firings, refusals): events (and rules their texts cite), chance
        requests and decisions offered count as firings; refusals are of probed and of
        listed actions."""
        fired: Counter[str] = Counter()
        fired.update(self.events)
        fired.update(self.cited)
        fired.update(self.chance)
        fired.update(self.decision_rules)
        out = {r: (fired[r], self.refusals[r]) for r in {*fired, *self.refusals}}
        return dict(sorted(out.items(), key=lambda kv: rule_key(kv[0])))


# --- one game ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Settings:
    """How a census plays: caps, how often to probe and to measure the state."""

    max_steps: int = 50_000
    #: game turns to play at most (``None``: to the end)
    max_turns: int | None = None
    #: probe every Nth decision (0: never) with up to ``probes`` unlisted actions
    probe_every: int = 7
    probes: int = 6
    #: measure the snapshot's collections every Nth step (1: every step)
    track_every: int = 1
    min_growth: int = 8


def _note(scenario: str, seed: int, step: int, text: str) -> str:
    return f"{scenario} seed {seed} step {step}: {text}"


def play(engine: Engine, scenario: str, seed: int, settings: Settings = Settings(),
         options: Mapping[str, str] | None = None) -> CensusResult:
    """One random game of ``scenario``, counted (see the module docstring)."""
    out = CensusResult(engine.id, games=1)
    out.scenarios[scenario] += 1
    state = engine.new_state(scenario, engine.resolve_options(dict(options or {})))
    choose = Chooser(f"census/{engine.id}/{scenario}/{seed}")
    probe_choose = Chooser(f"census-probe/{engine.id}/{scenario}/{seed}")
    tracker = GrowthTracker()
    last_turn = (None if settings.max_turns is None
                 else state.turn_number() + settings.max_turns - 1)
    #: what was listed at the last decision, and at the last decision of each kind
    previous: list[str] = []
    by_kind: dict[str, list[str]] = {}
    decisions = 0
    step = 0

    def count(events: Iterable[Event]) -> None:
        for e in events:
            if e.rule:
                out.events[e.rule] += 1
            else:
                out.untagged_events[e.kind] += 1
            for r in cited_rules(e.text):
                if r != e.rule:
                    out.cited[r] += 1

    while not state.is_terminal():
        if step >= settings.max_steps or (
                last_turn is not None and state.turn_number() > last_turn):
            out.capped += 1
            break
        if step % settings.track_every == 0:
            tracker.observe(state.snapshot()["body"])
        step += 1
        if state.is_chance():
            request = state.chance_request()
            out.chance[request.rule or NO_RULE] += 1
            count(state.apply_outcome(choose.outcome(request)))
            out.rolls += 1
            continue
        side = state.current_player()
        legal = state.legal_actions()
        listed = [a.notation() for a in legal]
        decision = state.decision()
        if decision is not None:
            decisions += 1
            out.decisions[decision.kind] += 1
            out.decision_rules[decision.rule or NO_RULE] += 1
            if decision.default is not None and decision.default.notation() not in listed:
                out.bad_defaults.append(_note(
                    scenario, seed, step, f"{decision.kind} default "
                    f"{decision.default.notation()!r} is not among the legal actions"))
        if not legal:
            out.listed_refused.append(_note(scenario, seed, step,
                                            f"no legal action for {side}"))
            break
        if settings.probe_every and decisions % settings.probe_every == 0:
            kind = decision.kind if decision is not None else ""
            _probe(state, legal, listed, [*by_kind.get(kind, []), *previous], probe_choose,
                   settings.probes, out, _note(scenario, seed, step, ""))
        previous = listed
        if decision is not None:
            by_kind[decision.kind] = listed
        # the bot's choice; an action the list offered and apply refuses is a flag, and
        # the bot then tries the others so the game goes on
        order = list(range(len(legal)))
        first = choose.below(len(order))
        order = order[first:] + order[:first]
        for i in order:
            try:
                count(state.apply(legal[i], side=side))
                break
            except IllegalAction as exc:
                out.refusals[exc.rule or NO_RULE] += 1
                out.listed_refused.append(_note(scenario, seed, step,
                                                f"listed {listed[i]!r} refused: {exc}"))
        else:
            break
        out.actions += 1
    tracker.observe(state.snapshot()["body"])
    for path, g in tracker.paths.items():
        out.growth_seen[path] += 1
        if g.only_grew(settings.min_growth):
            out.growth[path] += 1
            out.growth_sizes[path] = (g.first, g.last)
    return out


_TOKEN = re.compile(r"\S+")
_RULE_WORD = re.compile(r"\bRule\s+\d+(?:\.[0-9A-Za-z]+)*")
_PAREN = re.compile(r"\(([^()]*)\)")
_BARE = re.compile(r"(?<![\w.])\d+\.\d+(?:\.\d+)*(?![\w.])")


def cited_rules(text: str) -> list[str]:
    """Rule numbers a text cites: "Rule 12.B" anywhere, bare numbers ("8.4.1") only in
    parentheses, as the engines write them; each once."""
    found = [m.group(0) for m in _RULE_WORD.finditer(text)]
    for group in _PAREN.finditer(text):
        found += [m.group(0) for m in _BARE.finditer(group.group(1))]
    return list(dict.fromkeys(found))


def _variants(listed: Sequence[str], choose: Chooser, want: int) -> list[str]:
    """Listed actions with one word swapped for the word in the same place of another
    listed action with the same verb, preferably one sharing another word: another unit
    of the stack on a path listed for its neighbour, an attack with another unit."""
    groups: dict[tuple[str, int], list[list[str]]] = {}
    for text in listed:
        words = _TOKEN.findall(text)
        groups.setdefault((words[0], len(words)), []).append(words)
    out: list[str] = []
    keys = sorted(k for k, v in groups.items() if len(v) > 1 and k[1] > 1)
    for _ in range(want * 4):
        if not keys or len(out) >= want:
            break
        rows = groups[keys[choose.below(len(keys))]]
        words = list(rows[choose.below(len(rows))])
        # half the probes swap the first word after the verb (the unit, mostly): the
        # per-unit rules are where a listed-for-one, refused-for-another action lives
        pos = 1 if choose.below(2) == 0 else 1 + choose.below(len(words) - 1)
        # a donor that shares another word (the same start hex: another unit of the
        # stack) tests the rules that depend on the unit, not only where it stands
        near = [r for r in rows if r[pos] != words[pos]
                and any(r[j] == words[j] for j in range(1, len(words)) if j != pos)]
        donor = (near or rows)[choose.below(len(near or rows))]
        if donor[pos] == words[pos]:
            continue
        words[pos] = donor[pos]
        out.append(" ".join(words))
    return out


def _extensions(listed: Sequence[str], choose: Chooser, want: int) -> list[str]:
    """Listed paths one step longer, by a step another listed path takes from the same
    place (so the step itself is one a unit there can make): what stops this unit there
    is a rule of movement (its points, a ZOC, terrain for its type, a border)."""
    steps: dict[str, list[str]] = {}
    paths: list[list[str]] = []
    for text in listed:
        words = _TOKEN.findall(text)
        if len(words) >= 4:
            paths.append(words)
            for x, y in itertools.pairwise(words[2:]):
                steps.setdefault(x, []).append(y)
    out: list[str] = []
    for _ in range(want * 3):
        if not paths or len(out) >= want:
            break
        words = paths[choose.below(len(paths))]
        nxt = [y for y in steps.get(words[-1], []) if y not in words]
        if nxt:
            out.append(" ".join([*words, nxt[choose.below(len(nxt))]]))
    return out


def _twin(state: State) -> State:
    """An independent copy through the snapshot: what a save and a load give, and much
    cheaper than ``clone`` for an engine whose state holds caches and shared tables.

    The bytes are the state's own canonical encoding (cached on the state, so the probes
    of one decision encode once), so the strict reader's checks (a prescan in Python and
    a second encoding to prove the bytes canonical) are skipped: they cost 100 ms a copy
    on For the Motherland!, msgpack's own decoding in C a few."""
    data = msgpack.unpackb(state.encoded(), raw=False, use_list=True, strict_map_key=True)
    return state.engine.restore(data)


def _probe(state: State, legal: Sequence[Any], listed: Sequence[str], previous: Sequence[str],
           choose: Chooser, want: int, out: CensusResult, where: str) -> None:
    """Apply unlisted plausible actions to a copy and count the rule of each refusal;
    apply two other listed actions to a copy too (they must be accepted)."""
    known = set(listed)
    stale = [t for t in previous if t not in known]
    candidates: list[str] = []
    for _ in range(min(3, len(stale))):
        candidates.append(stale[choose.below(len(stale))])
    candidates += _extensions(listed, choose, want // 2)
    candidates += _variants(listed, choose, want)
    seen: set[str] = set()
    twin: State | None = None
    for text in candidates:
        if text in known or text in seen or len(seen) >= want:
            continue
        seen.add(text)
        try:
            action = state.parse_action(text)
        except PbemError:
            continue  # not an action of this game at all: nothing the rules refuse
        if action.notation() in known:
            continue
        if twin is None:
            twin = _twin(state)
        out.probes += 1
        try:
            twin.apply(action)
        except IllegalAction as exc:
            out.refusals[exc.rule or NO_RULE] += 1
            out.refusal_examples.setdefault(exc.rule or NO_RULE, f"{text!r}: {exc}")
            continue
        except PbemError:
            continue
        except Exception as exc:  # the census reports a crash instead of stopping on it
            out.crashes.append(f"{where}{text!r} raised {type(exc).__name__}: {exc}")
            twin = None
            continue
        out.accepted_unlisted_count += 1
        out.accepted_kinds[text.split(" ", 1)[0]] += 1
        if len(out.accepted_unlisted) < 10:
            out.accepted_unlisted.append(f"{where}{text!r}")
        twin = None
    for i in sorted({choose.below(len(legal)) for _ in range(2)}):
        other = _twin(state)
        try:
            other.apply(legal[i])
        except IllegalAction as exc:
            out.refusals[exc.rule or NO_RULE] += 1
            out.listed_refused.append(f"{where}listed {listed[i]!r} refused: {exc}")


# --- what the engine says it implements ---------------------------------------------------

_ID = r"\d+(?:\.[0-9A-Za-z]+)*"
_LATER = re.compile(rf",\s*(?:Rule\s+)?({_ID})(?:\s*-\s*({_ID}))?(?![\w.])")
_HEAD = re.compile(rf"\s*(?:Rule\s+)?({_ID})(?:\s*-\s*({_ID}))?\s*(?:,|\band\b)?")


def rule_key(rule: str) -> tuple[tuple[int, int | str], ...]:
    """Sort key: rule numbers in numeric order, part by part ("8.10" after "8.9")."""
    text = rule.removeprefix("Rule ").strip()
    match = re.match(_ID, text)
    if not match:
        return ((2, text.lower()),)
    parts = match.group(0).split(".")
    return tuple((0, int(p)) if p.isdigit() else (1, p.lower()) for p in parts)


def _parts(rule: str) -> list[str] | None:
    text = rule.removeprefix("Rule ").strip()
    match = re.match(_ID, text)
    if not match:
        return None
    parts = match.group(0).split(".")
    while len(parts) > 1 and parts[-1] in ("0", "x"):
        parts.pop()
    return parts


@dataclass(frozen=True)
class CoverageRow:
    """One row of an engine page's "Rules coverage" table: what rule numbers it covers."""

    text: str
    status: str
    #: (first, last) rule-number ranges; a single number is (n, n)
    ranges: tuple[tuple[str, str], ...] = ()

    def covers(self, rule: str) -> bool:
        parts = _parts(rule)
        if not self.ranges:
            name = self.text.lower()
            return rule.lower() == name or rule.lower().startswith(name + " ")
        if parts is None:
            return False
        for lo, hi in self.ranges:
            lo_p, hi_p = _parts(lo) or [], _parts(hi) or []
            depth = len(lo_p)
            if len(parts) < depth:
                continue
            key = rule_key(".".join(parts[:depth]))
            if rule_key(".".join(lo_p)) <= key <= rule_key(".".join(hi_p[:depth] or lo_p)):
                return True
        return False


def coverage_rows(page: str) -> list[CoverageRow]:
    """The rows of the "## Rules coverage" table of an engine page, without the rows whose
    status says the rule is not implemented."""
    rows: list[CoverageRow] = []
    section = page.split("## Rules coverage", 1)
    if len(section) < 2:
        return rows
    for line in section[1].splitlines():
        if line.startswith("## "):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.startswith("|") or len(cells) < 2 or cells[0] in ("rule", "") \
                or set(cells[0]) <= {"-"}:
            continue
        head, status = cells[0], cells[1]
        if status.lower().startswith("not"):
            continue
        ranges: list[tuple[str, str]] = []
        at = 0
        while True:
            m = _HEAD.match(head, at)
            if not m or m.end() == at:
                break
            ranges.append((m.group(1), m.group(2) or m.group(1)))
            at = m.end()
        # numbers after a comma later in the cell ("3.1 steps of the Movement Phase, 5.2.3")
        ranges += [(m.group(1), m.group(2) or m.group(1)) for m in _LATER.finditer(head, at)
                   if ranges]
        rows.append(CoverageRow(head, status, tuple(ranges)))
    return rows


def coverage(result: CensusResult, rows: Sequence[CoverageRow]
             ) -> tuple[list[tuple[CoverageRow, int, int]], list[str]]:
    """Each coverage row with the firings and refusals of the rules it covers; and the
    rules that fired or refused but no row covers."""
    counts = result.rules()
    table = []
    for row in rows:
        fired = sum(f for r, (f, _) in counts.items() if row.covers(r))
        refused = sum(x for r, (_, x) in counts.items() if row.covers(r))
        table.append((row, fired, refused))
    stray = [r for r in counts if r != NO_RULE and not any(row.covers(r) for row in rows)]
    return table, stray


# --- the report ---------------------------------------------------------------------------


def _table(head: Sequence[str], rows: Sequence[Sequence[object]], markdown: bool) -> str:
    cells = [[str(c) for c in r] for r in rows]
    if markdown:
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        lines += ["| " + " | ".join(c.replace("|", "\\|") for c in r) + " |" for r in cells]
        return "\n".join(lines)
    widths = [max(len(h), *(len(r[i]) for r in cells)) if cells else len(h)
              for i, h in enumerate(head)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)).rstrip()]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
              for r in cells]
    return "\n".join(lines)


def report(result: CensusResult, rows: Sequence[CoverageRow], declared: Sequence[str], *,
           markdown: bool = False, min_growth_games: float = 0.5) -> tuple[str, int]:
    """The census as text (or Markdown tables for the engine page) and the number of
    flags raised."""
    parts: list[str] = []
    flags = 0
    item = "- " if markdown else "  "
    per_rule = result.rules()
    parts.append(f"{result.engine}: {result.games} games ("
                 + ", ".join(f"{s} {n}" for s, n in sorted(result.scenarios.items()))
                 + f"), {result.actions} actions, {result.rolls} rolls, {result.capped} capped, "
                 f"{result.probes} unlisted actions probed")
    parts.append("\nFirings and refusals by rule (firings: events, rules cited in event "
                 "texts, chance requests, decisions offered; refusals: of probed unlisted "
                 "actions):")
    parts.append(_table(("rule", "events", "cited", "chance", "decisions", "refusals"),
                        [(r, result.events[r], result.cited[r], result.chance[r],
                          result.decision_rules[r], result.refusals[r]) for r in per_rule],
                        markdown))
    if rows:
        table, stray = coverage(result, rows)
        parts.append("\nCoverage table rows (the engine page's \"Rules coverage\"):")
        parts.append(_table(("coverage row", "status", "firings", "refusals", ""),
                            [(row.text, row.status, f, x, "ZERO" if f + x == 0 else "")
                             for row, f, x in table], markdown))
        zeros = [row.text for row, f, x in table if f + x == 0]
        if zeros:
            flags += len(zeros)
            parts.append(f"\nFLAG (a) rules with no firing and no refusal in {result.games} "
                         f"games: {'; '.join(zeros)}")
        if stray:
            parts.append("\nRules that fired but no coverage row covers: " + ", ".join(stray))
    if declared:
        never = [k for k in declared if not result.decisions[k]]
        undeclared = sorted(k for k in result.decisions if k not in declared)
        parts.append("\nDecision kinds offered: " + ", ".join(
            f"{k} {result.decisions[k]}" for k in [*declared, *undeclared]))
        if never:
            flags += len(never)
            parts.append("FLAG (b) decision kinds never offered: " + ", ".join(never))
        if undeclared:
            flags += len(undeclared)
            parts.append("FLAG (b) decision kinds offered but not declared: "
                         + ", ".join(undeclared))
    grown = [p for p, n in sorted(result.growth.items())
             if n >= max(1, min_growth_games * result.growth_seen[p])]
    if grown:
        flags += len(grown)
        parts.append("\nFLAG (c) collections that only grow (games where it only grew / "
                     "games where it exists; sizes first -> last in the game it grew most):")
        for p in grown:
            first, last = result.growth_sizes[p]
            parts.append(f"{item}`{p}`: {result.growth[p]}/{result.growth_seen[p]}, "
                         f"{first} -> {last}" if markdown else
                         f"{item}{p}: {result.growth[p]}/{result.growth_seen[p]}, "
                         f"{first} -> {last}")
    for label, items in (("(d) listed actions refused", result.listed_refused),
                         ("(d) defaults not among the legal actions", result.bad_defaults),
                         ("(e) unlisted actions that crashed the engine", result.crashes)):
        if items:
            flags += len(items)
            parts.append(f"\nFLAG {label}: {len(items)}")
            parts += [f"{item}{x}" for x in items[:20]]
    if result.untagged_events:
        parts.append("\nEvents without a rule, by kind: " + ", ".join(
            f"{k} {n}" for k, n in sorted(result.untagged_events.items())))
    if result.refusal_examples and not markdown:
        parts.append("\nA refusal of each rule:")
        for rule in sorted(result.refusal_examples, key=rule_key):
            parts.append(f"  {rule}: {result.refusal_examples[rule]}"[:160])
    if result.accepted_unlisted_count:
        parts.append(f"\nUnlisted actions accepted (allowed for parameter variants): "
                     f"{result.accepted_unlisted_count}" + (
                         " (" + ", ".join(f"{k} {n}" for k, n in sorted(
                             result.accepted_kinds.items())) + ")"
                         if result.accepted_kinds else "") + ", e.g.")
        parts += [f"  {x}" for x in result.accepted_unlisted[:5]]
    parts.append(f"\n{flags} flag(s)")
    return "\n".join(parts), flags
