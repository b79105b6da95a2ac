"""The table screen: a read-only page on the players' phones, served by its own process.

- ``public``: the contract's public view of a race (what any display outside the box may show);
- ``source``: the journal followed read-only and replayed with the pack's pure rules;
- ``server``: the HTTP server (GET and HEAD only, bounded) that pushes each change to the
  page with Server-Sent Events;
- ``page.html``: the page itself, every byte it needs served by the box.
"""
