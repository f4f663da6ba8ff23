"use strict";
// A table's page: a seat's (its token in the address's fragment) or a spectator's (no token).
// The table as the caller may see it, live; "your move" when the table waits for this seat; the
// seat's open actions as forms (forms.js); the last events in the table's words.
(function () {
  const { el } = window.adjBoard;
  const L = window.adjLive;
  const $ = (id) => document.getElementById(id);
  const match = document.body.dataset.match;
  const path = "/matches/" + encodeURIComponent(match);
  let tok = L.token("seat:" + match);
  let now = null, shown = "", lastSeq = null;  // the last data drawn, and the actions its forms were built from
  const kept = { refusals: new Map() };
  let conn = "connecting";

  function setConn(s) {
    conn = s;
    const c = $("conn");
    c.textContent = { live: "live", reconnecting: "reconnecting…", refused: "not live", connecting: "connecting…" }[s] || s;
    c.className = "conn " + s;
  }

  function draw(d) {
    const me = d.viewer && d.players.includes(d.viewer) ? d.viewer : null;
    document.title = (me ? me + " — " : "") + d.match_id + " — " + d.title;
    $("title").textContent = d.title;
    $("players").textContent = d.players.join(" v ");
    $("who").textContent = me ? "you are " + me : "spectating: what every player may see";
    document.body.dataset.viewer = d.viewer;
    document.body.classList.toggle("spectator", !me);

    // the turn bar: your move, waiting, or the result
    const bar = $("turnbar");
    bar.replaceChildren();
    bar.className = "";
    const b = d.board;
    if (d.outcome.status !== "in_progress") {
      bar.classList.add("over");
      bar.appendChild(el("strong", null, "Finished: " + d.outcome_text));
    } else if (me && d.to_move.includes(me)) {
      bar.classList.add("yours");
      bar.appendChild(el("strong", null, "Your move"));
      if (b.waiting) bar.appendChild(el("span", null, " — " + b.waiting));
    } else {
      bar.classList.add("wait");
      bar.appendChild(el("strong", null, b.waiting ? "Waiting: " + b.waiting : me ? "Not your move" : "In play"));
    }
    document.body.dataset.yourMove = me && d.to_move.includes(me) ? "1" : "0";

    const st = $("status");
    st.replaceChildren();
    st.appendChild(el("span", "phase", b.phase || "—"));
    if (b.turn) st.appendChild(el("span", null, " · turn: " + b.turn));
    st.appendChild(el("span", "seq", " · event " + d.seq));
    window.adjBoard.draw($("board"), b, d.players, { me, marks: true });

    // the forms: built again only when what is open changed, so a choice half made survives
    // another table's news, a refusal, a reconnect
    if (now && lastSeq !== d.seq) kept.refusals.clear();
    lastSeq = d.seq;
    const sig = JSON.stringify([d.seq, d.legal]);
    if (sig !== shown) {
      shown = sig;
      const box = $("forms");
      if (!me) box.replaceChildren();
      else if (!d.legal.length) box.replaceChildren(el("p", "none", d.outcome.status === "in_progress" ? "Nothing for you to enter now." : "The match is over."));
      else {
        window.adjForms.render(box, d.legal, { labels: d.labels, kept, send, after, announce, showWho: false });
        if (!d.legal.some((a) => !a.anytime)) box.prepend(el("p", "none", "Nothing waits for you now."));
      }
    }
    $("actions").hidden = !me;

    const ol = $("events");
    ol.replaceChildren();
    for (const r of d.recent.slice().reverse()) {
      const li = el("li", "ev " + r.kind);
      if (r.seq !== null) li.dataset.seq = r.seq;
      li.appendChild(el("span", "seq", r.seq === null ? "refused" : String(r.seq)));
      li.appendChild(el("span", "t", r.text));
      if (r.kind === "rejected") li.appendChild(el("div", "why", r.rule + (r.message && r.message !== "(hidden)" ? ": " + r.message : "")));
      if (r.abandoned_by !== undefined) li.appendChild(el("div", "why", "undone by the rewind at seq " + r.abandoned_by));
      for (const w of r.results || []) li.appendChild(el("div", "result", w));
      if (r.words.length) {
        const ul = el("ul", "words");
        for (const w of r.words.slice(0, 6)) ul.appendChild(el("li", null, w));
        if (r.words.length > 6) ul.appendChild(el("li", null, "… " + (r.words.length - 6) + " more"));
        li.appendChild(ul);
      }
      ol.appendChild(li);
    }
    document.body.dataset.seq = d.seq;
  }

  async function load() {
    const r = await L.api("GET", "/tables/" + encodeURIComponent(match) + "/now", tok);
    if (r.status === 401 && tok) {  // a revoked or unknown token: say so, and go on as a spectator
      $("problem").hidden = false;
      $("problem").textContent = "This seat's link is no longer valid (" + (r.data && r.data.message) + "). Ask the judge for a new one; meanwhile this is the spectators' view.";
      L.setToken("seat:" + match, null);
      tok = null;
      return load();
    }
    if (r.status !== 200) {
      $("problem").hidden = false;
      $("problem").textContent = "The table cannot be shown: " + ((r.data && r.data.message) || "status " + r.status);
      return;
    }
    now = r.data;
    draw(now);
    document.body.dataset.ready = "1";
  }
  const refresh = L.coalesce(load);

  async function send(action, fields, key) {
    const body = { type: action.type, by: action.who, ...fields, key, expect_seq: now ? now.seq : undefined };
    return L.api("POST", path + "/events", tok, body);
  }

  // the answer to the last entry, above the forms: it stays when the forms are built again for
  // the table the entry made
  function announce(r, action, result) {
    const box = $("answer");
    box.className = result.className;
    box.replaceChildren(...[...result.childNodes].map((n) => n.cloneNode(true)));
    box.prepend(el("span", "what", L.words(action.type) + ": "));
    if (result.dataset.rule) box.dataset.rule = result.dataset.rule; else delete box.dataset.rule;
    if (r.status === 201) box.dataset.seq = r.data.seq; else delete box.dataset.seq;
    box.dataset.n = String(Number(box.dataset.n || 0) + 1);
  }

  function after(r) {
    if (r.status === 201 || r.status === 409 || r.status === 422) refresh();
  }

  function start() {
    refresh().then(() => {
      L.stream(path + "/stream", tok, (ev) => { if (ev === "accepted" || ev === "table" || ev === "rejected") refresh(); }, (s) => {
        const was = conn;
        setConn(s);
        if (s === "live" && was === "reconnecting") refresh();
      });
    });
  }

  window.adjTable = { refresh, send, get now() { return now; }, kept };
  start();
})();
