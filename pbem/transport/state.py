"""What this home has already handled, per folder and per mailbox, so nothing is taken twice.

Kept in ``<home>/transport/handled.json``, written atomically.  The session would refuse
a second copy of a file anyway (as a duplicate); this record spares the work and the
repeated notes, and for IMAP it backs up the ``$PbemHandled`` keyword on servers that do
not keep keywords.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pbem.atomic import write_atomic
from pbem.transport.base import TransportError

__all__ = ["HandledState"]


class HandledState:
    """A JSON map ``section -> key -> record``, loaded lazily and saved on :meth:`save`."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._data: dict[str, dict[str, Any]] | None = None

    @classmethod
    def of_home(cls, home: Path) -> HandledState:
        return cls(Path(home) / "transport" / "handled.json")

    def _load(self) -> dict[str, dict[str, Any]]:
        if self._data is None:
            if self.path.exists():
                try:
                    data = json.loads(self.path.read_text("utf-8"))
                except (OSError, ValueError) as exc:
                    raise TransportError(f"cannot read the handled-files record ({exc}); "
                                         f"delete it to start afresh", path=str(self.path)) \
                        from None
                if not isinstance(data, dict):
                    raise TransportError("the handled-files record is not a JSON object",
                                         path=str(self.path))
                self._data = data
            else:
                self._data = {}
        return self._data

    def section(self, name: str) -> dict[str, Any]:
        data = self._load()
        section = data.setdefault(name, {})
        if not isinstance(section, dict):
            section = data[name] = {}
        return section

    def save(self) -> None:
        data = self._load()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(self.path, (json.dumps(data, indent=1, sort_keys=True) + "\n").encode(),
                     0o600)
