/* The player aid's interface: calculator forms, dice, the sequence checklist, rules search,
 * theme and printing. Everything shown is set as text (textContent), never as HTML. */
"use strict";
(function () {
  const $ = (sel, root = document) => root.querySelector(sel);
  const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));
  const game = document.documentElement.dataset.game;
  const data = JSON.parse($("#aid-data").textContent);
  window.AidEngine.load(data);
  const specs = Object.fromEntries(data.calculators.map((c) => [c.id, c]));

  function el(tag, attrs = {}, text = null) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) e.setAttribute(k, v);
    if (text !== null) e.textContent = text;
    return e;
  }
  const store = {
    get(key, fallback) { try { const v = localStorage.getItem(key); return v === null ? fallback : JSON.parse(v); } catch (e) { return fallback; } },
    set(key, value) { try { localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* storage off: forget */ } },
  };

  // ----- the one live region: a short line, said once the player pauses ------------------------
  // Every change of a live region is spoken, so results are not rebuilt inside one: a single
  // status line gets the outcome when typing stops, and each line replaces the one pending.
  const announcer = $("#announce");
  let announceTimer = 0;
  function announce(text, delay) {
    clearTimeout(announceTimer);
    announceTimer = setTimeout(() => {
      const line = text.length > 160 ? text.slice(0, 159) + "…" : text;
      // the same words again would not be spoken: vary the text invisibly
      announcer.textContent = line === announcer.textContent ? line + "\u00a0" : line;
    }, delay);
  }
  const TYPING_PAUSE = 700; // ms after the last keystroke
  const CLICK_PAUSE = 150; // ms: a double click says one line

  // ----- theme -------------------------------------------------------------------------------
  const themeBtn = $("#theme-toggle");
  function applyTheme(theme) {
    document.documentElement.dataset.theme = theme;
    themeBtn.textContent = theme === "dark" ? "Light" : "Dark";
    themeBtn.setAttribute("aria-label", theme === "dark" ? "Switch to the light theme" : "Switch to the dark theme");
    themeBtn.setAttribute("aria-pressed", theme === "light" ? "true" : "false");
  }
  applyTheme(store.get("aid:theme", "dark"));
  themeBtn.addEventListener("click", () => {
    const next = document.documentElement.dataset.theme === "dark" ? "light" : "dark";
    store.set("aid:theme", next);
    applyTheme(next);
  });

  // ----- dice: the browser's cryptographic random source, no modulo bias ---------------------
  function die(sides) {
    const limit = 256 - (256 % sides);
    const buf = new Uint8Array(1);
    for (;;) { crypto.getRandomValues(buf); if (buf[0] < limit) return (buf[0] % sides) + 1; }
  }
  function rollDice(spec, times = 1) {
    const [n, sides] = /^(\d+)d(\d+)$/.exec(spec).slice(1).map(Number);
    const faces = [];
    for (let k = 0; k < times * n; k++) faces.push(die(sides));
    return faces;
  }
  const diceOut = $("#dice-out");
  const history = $("#dice-history");
  function showRoll(label, faces, total) {
    diceOut.textContent = "";
    diceOut.append(document.createTextNode(String(total)));
    if (faces.length > 1) diceOut.append(el("span", { class: "faces" }, "(" + faces.join(" + ") + ")"));
    diceOut.dataset.total = String(total);
    diceOut.dataset.faces = faces.join(",");
    const li = el("li", {}, label + ": " + total + (faces.length > 1 ? " (" + faces.join("+") + ")" : ""));
    history.prepend(li);
    while (history.children.length > 30) history.lastChild.remove();
  }
  $$(".die-btn").forEach((b) => b.addEventListener("click", () => {
    const spec = b.dataset.dice;
    const faces = rollDice(spec);
    const total = faces.reduce((a, c) => a + c, 0);
    showRoll(spec, faces, total);
    announce(spec + ": " + total + (faces.length > 1 ? " (" + faces.join(" and ") + ")" : ""), CLICK_PAUSE);
  }));

  // ----- calculators ----------------------------------------------------------------------------
  function gather(form) {
    const given = {};
    for (const c of $$("[data-type]", form)) {
      const type = c.dataset.type;
      if (type === "roll") continue;
      if (type === "multi") {
        const vals = $$("input:checked", c).map((i) => i.value);
        if (vals.length) given[c.dataset.name] = vals;
      } else if (type === "bool") {
        if (c.checked) given[c.name] = true;
      } else if (c.value.trim() !== "") {
        given[c.name] = c.value.trim();
      }
    }
    return given;
  }
  function pctText(p) { const x = p * 100; return (x >= 10 || x === 0 ? x.toFixed(0) : x.toFixed(1)) + "%"; }

  function renderOdds(dist, hit) {
    const wrap = el("div", { class: "odds-wrap" });
    wrap.append(el("h3", {}, "Odds of each outcome"));
    const ul = el("ul", { class: "odds" });
    const max = Math.max(...dist.map((d) => d.p));
    for (const d of dist) {
      const li = el("li", { "data-result": d.result, "data-probability": d.probability, "data-numbers": JSON.stringify(d.numbers) });
      if (hit !== null && d.result === hit) li.classList.add("hit");
      li.append(el("span", { class: "olabel", title: d.meaning || null }, d.result));
      const bar = el("span", { class: "bar", role: "img", "aria-label": d.result + ": " + pctText(d.p) });
      const fill = el("span");
      fill.style.width = (max ? (d.p / max) * 100 : 0).toFixed(2) + "%";
      bar.append(fill);
      li.append(bar, el("span", { class: "pct" }, pctText(d.p)));
      li.append(el("span", { class: "frac" }, d.probability + (d.meaning ? " · " + d.meaning : "")));
      ul.append(li);
    }
    wrap.append(ul);
    return wrap;
  }

  // a result is said as a headline when it is certain: rolled, a table without dice, or the
  // only outcome there is (an attack refused by a rule, whatever the roll)
  function headline(res, spec) {
    return res.result !== null && (res.roll !== null || !spec.dice || (res.distribution || []).length === 1);
  }

  function render(out, res, odds, spec) {
    out.textContent = "";
    out.dataset.state = "done";
    out.dataset.result = res.result === null ? "" : res.result;
    out.dataset.column = res.column === null ? "" : res.column;
    const main = el("div", { class: "main-out" });
    if (headline(res, spec)) {
      const p = el("div", { class: "result" });
      p.append(el("span", { class: "calc-result" }, res.result));
      if (res.meaning) p.append(el("span", { class: "meaning" }, res.meaning));
      main.append(p);
    }
    if (res.column) main.append(el("p", { class: "column" }, "Column: " + res.column));
    if (res.roll) main.append(el("p", { class: "rolled" }, "Roll: " + res.roll.join(", ")));
    if (res.steps.length || (res.unused || []).length) {
      main.append(el("h3", {}, "Working"));
      const ol = el("ol", { class: "steps" });
      for (const s of res.steps) ol.append(el("li", {}, s));
      main.append(ol);
    }
    if ((res.unused || []).length) {  // every input given is accounted for: these changed nothing
      const ul = el("ul", { class: "unused", "aria-label": "Inputs that changed nothing" });
      for (const u of res.unused) ul.append(el("li", { "data-input": u.input }, u.text));
      main.append(ul);
    }
    out.append(main);
    if (odds && odds.distribution.length > 1) {
      const hit = res.roll !== null ? res.result : null;
      const w = renderOdds(odds.distribution, hit);
      if (odds.columns) {
        w.append(el("p", { class: "expected" }, "Column by the fire roll: " + odds.columns.map((c) => c.column + " " + pctText(c.p)).join(", ")));
      }
      const exp = Object.entries(odds.expected || {});
      if (exp.length) w.append(el("p", { class: "expected" }, "Expected: " + exp.map(([k, v]) => k + " " + v.float.toFixed(2) + " (" + v.value + ")").join("; ")));
      out.append(w);
    }
    if (res.notes.length) {
      const ul = el("ul", { class: "notes", "aria-label": "Notes" });
      for (const n of res.notes) ul.append(el("li", {}, n));
      out.append(ul);
    }
  }

  // the line said for a result: the outcome, not the working
  function summaryLine(spec, res, odds) {
    const parts = [spec.name + ":"];
    if (res.roll) parts.push("roll " + res.roll.join(", ") + ",");
    if (headline(res, spec)) parts.push(res.result + (res.meaning ? " (" + res.meaning + ")" : ""));
    else if (odds && odds.distribution.length > 1) parts.push("odds of " + odds.distribution.length + " outcomes");
    if (res.column) parts.push("column " + res.column);
    return parts.join(" ").replace(/,$/, "");
  }

  // pause: when to say the outcome (null: say nothing, as when the page opens)
  function resolveCalc(card, pause = null) {
    const id = card.dataset.calc;
    const spec = specs[id];
    const form = $("form", card);
    const out = $(".calc-out", card);
    const rollInput = $("[data-type=roll]", form);
    const roll = rollInput ? rollInput.value.trim() : "";
    const given = gather(form);
    $$("[aria-invalid]", form).forEach((c) => c.removeAttribute("aria-invalid"));
    const missing = spec.inputs.filter((i) => i.required && !(i.id in given));
    if (missing.length) {
      out.textContent = "";
      out.dataset.state = "incomplete";
      out.dataset.result = "";
      out.append(el("p", { class: "hint" }, "Give " + missing.map((i) => i.label || i.id).join("; ") + "."));
      if (pause !== null) clearTimeout(announceTimer); // nothing new to say yet
      return;
    }
    try {
      const res = window.AidEngine.calculate(id, given, roll || null);
      let odds = res;
      if (roll) { try { odds = window.AidEngine.calculate(id, given, null); } catch (e) { odds = null; } }
      render(out, res, odds, spec);
      if (pause !== null) announce(summaryLine(spec, res, odds), pause);
    } catch (e) {
      if (!(e instanceof window.AidEngine.CalcError)) throw e;
      out.textContent = "";
      out.dataset.state = "error";
      out.dataset.result = "";
      out.append(el("p", { class: "error" }, e.message));
      if (pause !== null) announce(spec.name + ": " + e.message, pause);
      const name = /^(\w[\w-]*)=/.exec(e.message);
      const bad = name && form.querySelector("[name='" + CSS.escape(name[1]) + "']");
      if (bad) bad.setAttribute("aria-invalid", "true");
      else if (rollInput && /^roll\b/.test(e.message)) rollInput.setAttribute("aria-invalid", "true");
    }
  }

  // A long list of choices (every sector of a map) is one tab stop: arrow keys move inside it,
  // Space ticks, so the keyboard reaches the roll without passing 35 boxes (the page says so).
  for (const set of $$("fieldset[data-roving]")) {
    const boxes = $$("input[type=checkbox]", set);
    const stop = (b) => boxes.forEach((x) => x.setAttribute("tabindex", x === b ? "0" : "-1"));
    stop(boxes[0]);
    set.addEventListener("focusin", (e) => { if (boxes.includes(e.target)) stop(e.target); });
    set.addEventListener("keydown", (e) => {
      const i = boxes.indexOf(document.activeElement);
      const to = { ArrowDown: i + 1, ArrowRight: i + 1, ArrowUp: i - 1, ArrowLeft: i - 1, Home: 0, End: boxes.length - 1 }[e.key];
      if (i < 0 || to === undefined) return;
      e.preventDefault();
      boxes[(to + boxes.length) % boxes.length].focus();
    });
  }

  for (const card of $$("details.calc")) {
    const form = $("form", card);
    form.addEventListener("input", () => resolveCalc(card, TYPING_PAUSE));
    form.addEventListener("change", () => resolveCalc(card, TYPING_PAUSE));
    form.addEventListener("submit", (e) => { e.preventDefault(); resolveCalc(card, CLICK_PAUSE); });
    const spec = specs[card.dataset.calc];
    const rollInput = $("[data-type=roll]", form);
    const rr = $("[data-action=roll-resolve]", form);
    if (rr) rr.addEventListener("click", () => {
      const markers = $("[name=markers]", form);
      const times = markers && markers.value ? Math.max(1, parseInt(markers.value, 10) || 1) : 1;
      const faces = rollDice(spec.dice, times);
      const perRoll = faces.length / times;
      rollInput.value = faces.join(",");
      const totals = [];
      for (let k = 0; k < times; k++) totals.push(faces.slice(k * perRoll, (k + 1) * perRoll).reduce((a, c) => a + c, 0));
      showRoll(spec.name, faces, totals.join(", "));
      resolveCalc(card, CLICK_PAUSE);
    });
    const odds = $("[data-action=odds]", form);
    if (odds) odds.addEventListener("click", () => { rollInput.value = ""; resolveCalc(card, CLICK_PAUSE); });
    resolveCalc(card);
  }

  // ----- sequence of play: a checklist that remembers its place -------------------------------
  const seqList = $("#seq-list");
  if (seqList) {
    const turns = JSON.parse($("#turn-data").textContent);
    const first = turns[0].number, last = turns[turns.length - 1].number;
    const key = "aid:" + game + ":sequence";
    let state = store.get(key, { turn: first, checked: [] });
    if (typeof state.turn !== "number" || !Array.isArray(state.checked)) state = { turn: first, checked: [] };
    const boxes = $$("input[data-check]", seqList);
    function paint() {
      $("#seq-turn").textContent = String(state.turn);
      const t = turns.find((x) => x.number === state.turn);
      $("#seq-turn-name").textContent = t ? [t.name !== String(t.number) ? t.name : "", t.night ? "(night)" : ""].filter(Boolean).join(" ") : "";
      for (const b of boxes) b.checked = state.checked.includes(b.dataset.check);
      let current = false;
      for (const li of $$("li.phase", seqList)) {
        const skip = li.dataset.skip ? li.dataset.skip.split(",").map(Number).includes(state.turn) : false;
        li.classList.toggle("not-now", skip);
        $(".skipped", li).hidden = !skip;
        const done = state.checked.includes(li.dataset.phase);
        li.classList.toggle("done", done);
        const isCurrent = !current && !done && !skip;
        li.classList.toggle("current", isCurrent);
        if (isCurrent) { current = true; li.setAttribute("aria-current", "step"); } else li.removeAttribute("aria-current");
      }
    }
    function save() { store.set(key, state); paint(); }
    for (const b of boxes) b.addEventListener("change", () => {
      const id = b.dataset.check;
      const ids = [id];
      if (/^p\d+$/.test(id)) $$("input[data-check^='" + id + "s']", seqList).forEach((s) => ids.push(s.dataset.check));
      state.checked = state.checked.filter((x) => !ids.includes(x));
      if (b.checked) state.checked.push(...ids);
      save();
    });
    $("#seq-next-turn").addEventListener("click", () => { state = { turn: Math.min(state.turn + 1, last), checked: [] }; save(); });
    $("#seq-prev-turn").addEventListener("click", () => { state = { turn: Math.max(state.turn - 1, first), checked: [] }; save(); });
    $("#seq-reset").addEventListener("click", () => { state = { turn: first, checked: [] }; save(); });
    paint();
  }

  // ----- rules: search as you type, highlight, cross-references ---------------------------------
  const search = $("#rules-search");
  if (search) {
    const articles = $$("article.rule");
    const count = $("#rules-count");
    function unmark() {
      for (const m of $$("#rules-body mark")) { const p = m.parentNode; p.replaceChild(document.createTextNode(m.textContent), m); p.normalize(); }
    }
    function mark(root, words) {
      const re = new RegExp("(" + words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|") + ")", "gi");
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      const nodes = [];
      while (walker.nextNode()) nodes.push(walker.currentNode);
      for (const node of nodes) {
        const text = node.nodeValue;
        if (!re.test(text)) continue;
        re.lastIndex = 0;
        const frag = document.createDocumentFragment();
        let pos = 0, m;
        while ((m = re.exec(text))) {
          if (m.index > pos) frag.append(document.createTextNode(text.slice(pos, m.index)));
          frag.append(el("mark", {}, m[0]));
          pos = m.index + m[0].length;
        }
        if (pos < text.length) frag.append(document.createTextNode(text.slice(pos)));
        node.parentNode.replaceChild(frag, node);
      }
    }
    function run() {
      unmark();
      const words = (search.value.toLowerCase().match(/[\p{L}\p{N}_]+/gu) || []);
      if (!words.length) { articles.forEach((a) => { a.hidden = false; }); sayCount(""); return; }
      let n = 0;
      for (const a of articles) {
        const hay = a.textContent.toLowerCase();
        const ok = words.every((w) => hay.includes(w));
        a.hidden = !ok;
        if (ok) { n++; mark(a, words); }
      }
      sayCount(n ? n + " section" + (n === 1 ? "" : "s") + " match" + (n === 1 ? "es" : "") : "No section mentions “" + search.value.trim() + "”");
    }
    // the count is a live region: changed once the player stops typing, so it is said once
    let countTimer = 0;
    function sayCount(text) {
      clearTimeout(countTimer);
      if (!text) { count.textContent = ""; return; }
      countTimer = setTimeout(() => { count.textContent = text; }, TYPING_PAUSE);
    }
    search.addEventListener("input", run);
    // following a reference to a section the search hides: clear the search first
    document.addEventListener("click", (e) => {
      const a = e.target.closest("a[href^='#r-']");
      if (!a) return;
      const target = document.getElementById(decodeURIComponent(a.getAttribute("href").slice(1)));
      if (target && target.hidden) { search.value = ""; run(); }
    });
  }

  // ----- the bars never cover what the keyboard focuses -----------------------------------------
  // Focus scrolls an element into view inside the scroll padding: make it the bars' real heights.
  const diceBar = $(".dice"), navBar = $("nav.sections");
  function padForBars() {
    const root = document.documentElement.style;
    if (diceBar) root.scrollPaddingBottom = (diceBar.offsetHeight + 8) + "px";
    if (navBar) root.scrollPaddingTop = (navBar.offsetHeight + 8) + "px";
  }
  // ----- a table wider than the screen: its columns a group at a time, beside the row headings ----
  // No sticky column, no sideways hunting: the pager names each group by its first and last
  // column heading; column 0 (the row headings) is always shown.
  function cellsOf(table, col) {
    const out = [];
    for (const row of table.rows) if (row.cells[col]) out.push(row.cells[col]);
    return out;
  }
  function showGroup(table, groups, g) {
    const ncols = Math.max(...Array.from(table.rows, (r) => r.cells.length));
    for (let c = 1; c < ncols; c++) {
      const on = c >= groups[g][0] && c <= groups[g][1];
      cellsOf(table, c).forEach((cell) => cell.classList.toggle("off", !on));
    }
    table.dataset.group = String(g);
    const pager = table.parentElement.previousElementSibling;
    if (pager && pager.classList.contains("pager")) {
      $$("button", pager).forEach((b, i) => b.setAttribute("aria-pressed", i === g ? "true" : "false"));
    }
  }
  function headingOf(table, col) {
    const head = table.tHead ? table.tHead.rows[table.tHead.rows.length - 1] : table.rows[0];
    const cell = head && head.cells[col];
    return cell ? cell.textContent.trim() : String(col);
  }
  function fitTable(box) {
    const table = $("table", box);
    if (!table || !box.clientWidth) return;
    box.dataset.fitted = String(window.innerWidth);
    const old = box.previousElementSibling;
    const keep = old && old.classList.contains("pager") ? Number(table.dataset.group || 0) : 0;
    if (old && old.classList.contains("pager")) old.remove();
    $$(".off", table).forEach((c) => c.classList.remove("off"));
    delete table.dataset.group;
    table.classList.remove("paged");
    const room = box.clientWidth;
    if (table.scrollWidth <= room + 1) return;
    const ncols = Math.max(...Array.from(table.rows, (r) => r.cells.length));
    if (ncols < 3) return; // a heading and one column: it scrolls (nothing sticks over it)
    table.classList.add("paged"); // narrower row headings, closer cells
    // groups filled left to right with as many columns as the screen shows beside the headings
    const show = (a, b) => { for (let c = 1; c < ncols; c++) cellsOf(table, c).forEach((x) => x.classList.toggle("off", c < a || c > b)); };
    const groups = [];
    for (let c = 1; c < ncols;) {
      let end = c;
      while (end + 1 < ncols) { show(c, end + 1); if (table.scrollWidth > room + 1) break; end++; }
      groups.push([c, end]);
      c = end + 1;
    }
    // the same number of groups, evened out (4 + 3 columns rather than 6 + 1) when they fit
    const size = Math.ceil((ncols - 1) / groups.length);
    const even = groups.map((_, i) => [1 + i * size, Math.min((i + 1) * size, ncols - 1)]).filter(([a, b]) => a <= b);
    if (even.length === groups.length && even.every(([a, b]) => { show(a, b); return table.scrollWidth <= room + 1; })) {
      groups.splice(0, groups.length, ...even);
    }
    const name = box.getAttribute("aria-label") || "table";
    const pager = el("div", { class: "pager", role: "group", "aria-label": "Columns of " + name });
    pager.append(el("span", { class: "pager-label", "aria-hidden": "true" }, "Columns:"));
    groups.forEach(([a, b], i) => {
      const text = a === b ? headingOf(table, a) : headingOf(table, a) + " – " + headingOf(table, b);
      const btn = el("button", { type: "button", class: "btn small", "aria-pressed": "false",
        "aria-label": "Columns " + text }, text);
      btn.addEventListener("click", () => showGroup(table, groups, i));
      pager.append(btn);
    });
    box.before(pager);
    showGroup(table, groups, Math.min(keep, groups.length - 1));
  }
  const tableBoxes = $$(".scroll");
  let fittedWidth = 0;
  function fitTables(force) {
    if (!force && window.innerWidth === fittedWidth) return;
    fittedWidth = window.innerWidth;
    tableBoxes.forEach(fitTable);
  }
  // a table in a folded part is measured when it unfolds
  document.addEventListener("toggle", (e) => {
    if (e.target.open) $$(".scroll", e.target).forEach((b) => { if (b.dataset.fitted !== String(window.innerWidth)) fitTable(b); });
  }, true);

  // a wide table is a tab stop (to scroll it by keyboard) only when it does not fit
  const scrollers = $$(".scroll[role=region]");
  function tabStopsForScrollers() {
    for (const s of scrollers) {
      if (s.scrollWidth > s.clientWidth + 1 || s.scrollHeight > s.clientHeight + 1) s.setAttribute("tabindex", "0");
      else if (s !== document.activeElement) s.removeAttribute("tabindex");
    }
  }
  function fitToScreen() { fitTables(false); padForBars(); tabStopsForScrollers(); }
  if (window.ResizeObserver) {
    const ro = new ResizeObserver(fitToScreen);
    if (diceBar) ro.observe(diceBar);
    ro.observe(document.body);
  }
  window.addEventListener("resize", fitToScreen);
  document.addEventListener("toggle", tabStopsForScrollers, true); // a set-up list opened
  fitToScreen();

  // ----- a link opens the folded sections on the way to its target ---------------------------------
  // (a folded section, table or calculator, and the sections around a rule or a table)
  function unfold(t) {
    let changed = false;
    for (let d = t; d; d = d.parentElement) {
      if (d.tagName === "DETAILS" && !d.open && !d.classList.contains("dice-history")) { d.open = true; changed = true; }
    }
    return changed;
  }
  document.addEventListener("click", (e) => {
    const a = e.target.closest("a[href^='#']");
    const t = a && document.getElementById(decodeURIComponent(a.getAttribute("href").slice(1)));
    if (!t) return;
    unfold(t);
    if (a.dataset.nav) { pinned = navLinks.indexOf(a); requestAnimationFrame(markCurrent); }
    // the same link again does not change the address: bring the target back into view
    if (location.hash === a.getAttribute("href")) { e.preventDefault(); t.scrollIntoView(); }
    if (t.matches("details.calc")) {
      // a calculator: the keyboard goes to its first field, after the browser followed the link
      const field = $$("input:not([type=hidden]), select, button", t).find((x) => x.getClientRects().length);
      setTimeout(() => { (field || $("summary", t)).focus(); }, 0);
    }
  });
  function openTarget() {
    const id = decodeURIComponent(location.hash.slice(1));
    const t = id && document.getElementById(id);
    if (t && unfold(t)) t.scrollIntoView();
  }
  window.addEventListener("hashchange", openTarget);
  openTarget();

  // ----- the sections bar shows where the reader is ----------------------------------------------
  const navLinks = $$("nav.sections a[data-nav]");
  const sections = navLinks.map((a) => document.getElementById(a.dataset.nav));
  let pinned = -1; // the section last tapped in the bar, while it is on screen
  function markCurrent() {
    const line = (navBar ? navBar.getBoundingClientRect().bottom : 0) + 24;
    let current = -1;
    sections.forEach((sec, i) => { if (sec && sec.getBoundingClientRect().top <= line) current = i; });
    // the last section's end is above the line: past every section (the page's foot)
    if (current >= 0 && sections[current].getBoundingClientRect().bottom < line) current = -1;
    // a section near the foot of the page cannot scroll up to the bar: the one tapped is it
    if (pinned >= 0) {
      const r = sections[pinned].getBoundingClientRect();
      if (r.top < innerHeight && r.bottom > line) current = pinned; else pinned = -1;
    }
    navLinks.forEach((a, i) => {
      if (i === current) a.setAttribute("aria-current", "location"); else a.removeAttribute("aria-current");
      a.classList.toggle("open", !!(sections[i] && sections[i].open));
    });
  }
  let markPending = false;
  window.addEventListener("scroll", () => {
    if (markPending) return;
    markPending = true;
    requestAnimationFrame(() => { markPending = false; markCurrent(); });
  }, { passive: true });
  document.addEventListener("toggle", markCurrent, true);
  markCurrent();

  // ----- print: every collapsed part open on paper ------------------------------------------------
  let closed = [];
  window.addEventListener("beforeprint", () => { closed = $$("details:not([open])"); closed.forEach((d) => { d.open = true; }); });
  window.addEventListener("afterprint", () => { closed.forEach((d) => { d.open = false; }); closed = []; });
})();
