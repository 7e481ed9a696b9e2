"""The board in a browser: a self-contained replay file, and a local page to play on.

* :mod:`pbem.web.replay`: a whole game as one HTML file (SVG and plain script inline,
  nothing fetched) from one side's view or, once the game is over, the referee's; with
  the audit's verdict and every roll explained.  It can be mailed and opened years later
  without pbem.
* :mod:`pbem.web.server`: ``pbem board GAME``, the same board served on loopback to the
  browser that traded its one-time address for a cookie, where clicks become actions
  applied through the session, as ``pbem act``.
* :mod:`pbem.web.lobby`: ``pbem board`` with no game, the lobby of every game of the home
  (whose move, what was sent), where games are started, joined from an uploaded invite
  and opened, behind the same guards.

The pages' scripts (``board.js``, ``lobby.js``) and styles (``board.css``, ``lobby.css``)
ship in the wheel beside this module; the board is built from :mod:`pbem.view` data only,
like every renderer.
"""
