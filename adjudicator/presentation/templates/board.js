"use strict";
// The table as the game draws it (Game.board: Board, Zone, BoardCard in adjudicator/engine/kit.py),
// shared by the judge's desk (page.js), the pages of adj serve (table.js, judge.js) and nothing
// else. Every string is written with textContent: no text from a match is ever parsed as markup.
(function () {
  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  };

  function cardEl(c) {
    const e = el("div", "card");
    e.dataset.card = c.id || "";
    if (c.down) e.classList.add("down");
    if (c.down && c.id) e.classList.add("known");
    if (c.turned) e.classList.add("turned");
    if (c.label) e.appendChild(el("span", "label", c.label));
    if (c.id && c.id !== c.label) e.appendChild(el("span", "cid", c.id));
    for (const t of c.tags || []) e.appendChild(el("span", "tag", t));
    const ctr = Object.entries(c.counters || {}).filter(([, v]) => v);
    const counted = ctr.map(([k, v]) => k + " " + v).join(" · ");
    if (ctr.length) e.appendChild(el("span", "ctr", counted));  // in the flow, below the name and tags: it covers neither
    if (c.turned) e.appendChild(el("span", "turn", "turned"));
    e.title = [c.label || (c.down ? "face-down card" : "card"), c.id, ...(c.tags || []), counted, c.turned ? "turned" : ""]
      .filter(Boolean).join(" · ");
    return e;
  }

  function zoneEl(z) {
    const size = z.count !== undefined ? z.count : z.cards.length;
    const box = el("div", "zone");
    box.dataset.zone = (z.owner || "") + "/" + z.name;
    box.dataset.size = size;
    box.appendChild(el("h4", null, z.name + " (" + size + ")"));
    const cards = el("div", "cards");
    if (z.cards.length > 12) box.classList.add("fan");  // a big hand: cards overlap, all still drawn
    if (z.cards.length > 4) box.classList.add("many");  // overlap when the table is tight (fitBoard)
    if (!z.cards.length && size === 0) box.classList.add("empty");
    let group = null, gname = null;
    for (const c of z.cards) {
      if (c.group) {
        if (c.group !== gname) {
          group = el("div", "group");
          group.appendChild(el("span", "gname", c.group));
          cards.appendChild(group);
          gname = c.group;
        }
        group.appendChild(cardEl(c));
      } else {
        gname = null;
        cards.appendChild(cardEl(c));
      }
    }
    if (size > z.cards.length) cards.appendChild(el("div", "pile", (size - z.cards.length) + (z.cards.length ? " more" : " cards")));
    box.appendChild(cards);
    return box;
  }

  // ``b``: {counters, zones (zone objects), turn, notes}; ``players`` in seat order. ``opts.me``:
  // the viewer's own player, whose box is marked and drawn last (nearest the player, as at a
  // table); ``opts.marks``: say "turn" on the box of the player whose turn it is.
  function draw(root, b, players, opts) {
    const me = (opts || {}).me, marks = (opts || {}).marks;
    const frag = document.createDocumentFragment();
    const order = me && players.includes(me) ? [...players.filter((p) => p !== me), me] : players;
    for (const p of order) {
      const box = el("div", "player");
      box.dataset.player = p;
      if (b.turn === p) box.classList.add("turn");
      if (p === me) box.classList.add("me");
      const h = el("h3", null, p);
      if (p === me) h.appendChild(el("span", "you", "you"));
      if (marks && b.turn === p) h.appendChild(el("span", "turnmark", "turn"));
      box.appendChild(h);
      const ctr = el("div", "counters");
      for (const [k, v] of Object.entries((b.counters || {})[p] || {})) ctr.appendChild(el("span", "chip", k + ": " + (v === true ? "yes" : v === false ? "no" : v)));
      box.appendChild(ctr);
      const zs = el("div", "zones");
      for (const z of b.zones) if (z.owner === p) zs.appendChild(zoneEl(z));
      box.appendChild(zs);
      frag.appendChild(box);
    }
    const shared = b.zones.filter((z) => !z.owner || !players.includes(z.owner));
    if (shared.length) {
      const box = el("div", "shared");
      const zs = el("div", "zones");
      for (const z of shared) zs.appendChild(zoneEl(z));
      box.appendChild(zs);
      frag.appendChild(box);
    }
    if (b.notes && b.notes.length) {
      const ul = el("ul", "notes");
      for (const n of b.notes) ul.appendChild(el("li", null, n));
      frag.appendChild(ul);
    }
    root.replaceChildren(frag);
  }

  window.adjBoard = { el, cardEl, zoneEl, draw };
})();
