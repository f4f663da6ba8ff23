"""The engine: the contract a game fulfils and the generic fold over it, for every game alike.

``protocol`` names the shapes (an action, a violation, a legal action with its choices, an
outcome); ``kit`` is the base class a game extends, with its hooks and defaults; ``inputs`` and
``decklist`` are the rules by which any input is decoded; ``words`` the plain-text defaults of the
kit's hooks; ``judging`` the judge's own actions every match has (notes, penalties); ``fold``
applies a match's events one ``step`` at a time, with rewinds and corrections; ``snapshot`` keeps
folded states; ``registry`` finds a game by name. Nothing here knows a game or a front-end.
"""
