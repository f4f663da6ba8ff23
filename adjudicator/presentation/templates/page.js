"use strict";
// The judge's desk. Everything shown comes from the JSON data element and is written with
// textContent only: no string from a match is ever parsed as markup.
(function () {
  const D = JSON.parse(document.getElementById("adj-data").textContent);
  const items = D.items;
  const $ = (id) => document.getElementById(id);
  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  };
  const state = { i: 0, viewer: D.viewer, open: new Set(D.forks.map((_, k) => k)) };  // branches shown open
  const per = () => D.per[state.viewer];
  const rows = [];
  const forkRows = [];

  // -- the board ------------------------------------------------------------------------------
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

  function drawBoard(b) {
    const root = $("board");
    root.replaceChildren();
    const zones = b.zones.map((k) => D.zones[k]);
    const st = $("status");
    st.replaceChildren();
    st.appendChild(el("span", "phase", b.phase || "—"));
    if (b.turn) st.appendChild(el("span", null, " · turn: " + b.turn));
    if (b.waiting) st.appendChild(el("span", null, " · waiting for " + b.waiting));
    st.appendChild(el("div", "score", "outcome after this event: " + D.outcomes[items[state.i].o]));
    for (const p of D.players) {
      const box = el("div", "player");
      box.dataset.player = p;
      if (b.turn === p) box.classList.add("turn");
      box.appendChild(el("h3", null, p));
      const ctr = el("div", "counters");
      for (const [k, v] of Object.entries((b.counters || {})[p] || {})) ctr.appendChild(el("span", "chip", k + ": " + (v === true ? "yes" : v === false ? "no" : v)));
      box.appendChild(ctr);
      const zs = el("div", "zones");
      for (const z of zones) if (z.owner === p) zs.appendChild(zoneEl(z));
      box.appendChild(zs);
      root.appendChild(box);
    }
    const shared = zones.filter((z) => !z.owner || !D.players.includes(z.owner));
    if (shared.length) {
      const box = el("div", "shared");
      const zs = el("div", "zones");
      for (const z of shared) zs.appendChild(zoneEl(z));
      box.appendChild(zs);
      root.appendChild(box);
    }
    if (b.notes && b.notes.length) {
      const ul = el("ul", "notes");
      for (const n of b.notes) ul.appendChild(el("li", null, n));
      root.appendChild(ul);
    }
    fitBoard();
  }

  // Every player on screen at once: when the table does not fit its pane, cards overlap more and
  // get smaller, one step at a time, until it does (or the smallest step is reached).
  const FITS = ["", "tight", "tighter"];
  function fitBoard() {
    const table = $("table"), root = $("board");
    for (const k of FITS) {
      root.classList.remove(...FITS.filter(Boolean));
      if (k) root.classList.add(k);
      root.dataset.fit = k || "normal";
      if (table.scrollHeight <= table.clientHeight) return;
    }
  }
  window.addEventListener("resize", fitBoard);

  // -- the selected event ---------------------------------------------------------------------
  function seqLabel(it) {
    return it.seq === null ? "x@" + it.head : String(it.seq);
  }

  function drawDetails() {
    const it = items[state.i], P = per();
    const box = $("details");
    box.replaceChildren();
    const head = it.seq === null ? "rejected attempt (tried after seq " + it.head + ")" : "seq " + it.seq;
    box.appendChild(el("h2", null, head + " · " + it.by + " · " + it.type));
    box.appendChild(el("div", "text", P.t[state.i]));
    const marks = P.m[state.i];
    if (marks.length) {
      const ul = el("ul", "marks");
      for (const [k, text] of marks) {
        const li = el("li");
        li.appendChild(el("span", "mark " + k, k));
        li.appendChild(document.createTextNode(" " + text));
        ul.appendChild(li);
      }
      box.appendChild(ul);
    }
    const ch = P.c[state.i];
    if (ch.length) {
      box.appendChild(el("strong", null, "what changed"));
      const ul = el("ul", "changes");
      for (const c of ch) ul.appendChild(el("li", null, c));
      box.appendChild(ul);
    }
    const banner = $("banner");
    banner.className = "";
    if (it.seq === null) {
      banner.hidden = false;
      banner.classList.add("rejected");
      banner.textContent = "Rejected where it was tried — the table as it stood after seq " + it.head + ". " + marks.map((m) => m[1]).join(" ");
    } else if (it.ab !== undefined) {
      banner.hidden = false;
      banner.textContent = "Abandoned branch: undone by the rewind at seq " + it.ab + " (to seq " + D.forks[it.fork].to + ").";
    } else {
      banner.hidden = true;
      banner.textContent = "";
    }
  }

  // -- the log and the forks ------------------------------------------------------------------
  function buildLog() {
    const log = $("log");
    const frag = document.createDocumentFragment();
    const forkStarted = new Set();
    items.forEach((it, i) => {
      if (it.fork !== undefined && !forkStarted.has(it.fork)) {
        forkStarted.add(it.fork);
        const f = D.forks[it.fork];
        const fr = el("div", "forkrow");
        fr.dataset.fork = it.fork;
        const fold = el("span", "fold");
        fold.addEventListener("click", (e) => { e.stopPropagation(); toggleFork(it.fork, false); });
        fr.appendChild(fold);
        fr.appendChild(el("span", "what"));
        fr.addEventListener("click", () => toggleFork(it.fork, true));
        forkRows[it.fork] = fr;
        frag.appendChild(fr);
      }
      const r = el("div", "row " + it.kind);
      r.dataset.i = i;
      if (it.seq !== null) r.dataset.seq = it.seq;
      if (it.fork !== undefined) { r.classList.add("abandoned"); r.dataset.fork = it.fork; }
      r.appendChild(el("span", "seq", seqLabel(it)));
      r.appendChild(el("span", "t"));
      r.appendChild(el("span", "ms"));
      r.addEventListener("click", () => select(i));
      rows.push(r);
      frag.appendChild(r);
    });
    log.appendChild(frag);
    fillLog();
    drawForkRows();
  }

  function fillLog() {
    const P = per();
    rows.forEach((r, i) => {
      r.children[1].textContent = P.t[i];
      const ms = r.children[2];
      ms.replaceChildren();
      for (const [k] of P.m[i]) ms.appendChild(el("span", "mark m " + k, k));
    });
  }

  function drawForkRows() {
    forkRows.forEach((fr, k) => {
      if (!fr) return;
      const f = D.forks[k];
      const open = state.open.has(k);
      fr.children[0].textContent = open ? "▾ " : "▸ ";
      fr.children[0].title = open ? "fold this branch away" : "show this branch";
      fr.children[1].textContent = "fork: " + f.abandoned.length + " event(s) after seq " + f.to +
        " abandoned by the rewind at seq " + f.rewind + " — click to go to the branch";
      fr.classList.toggle("open", open);
    });
  }

  function toggleFork(k, jump) {
    if (state.open.has(k) && !jump) state.open.delete(k);
    else state.open.add(k);
    for (const r of rows) if (r.dataset.fork === String(k)) r.classList.toggle("hide", !state.open.has(k));
    drawForkRows();
    if (jump) {
      const first = items.findIndex((it) => it.fork === k);
      if (first >= 0) select(first);
    }
  }

  function buildTrack() {
    const track = $("track");
    const n = Math.max(1, items.length - 1);
    const frag = document.createDocumentFragment();
    items.forEach((it, i) => {
      const kinds = per().m[i].map((m) => m[0]);
      if (it.seq === null) kinds.unshift("rejected");
      if (!kinds.length) return;
      const t = el("span", "tick mark " + kinds[0]);
      t.style.left = (100 * i / n) + "%";
      t.title = seqLabel(it) + ": " + kinds.join(", ");
      t.addEventListener("click", () => select(i));
      frag.appendChild(t);
    });
    track.replaceChildren(frag);
  }

  // -- selection ------------------------------------------------------------------------------
  function select(i) {
    i = Math.max(0, Math.min(items.length - 1, i));
    if (rows[state.i]) rows[state.i].classList.remove("sel");
    state.i = i;
    const it = items[i];
    if (it.fork !== undefined && !state.open.has(it.fork)) toggleFork(it.fork, false);
    rows[i].classList.add("sel");
    $("slider").value = i;
    $("position").textContent = (i + 1) + " / " + items.length + " · seq " + seqLabel(it);
    drawBoard(D.boards[per().b[i]]);
    drawDetails();
    rows[i].scrollIntoView({ block: "nearest" });  // after the details: their height moves the log
    document.body.dataset.item = i;
  }

  function jumpTo(seq) {
    const i = items.findIndex((it) => it.seq === seq);
    if (i >= 0) select(i);
    else $("position").textContent = "no event " + seq + " in this match (1 to " + D.head + ")";
  }

  function setViewer(v) {
    if (!D.per[v]) return;
    state.viewer = v;
    $("viewer").value = v;
    document.body.dataset.viewer = v;
    fillLog();
    buildTrack();
    select(state.i);
  }

  // -- wiring ---------------------------------------------------------------------------------
  const slider = $("slider");
  slider.max = items.length - 1;
  slider.addEventListener("input", () => select(Number(slider.value)));
  $("first").addEventListener("click", () => select(0));
  $("prev").addEventListener("click", () => select(state.i - 1));
  $("next").addEventListener("click", () => select(state.i + 1));
  $("last").addEventListener("click", () => select(items.length - 1));
  $("jump").addEventListener("change", (e) => jumpTo(Number(e.target.value)));
  $("viewer").addEventListener("change", (e) => setViewer(e.target.value));
  document.addEventListener("keydown", (e) => {
    if (e.target && (e.target.tagName === "INPUT" && e.target.type !== "range" || e.target.tagName === "SELECT")) return;
    const moves = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
    if (e.key in moves) { select(state.i + moves[e.key]); e.preventDefault(); }
    else if (e.key === "Home") { select(0); e.preventDefault(); }
    else if (e.key === "End") { select(items.length - 1); e.preventDefault(); }
  });

  document.body.dataset.viewer = state.viewer;
  buildLog();
  buildTrack();
  // the page opens on the head event: the table as it stands, not on a later rejected attempt
  let opening = items.length - 1;
  while (opening > 0 && items[opening].seq !== D.head) opening--;
  select(items[opening].seq === D.head ? opening : items.length - 1);
  window.adjDesk = { select, jumpTo, setViewer, toggleFork, data: D, state };
  document.body.dataset.ready = "1";
})();
