// eighteen serve: the page.  It talks to the JSON API only (/api/openapi.json).
"use strict";

const $ = (id) => document.getElementById(id);
const state = {
  doc: null,        // document summary
  timeline: null,   // {actions: [...]} for records
  index: null,      // timeline index of the next action (actions.length: after the last)
  company: null,    // chosen company (null: the one operating)
  position: null,   // last /position answer
  solution: null,   // last /solve answer
  seq: 0,           // bumps on every navigation: late answers of older ones are dropped
};

// ------------------------------------------------------------------ helpers
function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

function showError(message) {
  const box = $("error");
  box.textContent = message;
  box.hidden = !message;
}

function busy(text) { $("status").textContent = text || ""; }

async function api(path, options = {}) {
  const opts = { ...options };
  if (opts.json !== undefined) {
    opts.method = opts.method || "POST";
    opts.headers = { "Content-Type": "application/json" };
    opts.body = JSON.stringify(opts.json);
    delete opts.json;
  }
  let resp;
  try {
    resp = await fetch(path, opts);
  } catch (err) {
    throw new Error(`the server did not answer (${err.message})`);
  }
  const type = resp.headers.get("content-type") || "";
  if (!resp.ok) {
    let message = `${resp.status} ${resp.statusText}`;
    if (type.includes("json")) {
      const body = await resp.json();
      if (body && body.error) message = body.error;
    }
    const e = new Error(message);
    e.status = resp.status;
    throw e;
  }
  return type.includes("json") ? resp.json() : resp.text();
}

function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined) q.set(k, v);
  return q.toString();
}

function timeLimit() {
  const v = parseFloat($("time-limit").value);
  return Number.isFinite(v) && v > 0 ? Math.min(v, 60) : 10;
}

// ------------------------------------------------------------------ opening documents
async function loadLibrary() {
  const lib = await api("/api/library");
  const select = $("library");
  select.replaceChildren();
  const groups = [["Game records", lib.records, (r) => `${r.title}: ${r.name} (${r.actions} actions)`],
                  ["Example positions", lib.examples, (e) => `${e.title}: ${e.name} (${e.company}, phase ${e.phase})`]];
  for (const [label, items, text] of groups) {
    const g = el("optgroup", { label });
    for (const item of items) g.append(el("option", { value: item.id, text: text(item) }));
    select.append(g);
  }
}

async function openDocument(summary, hash = {}) {
  state.doc = summary;
  state.timeline = null;
  state.company = hash.company || null;
  state.solution = null;
  $("doc-bar").hidden = false;
  $("doc-name").textContent = summary.name;
  $("doc-title").textContent = `${summary.title} ${summary.kind}`;
  clearWhatIf();
  $("history-table").replaceChildren();
  $("history-summary").textContent = "";
  $("whatif").hidden = false;
  const record = summary.kind !== "position";
  $("nav").hidden = !record;
  $("history").hidden = !record;
  if (record) {
    busy("reading the record…");
    state.timeline = await api(`/api/documents/${encodeURIComponent(summary.id)}/timeline`);
    const acts = state.timeline.actions;
    let index = acts.findIndex((a) => a.type === "run_routes");
    if (hash.action !== undefined && hash.action !== null) {
      const at = acts.findIndex((a) => String(a.number) === String(hash.action));
      if (at >= 0) index = at;
    }
    state.index = index >= 0 ? index : acts.length;
  } else {
    state.index = null;
  }
  await showPosition();
}

async function openById(id, hash = {}) {
  showError("");
  try {
    const summary = await api(`/api/documents/${encodeURIComponent(id)}`);
    await openDocument(summary, hash);
  } catch (err) {
    busy("");
    showError(err.message);
  }
}

async function upload(body, name) {
  showError("");
  busy("uploading…");
  try {
    const summary = await api(`/api/documents?${query({ name })}`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body,
    });
    await openDocument(summary);
  } catch (err) {
    busy("");
    showError(`could not open ${name}: ${err.message}`);
  }
}

// ------------------------------------------------------------------ navigation
function currentAction() {
  if (!state.timeline) return null;
  const acts = state.timeline.actions;
  return state.index < acts.length ? acts[state.index].number : null;
}

function describeWhere() {
  const acts = state.timeline.actions;
  if (state.index >= acts.length) return `after the last action (${acts.length} actions)`;
  const a = acts[state.index];
  const who = a.entity ? ` by ${a.entity}` : "";
  return `before action ${a.number}: ${a.type}${who} (${a.round})`;
}

function move(index) {
  if (!state.timeline) return;
  const n = state.timeline.actions.length;
  state.index = Math.max(0, Math.min(n, index));
  state.company = null;
  showPosition();
}

function moveRun(step) {
  if (!state.timeline) return;
  const acts = state.timeline.actions;
  for (let i = state.index + step; i >= 0 && i < acts.length; i += step) {
    if (acts[i].type === "run_routes") return move(i);
  }
}

function jump(text) {
  if (!state.timeline) return;
  const acts = state.timeline.actions;
  const t = text.trim();
  const or = t.match(/^(?:or\s*)?(\d+)\.(\d+)$/i);
  let at = -1;
  if (or) {
    const label = `OR ${or[1]}.${or[2]}`;
    at = acts.findIndex((a) => a.round === label && a.type === "run_routes");
    if (at < 0) at = acts.findIndex((a) => a.round === label);
    if (at < 0) return showError(`no ${label} in this record`);
  } else if (/^\d+$/.test(t)) {
    at = acts.findIndex((a) => String(a.number) === t);
    if (at < 0) {
      const nums = acts.map((a) => a.number);
      return showError(`no action ${t} in this record (actions ${Math.min(...nums)}-${Math.max(...nums)})`);
    }
  } else {
    return showError(`go to: give an operating round such as "OR 3.2" or an action number, not "${t}"`);
  }
  showError("");
  move(at);
}

function updateHash() {
  const h = query({ doc: state.doc.id, action: currentAction(), company: state.company });
  history.replaceState(null, "", `#${h}`);
}

// ------------------------------------------------------------------ the position
async function showPosition() {
  const seq = ++state.seq;
  showError("");
  const doc = state.doc;
  const action = currentAction();
  if (state.timeline) $("where").textContent = describeWhere();
  updateHash();
  clearWhatIf();
  busy("replaying to the position…");
  let pos;
  try {
    pos = await api(`/api/documents/${encodeURIComponent(doc.id)}/position?${query({ action, company: state.company })}`);
  } catch (err) {
    if (seq !== state.seq) return;
    busy("");
    $("main").hidden = true;
    fillCompanies(null);
    if (state.timeline && !state.company) {
      // nobody operates here (a stock round): any company may still be looked at
      const select = $("company");
      select.append(el("option", { value: "", text: "choose a company…" }));
      for (const c of state.timeline.companies) select.append(el("option", { value: c, text: c }));
      select.value = "";
    }
    return showError(err.message);
  }
  if (seq !== state.seq) return;
  state.position = pos;
  fillCompanies(pos);
  $("main").hidden = false;
  await solveAndDraw(seq);
}

function fillCompanies(pos) {
  const select = $("company");
  select.replaceChildren();
  if (!pos) return;
  for (const c of pos.companies) {
    const trains = c.trains && c.trains.length ? c.trains.join(" ") : "no trains";
    const op = c.company === pos.operating ? " (operating)" : "";
    select.append(el("option", { value: c.company, text: `${c.company}${op}: ${trains}` }));
  }
  select.value = pos.company;
}

function svgText(text) {
  const i = text.indexOf("<svg");
  return i >= 0 ? text.slice(i) : text;
}

async function solveAndDraw(seq) {
  const pos = state.position;
  const base = { doc: pos.doc, action: pos.action, company: pos.company };
  busy(`solving ${pos.company}…`);
  try {
    const sol = await api("/api/solve", { json: { ...base, time_limit: timeLimit() } });
    if (seq !== state.seq) return;
    state.solution = sol;
    const svg = await api(`/api/board.svg?${query({ ...base, routes: "optimal", time_limit: timeLimit() })}`);
    if (seq !== state.seq) return;
    $("board-optimal").innerHTML = svgText(svg);
    showLegend(sol);
    $("download-svg").href = `/api/board.svg?${query({ ...base, routes: "optimal", time_limit: timeLimit(), download: true })}`;
    $("run-routes-json").value = JSON.stringify(sol.run_routes, null, 2);
    await showDeclared(seq, base);
    if (seq === state.seq) busy(`solved in ${(sol.seconds || 0).toFixed(2)} s`);
  } catch (err) {
    if (seq !== state.seq) return;
    busy("");
    showError(err.message);
  }
}

function routeSwatch(container, i) {
  // a sample of the route's line as drawn on the board: colour and dash pattern
  const NS = "http://www.w3.org/2000/svg";
  const drawn = container.querySelector(`polyline.route[data-index="${i}"]`);
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("width", "34");
  svg.setAttribute("height", "10");
  svg.setAttribute("class", "swatch");
  const line = document.createElementNS(NS, "line");
  for (const [k, v] of [["x1", 2], ["y1", 5], ["x2", 32], ["y2", 5], ["stroke-width", 4]]) line.setAttribute(k, v);
  line.setAttribute("stroke", drawn ? drawn.getAttribute("stroke") : "#888");
  const dash = drawn && drawn.getAttribute("stroke-dasharray");
  if (dash) line.setAttribute("stroke-dasharray", dash);
  svg.append(line);
  return svg;
}

function stopsText(stops) {
  return stops.map((s) => (s.counted ? `${s.label} ${s.value}` : `[${s.label}]`)).join(" – ");
}

function showLegend(sol) {
  const body = $("legend").tBodies[0];
  body.replaceChildren();
  const routes = [...sol.routes].sort((a, b) => a.train_index - b.train_index);
  routes.forEach((r, i) => {
    const bonus = Object.entries(r.bonuses).map(([k, v]) => ` + ${k} ${v}`).join("");
    body.append(el("tr", { "data-train": r.train, "data-revenue": r.revenue },
      el("td", {}, routeSwatch($("board-optimal"), i)),
      el("td", { text: `${r.train} (${r.train_id})` }),
      el("td", { text: stopsText(r.stops) + bonus }),
      el("td", { class: "num", text: String(r.revenue) })));
  });
  for (const t of sol.idle_trains) {
    body.append(el("tr", {}, el("td"), el("td", { text: t }), el("td", { text: "(no route)" }),
      el("td", { class: "num", text: "0" })));
  }
  const proof = sol.optimal ? "proven optimal" : `not proven (time limit): best found, bound ${sol.bound}`;
  $("summary").replaceChildren(
    el("span", { text: "total " }), el("strong", { "data-testid": "total", text: String(sol.total) }),
    el("span", { text: ` · ${proof} · bound ` }), el("strong", { "data-testid": "bound", text: String(sol.bound) }));
}

async function showDeclared(seq, base) {
  const pos = state.position;
  const has = pos.declared && pos.declared.routes && pos.declared.routes.length > 0;
  $("declared-fig").hidden = !has;
  $("declared-box").hidden = !has;
  if (!has) return;
  const body = $("declared-legend").tBodies[0];
  body.replaceChildren();
  const [svg, check] = await Promise.all([
    api(`/api/board.svg?${query({ ...base, routes: "declared" })}`),
    api("/api/validate", { json: base }),
  ]);
  if (seq !== state.seq) return;
  $("board-declared").innerHTML = svgText(svg);
  if (!check.legal) {
    $("declared-summary").textContent = check.error;
    return;
  }
  for (const r of check.routes) {
    body.append(el("tr", {}, el("td", { text: `${r.train} (${r.train_id})` }),
      el("td", { text: stopsText(r.stops) }), el("td", { class: "num", text: String(r.revenue) })));
  }
  const sol = state.solution;
  const gap = sol.total - check.total;
  $("declared-summary").replaceChildren(
    el("span", { text: "declared " }), el("strong", { "data-testid": "declared-total", text: String(check.total) }),
    el("span", { text: ` vs optimal ${sol.total}: ` }),
    el("strong", { text: gap > 0 ? `${gap} left on the table` : "the declared routes are optimal" }));
}

// ------------------------------------------------------------------ what-if
function clearWhatIf() {
  $("whatif-table").tBodies[0].replaceChildren();
  $("whatif-chart").replaceChildren();
  $("whatif-summary").textContent = "";
}

async function analyse() {
  const pos = state.position;
  if (!pos) return;
  const seq = state.seq;
  const limit = parseFloat($("whatif-limit").value) || 2;
  busy(`ranking the moves of ${pos.company}…`);
  $("whatif-summary").textContent = "solving every legal move…";
  try {
    const res = await api("/api/analyse", {
      json: { doc: pos.doc, action: pos.action, company: pos.company, time_limit: limit, top: 200 },
    });
    if (seq !== state.seq) return;
    const moves = Object.values(res.moves).flat().sort((a, b) => b.gain - a.gain || (a.cost || 0) - (b.cost || 0));
    const total = Object.values(res.counts).reduce((a, b) => a + b, 0);
    $("whatif-summary").textContent =
      `${res.company} earns ${res.revenue} now; ${total} legal moves solved in ${res.seconds.toFixed(2)} s` +
      (res.notes.length ? ` (${res.notes.join("; ")})` : "");
    const body = $("whatif-table").tBodies[0];
    body.replaceChildren();
    moves.slice(0, 30).forEach((m, i) => {
      body.append(el("tr", { "data-kind": m.kind, "data-gain": m.gain },
        el("td", { class: "num", text: String(i + 1) }), el("td", { text: m.kind }),
        el("td", { text: m.label }), el("td", { class: "num", text: m.cost === null ? "?" : String(m.cost) }),
        el("td", { class: "num", text: String(m.revenue) + (m.optimal ? "" : " *") }),
        el("td", { class: "num", text: (m.gain > 0 ? "+" : "") + m.gain })));
    });
    drawChart(moves.slice(0, 15));
    busy("");
  } catch (err) {
    if (seq !== state.seq) return;
    busy("");
    $("whatif-summary").textContent = "";
    showError(err.message);
  }
}

function drawChart(moves) {
  const NS = "http://www.w3.org/2000/svg";
  const box = $("whatif-chart");
  box.replaceChildren();
  if (!moves.length) return;
  const rowH = 20, labelW = 300, barW = 360, w = labelW + barW + 60;
  const h = moves.length * rowH + 10;
  const max = Math.max(1, ...moves.map((m) => Math.abs(m.gain)));
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.setAttribute("width", w);
  svg.setAttribute("height", h);
  svg.setAttribute("class", "chart");
  const colors = { tile: "#1f77b4", token: "#ff7f0e", train: "#2ca02c" };
  moves.forEach((m, i) => {
    const y = 5 + i * rowH;
    const text = document.createElementNS(NS, "text");
    text.setAttribute("x", labelW - 6);
    text.setAttribute("y", y + 14);
    text.setAttribute("text-anchor", "end");
    text.setAttribute("font-size", "12");
    text.textContent = m.label.length > 48 ? `${m.label.slice(0, 47)}…` : m.label;
    const bar = document.createElementNS(NS, "rect");
    const len = (Math.abs(m.gain) / max) * barW;
    bar.setAttribute("x", labelW);
    bar.setAttribute("y", y + 2);
    bar.setAttribute("width", Math.max(len, 1));
    bar.setAttribute("height", rowH - 6);
    bar.setAttribute("fill", m.gain < 0 ? "#b00020" : colors[m.kind] || "#888");
    bar.setAttribute("class", "bar");
    bar.setAttribute("data-gain", m.gain);
    const value = document.createElementNS(NS, "text");
    value.setAttribute("x", labelW + Math.max(len, 1) + 4);
    value.setAttribute("y", y + 14);
    value.setAttribute("font-size", "12");
    value.textContent = (m.gain > 0 ? "+" : "") + m.gain;
    svg.append(text, bar, value);
  });
  box.append(svg);
}

// ------------------------------------------------------------------ history
async function loadHistory() {
  const doc = state.doc;
  busy("replaying the whole game…");
  try {
    const rep = await api(`/api/documents/${encodeURIComponent(doc.id)}/history?${query({ time_limit: timeLimit() })}`);
    if (doc !== state.doc) return;
    const rounds = [], companies = [];
    const cells = new Map();
    for (const t of rep.turns) {
      if (!rounds.includes(t.round)) rounds.push(t.round);
      if (!companies.includes(t.company)) companies.push(t.company);
      cells.set(`${t.round}|${t.company}`, t);
    }
    companies.sort();
    const table = $("history-table");
    table.replaceChildren();
    table.append(el("thead", {}, el("tr", {}, el("th", { text: "round" }),
      ...companies.map((c) => el("th", { class: "num", text: c })))));
    const body = el("tbody");
    for (const r of rounds) {
      const row = el("tr", {}, el("th", { text: r }));
      for (const c of companies) {
        const t = cells.get(`${r}|${c}`);
        if (!t) { row.append(el("td")); continue; }
        const declared = t.declared !== null ? t.declared : t.scored;
        const gap = t.gap;
        const td = el("td", {
          class: `num ${gap > 0 ? "gap" : "best"}`, "data-action": t.action_id,
          title: `action ${t.action_id}: declared ${declared}, optimal ${t.optimum}` + (t.optimal ? "" : ` (bound ${t.bound})`),
          text: `${declared ?? "?"} / ${t.optimum ?? "?"}`,
        });
        td.addEventListener("click", () => jump(String(t.action_id)));
        row.append(td);
      }
      body.append(row);
    }
    table.append(body);
    const s = rep.summary;
    $("history-summary").textContent =
      `declared / optimal revenue of ${s.positions} runs; the optimum beat the declared routes ${s.optimum_beats_declared} times, ` +
      `${s.revenue_left_on_table} left on the table in all (click a cell to open it)`;
    busy("");
  } catch (err) {
    busy("");
    showError(err.message);
  }
}

// ------------------------------------------------------------------ copy
async function copyJson() {
  const area = $("run-routes-json");
  let ok = false;
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(area.value);
      ok = true;
    }
  } catch (_err) { ok = false; }
  if (!ok) {
    area.select();
    ok = document.execCommand && document.execCommand("copy");
  }
  $("copied").textContent = ok ? "copied" : "select the text and copy it";
}

// ------------------------------------------------------------------ PNG
async function downloadPng() {
  // the browser rasterises the board's SVG: no image library on the server
  const svgEl = $("board-optimal").querySelector("svg");
  if (!svgEl) return;
  const box = svgEl.viewBox.baseVal;
  const scale = 2;
  const img = new Image();
  img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(new XMLSerializer().serializeToString(svgEl));
  await img.decode();
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(box.width * scale);
  canvas.height = Math.round(box.height * scale);
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#fff";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
  const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/png"));
  const pos = state.position;
  const a = el("a", { href: URL.createObjectURL(blob), download: `${pos.doc}-${pos.action ?? "end"}-${pos.company}.png`.replace(/[^A-Za-z0-9.-]+/g, "-") });
  document.body.append(a);
  a.click();
  a.remove();
}

// ------------------------------------------------------------------ wiring
function wire() {
  $("open").addEventListener("click", () => openById($("library").value));
  $("file").addEventListener("change", async (ev) => {
    const file = ev.target.files[0];
    if (file) await upload(file, file.name);
    ev.target.value = "";
  });
  $("paste-toggle").addEventListener("click", () => { $("paste-box").hidden = !$("paste-box").hidden; });
  $("paste-open").addEventListener("click", () => upload($("paste").value, "pasted JSON"));
  $("prev").addEventListener("click", () => move(state.index - 1));
  $("next").addEventListener("click", () => move(state.index + 1));
  $("prev-run").addEventListener("click", () => moveRun(-1));
  $("next-run").addEventListener("click", () => moveRun(1));
  $("go").addEventListener("click", () => jump($("jump").value));
  $("jump").addEventListener("keydown", (ev) => { if (ev.key === "Enter") jump($("jump").value); });
  $("company").addEventListener("change", () => {
    if (!$("company").value) return;
    state.company = $("company").value;
    showPosition();
  });
  $("solve").addEventListener("click", () => showPosition());
  $("analyse").addEventListener("click", analyse);
  $("load-history").addEventListener("click", loadHistory);
  $("copy-json").addEventListener("click", copyJson);
  $("download-png").addEventListener("click", () => downloadPng().catch((err) => showError(`PNG: ${err.message}`)));
}

async function start() {
  wire();
  try {
    await loadLibrary();
  } catch (err) {
    showError(err.message);
    return;
  }
  const hash = Object.fromEntries(new URLSearchParams(location.hash.slice(1)));
  if (hash.doc) await openById(hash.doc, hash);
  document.body.dataset.ready = "1";
}

start();
