"""48th Panzer Korps: the steps of each phase, in the book's order of play."""
