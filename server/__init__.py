"""``adj serve``: the adjudicator as a live service for a tournament floor (docs/serve.md).

A front-end beside ``cli``, over the same ``MatchService`` and stores: ``app`` builds the Litestar
app from its parts and runs it under uvicorn; ``api`` holds the routes; ``auth`` decides what a
credential may do, over the seats' tokens of ``tokens``; ``matches`` keeps matches folded in
memory; ``live`` is the server-sent events, over one pub/sub interface (in-process, or PostgreSQL
LISTEN/NOTIFY for several servers on one store); ``views`` builds each answer for its viewer, as
``--json --as`` does; ``schema`` the request and response types the OpenAPI document comes from.
"""
