"""The adjudicator: the rules of every game, the fold that applies them, and the match service.

Its layers, each importing only those below it (and ``events``, the store beneath them all):

- ``engine``: the contract every game fulfils (``protocol``, ``kit``), the input rules it decodes
  by, and the generic fold with rewinds, corrections and snapshots. It knows no game.
- ``games``: one package per game; a game imports only the engine and its own modules, and the
  registry loads it by name.
- ``records``: recorded match files (JSONL) read and written line by line.
- ``presentation``: a match in people's words and pictures: text, what changed, the desk's page.
- ``service``: ``MatchService``, load, check and append one match at a time over a store.
- ``authority``: the judges' and players' keys, signed entries, checkpoints, proofs and the audit.

The front-ends (``cli``, ``server``) import this package; nothing here imports them.
"""
