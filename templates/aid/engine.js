/* The table engine of the player aid: a small mirror of builder/tables (the Python rules
 * assistant) over the same table definitions, embedded as JSON. Each function below names the
 * Python function it follows; the tests run the same cases through both and compare.
 * Exact arithmetic: probabilities and divisions are fractions, never floats. */
"use strict";
(function () {
  // ----- fractions (builder.tables.rounding / fractions.Fraction) ---------------------------
  function gcd(a, b) { a = Math.abs(a); b = Math.abs(b); while (b) { [a, b] = [b, a % b]; } return a || 1; }
  class F {
    constructor(n, d = 1) {
      if (d < 0) { n = -n; d = -d; }
      const g = gcd(n, d); this.n = n / g; this.d = d / g;
    }
    static of(v) { return v instanceof F ? v : new F(v, 1); }
    add(o) { o = F.of(o); return new F(this.n * o.d + o.n * this.d, this.d * o.d); }
    sub(o) { o = F.of(o); return new F(this.n * o.d - o.n * this.d, this.d * o.d); }
    mul(o) { o = F.of(o); return new F(this.n * o.n, this.d * o.d); }
    div(o) { o = F.of(o); return new F(this.n * o.d, this.d * o.n); }
    cmp(o) { o = F.of(o); return this.n * o.d - o.n * this.d; }
    eq(o) { return this.cmp(o) === 0; }
    floor() { return Math.floor(this.n / this.d); }
    ceil() { return Math.ceil(this.n / this.d); }
    valueOf() { return this.n / this.d; }
    text() { return this.d === 1 ? String(this.n) : this.n + "/" + this.d; }
  }
  // Fraction(str(x)) for a terrain effect: 2, 1.5, "1.5", "3/2"
  function fracOf(v) {
    const s = String(v).trim();
    let m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(s);
    if (m) {
      const dec = m[3] || "";
      const d = Math.pow(10, dec.length);
      return new F((m[1] ? -1 : 1) * (parseInt(m[2], 10) * d + (dec ? parseInt(dec, 10) : 0)), d);
    }
    m = /^(-?\d+)\s*\/\s*(\d+)$/.exec(s);
    if (m) return new F(parseInt(m[1], 10), parseInt(m[2], 10));
    throw new CalcError("'" + s + "' is not a number");
  }

  const WORDS = {
    "half-down": "to the nearest whole number, an exact half down",
    "half-up": "to the nearest whole number, an exact half up",
    "down": "down", "up": "up",
    "nearest": "to the nearest whole number (an exact half up, as no rule says otherwise)",
  };
  const MIRROR = { "half-down": "half-up", "half-up": "half-down", "down": "up", "up": "down",
    "nearest": "nearest" };
  // round_to_int
  function roundTo(v, rule) {
    v = F.of(v);
    const floor = v.floor();
    const rest = v.sub(floor);
    if (rule === "down") return floor;
    if (rule === "up") return v.ceil();
    const half = rest.cmp(new F(1, 2));
    if (half === 0) return rule === "half-down" ? floor : floor + 1;
    return half > 0 ? floor + 1 : floor;
  }
  function isHalf(v) { v = F.of(v); return v.sub(v.floor()).eq(new F(1, 2)); }
  // show
  function show(v) {
    v = F.of(v);
    if (v.d === 1) return String(v.n);
    if (1000 % v.d === 0 || [2, 4, 5, 8, 16].includes(v.d)) {
      return (v.n / v.d).toFixed(4).replace(/0+$/, "").replace(/\.$/, "");
    }
    return v.n + "/" + v.d + " (" + (v.n / v.d).toFixed(3) + ")";
  }
  const signed = (n) => (n >= 0 ? "+" : "") + n;
  const pct = (p) => (F.of(p).valueOf() * 100).toFixed(1) + "%";

  class CalcError extends Error {}

  // ----- dice (builder.tables.dice) --------------------------------------------------------
  function parseDice(dice) {
    const m = /^(\d+)d(\d+)$/.exec(dice);
    if (!m) throw new CalcError("'" + dice + "' is not a dice spec");
    return [parseInt(m[1], 10), parseInt(m[2], 10)];
  }
  function diceRange(dice) { const [n, s] = parseDice(dice); return [n, n * s]; }
  const totalsCache = {};
  // totals: exact probability of each total, every face combination enumerated, ascending
  function totals(dice) {
    if (totalsCache[dice]) return totalsCache[dice];
    const [n, sides] = parseDice(dice);
    let combos = [[]];
    for (let i = 0; i < n; i++) {
      const next = [];
      for (const c of combos) for (let f = 1; f <= sides; f++) next.push(c.concat([f]));
      combos = next;
    }
    const counts = new Map();
    for (const c of combos) { const t = c.reduce((a, b) => a + b, 0); counts.set(t, (counts.get(t) || 0) + 1); }
    const out = [...counts.keys()].sort((a, b) => a - b).map((t) => [t, new F(counts.get(t), combos.length)]);
    totalsCache[dice] = out;
    return out;
  }
  // parse_roll
  function parseRoll(text, dice, count = 1, what = "roll") {
    const [lo, hi] = diceRange(dice);
    const [n, sides] = parseDice(dice);
    let parts;
    if (typeof text === "number") parts = [text];
    else if (Array.isArray(text)) parts = text.slice();
    else parts = String(text).trim().split(/[,\s]+/).filter((p) => p);
    const nums = parts.map((p) => (/^\s*[+-]?\d+\s*$/.test(String(p)) ? parseInt(p, 10) : NaN));
    if (nums.some((x) => Number.isNaN(x))) {
      throw new CalcError(what + " '" + text + "' is not a number: give e.g. '" + lo + "' or '" + Array(n).fill("1").join(",") + "'");
    }
    if (count > 1) {
      if (nums.length !== count) throw new CalcError(what + " '" + text + "': give " + count + " rolls of " + dice + ", one per marker, e.g. '" + Array(count).fill(lo).join(",") + "'");
      for (const v of nums) if (v < lo || v > hi) throw new CalcError(what + " " + v + " cannot be rolled on " + dice + ": give " + lo + " to " + hi);
      return nums;
    }
    if (nums.length === 1) {
      if (nums[0] < lo || nums[0] > hi) throw new CalcError(what + " " + nums[0] + " cannot be rolled on " + dice + ": give " + lo + " to " + hi);
      return nums;
    }
    if (nums.length === n && n > 1) {
      for (const v of nums) if (v < 1 || v > sides) throw new CalcError(what + " '" + text + "': a d" + sides + " shows 1 to " + sides + ", not " + v);
      return [nums.reduce((a, b) => a + b, 0)];
    }
    throw new CalcError(what + " '" + text + "': give the total (" + lo + " to " + hi + ")" + (n > 1 ? " or the " + n + " dice, e.g. '3,4'" : ""));
  }

  // ----- results (builder.tables.result) ----------------------------------------------------
  function outcome(result, meaning = "", numbers = {}) { return { result, meaning, numbers }; }
  function outcomeKey(o) {
    return JSON.stringify([o.result, Object.keys(o.numbers).sort().map((k) => [k, o.numbers[k]])]);
  }
  class Tally {
    constructor() { this.items_ = new Map(); }
    add(o, p) {
      const k = outcomeKey(o);
      if (!this.items_.has(k)) this.items_.set(k, [o, new F(0)]);
      const slot = this.items_.get(k); slot[1] = slot[1].add(p);
    }
    items() { return [...this.items_.values()].map(([o, p]) => [o, p]); }
    expected() {
      const names = [];
      for (const [o] of this.items_.values()) for (const n of Object.keys(o.numbers)) if (!names.includes(n)) names.push(n);
      const out = {};
      for (const n of names) {
        if ([...this.items_.values()].every(([o]) => n in o.numbers)) {
          out[n] = [...this.items_.values()].reduce((s, [o, p]) => s.add(p.mul(o.numbers[n])), new F(0));
        }
      }
      return out;
    }
  }
  function tallyValues(pairs) {
    const out = new Map();
    for (const [label, p] of pairs) out.set(label, (out.get(label) || new F(0)).add(p));
    return [...out.entries()];
  }
  class Calc {
    constructor(id, name, kind) {
      this.table = id; this.name = name; this.kind = kind; this.steps = []; this.notes = [];
      this.column = null; this.roll = null; this.outcome = null; this.distribution = [];
      this.columns = []; this.expected = {};
    }
    step(t) { this.steps.push(t); }
    echo(t) { (this.echoes = this.echoes || new Set()).add(this.steps.length); this.steps.push(t); }
    answer() {
      const echoes = this.echoes || new Set();
      return JSON.stringify([this.steps.filter((_, i) => !echoes.has(i)), this.column, this.outcome ? outcomeKey(this.outcome) : null,
        this.distribution.map(([o, p]) => [outcomeKey(o), p.text()]), this.columns.map(([c, p]) => [c, p.text()]),
        Object.keys(this.expected).sort().map((k) => [k, this.expected[k].text()])]);
    }
    note(t) { if (t && !this.notes.includes(t)) this.notes.push(t); }
    toDict() {
      const d = {
        table: this.table, name: this.name, kind: this.kind, steps: this.steps.slice(),
        column: this.column, roll: this.roll, result: this.outcome ? this.outcome.result : null,
        meaning: this.outcome ? this.outcome.meaning : null,
        numbers: this.outcome ? Object.assign({}, this.outcome.numbers) : {},
        distribution: this.distribution.map(([o, p]) => ({ result: o.result, meaning: o.meaning,
          numbers: Object.assign({}, o.numbers), probability: p.text(), p: p.valueOf() })),
        expected: Object.fromEntries(Object.entries(this.expected).map(([k, v]) => [k, { value: v.text(), float: Math.round(v.valueOf() * 1e6) / 1e6 }])),
        notes: this.notes.slice(), unused: (this.unused || []).map((u) => Object.assign({}, u)),
      };
      if (this.columns.length) d.columns = this.columns.map(([c, p]) => ({ column: c, probability: p.text(), p: p.valueOf() }));
      return d;
    }
  }
  class Quiet { step() {} note() {} }

  // ----- the game's data ----------------------------------------------------------------------
  let G = null; // {calculators, tables, map}
  const specsById = {};
  let HEX = new Map(); // label -> [cube, terrain ids, centre mm], in the map's order
  function load(data) {
    G = data;
    for (const c of data.calculators) specsById[c.id] = c;
    if (G.map.kind === "hex") HEX = new Map(G.map.hexes.map((h) => [h[0], h.slice(1)]));
  }
  const hexLabels = () => [...HEX.keys()];
  const terrainType = (id) => G.map.terrain[id];
  const terrainName = (id) => (terrainType(id) ? terrainType(id).name : id);
  // mapinfo.parse_hex: a printed number that must be on this map
  function parseHex(text) {
    if (G.map.kind !== "hex") throw new CalcError(G.game + " has an area map: name a sector, not a hex");
    const [cd, rd] = G.map.digits;
    const m = /^(?:([0-9A-Za-z]+):)?(\d+)$/.exec(String(text).trim());
    const width = cd + rd;
    if (!m || m[2].length !== width) {
      const ex = width === 4 ? "2717" : "0".repeat(width);
      throw new CalcError("'" + text + "' is not a hex number: expected " + width + " digits, column then row (e.g. '" + ex + "' or with a sheet prefix '16A:" + ex + "')");
    }
    const label = (m[1] ? m[1] + ":" : "") + m[2];
    if (!HEX.has(label)) {
      const labels = hexLabels();
      throw new CalcError("hex " + text + " is not on the map (" + labels[0] + " to " + labels[labels.length - 1] + ")");
    }
    return label;
  }
  const cube = (h) => HEX.get(h)[0];
  const hexTerrain = (h) => HEX.get(h)[1];
  function distance(a, b) {
    const p = cube(a), q = cube(b);
    return Math.max(Math.abs(p[0] - q[0]), Math.abs(p[1] - q[1]), Math.abs(p[2] - q[2]));
  }
  function hexsideTypes(a, b) {
    return G.map.hexsides[a + "|" + b] || G.map.hexsides[b + "|" + a] || [];
  }
  const hexsideName = (id) => G.map.hexsideTypes[id] || id;

  // ----- inputs (builder.tables.inputs) --------------------------------------------------------
  const TRUE = ["yes", "y", "true", "1", "on"], FALSE = ["no", "n", "false", "0", "off", "none"];
  function bad(spec, raw, why) {
    return spec.id + "=" + raw + (why ? ": " + why : "") + "; " + spec.label + " must be " + spec.allowed;
  }
  function parseOne(spec, raw) {
    if (spec.type === "int") {
      if (typeof raw === "boolean") throw new CalcError(bad(spec, raw));
      const s = String(raw).trim();
      if (!/^[+-]?\d+$/.test(s)) throw new CalcError(bad(spec, raw, "not a whole number"));
      const v = parseInt(s, 10);
      if ((spec.min != null && v < spec.min) || (spec.max != null && v > spec.max)) throw new CalcError(bad(spec, raw, "out of range"));
      return v;
    }
    if (spec.type === "bool") {
      if (typeof raw === "boolean") return raw;
      const s = String(raw).trim().toLowerCase();
      if (TRUE.includes(s)) return true;
      if (FALSE.includes(s)) return false;
      throw new CalcError(bad(spec, raw));
    }
    if (spec.type === "hex") return parseHex(raw);
    const s = String(raw).trim().toLowerCase();
    for (const c of spec.choices) if (s === c.value.toLowerCase() || s === c.label.toLowerCase()) return c.value;
    for (const c of spec.choices) if ((c.aliases || []).some((a) => a.toLowerCase() === s)) return c.value;
    throw new CalcError(bad(spec, raw, "not allowed"));
  }
  function parseSpec(spec, raw) {
    const items = Array.isArray(raw) ? raw : (spec.multiple ? String(raw).trim().split(/\s*,\s*/).filter((p) => p !== "") : [raw]);
    if (spec.multiple && spec.type === "choice" && items.length === 1 && String(items[0]).toLowerCase() === "none" && !spec.choices.some((c) => c.value === "none")) return [];
    if (!spec.multiple && items.length !== 1) throw new CalcError(bad(spec, raw, "give one value"));
    if (spec.multiple && !items.length) throw new CalcError(bad(spec, raw, "give at least one value"));
    const values = items.map((v) => parseOne(spec, v));
    return spec.multiple ? values : values[0];
  }
  // resolve
  // inputs._ALIASES: other spellings, and the place inputs' former names
  const ALIASES = { defense: ["defence"], defence: ["defense"], defender_hex: ["hex"], target_hex: ["hex"], target_sector: ["sector"],
    defender_terrain: ["terrain"], target_terrain: ["terrain"], defence_terrain: ["terrain"], defense_terrain: ["terrain"] };
  function aliased(name, ids) {
    if (ids.includes(name)) return name;
    return (ALIASES[name] || []).find((o) => ids.includes(o)) || name;
  }
  function resolve(specs, rawGiven) {
    const ids = specs.map((s) => s.id);
    const given = {};
    for (const [k, v] of Object.entries(rawGiven)) {
      const key = aliased(k, ids);
      if (key in given) throw new CalcError(key + " is given twice (" + k + " is another name for " + key + "): give it once");
      given[key] = v;
    }
    const unknown = Object.keys(given).filter((k) => !ids.includes(k));
    if (unknown.length) throw new CalcError("unknown input" + (unknown.length > 1 ? "s " : " ") + unknown.join(", ") + "; this table takes: " + ids.join(", "));
    const values = {};
    for (const s of specs) {
      if (s.id in given && given[s.id] != null) values[s.id] = parseSpec(s, given[s.id]);
      else if (s.required) throw new CalcError("missing input " + s.id + " (" + s.label + "): give " + s.id + "=VALUE, " + s.allowed);
      else values[s.id] = s.default;
    }
    return values;
  }

  // ----- shared pieces (builder.tables.common) ------------------------------------------------
  const NO_EFFECT = ["", "-", "—", "–", "no effect", "none"];
  function slug(text) { return String(text).toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "") || "x"; }
  const truthy = (v) => !(v == null || v === false || v === 0 || v === "" || (Array.isArray(v) && !v.length));
  function meaning(t, result) {
    const legend = t.legend || {};
    if (result in legend) return legend[result];
    if (NO_EFFECT.includes(result.trim())) return legend["—"] ?? legend["-"] ?? "no effect";
    return "";
  }
  function itemNote(calc, item, what) {
    if (item.note) calc.note(what + ": " + item.note);
    if (item.assumed === true || (Array.isArray(item.assumed) && item.assumed.length)) calc.note(what + " is reconstructed (not in the rule documents).");
  }
  function tableNotes(calc, t) {
    if (t.note) calc.note(t.note);
    if (t.rounding_note) calc.note(t.rounding_note);
    if (t.assumed === true) calc.note("This table is reconstructed: the rule documents do not give it" + (t.source ? " (" + t.source + ")" : "") + ".");
    else if (Array.isArray(t.assumed) && t.assumed.length) calc.note("Reconstructed (not in the rule documents): " + t.assumed.join(", ") + ".");
    for (const n of t.notes || []) calc.note(n);
  }
  function firstMax(items, key) {
    let best = items[0];
    for (const x of items) if (key(x) > key(best)) best = x;
    return best;
  }
  // apply_modifiers: modifiers for terrain or regions come from the place, never from inputs
  const placeBound = (m) => (m.terrain || []).length > 0 || (m.regions || []).length > 0;
  function fromPlace(m, place) {
    if (!place) return null;
    const parts = [];
    if ((m.terrain || []).length) parts.push(place.terrain === null ? null : m.terrain.some((x) => place.terrain.includes(x)));
    if ((m.regions || []).length) parts.push(place.regions === null ? null : m.regions.some((x) => place.regions.includes(x)));
    if (parts.some((p) => p === true)) return true;
    return parts.some((p) => p === null) ? null : false;
  }
  function whyPlace(m, place) {
    const terrain = [...new Set((m.terrain || []).filter((x) => (place.terrain || []).includes(x)))].sort();
    const tname = (x) => (G.map.terrain[x] || { name: x }).name;
    const rname = (x) => (G.map.region_names || {})[x] || x;
    if (terrain.length) return " (" + terrain.map(tname).join(", ") + (place.where ? " in " + place.where : "") + ")";
    const regions = [...new Set((m.regions || []).filter((x) => (place.regions || []).includes(x)))].sort();
    return " (" + (place.where || "the hex") + " is in " + regions.map(rname).join(", ") + ")";
  }
  function applyModifiers(calc, mods, values, place = null) {
    let total = 0;
    const where = place && place.where ? " in " + place.where : "";
    const unknown = (mods || []).filter((m) => placeBound(m) && fromPlace(m, place) === null);
    if (unknown.length) calc.note("Modifiers for the place (" + unknown.map((m) => m.label + " " + signed(m.value)).join(", ") + ") apply only when the " + (place && place.terrain !== null ? "hex is given." : "terrain or the place is given."));
    const groups = new Map();
    for (const m of mods || []) if (m.group) { if (!groups.has(m.group)) groups.set(m.group, []); groups.get(m.group).push(m); }
    for (const [group, members] of groups) {
      const chosenIds = values[slug(group)] || [];
      const chosen = members.filter((m) => (!placeBound(m) && chosenIds.includes(m.id)) || (placeBound(m) && fromPlace(m, place)));
      if (!chosen.length) continue;
      const best = firstMax(chosen, (m) => m.value);
      total += best.value;
      const src = chosen.some(placeBound) ? where : "";
      if (chosen.length > 1) calc.step(group + src + ": " + chosen.map((m) => m.label + " " + signed(m.value)).join(", ") + ": not cumulative, only the highest applies: " + signed(best.value) + (best.source ? " (" + best.source + ")" : ""));
      else calc.step(group + src + ": " + best.label + " " + signed(best.value) + (best.source ? " (" + best.source + ")" : ""));
      itemNote(calc, best, best.label);
    }
    for (const m of mods || []) {
      if (m.group) continue;
      if ((m.values || []).length) {
        const v = values[m.id];
        if (v != null && v !== "") {
          total += Number(v);
          calc.step("modifier: " + m.label + " " + signed(Number(v)) + (m.source ? " (" + m.source + ")" : ""));
          itemNote(calc, m, m.label);
        }
        continue;
      }
      let n;
      if (placeBound(m)) n = fromPlace(m, place) ? 1 : 0;
      else { const v = values[m.id]; n = truthy(v) ? Number(v) : 0; }
      if (n) {
        total += m.value * n;
        calc.step("modifier: " + m.label + (n > 1 ? " x" + n : "") + " " + signed(m.value * n) + (placeBound(m) ? whyPlace(m, place) : "") + (m.source ? " (" + m.source + ")" : ""));
        itemNote(calc, m, m.label);
      }
    }
    return total;
  }

  // ----- the place (builder.tables.place): terrain named, or read from the hex or sector --------
  function readPlace(values, calc) {
    const named = values.terrain;
    const isHex = G.map.kind === "hex";
    const h = isHex ? values.hex : null, s = isHex ? null : values.sector;
    const none = { terrain: null, hex: null, sector: null, regions: null, where: "" };
    if (truthy(named) && (h != null || s != null)) throw new CalcError("give terrain or the " + (isHex ? "hex" : "sector") + ", not both: the map gives the terrain of the place named");
    if (h != null) {
      const terrain = hexTerrain(h).slice();
      if (calc) calc.echo(h + ": " + terrain.map(terrainName).join(", "));
      return { ...none, terrain, hex: h, regions: HEX.get(h)[3].slice(), where: h };
    }
    if (s != null) {
      const sector = G.map.sectors[s];
      if (calc) calc.echo(sector.name + ": " + (sector.terrain.length ? sector.terrain.map(terrainName).join(", ") : "no terrain feature"));
      return { ...none, terrain: sector.terrain.slice(), sector: s, where: sector.name };
    }
    if (truthy(named)) return { ...none, terrain: named.slice() };
    return none;
  }
  function divisor(effect, ids, choice, calc, what) {
    if (!ids || !ids.length) return new F(1);
    const found = ids.filter((i) => terrainType(i) && effect in terrainType(i).effects).map((i) => [terrainType(i), fracOf(terrainType(i).effects[effect])]);
    if (!found.length) return new F(1);
    if (choice === "cumulative") {
      let v = new F(1);
      for (const [, x] of found) v = v.mul(x);
      calc.step(what + ": " + found.map(([t, x]) => t.name + " " + show(x)).join(" x ") + " = " + show(v) + " (cumulative)");
      return v;
    }
    const [bt, best] = firstMax(found, (tv) => tv[1].valueOf());
    if (found.length > 1) calc.step(what + ": " + found.map(([t, x]) => t.name + " " + show(x)).join(", ") + ": not cumulative, the best for the defender applies: " + bt.name + " " + show(best) + (bt.source ? " (" + bt.source + ")" : ""));
    else calc.step(what + ": " + bt.name + ", " + effect + " " + show(best) + (bt.source ? " (" + bt.source + ")" : ""));
    return best;
  }

  // terrain_shift: the defender's terrain and crossed hexsides ([type, shift] pairs): the one best
  // for the defender, or all added when cumulative
  function terrainShift(effect, ids, calc, choice = "best-for-defender", sides = []) {
    const found = [];
    for (const i of effect ? ids || [] : []) {
      const t = terrainType(i);
      if (!t || !(effect in t.effects)) continue;
      const v = t.effects[effect];
      if (typeof v === "number") found.push([t, Math.trunc(v)]);
      else if (/^\s*[+-]?\d+\s*$/.test(String(v))) found.push([t, parseInt(v, 10)]);
    }
    for (const s of sides) found.push(s);
    if (!found.length) return 0;
    const cols = (n) => signed(n) + " column" + (Math.abs(n) !== 1 ? "s" : "");
    if (choice === "cumulative") {
      const total = found.reduce((a, [, v]) => a + v, 0);
      calc.step("terrain shifts: " + found.map(([t, v]) => t.name + " " + signed(v)).join(" ") + " = " + cols(total) + " (cumulative)");
      return total;
    }
    let [bt, best] = found[0];
    for (const [t, v] of found) if (v < best) { bt = t; best = v; }
    calc.step("terrain: " + bt.name + ", " + cols(best) + (found.length > 1 ? " (the best for the defender of " + found.map(([t]) => t.name).join(", ") + ")" : "") + (bt.source ? " (" + bt.source + ")" : ""));
    return best;
  }

  // ----- rules as data (builder.tables.rules, meanings from builder.tables.effects) -------------
  const PLACES = {
    ratio: ["defender", "attacker", "attacker_hexes"],
    differential: ["defender", "attacker", "attacker_hexes"],
    fire: ["target", "firer", ""],
    "modified-roll": ["target", "firer", ""],
    lookup: ["", "", ""],
  };
  const ROLES = ["attacker", "defender", "firer", "target"];
  const ATTRIBUTES = ["side", "formation", "type", "size"];
  const EFFECT_FIELDS = ["prohibited", "cancels", "attack_divisor", "attack_multiplier", "defence_divisor", "defence_multiplier", "row", "column", "shift", "cap", "drm", "replace"];
  const given_ = (v) => !(v == null || v === "" || (Array.isArray(v) && !v.length) || (typeof v === "object" && !Array.isArray(v) && !Object.keys(v).length));
  const ruleEffect = (r) => EFFECT_FIELDS.find((f) => given_(r[f]));
  const ruleValue = (r) => r[ruleEffect(r)];
  function* walk(c) { yield c; for (const x of [...(c.all || []), ...(c.any || []), ...(c.not_ ? [c.not_] : [])]) yield* walk(x); }
  function* conditionsOf(t) { for (const r of t.rules || []) if (r.when) yield* walk(r.when); }
  // facts
  function ruleFacts(t, values, place = null) {
    const f = { turn: null, periods: null, scenario: null, roles: {}, terrain: null, regions: null, hex: null, crossings: null, distances: null, ranges: null, flags: {} };
    const attId = PLACES[t.kind][2];
    f.turn = values.turn != null ? values.turn : null;
    if (f.turn != null) {
      const d = (G.turns || []).find((x) => x.number === f.turn);
      f.periods = new Set();
      if (d && d.period) f.periods.add(d.period);
      if (d && d.night) f.periods.add("night");
    }
    f.scenario = values.scenario != null ? values.scenario : null;
    for (const role of ROLES) {
      f.roles[role] = {};
      for (const a of ATTRIBUTES) {
        const v = values[role + "_" + a];
        f.roles[role][a] = v == null || (Array.isArray(v) && !v.length) ? null : new Set(Array.isArray(v) ? v : [v]);
      }
    }
    for (const k of Object.keys(t.flags || {})) f.flags[k] = truthy(values[k]);
    for (const c of conditionsOf(t)) if (c.flag) f.flags[c.flag] = truthy(values[c.flag]);
    f.numbers = {};
    for (const i of t.inputs || []) if (values[i.id] != null) f.numbers[i.id] = values[i.id];
    if (place && place.terrain !== null) f.terrain = new Set(place.terrain);
    if (place && place.hex !== null) {
      f.hex = place.hex;
      f.regions = new Set(place.regions || []);
      const attackers = attId ? values[attId] : null;
      if (truthy(attackers)) f.crossings = attackers.map((a) => new Set(hexsideTypes(a, place.hex)));
    }
    return f;
  }
  const allOf = (parts) => (parts.some((p) => p === false) ? false : parts.some((p) => p === null) ? null : true);
  const anyOf = (parts) => (parts.some((p) => p === true) ? true : parts.some((p) => p === null) ? null : false);
  const meets = (have, want) => want.some((x) => have.has(x));
  function holds(c, f, unit = null) {
    const parts = [];
    if (c.turn) parts.push(f.turn === null ? null : specMatches(c.turn, f.turn, {}));
    if ((c.period || []).length) parts.push(f.periods === null ? null : meets(f.periods, c.period));
    if ((c.scenario || []).length) parts.push(f.scenario === null ? null : c.scenario.includes(f.scenario));
    for (const role of ROLES) for (const [a, want] of Object.entries(c[role] || {})) {
      const have = (f.roles[role] || {})[a];
      parts.push(have == null ? null : meets(have, want));
    }
    if ((c.terrain || []).length) parts.push(f.terrain === null ? null : meets(f.terrain, c.terrain));
    if ((c.region || []).length) parts.push(f.regions === null ? null : meets(f.regions, c.region));
    if (c.place) {
      if (f.hex === null) parts.push(null);
      else { const lab = G.map.labels.find((l) => l[0] === c.place); parts.push(distance(f.hex, lab[1]) <= (c.within || 0)); }
    }
    if ((c.across || []).length) {
      if (f.crossings === null) parts.push(null);
      else if (c.attackers === "per-unit" && unit !== null) parts.push(meets(f.crossings[unit], c.across));
      else if (c.attackers === "all") parts.push(f.crossings.length > 0 && f.crossings.every((x) => meets(x, c.across)));
      else parts.push(f.crossings.some((x) => meets(x, c.across)));
    }
    if (c.distance) parts.push(distanceHolds(c.distance, f, unit));
    if (c.flag) parts.push(!!f.flags[c.flag]);
    for (const [k, spec] of Object.entries(c.input || {})) parts.push(k in f.numbers ? specMatches(spec, f.numbers[k], {}) : null);
    if ((c.all || []).length) parts.push(allOf(c.all.map((x) => holds(x, f, unit))));
    if ((c.any || []).length) parts.push(anyOf(c.any.map((x) => holds(x, f, unit))));
    if (c.not_) { const inner = holds(c.not_, f, unit); parts.push(inner === null ? null : !inner); }
    return allOf(parts);
  }
  // a distance condition for one firing unit, or for any of them (builder.tables.rules._distance_holds)
  function distanceHolds(spec, f, unit) {
    if (f.distances === null) return null;
    const ranged = /range/.test(spec);
    if (ranged && f.ranges === null) return null;
    const one = (k) => specMatches(spec, f.distances[k], ranged ? { range: f.ranges[k] } : {});
    if (unit !== null) return one(unit);
    return f.distances.some((_, k) => one(k));
  }
  // what would decide a condition now unknown, as builder.tables.rules._needs words it
  function needs(c, f, place) {
    let out = [];
    if ((c.turn || (c.period || []).length) && f.turn === null) out.push("the turn");
    if ((c.scenario || []).length && f.scenario === null) out.push("the scenario");
    for (const role of ROLES) for (const a of Object.keys(c[role] || {})) if ((f.roles[role] || {})[a] == null) out.push((role === "attacker" ? "the attacking units'" : "the " + role + "'s") + " " + a);
    if (((c.terrain || []).length && f.terrain === null) || (((c.region || []).length || c.place) && f.hex === null)) out.push("the " + place + "'s hex");
    if ((c.across || []).length && f.crossings === null) out.push("the attacking units' hexes", "the " + place + "'s hex");
    if (c.distance && f.distances === null) out.push("each firing unit's distance (distance, or firer_hexes and the hex)");
    else if (c.distance && /range/.test(c.distance) && f.ranges === null) out.push("each firing unit's range");
    for (const x of [...(c.all || []), ...(c.any || []), ...(c.not_ ? [c.not_] : [])]) out.push(...needs(x, f, place));
    return [...new Set(out.filter((o) => o))];
  }
  // the sentences builder.words writes for this table (rules, ends of the table, refusals)
  const said = (t) => (G.words || {})[t.id] || { rules: {} };
  // a lookup entry's condition as its table prints it (builder.words.entry)
  const entryWords = (t, e) => (said(t).entries || [])[t.entries.indexOf(e)] || e.when;
  function either(items, word = "or") {
    return items.length <= 1 ? items.join("") : items.slice(0, -1).join(", ") + " " + word + " " + items[items.length - 1];
  }
  const STAGE_WORDS = { attack: "the attack strength", defence: "the defence strength", column: "the column read", shift: "the column", cap: "the best column", roll: "the roll", cancel: "another rule" };
  const ruleFactor = (r) => { const v = fracOf(ruleValue(r)); return ruleEffect(r).endsWith("divisor") ? new F(1).div(v) : v; };
  const power = (x, n) => { let out = new F(1); for (let i = 0; i < n; i++) out = out.mul(x); return out; };
  function strength(r) {
    const e = ruleEffect(r);
    if (e === "shift" || e === "drm") return Math.abs(ruleValue(r));
    if (/divisor|multiplier/.test(e)) return fracOf(ruleValue(r)).valueOf();
    return 0;
  }
  // a rule as builder.words says it (the engine data carries the sentences)
  const ruleWords = (t, r) => ((G.ruleWords || {})[t.id] || {})[r.id] || { rule: r.label, effect: effectText(r).replace(/^ -> /, ""), when: "when " + describeWhen(r.when || {}) };
  function evaluateRules(t, values, f, calc) {
    const out = { prohibited: [], attack: [], defence: [], rows: [], column: null, shift: 0, cap: null, drm: 0, replace: [], said: said(t).rules };
    const rules = t.rules || [];
    if (!rules.length) return out;
    const say = out.said;
    const uses = {}, units = {};
    for (const r of rules) {
      if (!r.when) {
        const v = values[r.id];
        uses[r.id] = truthy(v) ? Number(v) : 0;
        if (uses[r.id]) calc.step(say[r.id] + (uses[r.id] > 1 ? " — " + uses[r.id] + " times" : ""));
        continue;
      }
      const perUnit = [...walk(r.when)].some((c) => c.attackers === "per-unit");
      const ranged = /^attack_/.test(ruleEffect(r)) && [...walk(r.when)].some((c) => c.distance);
      let ok;
      if (perUnit && f.crossings !== null) {
        units[r.id] = f.crossings.map((_, k) => k).filter((k) => holds(r.when, f, k));
        ok = units[r.id].length > 0;
      } else if (ranged && f.distances !== null) {
        const each = f.distances.map((_, k) => holds(r.when, f, k));
        ok = each.some((v) => v === null) ? null : each.some((v) => v);
        if (ok) units[r.id] = each.map((v, k) => (v ? k : -1)).filter((k) => k >= 0);
      } else ok = holds(r.when, f);
      if (ok === null) {
        calc.note("Not applied without " + either(needs(r.when, f, PLACES[t.kind][0] || "defender"), "and") + ": " + say[r.id]);
        ok = false;
      }
      uses[r.id] = ok ? 1 : 0;
      if (ok) calc.step(say[r.id]);
    }
    for (const r of rules) {
      if (ruleEffect(r) !== "cancels" || !uses[r.id]) continue;
      const target = rules.find((x) => x.id === r.cancels);
      const k = Math.min(uses[r.id], uses[target.id]);
      calc.step(r.label + " x" + uses[r.id] + " cancels " + target.label + " one for one: " + uses[target.id] + " - " + k + " = " + (uses[target.id] - k) + (uses[r.id] > k ? " (never past zero)" : ""));
      uses[target.id] -= k;
      uses[r.id] = 0;
    }
    let live = rules.filter((r) => uses[r.id] && ruleEffect(r) !== "cancels");
    const groups = new Map();
    for (const r of live) if (r.group) { if (!groups.has(r.group)) groups.set(r.group, []); groups.get(r.group).push(r); }
    for (const [g, members] of groups) {
      const best = firstMax(members, strength);
      if (members.length > 1) calc.step("Not cumulative (" + g.replace(/-/g, " ") + "): " + either(members.map((m) => m.label), "and") + "; only the strongest counts: " + best.label);
      live = live.filter((r) => !r.group || r.group !== g || r === best);
    }
    live = combineRules(t, live, uses, calc);
    for (const r of live) {
      const n = uses[r.id], e = ruleEffect(r);
      if (e === "prohibited") out.prohibited.push(r);
      else if (e === "attack_divisor" || e === "attack_multiplier") out.attack.push([r, power(ruleFactor(r), n), units[r.id] || null]);
      else if (e === "defence_divisor" || e === "defence_multiplier") out.defence.push([r, power(ruleFactor(r), n)]);
      else if (e === "row") out.rows.push(r);
      else if (e === "column") out.column = out.column || r;
      else if (e === "shift") out.shift += r.shift * n;
      else if (e === "cap") out.cap = out.cap || r;
      else if (e === "drm") out.drm += r.drm * n;
      else if (e === "replace") out.replace.push(r);
    }
    return out;
  }
  function combineRules(t, live, uses, calc) {
    const mode = t.rules_combine || "cumulative";
    if (mode === "cumulative") return live;
    const keep = [];
    const byStage = new Map();
    for (const r of live) { const s = G.effects.effects[ruleEffect(r)].stage; if (!byStage.has(s)) byStage.set(s, []); byStage.get(s).push(r); }
    for (const [stage, members] of byStage) {
      if (members.length === 1 || ["gate", "result", "row"].includes(stage)) { keep.push(...members); continue; }
      let pick;
      if (mode === "first") {
        pick = members[0];
        calc.step("Only the first rule listed that changes " + (STAGE_WORDS[stage] || "the same thing") + " counts: " + pick.label);
      } else {
        pick = members[0];
        const val = (r) => (stage === "shift" ? new F(r.shift * uses[r.id]) : power(ruleFactor(r), uses[r.id]));
        for (const r of members) {
          const c = val(r).cmp(val(pick));
          if ((stage === "shift" || stage === "attack") ? c < 0 : stage === "defence" ? c > 0 : false) pick = r;
        }
        calc.step("Only the rule best for the defender that changes " + (STAGE_WORDS[stage] || "the same thing") + " counts: " + pick.label);
      }
      keep.push(pick);
    }
    return live.filter((r) => keep.includes(r));
  }
  function scaleBy(value, fac, rounding, calc, what) {
    if (fac.eq(1)) return value;
    const raw = new F(value).mul(fac);
    const n = roundTo(raw, rounding);
    const op = fac.cmp(1) > 0 ? "x " + show(fac) : "/ " + show(new F(1).div(fac));
    calc.step(what + ": " + value + " " + op + " = " + show(raw) + (raw.d !== 1 ? ", rounded " + WORDS[rounding] + " = " + n : ""));
    return n;
  }
  function attackFactor(applied) {
    let fac = new F(1), rounding = null;
    for (const [r, k, u] of applied.attack) if (u === null) { fac = fac.mul(k); rounding = rounding || r.rounding; }
    return [fac, rounding];
  }
  function defenceFactor(applied) {
    let fac = new F(1), rounding = null;
    for (const [r, k] of applied.defence) { fac = fac.mul(k); rounding = rounding || r.rounding; }
    return [fac, rounding];
  }
  function perUnit(applied, vals, nAttackers, rounding, calc) {
    const rules = applied.attack.filter(([, , u]) => u && u.length);
    if (!rules.length) return vals;
    if (vals.length !== nAttackers) throw new CalcError(rules[0][0].label + " applies to each attacking unit that crosses on its own: give attack as one value per attacker hex, in the same order");
    const out = vals.slice();
    for (const [r, k, u] of rules) for (const i of u) out[i] = scaleBy(out[i], k, r.rounding || rounding, calc, "unit " + (i + 1) + ", " + r.label);
    return out;
  }
  function moveColumn(t, calc, index, applied, other, last, labels, columnIndex, beyond = null) {
    const [beyondLow, beyondHigh] = beyond || [t.beyond_low, t.beyond_high];
    if (applied.column) { const nw = columnIndex(applied.column.column); calc.step(applied.column.label + ": read on " + labels(nw)); index = nw; }
    const total = applied.shift + other;
    const target = index + total;
    if (total) calc.step("column " + labels(index) + " shifted " + signed(total));
    let nw;
    if (target < 0) {
      if (beyondLow === "not-allowed") { calc.step(said(t).beyond_low); return null; }
      nw = beyondLow === "first-column" ? 0 : last;
      calc.note(said(t).beyond_low);
    } else if (target > last) {
      if (beyondHigh === "not-allowed") { calc.step(said(t).beyond_high); return null; }
      nw = beyondHigh === "last-column" ? last : 0;
      calc.note(said(t).beyond_high);
    } else nw = target;
    if (total) calc.step("-> " + labels(nw));
    if (applied.cap) { const c = columnIndex(applied.cap.cap); if (nw > c) { calc.step(applied.cap.label + ": at most " + labels(c)); nw = c; } }
    return nw;
  }
  function replaced(applied, result) { for (const r of applied.replace) if (result in r.replace) result = r.replace[result]; return result; }
  function refuseRules(applied, calc) {
    if (!applied.prohibited.length) return false;
    const r = applied.prohibited[0];
    // the rule's sentence: the working said it as the rule applied; the headline says it again
    calc.outcome = outcome("not allowed", applied.said[r.id]);
    calc.distribution = [[calc.outcome, new F(1)]];
    return true;
  }
  function shiftTotal(calc, shifts, values) {
    let total = 0;
    for (const s of shifts || []) {
      const v = values[s.id];
      const n = truthy(v) ? Number(v) : 0;
      if (n) {
        total += s.columns * n;
        calc.step("shift: " + s.label + (n > 1 ? " x" + n : "") + " = " + signed(s.columns * n) + " column" + (Math.abs(s.columns * n) !== 1 ? "s" : "") + (s.source ? " (" + s.source + ")" : ""));
        itemNote(calc, s, s.label);
      }
    }
    return total;
  }

  // ----- differential (builder.tables.differential) ---------------------------------------------
  function parseBand(text) {
    const m = /^\s*(?:(<=|>=)\s*([+-]?\d+)|([+-]?\d+)(?:\s*\.\.\s*([+-]?\d+))?)\s*$/.exec(String(text));
    if (m[1] === ">=") return [parseInt(m[2], 10), Infinity];
    if (m[1] === "<=") return [-Infinity, parseInt(m[2], 10)];
    const lo = parseInt(m[3], 10);
    return [lo, m[4] != null ? parseInt(m[4], 10) : lo];
  }
  function conditions(t) {
    const out = [];
    for (const r of t.terrain_rows) if (r.condition && !out.includes(r.condition)) out.push(r.condition);
    return out;
  }
  function bandColumn(t, row, diff) {
    const bands = row.differentials.map(parseBand);
    for (let i = 0; i < bands.length; i++) if (bands[i][0] <= diff && diff <= bands[i][1]) return [i, signed(diff) + " is in the band " + row.differentials[i]];
    if (t.ends === "after-shifts" && (diff < bands[0][0] || diff > bands[bands.length - 1][1])) {
      const i = diff < bands[0][0] ? diff - bands[0][0] : bands.length - 1 + (diff - bands[bands.length - 1][1]);
      return [i, signed(diff) + " is past the row's " + (i < 0 ? "lowest" : "highest") + " band " + row.differentials[i < 0 ? 0 : row.differentials.length - 1] + ": shifts count from there, and the table's end applies after them"];
    }
    if (diff < bands[0][0]) {
      if (t.beyond_low === "not-allowed") return [null, signed(diff) + " is below the row's lowest band " + row.differentials[0] + ": not allowed"];
      const i = t.beyond_low === "first-column" ? 0 : bands.length - 1;
      return [i, signed(diff) + " is below the row's lowest band " + row.differentials[0] + ": read as " + row.differentials[i]];
    }
    if (t.beyond_high === "not-allowed") return [null, signed(diff) + " is above the row's highest band " + row.differentials[row.differentials.length - 1] + ": not allowed"];
    const i = t.beyond_high === "last-column" ? bands.length - 1 : 0;
    return [i, signed(diff) + " is above the row's highest band " + row.differentials[row.differentials.length - 1] + ": read as " + row.differentials[i]];
  }
  function diffLabel(t, row, i) {
    if (i < 0) return signed(parseBand(row.differentials[0])[0] + i) + " on " + row.name;
    if (i < row.differentials.length) return row.differentials[i] + " on " + row.name;
    const clear = t.terrain_rows.find((r) => r.name === t.default_row) || row;
    return "column " + (i + 1) + " of " + t.columns + (i < clear.differentials.length ? ", the " + clear.name + " row's " + clear.differentials[i] : "");
  }
  function rowsFromPlace(t, values, calc, place) {
    const terrain = place.terrain;
    const rows = t.terrain_rows.filter((r) => (r.terrain || []).some((x) => terrain.includes(x)) && !r.condition);
    for (const r of t.terrain_rows) {
      if (r.condition && (r.terrain || []).some((x) => terrain.includes(x)) && !truthy(values[slug(r.condition)])) calc.step(r.name + ": only " + r.condition);
    }
    const attackers = values.attacker_hexes || [];
    const d = place.hex;
    if (attackers.length && d === null) throw new CalcError("attacker_hexes needs hex (the defender's hex) to know the hexsides crossed");
    const crossing = new Map();
    for (const a of attackers) {
      if (distance(a, d) !== 1) throw new CalcError("attacker_hexes: " + a + " is not adjacent to the defender's hex " + d + " (distance " + distance(a, d) + ")");
      const sides = hexsideTypes(a, d);
      calc.step("attacker in " + a + " attacks across " + (sides.length ? sides.map(hexsideName).join(", ") + " hexside" : "a plain hexside"));
      for (const s of sides) { if (!crossing.has(s)) crossing.set(s, []); crossing.get(s).push(a); }
    }
    for (const r of t.terrain_rows) {
      const hits = (r.hexsides || []).filter((s) => crossing.has(s));
      if (!hits.length || rows.includes(r)) continue;
      if ((r.except_terrain || []).some((x) => terrain.includes(x))) {
        calc.step(r.name + ": never applies to a defender in " + terrain.filter((x) => r.except_terrain.includes(x)).map(terrainName).join(", ") + (r.source ? " (" + r.source + ")" : ""));
        continue;
      }
      const across = new Set(hits.flatMap((s) => crossing.get(s)));
      if (t.hexside_applies === "all" && across.size < attackers.length) {
        calc.step(r.name + ": not every attacker crosses it, so it does not apply (hexside_applies = all)");
        continue;
      }
      calc.step(r.name + " row: attack across the hexside from " + [...across].sort().join(", ") + (r.source ? " (" + r.source + ")" : ""));
      if (t.hexside_applies === "any" && across.size < attackers.length) calc.note("A hexside row applies when any attacking unit attacks across that hexside (rows are then chosen best for the defender).");
      rows.push(r);
    }
    if (!attackers.length && d !== null && t.terrain_rows.some((r) => (r.hexsides || []).length)) calc.note("No attacker hexes given, so no hexside (trench, canal, river) row was considered.");
    return rows;
  }
  function candidateRows(t, values, calc, place, ruled = []) {
    let rows = [];
    if (truthy(values.row)) {
      for (const text of values.row) {
        const found = t.terrain_rows.filter((r) => slug(r.name) === text);
        if (!found.length) throw new CalcError("row=" + text + ": not a row of " + t.id);
        for (const r of found) if (!rows.includes(r)) rows.push(r);
      }
      calc.step("terrain row given: " + rows.map((r) => r.name).join(", "));
      if (place.terrain !== null) calc.step("the row given is read, not the row of the terrain");
    } else if (place.terrain !== null) {
      rows = rowsFromPlace(t, values, calc, place);
    }
    const hexTer = place.terrain;
    for (const cond of conditions(t)) {
      if (!truthy(values[slug(cond)])) continue;
      for (const r of t.terrain_rows) {
        if (r.condition !== cond || rows.includes(r)) continue;
        if (hexTer !== null && (r.terrain || []).length && !r.terrain.some((x) => hexTer.includes(x))) {
          calc.step(cond + ": the " + r.name + " row needs " + r.terrain.join(", ") + " in the defender's hex: it does not apply");
          continue;
        }
        calc.step(cond + ": the " + r.name + " row applies" + (r.source ? " (" + r.source + ")" : ""));
        rows.push(r);
      }
    }
    for (const rule of ruled) {
      const row = t.terrain_rows.find((x) => x.name === rule.row);
      if (!rows.includes(row)) { calc.step(rule.label + ": the " + row.name + " row applies"); rows.push(row); }
    }
    if (!rows.length) {
      rows = [t.terrain_rows.find((r) => r.name === t.default_row)];
      calc.step("no terrain row given: the " + t.default_row + " row");
    }
    return rows;
  }
  function readColumn(t, col, drm, roll, calc, applied = null) {
    const [lo, hi] = diceRange(t.dice);
    const cell = (total) => { const mod = Math.min(Math.max(total + drm, lo), hi); return [applied ? replaced(applied, t.results[String(mod)][col]) : t.results[String(mod)][col], mod]; };
    if (roll != null) {
      const [total] = parseRoll(roll, t.dice);
      const [result, mod] = cell(total);
      calc.roll = [total];
      calc.step("roll " + total + (drm ? " " + signed(drm) + " = " + (total + drm) : ""));
      if (drm && mod !== total + drm) {
        calc.step("modified roll " + (total + drm) + " is off the table: read as " + mod);
        calc.note("A modified roll beyond the table reads the nearest end row.");
      }
      calc.outcome = outcome(result, meaning(t, result));
      calc.step("result: " + result + (calc.outcome.meaning ? " (" + calc.outcome.meaning + ")" : ""));
    }
    const tally = new Tally();
    for (const [total, p] of totals(t.dice)) { const [result] = cell(total); tally.add(outcome(result, meaning(t, result)), p); }
    calc.distribution = tally.items();
    return calc;
  }
  // _divided_defence: Vimy 14.1, the defence divided by the defender's terrain, rounded down
  function dividedDefence(t, place, defence, calc) {
    if (!t.defence_effect || place.terrain === null) return defence;
    const ids = place.terrain;
    const found = ids.filter((i) => terrainType(i) && t.defence_effect in terrainType(i).effects).map(terrainType);
    if (!found.length) return defence;
    const best = firstMax(found, (x) => fracOf(x.effects[t.defence_effect]).valueOf());
    const div = fracOf(best.effects[t.defence_effect]);
    const q = new F(defence).div(div);
    const nw = q.floor();
    calc.step("defence in " + best.name + ": " + defence + " / " + show(div) + " = " + show(q) + ", fractions rounded down = " + nw + (best.source ? " (" + best.source + ")" : ""));
    return nw;
  }
  function calcDifferential(t, values, roll, calc) {
    const place = readPlace(values, calc);
    const applied = evaluateRules(t, values, ruleFacts(t, values, place), calc);
    if (refuseRules(applied, calc)) return calc;
    // the attack added up, each unit that crosses under a per-unit rule first (rounded down
    // unless the rule says: a differential table has no rounding of its own)
    let edges = Array.isArray(values.attack) ? values.attack.slice() : [values.attack];
    const attackers = values.attacker_hexes || [];
    if (attackers.length) edges = perUnit(applied, edges, attackers.length, "down", calc);
    const given = edges.reduce((a, b) => a + b, 0);
    if (edges.length > 1) calc.step("attack: " + edges.join(" + ") + " = " + given);
    const [afac, arule] = attackFactor(applied);
    const attack = scaleBy(given, afac, arule || "down", calc, "attack");
    const [dfac, drule] = defenceFactor(applied);
    const defence = dividedDefence(t, place, scaleBy(values.defence, dfac, drule || "down", calc, "defence"), calc), diff = attack - defence;
    calc.step("differential: attack " + attack + " - defence " + defence + " = " + signed(diff));
    const rows = candidateRows(t, values, calc, place, applied.rows);
    const options = rows.map((r) => [r, ...bandColumn(t, r, diff)]);
    const allowed = options.filter((o) => o[1] !== null);
    if (options.length > 1) for (const [r, i, how] of options) calc.step("  " + r.name + ": " + how + (i !== null ? " -> column " + (i + 1) : ""));
    if (!allowed.length) {
      calc.step(options[0][2]);
      calc.outcome = outcome("not allowed", said(t).cannot);
      calc.distribution = [[calc.outcome, new F(1)]];
      return calc;
    }
    let best = allowed[0];
    for (const o of allowed) if (o[1] < best[1]) best = o;
    const [row, col0, how] = best;
    if (options.length > 1) {
      calc.step("the row best for the defender is " + row.name + " (column " + (col0 + 1) + ")");
      calc.note("When more than one terrain row applies, the one best for the defender (the leftmost column) is used.");
    } else calc.step(row.name + " row: " + how);
    if (how.includes("beyond")) calc.note("Beyond the end of a row: " + how + ".");
    itemNote(calc, row, "row " + row.name);
    const col = moveColumn(t, calc, col0, applied, shiftTotal(calc, t.shifts, values), t.columns - 1, (i) => diffLabel(t, row, i), (n) => parseInt(n, 10) - 1);
    if (col === null) {
      calc.outcome = outcome("not allowed", said(t).cannot);
      calc.distribution = [[calc.outcome, new F(1)]];
      return calc;
    }
    calc.column = diffLabel(t, row, col);
    calc.step("column: " + calc.column);
    const drm = applyModifiers(calc, t.modifiers, values, place) + applied.drm;
    if (applied.drm) calc.step("rules: " + signed(applied.drm) + " to the roll");
    return readColumn(t, col, drm, roll, calc, applied);
  }

  // ----- fire (builder.tables.fire) ------------------------------------------------------------
  function fireBand(text) {
    const m = /^\s*(\d+)\s*(?:(-)\s*(\d+)|(\+))?\s*$/.exec(text);
    const lo = parseInt(m[1], 10);
    return [lo, m[3] ? parseInt(m[3], 10) : (m[4] ? Infinity : lo)];
  }
  // the factor a fire table's columns read, and its input (FireTable.strength, strength_input)
  const fireStrength = (t) => t.factor || "firepower";
  const fireInput = (t) => fireStrength(t).toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "") || "firepower";
  function bandIndex(t, strength) {
    for (let i = 0; i < t.bands.length; i++) { const [lo, hi] = fireBand(t.bands[i]); if (lo <= strength && strength <= hi) return i; }
    throw new CalcError(t.id + ": no column for " + fireStrength(t) + " " + strength + "; columns: " + t.bands.join(", "));
  }
  const cellLoss = (c) => (["-", "—", ""].includes(c.trim()) ? 0 : parseInt(c, 10));
  // each firing unit's distance and range (builder.tables.fire._per_unit)
  function firePerUnit(t, values, f, n) {
    let dist = values.distance;
    const hexes = values.firer_hexes;
    if (truthy(dist) && truthy(hexes)) throw new CalcError("give distance or firer_hexes, not both: firer_hexes reads the distance from the map");
    if (truthy(hexes)) {
      if (values.hex == null) throw new CalcError("firer_hexes needs the target's hex (the distance is measured to it)");
      dist = hexes.map((h) => distance(h, values.hex));
    }
    for (const [name, got] of [[truthy(hexes) ? "firer_hexes" : "distance", dist], ["range", values.range]]) {
      if (truthy(got) && got.length !== n) throw new CalcError(name + ": give one value per firing unit, in the order of " + fireStrength(t) + " (" + n + " unit" + (n !== 1 ? "s" : "") + "), not " + got.length);
    }
    f.distances = truthy(dist) ? dist.slice() : null;
    f.ranges = truthy(values.range) ? values.range.slice() : null;
  }
  // the fire group's total (builder.tables.fire._firepower)
  function fireTotal(t, units, applied, f, calc) {
    const out = units.map((u) => new F(u));
    const several = units.length > 1;
    for (const [r, k, which] of applied.attack) {
      if (which === null) continue;
      for (const i of which) {
        const raw = out[i].mul(k);
        const rounded = r.rounding ? new F(roundTo(raw, r.rounding)) : raw;
        const op = k.cmp(1) > 0 ? "x " + show(k) : "/ " + show(new F(1).div(k));
        let where = "";
        if (f.distances !== null) where = ", " + f.distances[i] + " hex" + (f.distances[i] !== 1 ? "es" : "") + " away" + (f.ranges !== null ? ", range " + f.ranges[i] : "");
        calc.step("unit " + (i + 1) + " (" + fireStrength(t) + " " + units[i] + where + "), " + r.label + ": " + show(out[i]) + " " + op + " = " + show(raw) + (r.rounding && raw.d !== 1 ? ", rounded " + WORDS[r.rounding] + " = " + show(rounded) : ""));
        out[i] = rounded;
      }
    }
    let total = out.reduce((a, b) => a.add(b), new F(0));
    if (several || !total.eq(units[0])) calc.step(several ? "total " + fireStrength(t) + ": " + out.map(show).join(" + ") + " = " + show(total) : fireStrength(t) + ": " + show(total));
    let rounding = null;
    for (const [r, k, which] of applied.attack) {
      if (which !== null) continue;
      const raw = total.mul(k);
      const op = k.cmp(1) > 0 ? "x " + show(k) : "/ " + show(new F(1).div(k));
      calc.step(r.label + ": " + show(total) + " " + op + " = " + show(raw));
      total = raw;
      rounding = rounding || r.rounding;
    }
    rounding = rounding || t.firepower_rounding;
    const n = roundTo(total, rounding);
    if (total.d !== 1) calc.step(show(total) + " rounded " + WORDS[rounding] + ": " + fireStrength(t) + " " + n);
    return n;
  }
  function fireColumn(t, strength, applied, calc) {
    const bandOf = (text) => t.bands.map((b) => b.replace(/ /g, "")).indexOf(String(text).replace(/ /g, ""));
    if (strength < fireBand(t.bands[0])[0] && !applied.column) { calc.step(fireStrength(t) + " " + strength + " is below the first column (" + t.bands[0] + "): no effect"); return null; }
    let col;
    if (strength > fireBand(t.bands[t.bands.length - 1])[1]) { calc.step(fireStrength(t) + " " + strength + " is above the last column (" + t.bands[t.bands.length - 1] + "): read on it"); col = t.bands.length - 1; } else col = bandIndex(t, strength);
    calc.step(fireStrength(t) + " " + strength + ": column " + (t.exact_bands ? "[" + t.bands[col] + "]" : t.bands[col]));
    return moveColumn(t, calc, col, applied, 0, t.bands.length - 1, (i) => t.bands[i], bandOf, ["first-column", "last-column"]);
  }
  function fireRows(t) { const k = Object.keys(t.results).map(Number); return [Math.min(...k), Math.max(...k)]; }
  function fireRead(t, col, natural, drm) {
    const nat = t.natural || {};
    if (String(natural) in nat) return [nat[String(natural)], "natural " + natural + ": " + nat[String(natural)] + " whatever the modifiers"];
    const [lo, hi] = fireRows(t);
    const mod = natural + drm;
    const row = Math.min(Math.max(mod, lo), hi);
    let how = String(natural) + (drm ? " " + signed(drm) + " = " + mod : "");
    if (row !== mod) how += ", beyond the table: read as " + row;
    return [t.results[String(row)][col], how];
  }
  function calcFire(t, values, roll, calc) {
    const place = readPlace(values, calc);
    const ids = place.terrain;
    const f = ruleFacts(t, values, place);
    const bands = t.bands || [];
    let units = [];
    if (bands.length) {
      const given = values[fireInput(t)];
      units = (Array.isArray(given) ? given : [given]).map((v) => parseInt(v, 10));
      if (!units.length) throw new CalcError(fireInput(t) + ": give each firing unit's " + fireStrength(t));
    }
    firePerUnit(t, values, f, Math.max(units.length, 1));
    const applied = evaluateRules(t, values, f, calc);
    if (refuseRules(applied, calc)) return calc;
    let col = 0;
    if (bands.length) {
      const strength = t.exact_bands ? units[0] : fireTotal(t, units, applied, f, calc);
      col = fireColumn(t, strength, applied, calc);
      if (col !== null) calc.column = bands[col];
    }
    let div = new F(1);
    if (t.terrain_effect) div = divisor(t.terrain_effect, ids, "best-for-defender", calc, "target's terrain");
    const drm = applyModifiers(calc, t.modifiers, values, place) + applied.drm;
    if (applied.drm) calc.step("rules: " + signed(applied.drm) + " to the roll");
    if ((t.modifiers || []).length || applied.drm || (t.rules || []).length) calc.step("net modifier: " + signed(drm));
    if (col === null) {
      calc.outcome = outcome("-", meaning(t, "-") || "no effect", { losses: 0 });
      calc.distribution = [[calc.outcome, new F(1)]];
      return calc;
    }
    if (!bands.length) calc.column = "modifier " + signed(drm);
    const numeric = !!t.terrain_effect || Object.values(t.results).some((row) => row.some((c) => /^\d+$/.test(c.trim())));
    const result = (cell, say) => {
      if (!numeric || !/^(\d+|-|—)$/.test(cell.trim())) {
        const got = replaced(applied, cell);
        if (say && got !== cell) calc.step(cell + " becomes " + got);
        return outcome(got, meaning(t, got));
      }
      const read = cellLoss(cell);
      let n = read;
      if (!div.eq(1)) {
        const raw = new F(read).div(div);
        n = roundTo(raw, t.rounding);
        if (say) {
          calc.step("loss " + read + ", divided by the terrain: " + read + " / " + show(div) + " = " + show(raw) + (raw.d !== 1 ? ", rounded " + WORDS[t.rounding] + " = " + n : ""));
          if (isHalf(raw)) calc.note(show(raw) + " is an exact half: rounded " + WORDS[t.rounding] + " it is " + n + ".");
        }
      }
      const shown = n ? String(n) : "-";
      const got = replaced(applied, shown);
      if (got !== shown) return outcome(got, meaning(t, got), { losses: n });
      return outcome(shown, n ? "the target loses " + n : ((t.legend || {})["-"] || (t.legend || {})["—"] || "no loss"), { losses: n });
    };
    const [lo, hi] = fireRows(t);
    const per = totals(t.dice);
    if (per.some(([n]) => !(String(n) in (t.natural || {})) && !(lo <= n + drm && n + drm <= hi))) calc.note("Modified rolls beyond the rows (" + lo + " to " + hi + ") read the nearest end row.");
    for (const [k, v] of Object.entries(t.natural || {})) calc.note("A natural " + k + " is always '" + v + "', whatever the modifiers.");
    const markers = Number(values.markers || 1);
    if (roll != null) {
      const rolls = parseRoll(roll, t.dice, markers, "roll");
      calc.roll = rolls;
      let got = null;
      rolls.forEach((r, k) => {
        const [cell, how] = fireRead(t, col, r, drm);
        const label = markers > 1 ? "marker " + (k + 1) + ": " : "";
        if (got !== null) { calc.step(label + "roll " + how + " (the target already suffered its one result)"); return; }
        calc.step(label + "roll " + how);
        const o = result(cell, true);
        if (isEffect(o.result) || k === rolls.length - 1) got = o;
      });
      calc.outcome = got;
      calc.step("result: " + got.result + (got.meaning && got.meaning !== got.result ? " (" + got.meaning + ")" : ""));
    } else if (!div.eq(1)) calc.step("every loss read is divided by " + show(div) + " and rounded " + WORDS[t.rounding]);
    const single = new Tally();
    for (const [total, p] of per) single.add(result(fireRead(t, col, total, drm)[0], false), p);
    if (markers === 1) {
      let items = single.items();
      if (items.every(([o]) => "losses" in o.numbers)) {
        items = items.map((x, i) => [x, i]).sort((a, b) => a[0][0].numbers.losses - b[0][0].numbers.losses || a[1] - b[1]).map((x) => x[0]);
        calc.expected = single.expected();
      }
      calc.distribution = items;
      return calc;
    }
    let combos = [[]];
    for (let i = 0; i < markers; i++) combos = combos.flatMap((c) => per.map((x) => c.concat([x])));
    const combined = new Tally();
    for (const combo of combos) {
      let p = new F(1), got = null;
      for (const [total, q] of combo) { p = p.mul(q); const o = result(fireRead(t, col, total, drm)[0], false); if (got === null && isEffect(o.result)) got = o; }
      combined.add(got !== null ? got : result(fireRead(t, col, combo[combo.length - 1][0], drm)[0], false), p);
    }
    calc.note("Several markers on one target: each is rolled in turn; the target suffers one result at most.");
    calc.distribution = combined.items();
    return calc;
  }

  // ----- ratio (builder.tables.ratio) ----------------------------------------------------------
  function columnValue(text) { const m = /^\s*(\d+)\s*:\s*(\d+)\s*$/.exec(text); return new F(parseInt(m[1], 10), parseInt(m[2], 10)); }
  const colLabel = (text) => text.replace(/\s+/g, "");
  // ratio._virtual: odds past an end keep their place beyond it (ends = 'after-shifts')
  function virtualColumn(t, want) {
    const vals = t.columns.map(columnValue), last = vals.length - 1;
    if (want.cmp(vals[last]) > 0) return last + (vals[last].d === 1 && want.d === 1 ? want.n - vals[last].n : 1);
    if (want.n === 0) return -1000000;
    return -(vals[0].n === 1 && want.n === 1 ? want.d - vals[0].d : 1);
  }
  function columnLabelAt(t, k) {
    if (k >= 0 && k < t.columns.length) return colLabel(t.columns[k]);
    const vals = t.columns.map(columnValue);
    if (k >= t.columns.length) return (vals[vals.length - 1].n + k - t.columns.length + 1) + ":1";
    return k > -100000 ? "1:" + (vals[0].d - k) : "0:1";
  }
  function oddsColumn(t, attack, defence, calc, say = true, virtual = false) {
    const vals = t.columns.map(columnValue);
    const step = calc && say ? (s) => calc.step(s) : () => {};
    let want;
    if (attack >= defence) {
      const q = new F(attack, defence);
      const n = roundTo(q, t.rounding);
      step("odds " + attack + ":" + defence + " = " + show(q) + " to 1, rounded " + WORDS[t.rounding] + " = " + n + ":1");
      want = new F(n);
      if (calc && say && isHalf(q)) calc.note(show(q) + " is an exact half: rounded " + WORDS[t.rounding] + " it is " + n + ":1; the other way it would be " + roundTo(q, MIRROR[t.rounding]) + ":1.");
    } else if (attack === 0) {
      step("odds 0:" + defence + ": no attack strength");
      want = new F(0);
    } else {
      const rule = t.rounding_below || MIRROR[t.rounding];
      const q = new F(defence, attack);
      const m = roundTo(q, rule);
      step("odds " + attack + ":" + defence + ": the attack is weaker, so 1 to " + defence + "/" + attack + " = " + show(q) + ", rounded " + WORDS[rule] + " = 1:" + m);
      if (calc && say) calc.note("Below 1:1 the defence is divided by the attack and rounded " + (t.rounding_below ? WORDS[rule] + "." : WORDS[rule] + ": the mirror of the rule above 1:1, so the rounding favours the same side (no rule says how odds below 1:1 round)."));
      want = m ? new F(1, m) : new F(1e9);
    }
    if (virtual && (want.cmp(vals[0]) < 0 || want.cmp(vals[vals.length - 1]) > 0)) {
      const k = virtualColumn(t, want);
      step("past the table's end (" + (k < 0 ? t.columns[0] : t.columns[t.columns.length - 1]) + "): shifts count from " + columnLabelAt(t, k) + ", and the table's end applies after them");
      return k;
    }
    if (want.cmp(vals[0]) < 0) {
      if (t.beyond_low === "not-allowed") { step("below the lowest column " + t.columns[0] + ": the attack is not allowed"); return null; }
      const i = t.beyond_low === "first-column" ? 0 : vals.length - 1;
      step("below the lowest column " + t.columns[0] + ": read on " + t.columns[i]);
      return i;
    }
    if (want.cmp(vals[vals.length - 1]) > 0) {
      if (t.beyond_high === "not-allowed") { step("above the highest column " + t.columns[t.columns.length - 1] + ": the attack is not allowed"); return null; }
      const i = t.beyond_high === "last-column" ? vals.length - 1 : 0;
      step("above the highest column " + t.columns[t.columns.length - 1] + ": read on " + t.columns[i]);
      return i;
    }
    let i = 0;
    vals.forEach((v, k) => { if (v.cmp(want) <= 0) i = k; });
    if (!vals[i].eq(want)) step("no " + show(want) + " column: the next column down, " + t.columns[i] + ", is used");
    return i;
  }
  function ratioLosses(cell) {
    const [a, d] = cell.split("/");
    const num = (x) => (x.replace(/^[-—]+|[-—]+$/g, "") === "" ? 0 : parseInt(x, 10));
    return [num(a), num(d)];
  }
  function ratioOutcome(t, cell, retreat) {
    if (t.result_format !== "attacker/defender") return outcome(cell, meaning(t, cell));
    const [a, d] = ratioLosses(cell);
    const cut = retreat ? Math.min(d, t.retreat_reduces) : 0;
    let words = "attacker loses " + a + ", defender loses " + (d - cut);
    if (cut) words += " (retreats one sector: " + d + " - " + cut + ")";
    return outcome(cell, meaning(t, cell) || words, { "attacker losses": a, "defender losses": d - cut });
  }
  function fireTableOf(t) {
    if (!t.fire_first) return null;
    const f = G.tables[t.fire_first];
    if (!f || f.kind !== "fire") throw new CalcError("table " + t.id + ": fire_first '" + t.fire_first + "' is not a fire table of " + G.game);
    return f;
  }
  function fireLosses(t, values, calc) {
    const given = values.attack_loss || 0;
    const f = fireTableOf(t);
    let mg = f ? values.mg : null;
    const sector = G.map.kind === "area" ? G.map.sectors[values.sector || ""] : undefined;
    if (f && !truthy(mg) && !given && sector && sector.mg) {
      const froms = values.attacker_sectors || [];
      if (froms.length && sector.fire_arc.length && !froms.some((x) => sector.fire_arc.includes(x))) {
        calc.step(sector.name + "'s heavy machine guns [" + sector.mg + "] cannot fire on " + froms.map((x) => G.map.sectors[x].name).join(", ") + " (fire arc, map)");
      } else {
        mg = String(sector.mg);
        calc.step(sector.name + " holds heavy machine guns [" + sector.mg + "] (map)");
      }
    }
    if (given && truthy(mg)) throw new CalcError("give attack_loss or the fire (mg, mg_roll), not both");
    if (f && !truthy(mg) && !given && values.sector == null) calc.note("The defender's " + f.name + " fires first when its strength (mg) or the defender's sector is given: no fire first here.");
    if (!f || !truthy(mg)) {
      if (values.mg_roll != null) throw new CalcError("mg_roll needs mg (the fire strength)");
      if (given) calc.step("losses before the combat: " + given);
      return [[given, new F(1)]];
    }
    const col = bandIndex(f, parseInt(mg, 10));
    const band = f.exact_bands ? "[" + f.bands[col] + "]" : f.bands[col];
    calc.step(f.name + " first: strength " + mg + ", column " + band + (f.source ? " (" + f.source + ")" : ""));
    if (values.mg_roll != null) {
      const r = values.mg_roll;
      const loss = cellLoss(f.results[String(r)][col]);
      calc.step(f.name + " roll " + r + ": attackers lose " + loss);
      return [[loss, new F(1)]];
    }
    const dist = tallyValues(totals(f.dice).map(([r, p]) => [cellLoss(f.results[String(r)][col]), p]));
    calc.step(f.name + " roll not given: losses " + dist.map(([l, p]) => l + " (" + pct(p) + ")").join(", "));
    calc.note("The " + f.name + " losses come off the attack before the odds; they are not divided by the attackers' terrain here.");
    return dist;
  }
  // _across_hexsides: each attacker's strength divided by the hexside it attacks across
  function acrossHexsides(t, values, edges, attackers, calc, sideShifts) {
    const d = values.hex;
    if (d == null) throw new CalcError("attacker_hexes needs hex (the defender's hex) to know the hexsides crossed");
    if (edges.length !== 1 && edges.length !== attackers.length) throw new CalcError("attack has " + edges.length + " values for " + attackers.length + " attacker_hexes: give the total or one value per hex, in the same order");
    const perHex = edges.length === attackers.length;
    const out = [], divs = [];
    const rule = t.divisor_rounding || t.rounding;
    attackers.forEach((a, k) => {
      if (distance(a, d) !== 1) throw new CalcError("attacker_hexes: " + a + " is not adjacent to the defender's hex " + d);
      let best = new F(1);
      const names = [];
      for (const s of hexsideTypes(a, d)) {
        names.push(hexsideName(s));
        const v = t.terrain_effect ? (G.map.hexsideEffects[s] || {})[t.terrain_effect] : undefined;
        if (typeof v === "number") { const x = fracOf(v); if (x.cmp(best) > 0) best = x; }
        const sh = t.shift_effect ? (G.map.hexsideEffects[s] || {})[t.shift_effect] : undefined;
        if (typeof sh === "number" && Number.isInteger(sh) && !sideShifts.some(([x]) => x.id === s)) sideShifts.push([{ id: s, name: hexsideName(s) }, sh]);
      }
      divs.push(best);
      const side = names.length ? names.join(", ") : "a plain hexside";
      if (perHex) {
        if (!best.eq(1)) {
          const raw = new F(edges[k]).div(best);
          const n = roundTo(raw, rule);
          calc.step("from " + a + " across " + side + ": " + edges[k] + " / " + show(best) + " = " + show(raw) + (raw.d !== 1 ? ", rounded " + WORDS[rule] + " = " + n : ""));
          out.push(n);
        } else { calc.step("from " + a + " across " + side + ": " + edges[k]); out.push(edges[k]); }
      } else calc.step("attacker in " + a + " attacks across " + side);
    });
    if (perHex) return out;
    if (divs.every((x) => x.eq(divs[0])) && !divs[0].eq(1)) {
      const raw = new F(edges[0]).div(divs[0]);
      const n = roundTo(raw, rule);
      calc.step("every attacker crosses it: " + edges[0] + " / " + show(divs[0]) + " = " + show(raw) + (raw.d !== 1 ? ", rounded " + WORDS[rule] + " = " + n : ""));
      return [n];
    }
    if (divs.some((x) => !x.eq(1))) calc.note("Only some attackers cross a dividing hexside: give the attack as one value per attacker hex (same order) to divide just theirs.");
    return edges;
  }
  // _check_sectors: attacking sectors must touch the defender's sector
  function checkSectors(values, edges, calc) {
    const froms = values.attacker_sectors;
    const target = values.sector;
    if (target == null) throw new CalcError("attacker_sectors needs sector (the defender's sector)");
    if (froms.length !== edges.length) throw new CalcError("attack has " + edges.length + " values for " + froms.length + " attacker_sectors: give one value per sector attacked from, in the same order");
    const has = (list, a, b) => list.some((p) => (p[0] === a && p[1] === b) || (p[0] === b && p[1] === a));
    const names = G.map.sectors;
    for (const x of froms) {
      if (!has(G.map.adjacent, x, target)) throw new CalcError("attacker_sectors: " + names[x].name + " does not share an edge with " + names[target].name);
      if (has(G.map.water_edges, x, target)) calc.note(names[x].name + " and " + names[target].name + " are across water: movement is not allowed (3.7); whether an attack is, the rules do not say.");
    }
    calc.step("attacking across the edges from " + froms.map((x) => names[x].name).join(", "));
  }
  function attackTotal(t, values, edges, applied, calc) {
    const attackers = values.attacker_hexes || [];
    if (t.edge_cap) {
      edges = edges.map((a, k) => {
        const c = Math.min(a, t.edge_cap);
        if (c !== a) calc.step("edge " + (k + 1) + ": " + a + " attacking, at most " + t.edge_cap + " count across one sector edge: " + c);
        return c;
      });
    }
    const sideShifts = [];
    if (attackers.length) {
      edges = acrossHexsides(t, values, edges, attackers, calc, sideShifts);
      edges = perUnit(applied, edges, attackers.length, t.divisor_rounding || t.rounding, calc);
    }
    if (truthy(values.attacker_sectors)) checkSectors(values, edges, calc);
    const attack = edges.reduce((x, y) => x + y, 0);
    calc.step(edges.length > 1 ? "attack: " + edges.join(" + ") + " = " + attack : "attack: " + attack);
    return [attack, sideShifts, edges];
  }
  // _ordered: attacker/defender results from the attacker's worst to best
  function ordered(t, items) {
    if (t.result_format !== "attacker/defender") return items;
    return items.map((x, i) => [x, i]).sort((a, b) => (a[0][0].numbers["defender losses"] - b[0][0].numbers["defender losses"]) || (b[0][0].numbers["attacker losses"] - a[0][0].numbers["attacker losses"]) || a[1] - b[1]).map((x) => x[0]);
  }
  function calcRatio(t, values, roll, calc) {
    const edges = Array.isArray(values.attack) ? values.attack : [values.attack];
    const place = readPlace(values, calc);
    const terrainIds = place.terrain;
    const applied = evaluateRules(t, values, ruleFacts(t, values, place), calc);
    if (refuseRules(applied, calc)) return calc;
    const [attack, sideShifts, counted] = attackTotal(t, values, edges, applied, calc);
    let defence = values.defence;
    if (t.edge_cap && t.edge_cap_defence && defence > t.edge_cap) {
      calc.step("defence " + defence + ": at most " + t.edge_cap + " count across a sector edge: " + t.edge_cap);
      defence = t.edge_cap;
    } else calc.step("defence: " + defence);
    const [dfac, drule] = defenceFactor(applied);
    defence = Math.max(scaleBy(defence, dfac, drule || t.divisor_rounding || t.rounding, calc, "defence"), defence ? 1 : 0);
    const div = t.terrain_effect ? divisor(t.terrain_effect, terrainIds, t.terrain_choice, calc, "defender's terrain") : new F(1);
    const [afac, arule] = attackFactor(applied);
    const baseShift = terrainShift(t.shift_effect, terrainIds, calc, t.terrain_choice, sideShifts);
    const losses = fireLosses(t, values, calc);
    const drm = applyModifiers(calc, t.modifiers, values, place) + applied.drm;
    if (applied.drm) calc.step("rules: " + signed(applied.drm) + " to the roll");
    const playerShift = shiftTotal(calc, t.shifts, values);
    const [lo, hi] = diceRange(t.dice);
    const retreat = truthy(values.retreat);
    const perUnit = t.divide === "per-unit" && counted.length > 1 && (!div.eq(1) || !afac.eq(1));
    if (perUnit && !(losses.length === 1 && losses[0][0] === 0)) throw new CalcError("this table divides each attacking unit's strength (divide = per-unit): give each unit's strength after its losses, without attack_loss or the fire first");
    const columnFor = (loss, say) => {
      let a = Math.max(attack - loss, 0);
      if (loss && say) calc.step("attack after losses: " + attack + " - " + loss + " = " + a);
      if (perUnit) {
        const rule = arule || t.divisor_rounding || t.rounding;
        const parts = counted.map((v) => { const raw = new F(v).div(div).mul(afac); return [v, raw, roundTo(raw, rule)]; });
        a = parts.reduce((x, p) => x + p[2], 0);
        if (say) {
          const by = (!div.eq(1) ? " / " + show(div) : "") + (!afac.eq(1) ? " x " + show(afac) : "");
          calc.step("each unit divided" + (!div.eq(1) ? " by the terrain" : "") + ", rounded " + WORDS[rule] + ": " + parts.map(([v, raw, n]) => v + by + " = " + show(raw) + (raw.d !== 1 ? " -> " + n : "")).join(", ") + "; together " + a);
        }
      } else if (!div.eq(1) || !afac.eq(1)) {
        const raw = new F(a).div(div).mul(afac);
        const rule = arule || t.divisor_rounding || t.rounding;
        a = roundTo(raw, rule);
        if (say) {
          calc.step("attack divided by the terrain" + (!afac.eq(1) ? " and the rules" : "") + ": " + Math.max(attack - loss, 0) + (!div.eq(1) ? " / " + show(div) : "") + (!afac.eq(1) ? " x " + show(afac) : "") + " = " + show(raw) + (raw.d !== 1 ? ", rounded " + WORDS[rule] + " = " + a : ""));
          if (isHalf(raw)) {
            const other = roundTo(raw, MIRROR[rule]);
            const alt = oddsColumn(t, other, defence, null, false);
            calc.note(show(raw) + " is an exact half: rounded " + WORDS[rule] + " it is " + a + "; rounded the other way it would be " + other + (alt !== null ? " and the odds " + other + ":" + defence + " would be read on " + colLabel(t.columns[alt]) : "") + ".");
          }
        }
      }
      const i = oddsColumn(t, a, defence, calc, say, t.ends === "after-shifts");
      if (i === null) return null;
      const labels = t.columns.map(colLabel);
      return moveColumn(t, say ? calc : new Quiet(), i, applied, baseShift + playerShift, t.columns.length - 1, (k) => columnLabelAt(t, k), (text) => labels.indexOf(colLabel(text)));
    };
    const cell = (col, total) => ratioOutcome(t, replaced(applied, t.results[String(Math.min(Math.max(total + drm, lo), hi))][col]), retreat);
    if (losses.length === 1) {
      const col = columnFor(losses[0][0], true);
      if (col === null) {
        calc.outcome = outcome("not allowed", said(t).cannot);
        calc.distribution = [[calc.outcome, new F(1)]];
        return calc;
      }
      calc.column = colLabel(t.columns[col]);
      calc.step("column: " + calc.column);
      if (roll != null) {
        const [total] = parseRoll(roll, t.dice);
        calc.roll = [total];
        const mod = Math.min(Math.max(total + drm, lo), hi);
        calc.step("roll " + total + (drm ? " " + signed(drm) + " = " + (total + drm) : ""));
        if (mod !== total + drm) {
          calc.step("modified roll " + (total + drm) + " is off the table: read as " + mod);
          calc.note("A modified roll beyond the table reads the nearest end row.");
        }
        calc.outcome = cell(col, total);
        calc.step("result: " + calc.outcome.result + ": " + calc.outcome.meaning);
        if (retreat && t.retreat_reduces) calc.note("The defender may retreat one sector to reduce its loss by " + t.retreat_reduces + ".");
      }
      const tally = new Tally();
      for (const [total, p] of totals(t.dice)) tally.add(cell(col, total), p);
      calc.distribution = ordered(t, tally.items());
      calc.expected = tally.expected();
      return calc;
    }
    if (roll != null) throw new CalcError("give mg_roll (or attack_loss) too: with the fire roll unknown the column is unknown, so a combat roll alone cannot be read");
    const tally = new Tally();
    const cols = [];
    for (const [loss, pLoss] of losses) {
      const col = columnFor(loss, false);
      if (col === null) {
        tally.add(outcome("not allowed", said(t).cannot), pLoss);
        cols.push(["not allowed", pLoss]);
        continue;
      }
      cols.push([colLabel(t.columns[col]), pLoss]);
      for (const [total, p] of totals(t.dice)) tally.add(cell(col, total), pLoss.mul(p));
    }
    calc.columns = tallyValues(cols);
    calc.step("column by fire result: " + calc.columns.map(([c, p]) => c + " " + pct(p)).join(", "));
    calc.distribution = ordered(t, tally.items());
    calc.expected = tally.expected();
    const lost = losses.reduce((acc, [l, p]) => acc.add(p.mul(l)), new F(0));
    if (lost.n) calc.expected = Object.assign({ "attacker losses to the fire first": lost }, calc.expected);
    return calc;
  }

  // ----- modified roll (builder.tables.modified_roll) --------------------------------------------
  function mrRows(t) { const k = Object.keys(t.results).map(Number); return [Math.min(...k), Math.max(...k)]; }
  function mrRead(t, natural, drm, applied) {
    const nat = t.natural || {};
    if (String(natural) in nat) { const got = replaced(applied, nat[String(natural)]); return [got, "natural " + natural + ": " + got + " whatever the modifiers"]; }
    const [lo, hi] = mrRows(t);
    const mod = natural + drm;
    const row = Math.min(Math.max(mod, lo), hi);
    let how = String(natural) + (drm ? " " + signed(drm) + " = " + mod : "");
    if (row !== mod) how += ", beyond the table: read as " + row;
    const got = replaced(applied, t.results[String(row)]);
    return [got, how + ": " + got];
  }
  const isEffect = (r) => !NO_EFFECT.includes(r.trim().toLowerCase());
  function calcModifiedRoll(t, values, roll, calc) {
    const place = readPlace(values, calc);
    const applied = evaluateRules(t, values, ruleFacts(t, values, place), calc);
    if (refuseRules(applied, calc)) return calc;
    const drm = applyModifiers(calc, t.modifiers, values, place) + applied.drm;
    if (applied.drm) calc.step("rules: " + signed(applied.drm) + " to the roll");
    calc.step("net modifier: " + signed(drm));
    const [lo, hi] = mrRows(t);
    const markers = Number(values.markers || 1);
    calc.column = "modifier " + signed(drm);
    const [dlo, dhi] = diceRange(t.dice);
    for (let n = dlo; n <= dhi; n++) {
      if (!(String(n) in (t.natural || {})) && !(lo <= n + drm && n + drm <= hi)) { calc.note("Modified rolls beyond the printed rows (" + lo + " to " + hi + ") read the nearest end row."); break; }
    }
    for (const [k, v] of Object.entries(t.natural || {})) calc.note("A natural " + k + " is always '" + v + "', whatever the modifiers.");
    const several = "Several markers on one target: each is rolled in turn; the target suffers one result at most (Vimy 17.2: one hit even if both markers hit).";
    if (roll != null) {
      const rolls = parseRoll(roll, t.dice, markers, "roll");
      calc.roll = rolls;
      let out = null;
      rolls.forEach((r, k) => {
        const [result, how] = mrRead(t, r, drm, applied);
        const label = markers > 1 ? "marker " + (k + 1) + ": " : "";
        if (out !== null) { calc.step(label + "roll " + how + " (the target already suffered its one result)"); return; }
        calc.step(label + "roll " + how);
        if (isEffect(result)) out = result;
      });
      const final = out !== null ? out : mrRead(t, rolls[rolls.length - 1], drm, applied)[0];
      calc.outcome = outcome(final, meaning(t, final));
      calc.step("result: " + final + (calc.outcome.meaning ? " (" + calc.outcome.meaning + ")" : ""));
      if (markers > 1) calc.note(several);
    }
    const single = new Tally();
    for (const [total, p] of totals(t.dice)) { const [r] = mrRead(t, total, drm, applied); single.add(outcome(r, meaning(t, r)), p); }
    if (markers === 1) { calc.distribution = single.items(); return calc; }
    const per = totals(t.dice);
    let combos = [[]];
    for (let i = 0; i < markers; i++) combos = combos.flatMap((c) => per.map((x) => c.concat([x])));
    const combined = new Tally();
    for (const combo of combos) {
      let p = new F(1), out = null;
      for (const [total, q] of combo) { p = p.mul(q); const [r] = mrRead(t, total, drm, applied); if (out === null && isEffect(r)) out = r; }
      const final = out !== null ? out : mrRead(t, combo[combo.length - 1][0], drm, applied)[0];
      combined.add(outcome(final, meaning(t, final)), p);
    }
    for (const [o, p] of single.items()) {
      if (roll == null && isEffect(o.result)) {
        let miss = new F(1);
        for (let i = 0; i < markers; i++) miss = miss.mul(new F(1).sub(p));
        calc.step("one marker: " + o.result + " " + p.text() + " (" + pct(p) + "); with " + markers + ": 1 - (1 - " + p.text() + ")^" + markers + " = " + new F(1).sub(miss).text() + " (" + pct(new F(1).sub(miss)) + ")");
      }
    }
    calc.note(several);
    calc.distribution = combined.items();
    return calc;
  }

  // ----- lookup (builder.tables.lookup, RollSpec) ----------------------------------------------
  const SPEC = /^\s*(?:(<=|>=|<|>)\s*(?:(\d+)\s*\*\s*)?(-?\d+|[a-z][a-z0-9_-]*)|(-?\d+)\s*(?:-|\.\.)\s*(-?\d+)|(-?\d+)|(else))\s*$/;
  function specMatches(text, value, inputs) {
    for (const chunk of String(text).split(",")) {
      const m = SPEC.exec(chunk);
      if (!m) continue;
      if (m[7]) return true;
      if (m[6] != null && value === parseInt(m[6], 10)) return true;
      if (m[4] != null && parseInt(m[4], 10) <= value && value <= parseInt(m[5], 10)) return true;
      if (m[1]) {
        const ref = m[3];
        let other = /^-?\d+$/.test(ref) ? parseInt(ref, 10) : (inputs || {})[ref];
        if (other == null) continue;
        other *= m[2] ? parseInt(m[2], 10) : 1;
        const ok = { "<": value < other, "<=": value <= other, ">": value > other, ">=": value >= other }[m[1]];
        if (ok) return true;
      }
    }
    return false;
  }
  const specIsElse = (text) => String(text).split(",").some((c) => { const m = SPEC.exec(c); return m && m[7]; });
  const entryFor = (t, value, extra) => t.entries.find((e) => specMatches(e.when, value, extra)) || null;
  function lookupOutcome(t, e, applied = null) {
    const got = applied ? replaced(applied, e.result) : e.result;
    if (got !== e.result) return outcome(got, (t.legend || {})[got] || "");
    return outcome(e.result, e.detail || (t.legend || {})[e.result] || "");
  }
  function overlapNote(t, value, extra, calc) {
    const hits = t.entries.filter((e) => !specIsElse(e.when) && specMatches(e.when, value, extra));
    if (hits.length > 1) calc.note(value + " matches both “" + entryWords(t, hits[0]) + "” (" + hits[0].result + ") and “" + entryWords(t, hits[1]) + "” (" + hits[1].result + "): the first listed applies.");
  }
  function calcLookup(t, values, roll, calc) {
    const extra = {};
    for (const i of t.inputs || []) if (i.id !== t.key) extra[i.id] = values[i.id];
    const applied = evaluateRules(t, values, ruleFacts(t, values), calc);
    if (refuseRules(applied, calc)) return calc;
    for (const [k, v] of Object.entries(extra)) calc.step(t.inputs.find((i) => i.id === k).name + ": " + v);
    if (!t.dice) {
      if (roll != null) throw new CalcError(t.id + " looks up " + t.key + ", not a roll: leave out --roll");
      const value = values[t.key];
      const e = entryFor(t, value, extra);
      calc.step(t.inputs.find((i) => i.id === t.key).name + " " + value + ": row “" + entryWords(t, e) + "”");
      calc.outcome = lookupOutcome(t, e, applied);
      calc.step("result: " + e.result + (calc.outcome.meaning ? " (" + calc.outcome.meaning + ")" : ""));
      calc.distribution = [[calc.outcome, new F(1)]];
      overlapNote(t, value, extra, calc);
      return calc;
    }
    const drm = applyModifiers(calc, t.modifiers, values) + applied.drm;
    if (applied.drm) calc.step("rules: " + signed(applied.drm) + " to the roll");
    const [lo, hi] = diceRange(t.dice);
    const look = (total) => {
      const value = total + drm;
      let e = entryFor(t, value, extra);
      if (e === null) e = entryFor(t, Math.min(Math.max(value, lo), hi), extra);
      return [e, value];
    };
    if (roll != null) {
      const [total] = parseRoll(roll, t.dice);
      calc.roll = [total];
      const [e, value] = look(total);
      calc.step("roll " + total + (drm ? " " + signed(drm) + " = " + value : "") + ": row “" + entryWords(t, e) + "”");
      calc.outcome = lookupOutcome(t, e, applied);
      calc.step("result: " + e.result + (calc.outcome.meaning ? " (" + calc.outcome.meaning + ")" : ""));
      overlapNote(t, value, extra, calc);
    }
    const tally = new Tally();
    for (const [total, p] of totals(t.dice)) tally.add(lookupOutcome(t, look(total)[0], applied), p);
    for (let total = lo; total <= hi; total++) overlapNote(t, total + drm, extra, calc);
    calc.distribution = tally.items();
    return calc;
  }

  // ----- chart (builder.tables.chart) ---------------------------------------------------------------
  function chartRowChoices(t) {
    const seen = {};
    return t.rows.map((row) => { let v = slug(row[0]); seen[v] = (seen[v] || 0) + 1; if (seen[v] > 1) v = v + "-" + seen[v]; return v; });
  }
  // as builder.tables.chart.row_labels: as many first cells as tell a row from the others
  function chartRowLabels(t) {
    const same = (a, b, k) => a.slice(0, k).every((x, i) => x === b[i]);
    return t.rows.map((row) => {
      let k = 1;
      while (k < row.length && t.rows.some((o) => o !== row && same(o, row, k))) k++;
      return row.slice(0, k).join(" · ");
    });
  }
  function calcChart(t, values, roll, calc) {
    if (roll != null) throw new CalcError(t.id + " is a chart: it has no roll");
    const index = chartRowChoices(t).indexOf(values.row);
    const row = t.rows[index];
    const label = chartRowLabels(t)[index];
    calc.step(t.columns[0] + ": " + row[0]);
    if (truthy(values.column)) {
      const j = 1 + t.columns.slice(1).findIndex((c) => slug(c) === values.column);
      calc.column = t.columns[j];
      calc.outcome = outcome(row[j], t.columns[j] + ": " + row[j]);
    } else if (row.length === 2) {
      calc.outcome = outcome(row[1], "");
      calc.column = t.columns[1];
    } else {
      const named = label.split(" · ").length;
      calc.outcome = outcome(label, t.columns.slice(named).map((c, k) => [c, row[named + k]]).filter(([, v]) => v).map(([c, v]) => c + ": " + v).join("; "));
    }
    calc.step("result: " + calc.outcome.result);
    calc.distribution = [[calc.outcome, new F(1)]];
    return calc;
  }

  // ----- map rules (builder.mapinfo, builder.tables.sight, builder.tables.maprules) --------------
  function centre(h) { return HEX.get(h)[2]; }
  function corners(h) {
    const [cx, cy] = centre(h), r = G.map.radius;
    const out = [];
    for (let i = 0; i < 6; i++) {
      const rad = (60 * i) * Math.PI / 180;
      out.push([cx + r * Math.cos(rad), cy + r * Math.sin(rad)]);
    }
    return out;
  }
  function crossesInterior(p, q, poly, eps) {
    const n = poly.length;
    let area = 0;
    for (let i = 0; i < n; i++) area += poly[i][0] * poly[(i + 1) % n][1] - poly[(i + 1) % n][0] * poly[i][1];
    const sign = area > 0 ? 1 : -1;
    let t0 = 0, t1 = 1;
    const dx = q[0] - p[0], dy = q[1] - p[1];
    for (let i = 0; i < n; i++) {
      const [ax, ay] = poly[i], [bx, by] = poly[(i + 1) % n];
      const ex = bx - ax, ey = by - ay;
      const f0 = sign * (ex * (p[1] - ay) - ey * (p[0] - ax)) - eps;
      const df = sign * (ex * dy - ey * dx);
      if (Math.abs(df) < 1e-12) { if (f0 <= 0) return false; continue; }
      const t = -f0 / df;
      if (df > 0) t0 = Math.max(t0, t); else t1 = Math.min(t1, t);
      if (t1 - t0 <= 1e-9) return false;
    }
    return t1 - t0 > 1e-9;
  }
  // _along_edges: midpoints of the polygon's edges that the segment runs along
  function alongEdges(p, q, poly, eps) {
    const dx = q[0] - p[0], dy = q[1] - p[1];
    const length = Math.sqrt(dx * dx + dy * dy);
    if (length === 0) return [];
    const ux = dx / length, uy = dy / length;
    const out = [];
    const n = poly.length;
    // a side's key from its corners on the lattice of half radii across and half heights down:
    // whole numbers, the same from either hex (builder.geometry.sight.edge_key)
    const R = G.map.radius, H = Math.sqrt(3) * R;
    const key = (a, b) => (Math.round(2 * a[0] / R) + Math.round(2 * b[0] / R)) + "," + (Math.round(2 * a[1] / H) + Math.round(2 * b[1] / H));
    for (let i = 0; i < n; i++) {
      const a = poly[i], b = poly[(i + 1) % n];
      if (Math.abs(ux * (a[1] - p[1]) - uy * (a[0] - p[0])) > eps || Math.abs(ux * (b[1] - p[1]) - uy * (b[0] - p[0])) > eps) continue;
      const ta = ux * (a[0] - p[0]) + uy * (a[1] - p[1]);
      const tb = ux * (b[0] - p[0]) + uy * (b[1] - p[1]);
      const lo = Math.max(Math.min(ta, tb), 0), hi = Math.min(Math.max(ta, tb), length);
      if (hi - lo > eps) out.push(key(a, b));
    }
    return out;
  }
  const cmpLabels = (x, y) => (x < y ? -1 : x > y ? 1 : 0);
  // builder.geometry.sight.shared_side and crosses_side
  function sharedSide(pa, pb, eps) { return pa.filter((c) => pb.some((d) => Math.abs(c[0] - d[0]) < eps && Math.abs(c[1] - d[1]) < eps)); }
  function onSegment(p, q, c, eps) {
    const dx = q[0] - p[0], dy = q[1] - p[1];
    const length = Math.hypot(dx, dy);
    if (length === 0 || Math.abs(dx * (c[1] - p[1]) - dy * (c[0] - p[0])) > eps * length) return false;
    const t = ((c[0] - p[0]) * dx + (c[1] - p[1]) * dy) / (length * length);
    const e = eps / G.map.radius;
    return e < t && t < 1 - e;
  }
  function crossesSide(p, q, e1, e2, eps) {
    const cross = (o, a, b) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
    const d1 = cross(p, q, e1), d2 = cross(p, q, e2), d3 = cross(e1, e2, p), d4 = cross(e1, e2, q);
    const scale = Math.hypot(q[0] - p[0], q[1] - p[1]);
    if (Math.abs(d1) <= eps * scale || Math.abs(d2) <= eps * scale) return false;
    if ((d1 > 0) === (d2 > 0)) return false;
    return (d3 > 0) !== (d4 > 0) && Math.abs(d3) > 1e-12 && Math.abs(d4) > 1e-12;
  }
  function cmpPairs(x, y) { for (let i = 0; i < Math.min(x.length, y.length); i++) { const c = cmpLabels(x[i], y[i]); if (c) return c; } return x.length - y.length; }
  // lines_between: for each line from a to b, the hexes it crosses and the sides it runs along
  function linesBetween(a, b, cornerToCorner) {
    const d = distance(a, b);
    const cands = hexLabels().filter((h) => h !== a && h !== b && distance(a, h) <= d && distance(a, h) + distance(h, b) <= d + 1);
    const polys = {};
    for (const h of cands.concat([a, b])) polys[h] = corners(h);
    const eps = G.map.radius * 1e-4;
    const pairs = [];
    if (cornerToCorner) { for (const p of corners(a)) for (const q of corners(b)) pairs.push([p, q]); } else pairs.push([centre(a), centre(b)]);
    const centres = cands.concat([a, b]).map(centre);
    const reach = Math.pow(G.map.radius + eps, 2);
    const steps = 8 * Math.max(d, 1);
    const onMap = (p, q) => {
      for (let k = 1; k < steps; k++) {
        const x = p[0] + (q[0] - p[0]) * k / steps, y = p[1] + (q[1] - p[1]) * k / steps;
        if (!centres.some(([cx, cy]) => (x - cx) * (x - cx) + (y - cy) * (y - cy) <= reach)) return false;
      }
      return true;
    };
    const out = [], keys = [];
    const near = cands.concat([a, b]);
    const pairsNear = [], pairCorners = new Map();
    for (const x of near) for (const y of near) if (x < y && distance(x, y) === 1) { pairsNear.push([x, y]); pairCorners.set(x + "|" + y, sharedSide(polys[x], polys[y], eps)); }
    for (const [p, q] of pairs) {
      if (cornerToCorner && !onMap(p, q)) continue;
      const crossed = cands.filter((h) => crossesInterior(p, q, polys[h], eps)).map((h, i) => [h, i]).sort((x, y) => distance(a, x[0]) - distance(a, y[0]) || x[1] - y[1]).map((x) => x[0]);
      const edges = new Map();
      for (const h of cands) for (const mid of alongEdges(p, q, polys[h], eps)) { if (!edges.has(mid)) edges.set(mid, []); edges.get(mid).push(h); }
      const along = [...edges.values()].map((hs) => hs.slice().sort(cmpLabels)).sort(cmpPairs);
      const live = crossed.concat([a, b]);
      const sides = [];
      for (const x of live) for (const y of live) {
        if (!(x < y) || distance(x, y) !== 1) continue;
        const [e1, e2] = sharedSide(polys[x], polys[y], eps);
        if (crossesSide(p, q, e1, e2, eps)) sides.push([x, y]);
      }
      sides.sort(cmpPairs);
      // sides with a corner the line passes through between its ends (builder.geometry.sight)
      const touched = [];
      for (const [x, y] of pairsNear) if (onSegment(p, q, pairCorners.get(x + "|" + y)[0], eps) || onSegment(p, q, pairCorners.get(x + "|" + y)[1], eps)) touched.push([x, y]);
      touched.sort(cmpPairs);
      const key = JSON.stringify([crossed, along, sides, touched]);
      if (!keys.includes(key)) { keys.push(key); out.push({ crossed, along, sides, touched }); }
    }
    return out;
  }
  // ----- line of sight with levels (builder.mapinfo.ground_level ... line_of_sight) -------------
  let LEVELS = null;
  function groundLevel(h) {
    if (LEVELS === null) LEVELS = new Map(G.map.levels || []);
    if (LEVELS.has(h)) return LEVELS.get(h);
    const kinds = hexTerrain(h).filter((x) => terrainType(x));
    return kinds.length ? Math.max(...kinds.map((x) => terrainType(x).level || 0)) : 0;
  }
  function obstacleHeight(rule, id) {
    if (id === G.map.default_terrain || (rule.clear_terrain || []).includes(id) || !terrainType(id)) return 0;
    const h = terrainType(id).height;
    return h == null ? 1 : h;
  }
  function hexTop(rule, h) {
    const heights = hexTerrain(h).map((x) => [x, obstacleHeight(rule, x)]);
    const tallest = Math.max(0, ...heights.map(([, v]) => v));
    return [groundLevel(h) + tallest, heights.filter(([, v]) => v && v === tallest).map(([x]) => x)];
  }
  function sideTop(a, b) {
    let best = null;
    for (const id of hexsideTypes(a, b)) {
      const sight = (G.map.hexsideSight || {})[id];
      if (!sight) continue;
      const extra = sight[1] != null ? sight[1] : (sight[0] === "wall" ? 1 : 0);
      const top = Math.max(groundLevel(a), groundLevel(b)) + extra;
      if (best === null || top > best[0] || (top === best[0] && id > best[1])) best = [top, id];
    }
    return best;
  }
  const cubeOf = (h) => HEX.get(h)[0];
  function lineOfSight(rule, observer, target, night) {
    const d = distance(observer, target);
    const base = { distance: d, through: [], blocked_by: null };
    if (d === 0) return Object.assign(base, { seen: true, why: "the same hex" });
    if (d === 1 && rule.adjacent_always !== false) return Object.assign(base, { seen: true, why: "adjacent: always observed" });
    if (night && rule.night_range != null && d > rule.night_range) return Object.assign(base, { seen: false, why: "night turn: no line of sight beyond " + rule.night_range + " hex" + (rule.night_range !== 1 ? "es" : "") });
    if (d > rule.max_range) return Object.assign(base, { seen: false, why: d + " hexes is beyond the " + rule.max_range + "-hex maximum" });
    // the pair in the order of their cube coordinates: the same answer both ways
    const [co, ct] = [cubeOf(observer), cubeOf(target)];
    const [a, b] = co[0] < ct[0] || (co[0] === ct[0] && co[1] < ct[1]) ? [observer, target] : [target, observer];
    const la = groundLevel(a), lb = groundLevel(b);
    const lo = Math.min(la, lb), hi = Math.max(la, lb);
    const low = la <= lb ? a : b;
    const blind = rule.blind_hexes || 0;
    const blocks = (top, behind) => {
      if (top > lo && top >= hi) return top > hi || lo === hi ? "high" : "level";
      if (blind && lo < top && top < hi && behind <= blind) return "blind";
      return "";
    };
    const blockers = (line) => {
      const out = [];
      for (const h of line.crossed) { const w = blocks(hexTop(rule, h)[0], distance(h, low)); if (w) out.push(["hex", h, w]); }
      for (const pair of line.along) if (pair.length === 2 && pair.every((h) => blocks(hexTop(rule, h)[0], distance(h, low)))) out.push(["along", pair, blocks(hexTop(rule, pair[0])[0], distance(pair[0], low))]);
      for (const pair of line.sides.concat(line.touched, line.along.filter((x) => x.length === 2))) {
        if (pair.includes(a) || pair.includes(b)) continue;
        const st = sideTop(pair[0], pair[1]);
        if (st === null) continue;
        const w = blocks(st[0], Math.min(...pair.map((h) => distance(h, low))));
        if (w) out.push(["side", pair, w]);
      }
      return out;
    };
    let lines = linesBetween(a, b, rule.corner_to_corner !== false);
    if (!lines.length) lines = linesBetween(a, b, false);
    let best = lines[0];
    const key = (ln) => [blockers(ln).length, ln.crossed.length];
    for (const ln of lines) { const k = key(ln), kb = key(best); if (k[0] < kb[0] || (k[0] === kb[0] && k[1] < kb[1])) best = ln; }
    const blocked = blockers(best);
    base.through = best.crossed.slice();
    const sides = best.along.filter((pair) => pair.length === 2);
    const heights = lo === hi ? "" : " (levels: " + a + " " + la + ", " + b + " " + lb + ")";
    if (!blocked.length) return Object.assign(base, { seen: true, why: d + " hexes, a clear line" + (best.crossed.length ? " through " + base.through.join(", ") : "") + (sides.length ? " along the side of " + sides.map((p) => p.join("/")).join(", ") : "") + heights });
    const [kind, where, why] = blocked[0];
    base.blocked_by = kind === "hex" ? where : where[0];
    let what;
    if (kind === "side") {
      const [top, id] = sideTop(where[0], where[1]);
      what = "crosses the " + hexsideName(id).toLowerCase() + " between " + where.join("/") + " (level " + top + ")";
    } else {
      const h = kind === "hex" ? where : where[0];
      const [top, kinds] = hexTop(rule, h);
      what = h + " (" + (kinds.length ? kinds : hexTerrain(h)).map(terrainName).join(", ") + ", level " + top + ")";
      what = kind === "hex" ? "passes " + what : "runs along the side of " + where.join("/") + ", " + what;
    }
    if (why === "blind") what += ": " + low + " lies in the blind hexes behind it, seen from level " + hi;
    else if (why === "level") what += ", as high as the higher end (level " + hi + ")";
    return Object.assign(base, { seen: false, why: "every line is blocked; the clearest " + what + heights });
  }
  function calcSight(t, values, roll, calc) {
    if (G.map.kind !== "hex") throw new CalcError(t.id + ": " + G.game + " has an area map; this calculator needs hexes");
    if (roll != null) throw new CalcError(t.id + " has no roll: leave out --roll");
    if (t.kind === "range") {
      const target = values.target;
      const dists = values.origins.map((o) => [distance(o, target), o]).sort((x, y) => x[0] - y[0] || (x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0));
      for (const [dist, o] of dists) calc.step(t.origin + " in " + o + ": " + dist + " hex" + (dist !== 1 ? "es" : "") + " from " + target);
      const [nearest, where] = dists[0];
      const ok = nearest <= t.max;
      calc.column = nearest + " hexes";
      const nearestOrigin = t.origin.startsWith("nearest ") ? t.origin : "nearest " + t.origin;
      calc.step(nearestOrigin + ": " + where + ", " + nearest + " hex" + (nearest !== 1 ? "es" : "") + "; the most allowed is " + t.max + (t.source ? " (" + t.source + ")" : ""));
      calc.outcome = outcome(ok ? "in range" : "out of range", target + " is " + (ok ? "within" : "more than") + " " + t.max + " hexes of the " + nearestOrigin);
      calc.distribution = [[calc.outcome, new F(1)]];
      return calc;
    }
    let night = truthy(values.night);
    if (values.turn != null) {
      const detail = (G.turns || []).find((x) => x.number === values.turn);
      if (detail && detail.night) { night = true; calc.step("turn " + values.turn + " (" + (detail.name || "night") + ") is a night turn"); }
    }
    const obs = values.observer, tgt = values.target;
    const levels = (G.map.levels || []).length > 0 || Object.values(G.map.terrain).some((x) => x.level);
    for (const [who, h] of [["observer", obs], ["target", tgt]]) calc.step(who + " " + h + ": " + hexTerrain(h).map(terrainName).join(", ") + (levels ? ", level " + groundLevel(h) : ""));
    for (const sp of values.spotters || []) {
      if (distance(sp, tgt) <= 1) {
        calc.column = distance(obs, tgt) + " hexes";
        const why = (t.spotter || "a spotter") + " in " + sp + ": its hex and the adjacent ones are observed";
        calc.step(why + (t.source ? " (" + t.source + ")" : ""));
        calc.outcome = outcome("observed", why);
        calc.distribution = [[calc.outcome, new F(1)]];
        return calc;
      }
    }
    const ans = lineOfSight(t, obs, tgt, night);
    calc.column = ans.distance + " hexes";
    calc.step("distance " + ans.distance + (night ? " on a night turn" : ""));
    calc.step(ans.why);
    calc.outcome = outcome(ans.seen ? "observed" : "not observed", ans.why);
    calc.distribution = [[calc.outcome, new F(1)]];
    calc.note("Lines run " + (t.corner_to_corner !== false ? "from any corner of the observer's hex to any corner of the target's" : "centre to centre") + "; the observer's and the target's own hexes and hexsides never block. Terrain between them blocks when it stands above the lower end and as high as the higher one" + (t.blind_hexes ? ", or hides the lower end within " + t.blind_hexes + " hex" + (t.blind_hexes !== 1 ? "es" : "") + " behind it" : "") + "; sight is the same both ways.");
    return calc;
  }
  function calcMap(id, values, roll) {
    if (roll != null) throw new CalcError(id + " has no roll: leave out --roll");
    const spec = specsById[id];
    const calc = new Calc(id, spec.name, "map");
    if (id === "distance") {
      const a = values.from, b = values.to, d = distance(a, b);
      calc.step(a + " to " + b + ": " + d + " hex" + (d !== 1 ? "es" : "") + " (counting " + b + ", not " + a + ")");
      const within = values.within;
      calc.outcome = within != null ? outcome(d <= within ? "in range" : "out of range", d + " " + (d <= within ? "<=" : ">") + " " + within) : outcome(String(d), d + " hexes");
    } else if (id === "hex") {
      const h = values.hex;
      const terrain = hexTerrain(h);
      calc.step(h + ": " + terrain.map(terrainName).join(", "));
      for (const n of hexLabels()) {
        if (distance(h, n) !== 1) continue;
        const sides = hexsideTypes(h, n);
        if (sides.length) calc.step("side to " + n + ": " + sides.map(hexsideName).join(", "));
      }
      for (const lab of G.map.labels || []) if (lab[1] === h) calc.step("label: " + lab[0]);
      calc.outcome = outcome(terrain.map(terrainName).join(", "), "");
    } else {
      const rule = { id: "los", kind: "line-of-sight", max_range: values.max_range, night_range: truthy(values.night) ? 1 : null,
        adjacent_always: true, clear_terrain: values.clear || [], blind_hexes: values.blind_hexes || 0, corner_to_corner: true,
        spotter: truthy(values.spotters) ? "spotting marker" : "" };
      return calcSight(rule, values, null, calc);
    }
    calc.distribution = [[calc.outcome, new F(1)]];
    return calc;
  }

  // builder.tables.limit: within a stacking limit or over it
  function calcLimit(t, values, roll, calc) {
    if (roll != null) throw new CalcError(t.id + " has no roll: leave out --roll");
    let total;
    if (t.counts === "strength") {
      const each = values.strengths;
      total = each.reduce((a, b) => a + b, 0);
      calc.step((each.length === 1 ? "" : each.join(" + ") + " = ") + total + " strength points in one " + t.place);
    } else {
      total = values.units;
      calc.step(total + " unit" + (total !== 1 ? "s" : "") + " in one " + t.place);
    }
    const what = t.counts === "strength" ? "strength points" : "units";
    const rule = "At most " + t.most + " " + (t.most !== 1 ? what : what.slice(0, -1)) + " in one " + t.place + (t.source ? " (" + t.source + ")" : "");
    if (total <= t.most) { calc.step(rule + ": allowed"); calc.outcome = outcome("allowed", total + " of at most " + t.most); }
    else { calc.step(rule + ": " + (total - t.most) + " too many"); calc.outcome = outcome("not allowed", (total - t.most) + " over the limit: " + rule); }
    calc.distribution = [[calc.outcome, new F(1)]];
    return calc;
  }

  const KINDS = { limit: calcLimit, differential: calcDifferential, ratio: calcRatio, fire: calcFire, "modified-roll": calcModifiedRoll,
    lookup: calcLookup, chart: calcChart, "line-of-sight": calcSight, range: calcSight };

  // ----- the API (builder.tables.api.calculate) ---------------------------------------------------
  function calculate(id, given, roll, account = true) {
    const calc = calculateOnce(id, given || {}, roll);
    if (account && Object.keys(given || {}).length) calc.unused = unusedInputs(id, given, roll, calc);
    return calc.toDict();
  }
  function calculateOnce(id, given, roll) {
    const spec = specsById[id];
    if (!spec) throw new CalcError(G.game + " has no table or calculator '" + id + "'; choose from: " + Object.keys(specsById).join(", "));
    if (roll === "" || roll === undefined) roll = null;
    const values = resolve(spec.inputs, given || {});
    if (!(id in G.tables)) {
      const c = id === "victory" ? calcVictory(values, roll) : (G.lookups && id in G.lookups && id !== "scenarios") ? calcScenarioLookup(id, spec, values, roll) : calcMap(id, values, roll);
      c.values_ = values;
      return c;
    }
    let t = G.tables[id];
    const calc = new Calc(t.id, t.name, t.kind);
    const reading = "reading" in values ? values.reading : "written";
    delete values.reading;
    if (reading && reading !== "written") {
      const r = t.readings.find((x) => x.id === reading);
      t = Object.assign({}, t, r.set);
      calc.step("reading: " + r.label + (r.source ? " (" + r.source + ")" : "") + ": " + Object.entries(r.set).map(([k, v]) => k + " = " + (typeof v === "boolean" ? (v ? "True" : "False") : v)).join(", "));
      if (r.note) calc.note("Reading '" + r.id + "': " + r.note);
    } else if ((t.readings || []).length) {
      calc.note("Other readings of this table: " + t.readings.map((r) => "reading=" + r.id + " (" + r.label + ")").join("; ") + ".");
    }
    if (roll != null && t.kind === "chart") throw new CalcError(t.id + " is a chart: it has no roll (leave out --roll)");
    KINDS[t.kind](t, values, roll, calc);
    tableNotes(calc, t);
    calc.values_ = Object.assign({ reading }, values);
    return calc;
  }

  // ----- victory (builder.tables.victory): the scenario's counts, points and standing ----------
  const vpText = (v) => (v.cmp(0) > 0 ? "+" : "") + show(v) + " VP";
  function vLimit(x) {
    const parts = [];
    if (x.at_least != null) parts.push("at least " + show(fracOf(x.at_least)));
    if (x.at_most != null) parts.push("at most " + show(fracOf(x.at_most)));
    return parts.join(" and ");
  }
  function vDecides(x, n) {
    if (x.at_least == null && x.at_most == null) return false;
    return (x.at_least == null || n.cmp(fracOf(x.at_least)) >= 0) && (x.at_most == null || n.cmp(fracOf(x.at_most)) <= 0);
  }
  function vAmount(v, values) {
    if (v.held) {
      const got = values[v.id];
      if (got == null) return [null, ""];
      if (typeof got === "boolean") return [new F(got ? 1 : 0), got ? v.places[0][1] : ""];
      if (Array.isArray(got)) {
        const held = v.places.filter((p) => got.includes(p[0]));
        return [new F(held.length), held.map((p) => p[1] + " " + vpText(fracOf(p[2]))).join(", ")];
      }
      return [new F(got), ""];
    }
    if (v.weights.length) {
      const parts = []; let total = new F(0), known = false;
      for (const [iid, value, w] of v.weights) {
        const n = values[iid];
        if (n == null) continue;
        known = true; total = total.add(fracOf(w).mul(n));
        parts.push(n + " x " + show(fracOf(w)) + " (" + value + ")");
      }
      return [known ? total : null, parts.join(" + ")];
    }
    const got = values[v.id];
    return [got == null ? null : new F(got), ""];
  }
  function vScored(v, n, got) {
    const vp = fracOf(v.vp);
    if (v.threshold != null) return n.cmp(fracOf(v.threshold)) >= 0 ? vp : new F(0);
    if (v.held) {
      if (v.all) return n.eq(v.places.length) ? vp : new F(0);
      if (Array.isArray(got)) return v.places.filter((p) => got.includes(p[0])).reduce((a, p) => a.add(fracOf(p[2])), new F(0));
      return n.mul(fracOf(v.places[0][2]));
    }
    return n.mul(vp);
  }
  function calcVictory(values, roll) {
    if (roll != null) throw new CalcError("victory has no roll: leave out --roll");
    const scs = G.victory.scenarios;
    const sc = scs.length > 1 ? scs.find((x) => x.id === values.scenario) : scs[0];
    const calc = new Calc("victory", "Victory", "victory");
    if (scs.length > 1) calc.step("scenario: " + sc.name);
    const byId = Object.fromEntries(sc.counts.map((v) => [v.id, v]));
    const stands = {};
    let total = new F(0), scoring = false;
    for (const v of sc.counts) {
      const [n, named] = vAmount(v, values);
      stands[v.id] = n;
      if (n === null) {
        if (fracOf(v.vp).n || v.result || v.has_vp) calc.note(v.name + ": not given, so counted as none" + (v.result ? "; it decides the game (" + v.result + ") when it is " + vLimit(v) : "") + ".");
        continue;
      }
      let vp = vScored(v, n, values[v.id]);
      if (v.has_vp) scoring = true;
      let asked = "";
      if (v.only_if && v.has_vp && !values[v.only_if]) { asked = ": scores only when " + sc.questions[v.only_if]; vp = new F(0); }
      let line = v.name + ": " + show(n) + (named ? " (" + named + ")" : "");
      if (v.threshold != null) line += ", " + vpText(fracOf(v.vp)) + " at " + show(fracOf(v.threshold)) + " or more";
      else if (v.all) line += " of " + v.places.length + ", " + vpText(fracOf(v.vp)) + " only when every one is held";
      if (v.has_vp) line += asked + " = " + vpText(vp);
      if (v.result) line += " (" + v.result + " when it is " + vLimit(v) + ")";
      calc.step(line + (v.source ? " (" + v.source + ")" : ""));
      total = total.add(vp);
    }
    if (scoring) calc.step("total: " + vpText(total));
    let decided = null;
    for (const v of sc.counts) {
      const n = stands[v.id];
      if (!v.result || n == null || !vDecides(v, n)) continue;
      const unmet = v.provided.filter((p) => stands[p.count] == null || !vDecides(p, stands[p.count]));
      if (unmet.length) {
        for (const p of unmet) { const m = stands[p.count]; calc.step(v.result + ": only when " + byId[p.count].name + " is " + vLimit(p) + (m != null ? " (it is " + show(m) + ")" : " (not given)")); }
        continue;
      }
      calc.step(v.name + " " + show(n) + ", " + vLimit(v) + ": " + v.result + (v.source ? " (" + v.source + ")" : ""));
      if (decided === null) decided = [v, n];
      else calc.note(v.result + " too; the first listed stands (" + decided[0].result + ").");
    }
    if (decided !== null) calc.outcome = outcome(decided[0].result, decided[0].name + ": " + show(decided[1]));
    else if (sc.table) {
      const t = G.tables[sc.table];
      let value = total;
      if (total.d !== 1 && sc.rounding) { value = new F(roundTo(total, sc.rounding)); calc.step(show(total) + " VP rounded " + WORDS[sc.rounding] + ": " + show(value)); }
      const e = entryFor(t, value.valueOf(), {});
      if (!e) { calc.step(t.name + ": no level for " + show(value) + " VP"); calc.outcome = outcome("no level", show(value) + " VP"); }
      else {
        calc.step(t.name + ": " + show(value) + " VP -> " + e.result + (t.source ? " (" + t.source + ")" : ""));
        calc.outcome = outcome(e.result, vpText(total) + (e.detail ? ": " + e.detail : ""));
      }
    } else {
      calc.outcome = outcome(sc.default || "no result", scoring ? vpText(total) : "");
      calc.step("no count decides the game: " + calc.outcome.result);
    }
    for (const text of sc.by_hand) calc.note("Not counted here, add by hand: " + text + ".");
    calc.distribution = [[calc.outcome, new F(1)]];
    return calc;
  }

  // ----- scenario lookups (builder.tables.scenario_lookups): answers worked out by the builder --
  function calcScenarioLookup(id, spec, values, roll) {
    if (roll != null) throw new CalcError(id + " has no roll: leave out --roll");
    const calc = new Calc(id, spec.name, "scenario");
    const names = ["unit", "turn", "hex", "sector", "box", "region"].filter((k) => spec.inputs.some((i) => i.id === k));
    const given = names.filter((k) => values[k] != null);
    if (id === "setup" && given.length > 1) throw new CalcError("give one place: " + names.join(", ") + " (one of them)");
    const sk = values.scenario != null ? values.scenario : "";
    const key = sk + "|" + (given.length ? given[0] + "=" + String(values[given[0]]) : "");
    let answer = G.lookups[id][key];
    if (!answer) {  // a hex with nothing set up, entering or named there
      const scenarios = G.lookups.scenarios;
      const name = sk ? scenarios[sk] : Object.values(scenarios)[0];
      answer = { steps: (sk ? ["scenario: " + name] : []).concat(["nothing is set up in " + values[given[0]] + " in " + name]),
        result: "nothing", meaning: "set up in " + values[given[0]] };
    }
    for (const st of answer.steps) calc.step(st);
    calc.outcome = outcome(answer.result, answer.meaning);
    calc.distribution = [[calc.outcome, new F(1)]];
    return calc;
  }

  // ----- every input accounted for (builder.tables.accounting) ----------------------------------
  const PLACE_IDS = ["terrain", "hex", "sector"];
  function conditionReads(c) {
    const out = new Set();
    for (const x of walk(c)) {
      if (x.turn || (x.period || []).length) out.add("turn");
      if ((x.scenario || []).length) out.add("scenario");
      for (const role of ROLES) for (const a of Object.keys(x[role] || {})) out.add(role + "_" + a);
      if ((x.terrain || []).length) PLACE_IDS.forEach((k) => out.add(k));
      if ((x.region || []).length || x.place) out.add("hex");
      if ((x.across || []).length) { out.add("attacker_hexes"); out.add("hex"); }
      if (x.distance) { ["distance", "firer_hexes", "hex"].forEach((k) => out.add(k)); if (/range/.test(x.distance)) out.add("range"); }
      if (x.flag) out.add(x.flag);
      for (const k of Object.keys(x.input || {})) out.add(k);
    }
    return out;
  }
  const emptyValue = (v) => v == null || v === false || v === 0 || v === "" || (Array.isArray(v) && !v.length);
  const sameValue = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  function unusedInputs(id, given, roll, calc) {
    const spec = specsById[id];
    const ids = spec.inputs.map((s) => s.id);
    const byId = Object.fromEntries(spec.inputs.map((s) => [s.id, s]));
    const base = calc.answer();
    const values = calc.values_ || {};
    const same = (inputs) => { try { return calculateOnce(id, inputs, roll).answer() === base; } catch (e) { if (e instanceof CalcError) return false; throw e; } };
    const out = [];
    for (const raw of Object.keys(given)) {
      const name = aliased(raw, ids);
      const s = byId[name];
      if (!s || s.required) continue;
      const value = values[name];
      if (emptyValue(value) || sameValue(value, s.default)) continue;
      const rest = Object.assign({}, given); delete rest[raw];
      if (same(rest)) { out.push({ input: name, value, text: unusedLine(id, name, value, values, s) }); continue; }
      if (s.multiple && Array.isArray(value) && value.length > 1) {
        for (const v of value) {
          if (same(Object.assign({}, rest, { [raw]: value.filter((x) => x !== v) }))) out.push({ input: name, value: v, text: unusedLine(id, name, v, values, s) });
        }
      }
    }
    return out;
  }
  function shownInput(name, value, spec) {
    if (name === "terrain") return "terrain (" + (Array.isArray(value) ? value : [value]).map(terrainName).join(", ") + ")";
    if (name === "hex" && G.map.kind === "hex" && value != null) return "hex " + value + " (" + hexTerrain(value).map(terrainName).join(", ") + ")";
    if (name === "sector" && G.map.kind !== "hex") return G.map.sectors[value] ? "sector " + G.map.sectors[value].name : name;
    // as builder.tables.accounting._shown: a unit's attribute by its choice's label, a yes/no
    // input or one with a written id by the table's label for it (builder.words.input_shown)
    const cut = name.indexOf("_");
    if (cut > 0 && ROLES.includes(name.slice(0, cut)) && typeof value !== "boolean" && !Array.isArray(value)) {
      const choice = ((spec && spec.choices) || []).find((c) => c.value === value);
      return "the " + name.slice(0, cut) + "'s " + name.slice(cut + 1) + " " + (choice ? choice.label : value);
    }
    const label = spec && (typeof value === "boolean" || !/^[A-Za-z0-9]+$/.test(name)) ? spec.label : name;
    if (typeof value === "boolean") return label;
    if (Array.isArray(value)) return label + " " + value.join(", ");
    return label + " " + value;
  }
  function unusedLine(id, name, value, values, spec) {
    const t = G.tables[id];
    const why = t ? whyUnused(t, name, value, values) : "";
    if (why.startsWith("not applied, ") || why.startsWith("not decided ")) return shownInput(name, value, spec) + ": " + why;
    return shownInput(name, value, spec) + ": changed nothing" + (why ? ", " + why : "");
  }
  const conditionAbout = (c, name) => [...walk(c)].some((x) => x.flag === name || name in (x.input || {}));
  const testsTerrain = (c, value) => { const vals = Array.isArray(value) ? value : [value]; return [...walk(c)].some((x) => (x.terrain || []).some((y) => vals.includes(y))); };
  function whyUnused(t, name, value, values) {
    let place;
    try { place = readPlace(values, null); } catch (e) { if (!(e instanceof CalcError)) throw e; place = { terrain: null, hex: null, sector: null, regions: null, where: "" }; }
    const ruled = t.kind in PLACES;
    const f = ruled ? ruleFacts(t, values, place) : null;
    const reasons = [];
    for (const r of ruled ? t.rules || [] : []) {
      if (!r.when) { if (r.id === name) reasons.push(r.label + " changes nothing here"); continue; }
      if (!conditionReads(r.when).has(name)) continue;
      if (name === "terrain" && !testsTerrain(r.when, value)) continue;
      const held = holds(r.when, f);
      const src = r.source ? " (" + r.source + ")" : "";
      const about = conditionAbout(r.when, name);
      if (held === null) {
        const need = needs(r.when, f, PLACES[t.kind][0] || "defender");
        reasons.push((about ? "not decided" : r.label + ": not decided") + " until " + either(need, "and") + (need.length === 1 ? " is" : " are") + " given" + src);
      }
      else if (held === false) {
        const keys = failingKeys(r.when, f, name);
        const said = keys.length ? ((G.phrases[t.id] || {})[r.id] || {})[keys.join("+")] || "" : "";
        if (!said) reasons.push(r.label + " does not apply here" + src);
        else if (about) reasons.push("not applied, " + onlyWhen(said) + src);
        else reasons.push(r.label + " applies " + onlyWhen(said) + src);
      } else reasons.push(r.label + " applies, but changes nothing here" + src);
    }
    if (name === "terrain") reasons.push(...terrainReasons(t, value));
    else if ((name === "hex" || name === "sector") && !reasons.length) reasons.push("nothing in this table depends on that place");
    if (!reasons.length) reasons.push("it makes no difference to this calculation");
    let out = [...new Set(reasons)];
    if (out.length > 1 && out.some((r) => r.startsWith("not applied, "))) out = [out[0], ...out.slice(1).map((r) => r.replace(/^not applied, /, ""))];
    return out.join("; ");
  }
  function terrainReasons(t, value) {
    const vals = Array.isArray(value) ? value : [value];
    let read = (t.modifiers || []).some((m) => (m.terrain || []).some((x) => vals.includes(x)));
    read = read || (t.terrain_rows || []).some((r) => (r.terrain || []).some((x) => vals.includes(x)));
    const effects = [t.terrain_effect, t.defence_effect, t.kind === "ratio" ? t.shift_effect : ""].filter((e) => e);
    read = read || vals.some((v) => terrainType(v) && effects.some((e) => terrainType(v).effects[e] != null));
    return read ? ["another terrain counts instead"] : ["no row, modifier or rule of this table depends on " + vals.map(terrainName).join(", ")];
  }
  // accounting.failing_keys: the keys of a condition that do not hold, the input asked about apart
  const WHEN_KEYS = ["turn", "period", "scenario", "attacker", "defender", "firer", "target", "terrain", "region", "place", "distance", "across", "flag", "input", "all", "any", "not_"];
  const WHEN_WITH = { place: ["within"], across: ["attackers"] };
  const written = (v) => !(v == null || v === "" || (Array.isArray(v) && !v.length) || (typeof v === "object" && !Array.isArray(v) && !Object.keys(v).length));
  const onlyWhen = (said) => (said.startsWith("except ") || said.startsWith("unless ") ? said : "only " + said);
  function failingKeys(c, f, name) {
    const out = [];
    for (const k of WHEN_KEYS) {
      if (!written(c[k])) continue;
      if ((k === "flag" && c.flag === name) || (k === "input" && name in c.input) || (k === "terrain" && name === "terrain")) continue;
      const sub = { [k]: c[k] };
      for (const w of WHEN_WITH[k] || []) sub[w] = c[w];
      if (holds(sub, f) !== true) out.push(k);
    }
    return out;
  }


  window.AidEngine = { load, calculate, parseRoll, diceRange, CalcError, F, roundTo };
})();
