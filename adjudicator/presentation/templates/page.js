"use strict";
// The judge's desk: the table at any event of a match, its log with forks and rejections, the
// timeline. Drawn with board.js; everything shown comes from the page's data and is written with
// textContent only. The self-contained page (adj replay --html) reads its data from the JSON
// element #adj-data; the judge's table page of adj serve hands new data to ``adjDeskMount`` each
// time the match moves.
(function () {
  const { el } = window.adjBoard;
  const $ = (id) => document.getElementById(id);
  let D = null, items = [], itemOf = new Map();  // seq -> the index of its item
  const state = { i: 0, viewer: null, open: new Set() };  // branches shown open
  const per = () => D.per[state.viewer];
  let rows = [], forkRows = [];
  let onSelect = null;

  // -- the board ------------------------------------------------------------------------------
  // a board of the page's data, its zones, counters and notes looked up in the pools
  function resolve(b) {
    return { ...b, zones: b.zones.map((k) => D.zones[k]), counters: D.counters[b.counters],
             notes: D.note_lists[b.notes].map((k) => D.notes[k]) };
  }
  const EMPTY = { counters: {}, zones: [], turn: "", phase: "", waiting: "", notes: [] };  // before seq 1

  // What the event of item ``i`` changed on the viewer's table: its board beside the board after
  // the seq before it (a rejected attempt changed nothing).
  function changesAt(i) {
    const seq = items[i].seq;
    if (seq === null) return [];
    const P = per(), k = seq > 1 ? itemOf.get(seq - 1) : undefined;
    const before = k === undefined ? EMPTY : resolve(D.boards[P.b[k]]);
    return window.adjBoard.changes(before, resolve(D.boards[P.b[i]]));
  }
  function drawBoard(b) {
    const st = $("status");
    st.replaceChildren();
    st.appendChild(el("span", "phase", b.phase || "—"));
    if (b.turn) st.appendChild(el("span", null, " · turn: " + b.turn));
    if (b.waiting) st.appendChild(el("span", null, " · waiting for " + b.waiting));
    st.appendChild(el("div", "score", "outcome after this event: " + D.outcomes[items[state.i].o]));
    window.adjBoard.draw($("board"), resolve(b), D.players);
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
  window.addEventListener("resize", () => { if (D) fitBoard(); });

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
    const ch = changesAt(state.i);
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
    rows = [];
    forkRows = [];
    items.forEach((it, i) => {
      if (it.fork !== undefined && !forkStarted.has(it.fork)) {
        forkStarted.add(it.fork);
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
      if (it.fork !== undefined) {
        r.classList.add("abandoned");
        r.dataset.fork = it.fork;
        if (!state.open.has(it.fork)) r.classList.add("hide");
      }
      r.appendChild(el("span", "seq", seqLabel(it)));
      r.appendChild(el("span", "t"));
      r.appendChild(el("span", "ms"));
      r.addEventListener("click", () => select(i));
      rows.push(r);
      frag.appendChild(r);
    });
    log.replaceChildren(frag);
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
    if (onSelect) onSelect(it);
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

  // -- data -----------------------------------------------------------------------------------
  // A first mount opens at the end of the log; a later one (the match moved) stays on the item
  // selected, unless that was the last one: then it follows the match to its new end.
  function mount(data, opts) {
    const first = D === null;
    const atEnd = first || state.i >= items.length - 1;
    const was = first ? null : items[state.i];
    D = data;
    items = D.items;
    itemOf = new Map();
    items.forEach((it, i) => { if (it.seq !== null && !itemOf.has(it.seq)) itemOf.set(it.seq, i); });
    if (opts && opts.onSelect) onSelect = opts.onSelect;
    if (first) {
      state.viewer = D.viewer;
      state.open = new Set(D.forks.map((_, k) => k));
    } else {
      D.forks.forEach((_, k) => { if (k >= forkRows.length) state.open.add(k); });
      if (!D.per[state.viewer]) state.viewer = D.viewer;
    }
    $("slider").max = items.length - 1;
    $("jump").max = D.head;
    document.body.dataset.viewer = state.viewer;
    buildLog();
    buildTrack();
    // the page opens on the head event: the table as it stands, not on a later rejected attempt
    let at = items.length - 1;
    while (at > 0 && items[at].seq !== D.head) at--;
    if (items[at].seq !== D.head) at = items.length - 1;
    if (!atEnd && was) {
      const same = items.findIndex((it) => it.seq === was.seq && it.head === was.head && it.type === was.type);
      if (same >= 0) at = same;
    }
    select(at);
    return api;
  }

  const api = { select, jumpTo, setViewer, toggleFork, changesAt, get data() { return D; }, state, mount };

  // -- wiring ---------------------------------------------------------------------------------
  const slider = $("slider");
  slider.addEventListener("input", () => select(Number(slider.value)));
  $("first").addEventListener("click", () => select(0));
  $("prev").addEventListener("click", () => select(state.i - 1));
  $("next").addEventListener("click", () => select(state.i + 1));
  $("last").addEventListener("click", () => select(items.length - 1));
  $("jump").addEventListener("change", (e) => jumpTo(Number(e.target.value)));
  $("viewer").addEventListener("change", (e) => setViewer(e.target.value));
  document.addEventListener("keydown", (e) => {
    const t = e.target;
    if (!D || (t && (t.tagName === "INPUT" && t.type !== "range" || t.tagName === "SELECT" || t.tagName === "TEXTAREA" ||
                     (t.closest && t.closest("[data-own-keys]"))))) return;
    const moves = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
    if (e.key in moves) { select(state.i + moves[e.key]); e.preventDefault(); }
    else if (e.key === "Home") { select(0); e.preventDefault(); }
    else if (e.key === "End") { select(items.length - 1); e.preventDefault(); }
  });

  window.adjDesk = api;
  const inline = $("adj-data");
  if (inline) {
    mount(JSON.parse(inline.textContent));
    document.body.dataset.ready = "1";
  }
})();
