"use strict";
// Legal actions as forms (``LegalAction.choices``, adjudicator/engine/protocol.py), for every game
// alike: ``one`` is a row of buttons (a list when there are many values), ``some`` a row of toggles
// with its min and max, ``int`` a number, ``text`` a text box; an optional field may be left
// empty. An action is entered with one tap (its value, or its Enter button) and confirmed; the
// answer shows beside the form: a refusal with its rule ID and message.
//
// The page hints, the rules judge: a number outside the offered range can still be entered (the
// game refuses it, with its rule, and the attempt is on the record as at a table).
(function () {
  const { el } = window.adjBoard;
  const { words } = window.adjLive;
  const BUTTONS = 16;  // a ``one`` field with more values is a list

  function valueText(v, labels) {
    if (v === null || v === undefined) return "none";
    if (typeof v === "boolean") return v ? "yes" : "no";
    if (typeof v === "string") return labels && labels[v] ? labels[v] + " (" + v + ")" : v;
    if (Array.isArray(v)) return v.length ? v.map((x) => valueText(x, labels)).join(", ") : "nothing";
    if (typeof v === "object") return Object.entries(v).map(([k, x]) => words(k) + ": " + valueText(x, labels)).join("; ");
    return String(v);
  }

  let serial = 0;
  const newKey = () => "page-" + Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 10) + "-" + (++serial);

  // One form. ``ctx``: {labels, send(action, fields, key) -> Promise<{status, data}>, after(result),
  // kept: {refusals: Map}, selectedSeq(), showWho}
  function formFor(a, i, ctx) {
    const f = el("form", "action");
    f.dataset.type = a.type;
    f.dataset.who = a.who;
    f.dataset.i = i;
    f.noValidate = true;
    f.addEventListener("submit", (e) => e.preventDefault());
    const id = "act-" + i + "-" + serial++;
    const h = el("h3", null, words(a.type));
    h.id = id;
    f.setAttribute("aria-labelledby", id);
    if (ctx.showWho) h.appendChild(el("small", "who", a.who === "judge" ? " (judge)" : " for " + a.who));
    f.appendChild(h);
    if (a.note) f.appendChild(el("p", "note", a.note));
    const names = Object.keys(a.fields);
    const got = {};  // field -> {value(): any | undefined (left out) , ok(): bool}
    let quick = null;  // the one field whose tap enters the action at once
    const open = names.filter((n) => {
      const c = a.fields[n];
      return !(c.kind === "one" && c.values.length === 1 && !c.optional);
    });
    if (open.length === 1 && a.fields[open[0]].kind === "one" && a.fields[open[0]].values.length <= BUTTONS) quick = open[0];

    const enter = el("button", "enter", "Enter");
    enter.type = "button";
    const confirm = el("div", "confirm");
    confirm.hidden = true;
    const result = el("div", "result");
    result.setAttribute("role", "status");
    result.setAttribute("aria-live", "polite");
    let key = null;  // the idempotency key of the entry being confirmed: a retry reuses it

    const fields = () => {
      const out = {};
      for (const n of names) {
        const v = got[n].value();
        if (v !== undefined) out[n] = v;
      }
      return out;
    };
    const complete = () => names.every((n) => got[n].ok());
    const refresh = () => { enter.disabled = !complete(); };

    for (const n of names) {
      const c = a.fields[n];
      const box = el("fieldset", "field " + c.kind);
      box.dataset.field = n;
      box.dataset.kind = c.kind;
      const lg = el("legend", null, words(n));
      if (c.kind === "some") lg.appendChild(el("span", "hint", " choose " + (c.min === c.max ? c.min : c.min + "–" + (c.max === null ? "any" : c.max))));
      if (c.kind === "int") lg.appendChild(el("span", "hint", " " + c.min + (c.max === null ? " or more" : "–" + c.max)));
      if (c.optional) lg.appendChild(el("span", "hint", " (may be left out)"));
      box.appendChild(lg);
      const row = el("div", "opts");
      box.appendChild(row);
      if (c.kind === "one" && c.values.length <= BUTTONS) {
        let chosen = c.values.length === 1 && !c.optional ? 0 : null;
        const buttons = c.values.map((v, k) => {
          const b = el("button", "opt", valueText(v, ctx.labels));
          b.type = "button";
          b.dataset.i = k;
          b.setAttribute("aria-pressed", String(k === chosen));
          if (c.values.length === 1 && !c.optional) b.classList.add("fixed");
          b.addEventListener("click", () => {
            chosen = chosen === k && c.optional ? null : k;
            buttons.forEach((x, j) => x.setAttribute("aria-pressed", String(j === chosen)));
            refresh();
            if (quick === n && chosen !== null && complete()) ask();
          });
          row.appendChild(b);
          return b;
        });
        got[n] = { value: () => (chosen === null ? undefined : c.values[chosen]), ok: () => chosen !== null || c.optional,
                   pick: (k) => buttons[k] && buttons[k].click() };
      } else if (c.kind === "one") {
        const s = el("select", "list");
        s.appendChild(el("option", null, "— choose —")).value = "";
        c.values.forEach((v, k) => { const o = el("option", null, valueText(v, ctx.labels)); o.value = String(k); s.appendChild(o); });
        s.setAttribute("aria-label", words(n));
        s.addEventListener("change", refresh);
        row.appendChild(s);
        got[n] = { value: () => (s.value === "" ? undefined : c.values[Number(s.value)]), ok: () => s.value !== "" || c.optional,
                   pick: (k) => { s.value = String(k); refresh(); } };
      } else if (c.kind === "some") {
        const on = new Set();
        const count = el("span", "count");
        const buttons = c.values.map((v, k) => {
          const b = el("button", "opt toggle", valueText(v, ctx.labels));
          b.type = "button";
          b.dataset.i = k;
          b.setAttribute("aria-pressed", "false");
          b.addEventListener("click", () => {
            if (on.has(k)) on.delete(k);
            else if (c.max === null || on.size < c.max) on.add(k);
            b.setAttribute("aria-pressed", String(on.has(k)));
            count.textContent = on.size + " chosen";
            refresh();
          });
          row.appendChild(b);
          return b;
        });
        count.textContent = "0 chosen";
        box.appendChild(count);
        // chosen in the order tapped is not kept: every such list is legal in any order (Choice)
        got[n] = { value: () => (c.optional && on.size === 0 ? undefined : c.values.filter((_, k) => on.has(k))),
                   ok: () => (c.optional && on.size === 0) || (on.size >= c.min && (c.max === null || on.size <= c.max)),
                   pick: (k) => buttons[k] && buttons[k].click() };
      } else if (c.kind === "int") {
        const input = el("input", "num");
        input.type = "number";
        input.step = "1";
        input.inputMode = "numeric";
        input.min = String(c.min);
        if (c.max !== null) input.max = String(c.max);
        input.setAttribute("aria-label", words(n));
        input.addEventListener("input", refresh);
        row.appendChild(input);
        const whole = () => /^-?\d+$/.test(input.value.trim());
        got[n] = { value: () => (whole() ? Number(input.value.trim()) : undefined), ok: () => whole() || (c.optional && input.value.trim() === ""),
                   set: (v) => { input.value = String(v); refresh(); } };
      } else {
        const input = el("input", "text");
        input.type = "text";
        input.maxLength = 1000;
        input.setAttribute("aria-label", words(n));
        input.addEventListener("input", refresh);
        row.appendChild(input);
        got[n] = { value: () => (input.value.trim() ? input.value : undefined), ok: () => !!input.value.trim() || c.optional,
                   set: (v) => { input.value = String(v); refresh(); } };
      }
      if ((n === "to_seq" || n === "at_seq") && ctx.selectedSeq) {
        const b = el("button", "pickseq", "the selected event");
        b.type = "button";
        b.addEventListener("click", () => {
          const seq = ctx.selectedSeq();
          if (seq === null || seq === undefined) return;
          if (got[n].set) got[n].set(seq);
          else {
            const k = c.values.findIndex((v) => v === seq);
            if (k >= 0) got[n].pick(k);
            else show("note", "seq " + seq + " cannot be chosen here (" + valueText(c.values) + ")");
          }
        });
        row.appendChild(b);
      }
      f.appendChild(box);
    }

    function show(kind, text, rule) {
      result.className = "result " + kind;
      result.replaceChildren();
      if (rule) {
        result.dataset.rule = rule;
        result.appendChild(el("strong", "rule", rule));
        result.appendChild(document.createTextNode(" " + text));
      } else {
        delete result.dataset.rule;
        result.textContent = text;
      }
    }

    function ask() {
      if (!complete()) return;
      key = newKey();
      const fs = fields();
      const shown = Object.entries(fs).map(([k, v]) => words(k) + ": " + valueText(v, ctx.labels)).join(" · ");
      confirm.replaceChildren();
      confirm.appendChild(el("span", "what", words(a.type) + (shown ? " — " + shown : "") + "?"));
      const yes = el("button", "confirm-yes", "Confirm");
      yes.type = "button";
      const no = el("button", "confirm-no", "Cancel");
      no.type = "button";
      yes.addEventListener("click", () => go(fs));
      no.addEventListener("click", () => { confirm.hidden = true; enter.focus(); });
      confirm.appendChild(yes);
      confirm.appendChild(no);
      confirm.hidden = false;
      f.classList.add("asking");
      yes.focus();
    }

    async function go(fs) {
      for (const b of confirm.querySelectorAll("button")) b.disabled = true;
      show("busy", "sending…");
      const r = await ctx.send(a, fs, key);
      confirm.hidden = true;
      f.classList.remove("asking");
      const d = r.data || {};
      if (r.status === 201) {
        show("ok", "entered: seq " + d.seq);
        ctx.kept.refusals.delete(a.who + "/" + a.type);
      } else if (r.status === 422) {
        show("refused", "refused: " + d.message, d.rule);
        ctx.kept.refusals.set(a.who + "/" + a.type, { rule: d.rule, message: d.message });
      } else if (r.status === 409) {
        show("stale", "the table moved before this reached it: look at it again (nothing was entered)");
      } else if (r.status === 0) {
        show("error", d.message + " — Enter again to retry (it will not be entered twice)");
      } else {
        show("error", (d.error ? d.error + ": " : "") + (d.message || "status " + r.status));
      }
      refresh();
      if (ctx.announce) ctx.announce(r, a, result);
      if (ctx.after) ctx.after(r, a);
    }

    enter.addEventListener("click", ask);
    f.addEventListener("keydown", (e) => {
      if (e.key === "Escape" && !confirm.hidden) { confirm.hidden = true; f.classList.remove("asking"); enter.focus(); e.stopPropagation(); }
    });
    const go_ = el("div", "go");
    go_.appendChild(enter);
    f.appendChild(go_);
    f.appendChild(confirm);
    f.appendChild(result);
    const was = ctx.kept.refusals.get(a.who + "/" + a.type);
    if (was) show("refused", "refused: " + was.message, was.rule);
    refresh();
    f.adj = { fields, got, ask };
    return f;
  }

  // The forms of ``actions`` in ``root``: the actions the table waits for first, then those open
  // at any moment (a concession, a judge's rewind) folded away under their own heading.
  function render(root, actions, ctx) {
    const frag = document.createDocumentFragment();
    const now = [], any = [];
    actions.forEach((a, i) => (a.anytime ? any : now).push([a, i]));
    for (const [a, i] of now) frag.appendChild(formFor(a, i, ctx));
    if (any.length) {
      const d = el("details", "anytime");
      if (ctx.openAnytime) d.open = true;
      d.appendChild(el("summary", null, "At any time: " + [...new Set(any.map(([a]) => words(a.type)))].join(", ")));
      for (const [a, i] of any) d.appendChild(formFor(a, i, ctx));
      frag.appendChild(d);
    }
    root.replaceChildren(frag);
  }

  window.adjForms = { render, formFor, valueText, newKey };
})();
