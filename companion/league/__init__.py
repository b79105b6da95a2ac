"""The club's record, read from the journal: below the app, the ui and the table screen,
which read it; it imports nothing above it (core, kit, the games' registry and data,
receipts, charts and the session runner are below it).

Its floors, each importing only the ones before it:

- ``ledger``: the finished races and the championship each counts in;
- ``corrections``: the club's changes to a race (void, move, a place or a name corrected,
  a penalty) and how a race counts with them;
- ``seasons``: the seasons of a game, their races and tables, merged names;
- ``paper`` (the receipts: a championship, a season, a race's results and their stamps),
  ``onscreen`` (the same on the box's screen) and ``steward`` (the changes made and undone);
- ``teams`` (a season's team standings, the club's pairs or the game's own);
- ``record`` (a driver's record), ``exchange`` (export and import) and ``club`` (what the
  box's club menu asks, ``Host.club()``);
- ``page`` (a season as one web page, ``companion results --season NAME --html FILE``).
"""
