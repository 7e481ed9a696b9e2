"""One exception class per kind of failure, each with its exit code.

Every message is meant to be shown to a person as one line: it names the file (or game,
turn, hex) and the cause.  The CLI maps ``exit_code`` to the process status so a script
can tell a tampered file from a rules violation without parsing text.
"""

from __future__ import annotations

from collections.abc import Iterable

from pbem.text import MESSAGE_LIMIT, bound, safe
from pbem.text import quote as quote  # re-exported: errors quote file values with it


class PbemError(Exception):
    """Root of every error pbem raises on purpose."""

    exit_code = 1

    def __init__(self, message: str, *, path: str | None = None) -> None:
        self.path = path
        # the message often quotes a file: it must neither flood nor drive the terminal
        # (issue 20 item 8 and 9), whichever part of pbem raised it
        text = f"{path}: {message}" if path else message
        super().__init__(safe(bound(text, MESSAGE_LIMIT)))


class UsageError(PbemError):
    """The command line or a configuration value is wrong."""

    exit_code = 2


class FormatError(PbemError):
    """Bytes that are not a well-formed pbem file (size, msgpack, canonical form, fields)."""

    exit_code = 3


class LocalSaveError(FormatError):
    """This home's own save and the files beside it do not belong together (heads swapped
    between games, a save put back beside another transcript, a damaged disk).

    Nothing came from the opponent, so asking the sender again cannot help: the message
    says what to do here (``pbem rebuild``), and the CLI shows it as written."""

    worded = True


class SignatureError(PbemError):
    """A signature does not verify, or the key is malformed or not the one pinned."""

    exit_code = 4


class ChainError(PbemError):
    """The file does not fit the game's chain: gap, rollback, other game, fork."""

    exit_code = 5

    def __init__(self, message: str, *, path: str | None = None, reason: str = "chain") -> None:
        #: machine-readable cause: missing, duplicate, rollback, other-game, fork, key, version
        self.reason = reason
        super().__init__(message, path=path)


class DuplicateFile(ChainError):
    """A file already accepted arrived again: nothing to do, nothing changed."""

    exit_code = 0

    def __init__(self, message: str, *, path: str | None = None,
                 latest: bool = False) -> None:
        super().__init__(message, path=path, reason="duplicate")
        #: the game's latest file came again: the opponent's reminder that the next file
        #: is the reader's (``pbem nudge``, issue 32 item 5), or a send retried
        self.latest = latest


class MismatchError(PbemError):
    """Engine id, rules_version or scenario data differ from what the game pins."""

    exit_code = 6


class DiceError(PbemError):
    """A reveal does not hash to the committed link, or a recorded roll is not re-derivable."""

    exit_code = 7


class DesyncError(PbemError):
    """Replaying the sender's actions gave a state digest other than the one they signed."""

    exit_code = 8


class IllegalAction(PbemError):
    """The rules forbid this action now.  ``rule`` names the rule that forbids it."""

    exit_code = 9

    def __init__(self, message: str, *, rule: str | None = None) -> None:
        self.rule = rule
        super().__init__(f"{rule}: {message}" if rule else message)


class ActionSyntaxError(PbemError):
    """The text of an action cannot be parsed in the engine's notation."""

    exit_code = 9
    #: a word too many or too few for the form (pbem.grammar): the refusal names the
    #: form, and no nearest word would mend it
    miscounted = False


class NotYourTurn(PbemError):
    """The local side has nothing to decide now (or the file is sealed)."""

    exit_code = 10


class KeyStoreError(PbemError):
    """No identity, a wrong passphrase, or unsafe permissions on the key file."""

    exit_code = 11


class ScenarioError(PbemError):
    """Scenario data failed validation; the message names the file, the key and the line."""

    exit_code = 12


class ConcurrencyError(PbemError):
    """Another pbem process saved the same game meanwhile; nothing was written."""

    exit_code = 13


#: the exit status of an import that took in some files and refused others (an mbox with
#: a stranger's file beside the real one, junk beside a turn in a folder): the game moved
#: on, so a script must not read it as a failure to import, yet something was refused and
#: is worth a look (issue 36 item 5)
PARTIAL_IMPORT = 14


def import_status(imported: int, refused: Iterable[int]) -> int:
    """The exit status of an import (``receive``, ``inbox``, ``fetch``): 0 when nothing was
    refused, :data:`PARTIAL_IMPORT` when ``imported`` files came in and some were refused,
    else the first refusal's own code (``refused``: each file's code, 0 for no refusal)."""
    codes = [code for code in refused if code]
    if not codes:
        return 0
    return PARTIAL_IMPORT if imported else codes[0]
