"""The commands of ``pbem``, one module per group of commands: each is imported only
when one of its commands runs (issue 19; :class:`pbem.cli.LazyGroup`)."""
