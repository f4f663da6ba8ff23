"use strict";
// What every served page shares: the caller's token, the API with it as a Bearer header, and the
// live streams (server-sent events read with fetch, since EventSource cannot send a header),
// resumed after a dropped connection from the last event id, as docs/serve.md ("Live") says.
//
// The token comes in the address's fragment (#token=...), which a browser never sends to a
// server; it is kept in this tab's session storage and taken out of the address bar at once, so
// it is not on the screen, in the history or in a bookmark. Every text the page is handed (answers
// and stream messages) is kept in ``adjLive.received`` (the last MAX_KEPT), so that what a page
// was given can be checked whole.
(function () {
  const MAX_KEPT = 5000;
  const received = [];
  const keep = (text) => {
    received.push(text);
    if (received.length > MAX_KEPT) received.splice(0, received.length - MAX_KEPT);
  };

  // The token of ``scope`` ("seat:MATCH" or "judge"): from the fragment (then kept), else kept.
  function token(scope) {
    const key = "adj-token:" + scope;
    const m = /(?:^#|&)token=([^&]+)/.exec(location.hash);
    if (m) {
      const t = decodeURIComponent(m[1]);
      try { sessionStorage.setItem(key, t); } catch (e) { /* storage off: the tab keeps it in memory */ }
      history.replaceState(null, "", location.pathname + location.search);
      memory[key] = t;
      return t;
    }
    if (memory[key]) return memory[key];
    try { return sessionStorage.getItem(key); } catch (e) { return null; }
  }
  const memory = {};

  function setToken(scope, t) {
    const key = "adj-token:" + scope;
    memory[key] = t;
    try { if (t) sessionStorage.setItem(key, t); else sessionStorage.removeItem(key); } catch (e) { /* ignore */ }
  }

  // A judge's page asks for the judge's token in its form #login: ``onToken(t)`` is called with each
  // token given there; the function returned forgets the token held and shows the form again, with
  // ``why`` on the page's problem line.
  function judgeLogin(onToken) {
    const form = document.getElementById("login");
    const input = document.getElementById("login-token");
    const line = document.getElementById("problem");
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const t = input.value.trim();
      if (!t) return;
      setToken("judge", t);
      form.hidden = true;
      line.hidden = true;
      onToken(t);
    });
    return (why) => {
      setToken("judge", null);
      form.hidden = false;
      if (why) {
        line.hidden = false;
        line.textContent = "A judge's token is needed: " + why;
      }
      input.focus();
    };
  }

  // One request: ``{status, data}`` (data: the JSON answer, or null), never throws for an HTTP
  // status; a network failure is status 0 with a message.
  async function api(method, path, tok, body, timeoutMs) {
    const headers = { Accept: "application/json" };
    if (tok) headers.Authorization = "Bearer " + tok;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const ctl = new AbortController();
    const timer = setTimeout(() => ctl.abort(), timeoutMs || 20000);
    try {
      const r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body),
                                    cache: "no-store", credentials: "omit", signal: ctl.signal });
      const text = await r.text();
      keep(text);
      let data = null;
      try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
      return { status: r.status, data };
    } catch (e) {
      return { status: 0, data: { error: "network", message: "the server cannot be reached (" + (e.name === "AbortError" ? "timed out" : e.message) + ")" } };
    } finally {
      clearTimeout(timer);
    }
  }

  // A stream of server-sent events: ``on(event, data, id)`` for each, ``state(text)`` when the
  // connection opens, drops or is refused. Reconnects by itself (1 s, doubling to 15 s), from the
  // last id it was given. ``close()`` ends it.
  function stream(path, tok, on, state) {
    let last = null, closed = false, ctl = null, wait = 1000;
    async function run() {
      while (!closed) {
        ctl = new AbortController();
        const headers = { Accept: "text/event-stream" };
        if (tok) headers.Authorization = "Bearer " + tok;
        if (last !== null) headers["Last-Event-ID"] = last;
        try {
          const r = await fetch(path, { headers, cache: "no-store", credentials: "omit", signal: ctl.signal });
          if (r.status === 401 || r.status === 403 || r.status === 404) {
            const text = await r.text();
            keep(text);
            state("refused", r.status);
            return;
          }
          if (!r.ok || !r.body) throw new Error("status " + r.status);
          state("live");
          wait = 1000;
          const reader = r.body.getReader();
          const dec = new TextDecoder();
          let buf = "";
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            buf += dec.decode(value, { stream: true });
            let cut;
            while ((cut = buf.indexOf("\n\n")) >= 0) {
              const block = buf.slice(0, cut);
              buf = buf.slice(cut + 2);
              let ev = "message", data = "", id = null;
              for (const line of block.split("\n")) {
                if (line.startsWith(":")) continue;
                const i = line.indexOf(":");
                const k = i < 0 ? line : line.slice(0, i), v = i < 0 ? "" : line.slice(i + 1).replace(/^ /, "");
                if (k === "event") ev = v;
                else if (k === "data") data += (data ? "\n" : "") + v;
                else if (k === "id") id = v;
              }
              if (!data) continue;
              keep(data);
              if (id !== null) last = id;
              let parsed = null;
              try { parsed = JSON.parse(data); } catch (e) { continue; }
              try { on(ev, parsed, id); } catch (e) { console.warn("adj: a stream message failed to show", e); }
            }
          }
        } catch (e) {
          if (closed) return;
        }
        if (closed) return;
        state("reconnecting");
        await new Promise((res) => setTimeout(res, wait));
        wait = Math.min(wait * 2, 15000);
      }
    }
    run();
    return { close() { closed = true; if (ctl) ctl.abort(); } };
  }

  // ``fn`` at most once at a time: a call while it runs makes it run once more after.
  function coalesce(fn) {
    let running = false, again = false;
    return async function go() {
      if (running) { again = true; return; }
      running = true;
      try {
        do { again = false; await fn(); } while (again);
      } finally {
        running = false;
      }
    };
  }

  // "2:05", "1:02:03": how long since ``since`` (an ISO time), on the server's clock as seen here.
  function elapsed(ms) {
    const s = Math.max(0, Math.floor(ms / 1000));
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
    const two = (n) => (n < 10 ? "0" : "") + n;
    return h ? h + ":" + two(m) + ":" + two(r) : m + ":" + two(r);
  }

  const words = (type) => String(type).replace(/_/g, " ");

  window.adjLive = { token, setToken, judgeLogin, api, stream, coalesce, elapsed, words, received };
})();
