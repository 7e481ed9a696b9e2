"""How turn files travel: a shared folder (Dropbox, Syncthing, a network drive) and email.

Both sit behind the small interface of :mod:`pbem.transport.base`: a transport *delivers*
the sealed bytes of one file somewhere, and *collects* candidate files, each of which goes
through one :class:`~pbem.transport.base.Router` that decides, from the file's own claims,
whether it is imported, left alone (own file, unknown game, invitation) or refused, and
says why in one line.  The transports never interpret a file themselves: the session does.
"""

from pbem.transport.base import Delivered, Outcome, Router, Transport, TransportError

__all__ = ["Delivered", "Outcome", "Router", "Transport", "TransportError"]
