"""The board in a browser: a self-contained replay file, and a local page to play on.

* :mod:`pbem.web.replay`: a whole game as one HTML file (SVG and plain script inline,
  nothing fetched) from one side's view or, once the game is over, the referee's; with
  the audit's verdict and every roll explained.  It can be mailed and opened years later
  without pbem.
* :mod:`pbem.web.server`: ``pbem board GAME``, the same board served on loopback to the
  browser that traded its one-time address for a cookie, where clicks become actions
  applied through the session, as ``pbem act``.

The page's script (``board.js``) and style (``board.css``) ship in the wheel beside this
module; the page is built from :mod:`pbem.view` data only, like every renderer.
"""
