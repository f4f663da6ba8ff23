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

  // -- what changed ---------------------------------------------------------------------------
  // What changed between two boards, in the table's words: changes.py's ``board_changes`` (the
  // one ``adj diff`` prints), worked out here from the boards the page already holds. Boards as
  // ``draw`` takes them (zones and counters as objects, cards as the page writes them: defaults
  // left out). tests/test_page_changes.py keeps the two word for word alike.
  const zoneName = (z) => (z.owner ? z.owner + "'s " + z.name : z.name);
  const zoneSize = (z) => (z.count !== undefined && z.count !== null ? z.count : z.cards.length);
  const known = (c) => c.id !== undefined && c.id !== null;
  const own = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
  const get = (o, k, d) => (own(o, k) ? o[k] : d);
  // Python's == on JSON values: 1 == 1.0 == true, lists and objects by value
  function same(x, y) {
    if (x === y) return true;
    if (x === undefined) x = null;
    if (y === undefined) y = null;
    const tx = typeof x, ty = typeof y;
    if ((tx === "number" || tx === "boolean") && (ty === "number" || ty === "boolean")) return Number(x) === Number(y);
    if (x === null || y === null || tx !== "object" || ty !== "object") return x === y;
    if (Array.isArray(x) !== Array.isArray(y)) return false;
    const kx = Object.keys(x), ky = Object.keys(y);
    return kx.length === ky.length && kx.every((k) => own(y, k) && same(x[k], y[k]));
  }
  // Python's str() of a counter's value (``changes._value``)
  function pyStr(v) {
    if (v === undefined || v === null) return "None";
    if (v === true) return "True";
    if (v === false) return "False";
    if (Array.isArray(v)) return "[" + v.map(pyRepr).join(", ") + "]";
    if (typeof v === "object") return "{" + Object.entries(v).map(([k, x]) => pyRepr(k) + ": " + pyRepr(x)).join(", ") + "}";
    return String(v);
  }
  const pyRepr = (v) => (typeof v === "string" ? "'" + v.replace(/\\/g, "\\\\").replace(/'/g, "\\'") + "'" : pyStr(v));
  const value = (v) => (v === true ? "yes" : v === false ? "no" : v === undefined || v === null ? "-" : pyStr(v));
  const uniq = (...lists) => [...new Set([].concat(...lists))];

  function named(b) {
    const m = new Map();
    for (const z of b.zones) m.set(zoneName(z), z);
    return m;
  }

  function touched(before, after, old, now) {
    if (old.size !== before.zones.length || now.size !== after.zones.length) return null;
    const ids = new Set();
    const add = (z) => { for (const c of z.cards) if (known(c)) ids.add(c.id); };
    for (const [name, z] of now) {
      const a = old.get(name);
      if (a === undefined || !same(a, z)) {
        add(z);
        if (a !== undefined) add(a);
      }
    }
    for (const [name, a] of old) if (!now.has(name)) add(a);
    return ids;
  }

  function places(b, ids) {
    const out = new Map();
    for (const z of b.zones) {
      let name = null;
      for (const c of z.cards) {
        if (known(c) && (ids === null || ids.has(c.id))) {
          if (name === null) name = zoneName(z);
          if (!out.has(c.id)) out.set(c.id, []);
          out.get(c.id).push([name, z, c]);
        }
      }
    }
    return out;
  }

  function cardChanges(card, where, a, b) {
    const out = [];
    if (!a.down !== !b.down) out.push(card + " in " + where + " turned face " + (b.down ? "down" : "up"));
    if (!a.turned !== !b.turned) out.push(card + " in " + where + " " + (b.turned ? "turned sideways" : "stood upright"));
    const ca = a.counters || {}, cb = b.counters || {};
    for (const k of uniq(Object.keys(ca), Object.keys(cb))) {
      const x = get(ca, k, 0), y = get(cb, k, 0);
      if (!same(x, y)) out.push(card + " in " + where + ": " + k + " " + pyStr(x) + " -> " + pyStr(y));
    }
    const ga = a.group === undefined ? null : a.group, gb = b.group === undefined ? null : b.group;
    if (ga !== gb) out.push(card + " in " + where + " " + (gb ? "joined " + gb : "left " + pyStr(ga)));
    return out;
  }

  function cards(before, after, oldZones, newZones) {
    const ids = touched(before, after, oldZones, newZones);
    const old = places(before, ids), now = places(after, ids);
    const out = [];
    for (const card of uniq([...old.keys()], [...now.keys()])) {
      let was = old.get(card) || [], is = now.get(card) || [];  // where it was, where it is
      if (was.length === 1 && is.length === 1 && was[0][0] === is[0][0]) {
        out.push(...cardChanges(card, is[0][0], was[0][2], is[0][2]));
        continue;
      }
      was = was.slice();
      is = is.slice();
      for (const place of was.slice()) {
        const match = is.find((q) => q[0] === place[0]);
        if (match !== undefined) {
          was.splice(was.indexOf(place), 1);
          is.splice(is.indexOf(match), 1);
          out.push(...cardChanges(card, match[0], place[2], match[2]));
        }
      }
      while (was.length && is.length) out.push(card + " moved from " + was.shift()[0] + " to " + is.shift()[0]);
      for (const [name] of was) out.push(card + " left " + name);
      for (const [name] of is) out.push(card + " came into " + name);
    }
    return out;
  }

  function piles(old, now, after) {
    const out = [];
    const list = now.size === after.zones.length ? [...now] : after.zones.map((z) => [zoneName(z), z]);
    for (const [name, z] of list) {
      const a = old.get(name);
      const nOld = a ? zoneSize(a) : 0, nNew = zoneSize(z);
      if (nOld === nNew) continue;
      const hidden = z.cards.some((c) => !known(c)) || (a !== undefined && a.cards.some((c) => !known(c)));
      const countedOnly = !z.cards.length && (a === undefined || !a.cards.length);
      if (hidden || countedOnly) out.push(name + ": " + nOld + " -> " + nNew + " cards");
    }
    return out;
  }

  function counters(before, after) {
    const out = [], cb = before.counters || {}, ca = after.counters || {};
    for (const p of uniq(Object.keys(cb), Object.keys(ca))) {
      const a = get(cb, p, {}), b = get(ca, p, {});
      for (const k of uniq(Object.keys(a), Object.keys(b))) {
        const x = get(a, k, null), y = get(b, k, null);
        if (!same(x, y)) out.push(p + " " + k + " " + value(x) + " -> " + value(y));
      }
    }
    return out;
  }

  function table(before, after) {
    const out = [];
    if (before.turn !== after.turn && after.turn) out.push("turn: " + (before.turn || "-") + " -> " + after.turn);
    if (before.phase !== after.phase) out.push("phase: " + (before.phase || "-") + " -> " + (after.phase || "-"));
    if (before.waiting !== after.waiting && after.waiting) out.push("waiting for " + after.waiting);
    const gone = new Map();
    for (const n of before.notes) gone.set(n, (gone.get(n) || 0) + 1);
    const heads = new Set();
    for (const n of after.notes) {
      if (gone.get(n)) gone.set(n, gone.get(n) - 1);
      else { out.push(n); heads.add(n.split(":")[0]); }
    }
    for (const [n, k] of gone) if (!heads.has(n.split(":")[0])) for (let j = 0; j < k; j++) out.push("over: " + n);
    return out;
  }

  function changes(before, after) {
    const old = named(before), now = named(after);
    return [...counters(before, after), ...cards(before, after, old, now), ...piles(old, now, after), ...table(before, after)];
  }

  window.adjBoard = { el, cardEl, zoneEl, draw, changes };
})();
