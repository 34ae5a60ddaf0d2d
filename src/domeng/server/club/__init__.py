"""A club: the service open to its members beyond the home (``domeng serve --club``).

At home anyone may pick any profile; a club's service is reached over the internet,
so only its members play there, each signed in to their own profile:

- :mod:`.passwords`: Argon2id hashes, and the passwords refused as too weak;
- :mod:`.members`: members, guests and their one-time links (the owner's command line
  and the admins' page make them);
- :mod:`.sessions`: signing in and out, the session cookie;
- :mod:`.throttle`: sign-in guesses counted per account and per address;
- :mod:`.roles`: who may do what to whom;
- :mod:`.gate`: the ASGI middleware that lets only members in, a guest only to its
  table, an admin only to the members' pages, and no other site's page change anything;
- :mod:`.moderation`: reports, hidden messages, mutes, suspensions;
- :mod:`.state`: the club as the service holds it (:class:`Club`);
- :mod:`.routes`: its HTTP routes (docs/protocol.md, "A club").
"""

from .state import Club

__all__ = ["Club"]
