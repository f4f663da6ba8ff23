"use strict";
// The floor: one card per table (players, game, turn and phase, who it waits for and for how long,
// an open dispute, the result), kept live by the floor stream, with filters. A card opens that
// table's judge page. Built for a few hundred tables: a card is drawn again only when its table
// moved, and the filters only hide cards.
(function () {
  const { el } = window.adjBoard;
  const L = window.adjLive;
  const $ = (id) => document.getElementById(id);
  let tok = L.token("judge");
  const cards = new Map();  // match id -> {data, node}
  let skew = 0;  // the server's clock minus this one's, in ms
  const filters = new Set();

  function since(d) { return Date.parse(d.since) || Date.now(); }

  function cardNode(d) {
    const a = el("a", "tcard");
    a.href = "/tables/" + encodeURIComponent(d.match_id) + "/judge";
    a.dataset.match = d.match_id;
    const top = el("div", "top");
    top.appendChild(el("strong", "id", d.match_id));
    if (d.error) {
      a.classList.add("broken");
      a.appendChild(top);
      a.appendChild(el("div", "dispute", "cannot be read: " + d.error));
      return a;
    }
    top.appendChild(el("span", "game", d.title));
    a.dataset.game = d.game;
    a.appendChild(top);
    a.appendChild(el("div", "players", d.players.join(" v ")));
    const where = [d.turn ? "turn: " + d.turn : "", d.phase || ""].filter(Boolean).join(" · ");
    if (where) a.appendChild(el("div", "phase", where));
    if (d.finished) {
      a.classList.add("finished");
      a.appendChild(el("div", "result", d.outcome_text));
    } else {
      const w = el("div", "wait");
      w.appendChild(document.createTextNode(d.to_move.length ? "waiting for " + d.to_move.join(", ") + " · " : "in play · "));
      const t = el("span", "timer");
      t.dataset.since = String(since(d));
      w.appendChild(t);
      a.appendChild(w);
    }
    if (d.judge_waited) {
      a.classList.add("judge");
      a.appendChild(el("div", "call", "a judge's decision is awaited"));
    }
    if (d.refused) {
      a.classList.add("disputed");
      a.appendChild(el("div", "dispute", "refused: " + d.refused.rule + " (" + d.refused.by + ", " + L.words(d.refused.type) + ")" +
        (d.refused.count > 1 ? " ×" + d.refused.count : "")));
    }
    a.appendChild(el("div", "seq", "event " + d.head_seq));
    a.setAttribute("aria-label", d.match_id + ": " + a.textContent);
    return a;
  }

  function tick() {
    const t0 = Date.now() + skew;
    for (const t of document.querySelectorAll("#tables .tcard:not(.hide) .timer")) t.textContent = L.elapsed(t0 - Number(t.dataset.since));
  }

  function matches(d) {
    if (d.error) return filters.size === 0;
    const g = $("game").value, q = $("find").value.trim().toLowerCase();
    if (g && d.game !== g) return false;
    if (q && !(d.match_id.toLowerCase().includes(q) || d.players.some((p) => p.toLowerCase().includes(q)))) return false;
    if (!filters.size) return true;
    return (filters.has("judge") && d.judge_waited) || (filters.has("disputed") && !!d.refused) ||
      (filters.has("finished") && d.finished) || (filters.has("playing") && !d.finished);
  }

  function applyFilters() {
    let shown = 0;
    const n = { judge: 0, disputed: 0, playing: 0, finished: 0 };
    for (const { data: d, node } of cards.values()) {
      const ok = matches(d);
      node.classList.toggle("hide", !ok);
      shown += ok;
      if (!d.error) {
        n.judge += !!d.judge_waited; n.disputed += !!d.refused; n.finished += !!d.finished; n.playing += !d.finished;
      }
    }
    for (const b of document.querySelectorAll(".filter")) b.querySelector(".n").textContent = "(" + n[b.dataset.filter] + ")";
    $("count").textContent = shown === cards.size ? cards.size + " tables" : shown + " of " + cards.size + " tables";
    document.body.dataset.shown = shown;
    tick();
  }

  function put(d) {
    const had = cards.get(d.match_id);
    const node = cardNode(d);
    if (had) had.node.replaceWith(node);
    else {
      // in the order of the ids (numbers within them counted as numbers)
      const after = [...cards.keys()].filter((k) => cmp(k, d.match_id) > 0).sort(cmp)[0];
      $("tables").insertBefore(node, after ? cards.get(after).node : null);
      const games = $("game");
      if (d.game && ![...games.options].some((o) => o.value === d.game)) {
        const o = el("option", null, d.title);
        o.value = d.game;
        games.appendChild(o);
      }
    }
    cards.set(d.match_id, { data: d, node });
  }
  const collator = new Intl.Collator(undefined, { numeric: true });
  const cmp = (a, b) => collator.compare(a, b);

  async function loadAll() {
    const r = await L.api("GET", "/floor/tables", tok, undefined, 60000);
    if (r.status === 401 || r.status === 403) return login((r.data && r.data.message) || "");
    if (r.status !== 200) return problem("The floor cannot be shown: " + ((r.data && r.data.message) || "status " + r.status));
    skew = Date.parse(r.data.now) - Date.now() || 0;
    const seen = new Set();
    for (const d of r.data.tables.sort((a, b) => cmp(a.match_id, b.match_id))) { put(d); seen.add(d.match_id); }
    for (const [k, v] of cards) if (!seen.has(k)) { v.node.remove(); cards.delete(k); }
    applyFilters();
  }

  // a table that moved is asked for again, once however many messages it had meanwhile
  const pending = new Set();
  let flushing = null;
  function moved(matchId) {
    pending.add(matchId);
    if (!flushing) flushing = setTimeout(flush, 150);
  }
  async function flush() {
    const ids = [...pending];
    pending.clear();
    for (const id of ids) {
      const r = await L.api("GET", "/floor/tables?match=" + encodeURIComponent(id), tok);
      if (r.status === 200) for (const d of r.data.tables) put(d);
    }
    flushing = null;
    applyFilters();
    document.body.dataset.updates = String(Number(document.body.dataset.updates || 0) + ids.length);
    if (pending.size) flushing = setTimeout(flush, 150);
  }

  function problem(text) {
    $("problem").hidden = false;
    $("problem").textContent = text;
  }

  const askToken = L.judgeLogin((t) => { tok = t; start(); });
  function login(why) {
    tok = null;
    askToken(why);
  }

  for (const b of document.querySelectorAll(".filter")) {
    b.addEventListener("click", () => {
      const f = b.dataset.filter;
      if (filters.has(f)) filters.delete(f); else filters.add(f);
      b.setAttribute("aria-pressed", String(filters.has(f)));
      applyFilters();
    });
  }
  $("game").addEventListener("change", applyFilters);
  $("find").addEventListener("input", applyFilters);
  $("filters").addEventListener("submit", (e) => e.preventDefault());

  let streaming = false;
  async function start() {
    if (!tok) return login("");
    await loadAll();
    if (!tok) return;
    document.body.dataset.ready = "1";
    if (streaming) return;
    streaming = true;
    setInterval(tick, 1000);
    L.stream("/floor/stream", tok, (ev, data) => {
      if (ev === "floor") loadAll();
      else if (ev === "entry" || ev === "rejected") moved(data.match_id);
    }, (s) => {
      const c = $("conn");
      c.textContent = { live: "live", reconnecting: "reconnecting…", refused: "not live" }[s] || s;
      c.className = "conn " + s;
    });
  }

  window.adjFloor = { cards, loadAll, applyFilters };
  start();
})();
