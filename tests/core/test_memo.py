"""pbem.memo.Memo: what engines derive from a position, made once per key and bounded."""

from __future__ import annotations

from pbem.memo import Memo


def test_made_once_per_key_even_when_the_value_is_false_or_none() -> None:
    calls: list[str] = []
    memo: Memo[str, object] = Memo(10)

    def make(key: str, value: object) -> object:
        calls.append(key)
        return value

    for _ in range(3):
        assert memo.get("no", lambda: make("no", False)) is False
        assert memo.get("none", lambda: make("none", None)) is None
        assert memo.get("zoc", lambda: make("zoc", {"1020": True})) == {"1020": True}
    assert calls == ["no", "none", "zoc"]


def test_never_holds_more_than_its_limit_and_answers_the_same_after_forgetting() -> None:
    memo: Memo[int, int] = Memo(4)
    for n in range(20):
        assert memo.get(n, lambda n=n: n * n) == n * n  # type: ignore[misc]
        assert len(memo) <= 4
    assert memo.get(3, lambda: 9) == 9
    memo.clear()
    assert len(memo) == 0


def test_find_answers_what_is_kept_and_makes_nothing() -> None:
    memo: Memo[str, tuple[str, ...]] = Memo(4)
    assert memo.find("0708") is None
    assert len(memo) == 0  # asking kept nothing
    assert memo.get("0708", lambda: ("1/33",)) == ("1/33",)
    assert memo.find("0708") == ("1/33",)
    assert memo.get("empty", lambda: ()) == ()
    assert memo.find("empty") == ()  # an empty value is kept, not None


def test_keep_holds_a_value_made_by_the_caller_within_the_limit() -> None:
    memo: Memo[int, str] = Memo(3)
    assert [memo.keep(k, f"v{k}") for k in range(3)] == ["v0", "v1", "v2"]
    assert [memo.find(k) for k in range(3)] == ["v0", "v1", "v2"]
    assert memo.get(1, lambda: "made") == "v1"  # kept: not made again
    assert memo.keep(9, "v9") == "v9"  # past the limit: afresh, as get starts afresh
    assert len(memo) == 1 and memo.find(0) is None and memo.find(9) == "v9"


def test_find_is_the_kept_dicts_own_lookup_through_every_restart() -> None:
    """A board view finds each of its counters with ``find`` on every click's redraw
    (issue 35): it is the dict's own ``get``, no Python call, and it stays the memo's
    through ``clear`` and a restart past the limit (the dict is emptied, never
    replaced)."""
    import inspect

    memo: Memo[int, str] = Memo(2)
    find = memo.find
    assert inspect.isbuiltin(find)
    memo.keep(1, "a")
    memo.keep(2, "b")
    memo.keep(3, "c")  # past the limit: afresh
    assert find(3) == "c" and find(1) is None
    memo.clear()
    memo.keep(4, "d")
    assert find(4) == "d" and memo.find(4) == "d"
