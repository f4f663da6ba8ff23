"use strict";
// The judge's table page: the desk of the match (page.js: the table at any event, the log with
// forks and rejections, the timeline), live; every open action and the judge's calls as forms
// (forms.js), any entry at all (a correction) as JSON, and new links with QR codes for the seats.
(function () {
  const { el } = window.adjBoard;
  const L = window.adjLive;
  const $ = (id) => document.getElementById(id);
  const match = document.body.dataset.match;
  const enc = encodeURIComponent(match);
  const path = "/matches/" + enc;
  let tok = L.token("judge");
  let now = null, shown = "", lastSeq = null, deskAt = 0;
  const kept = { refusals: new Map() };
  const desk = window.adjDesk;

  function selectedSeq() {
    const D = desk.data;
    if (!D) return null;
    const it = D.items[desk.state.i];
    return it.seq === null ? it.head : it.seq;
  }

  async function send(action, fields, key) {
    return L.api("POST", path + "/events", tok, { type: action.type, by: action.who, ...fields, key, expect_seq: now ? now.seq : undefined });
  }

  function after(r) {
    if (r.status === 201 || r.status === 409 || r.status === 422) refresh();
  }

  function drawNow(d) {
    document.title = d.match_id + " — judge — " + d.title;
    $("title").textContent = d.title;
    $("players").textContent = d.players.join(" v ");
    $("outcome").textContent = d.outcome_text;
    const bar = $("turnbar");
    bar.replaceChildren();
    bar.className = d.outcome.status !== "in_progress" ? "over" : d.to_move.includes("judge") ? "yours" : "wait";
    bar.appendChild(el("strong", null, d.outcome.status !== "in_progress" ? "Finished: " + d.outcome_text :
      d.to_move.length ? "Waiting for " + d.to_move.join(", ") : "In play"));
    if (d.board.waiting && d.outcome.status === "in_progress" && d.board.waiting !== d.to_move.join(", ")) bar.appendChild(el("span", null, " — " + d.board.waiting));
    bar.appendChild(el("span", "seq", " · event " + d.seq));
    if (lastSeq !== d.seq) kept.refusals.clear();
    lastSeq = d.seq;
    const sig = JSON.stringify([d.seq, d.legal]);
    if (sig !== shown) {
      shown = sig;
      const ctx = { labels: d.labels, kept, send, after, showWho: true, selectedSeq };
      const mine = d.legal.filter((a) => a.who === "judge"), theirs = d.legal.filter((a) => a.who !== "judge");
      const box = $("forms");
      box.replaceChildren();
      const a = el("div");
      window.adjForms.render(a, mine, ctx);
      box.appendChild(a);
      if (!mine.some((x) => !x.anytime)) box.insertBefore(el("p", "none", "Nothing waits for the judge."), a);
      if (theirs.length) {
        const det = el("details", "for-players");
        det.appendChild(el("summary", null, "Enter for a player (" + [...new Set(theirs.map((x) => x.who))].join(", ") + ")"));
        const inner = el("div");
        window.adjForms.render(inner, theirs, ctx);
        det.appendChild(inner);
        box.appendChild(det);
      }
      const calls = $("calls");
      calls.replaceChildren();
      d.calls.forEach((c, i) => calls.appendChild(window.adjForms.formFor(c, 1000 + i, ctx)));
    }
    const by = $("free-by");
    if (by.options.length !== d.players.length + 1) {
      by.replaceChildren();
      for (const p of ["judge", ...d.players]) { const o = el("option", null, p); o.value = p; by.appendChild(o); }
    }
    const seats = $("seat-list");
    if (seats.children.length !== d.players.length) {
      seats.replaceChildren();
      for (const p of d.players) seats.appendChild(seatBox(p));
    }
    document.body.dataset.seq = d.seq;
  }

  function seatBox(p) {
    const box = el("div", "seat-link");
    box.dataset.player = p;
    box.appendChild(el("h3", null, p));
    const b = el("button", "issue", "New link for " + p);
    b.type = "button";
    const out = el("div", "issued");
    b.addEventListener("click", async () => {
      if (!b.dataset.armed) {  // the second tap issues: the first says what it does
        b.dataset.armed = "1";
        b.textContent = "Revoke " + p + "'s links and issue a new one";
        return;
      }
      delete b.dataset.armed;
      b.textContent = "New link for " + p;
      const r = await L.api("POST", path + "/seats/" + encodeURIComponent(p) + "/token", tok);
      out.replaceChildren();
      if (r.status !== 201) { out.appendChild(el("p", "result error", (r.data && r.data.message) || "status " + r.status)); return; }
      const img = el("img", "qr");
      img.alt = "QR code of " + p + "'s link";
      // drawn as an image, never as markup: the inline SVG the API gives, with the namespace a
      // file of its own needs, as a data: address (the page's policy allows images from there)
      let svg = r.data.qr_svg;
      if (!/xmlns=/.test(svg)) svg = svg.replace("<svg", '<svg xmlns="http://www.w3.org/2000/svg"');
      img.src = "data:image/svg+xml;base64," + btoa(unescape(encodeURIComponent(svg)));
      out.appendChild(img);
      const link = el("input", "url");
      link.readOnly = true;
      link.value = r.data.url;
      link.setAttribute("aria-label", p + "'s link");
      link.addEventListener("focus", () => link.select());
      out.appendChild(link);
      out.appendChild(el("p", "hint", "Hand it to " + p + " only: whoever holds it plays as " + p + "."));
    });
    box.appendChild(b);
    box.appendChild(out);
    return box;
  }

  async function loadNow() {
    const r = await L.api("GET", "/tables/" + enc + "/now", tok);
    if (r.status === 401 || r.status === 403) return login((r.data && r.data.message) || "");
    if (r.status !== 200) return problem("The table cannot be shown: " + ((r.data && r.data.message) || "status " + r.status));
    if (r.data.viewer !== "judge") return login("this token is not a judge's");
    now = r.data;
    drawNow(now);
  }

  async function loadDesk() {
    const r = await L.api("GET", "/tables/" + enc + "/desk", tok, undefined, 60000);
    if (r.status !== 200) return problem("The desk cannot be shown: " + ((r.data && r.data.message) || "status " + r.status));
    const D = r.data;
    const sel = $("viewer");
    if (sel.options.length !== D.viewers.length) {
      sel.replaceChildren();
      for (const v of D.viewers) { const o = el("option", null, v); o.value = v; sel.appendChild(o); }
    }
    desk.mount(D);
    deskAt = Date.now();
  }

  // the desk folds the whole match: at most once a second, however fast the table moves
  const deskSoon = L.coalesce(async () => {
    const wait = 1000 - (Date.now() - deskAt);
    if (wait > 0) await new Promise((res) => setTimeout(res, wait));
    await loadDesk();
  });
  const nowSoon = L.coalesce(loadNow);
  function refresh() { nowSoon(); deskSoon(); }

  function problem(text) {
    $("problem").hidden = false;
    $("problem").textContent = text;
  }

  let started = false;
  const askToken = L.judgeLogin((t) => { tok = t; start(); });
  function login(why) {
    tok = null;
    askToken(why);
  }

  $("free-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const out = e.target.querySelector(".result");
    let fields = {};
    const text = $("free-fields").value.trim();
    if (text) {
      try { fields = JSON.parse(text); } catch (err) { out.className = "result error"; out.textContent = "the fields are not JSON: " + err.message; return; }
      if (!fields || typeof fields !== "object" || Array.isArray(fields)) { out.className = "result error"; out.textContent = "the fields are one JSON object"; return; }
    }
    const type = $("free-type").value.trim();
    if (!type) { out.className = "result error"; out.textContent = "an entry needs its type"; return; }
    const r = await L.api("POST", path + "/events", tok, { ...fields, type, by: $("free-by").value, key: window.adjForms.newKey() });
    const d = r.data || {};
    out.replaceChildren();
    if (r.status === 201) { out.className = "result ok"; out.textContent = "entered: seq " + d.seq; }
    else if (r.status === 422) { out.className = "result refused"; out.dataset.rule = d.rule; out.appendChild(el("strong", "rule", d.rule)); out.appendChild(document.createTextNode(" refused: " + d.message)); }
    else { out.className = "result error"; out.textContent = (d.error ? d.error + ": " : "") + (d.message || "status " + r.status); }
    refresh();
  });

  async function start() {
    if (!tok) return login("");
    await loadNow();
    if (!tok) return;
    await loadDesk();
    document.body.dataset.ready = "1";
    if (started) return;
    started = true;
    L.stream(path + "/stream", tok, (ev) => { if (ev === "accepted" || ev === "table" || ev === "rejected") refresh(); }, (s) => {
      const c = $("conn");
      c.textContent = { live: "live", reconnecting: "reconnecting…", refused: "not live" }[s] || s;
      c.className = "conn " + s;
      if (s === "live" && now) refresh();
    });
  }

  window.adjJudge = { refresh, send, get now() { return now; }, kept };
  start();
})();
