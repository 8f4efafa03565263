// The epipen playground: edits a story, runs it through the server's JSON API
// (POST /api/run, /api/graph; see src/serve/api.rs) and shows the worlds, the trace,
// the hints' verdicts and the epistemic model, which it draws itself as SVG.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";

const KEYWORDS = new Set(("characters int bool announce learns checkpoint worlds true false " +
  "not and or if then else in const enum for simultaneously actual reveals repeat until " +
  "assert_adds_ck check max event sees expects def where action do plan by keeping " +
  "coordinated show prior weight").split(" "));
const FUNCTIONS = new Set(("knows knows_value believes believes_value at all any sum count " +
  "distinct abs min max sample everyone_knows common_knowledge distributed_knowledge each " +
  "probability").split(" "));
// Distinct colours for the characters' edges, in declaration order.
const COLOURS = ["#2457c5", "#d1480f", "#0a7f5a", "#9b2fae", "#b8860b", "#c2185b", "#00838f",
  "#5d4037"];

const state = {
  stories: [],
  name: "story",        // the file name errors give the story
  sets: {},             // const name -> value typed in
  consts: [],           // [{name, value}] of the last run
  checkpoints: [],
  errorLines: new Map(), // line -> column of the last run's errors
  failedLines: new Set(), // the lines of the last run's checks that fail, hints refuted, plans that found none
  markLine: 0,          // a line the trace points at
  pickedAt: false,      // whether the visitor chose the graph's checkpoint (or step)
  steps: [],            // the labels of the last run's trace steps, in order
  plans: [],            // the plans whose steps the graph can be drawn after (followedPlans)
  focus: null,          // the character whose edges the graph highlights
  model: null,          // the model drawn (/api/graph's answer)
  trace: [],            // the last run's trace
  events: [],           // the names of the story's events and actions
  asked: [],            // the formulas asked of the model, in the order typed
  answers: [],          // for each, whether it holds in each world of the model drawn
  current: -1,          // the formula whose worlds are filled
  picked: null,         // the world clicked (its index in the model drawn)
  legendRows: [],       // the legend's rows, for the downloaded drawing: [{colour, ring, text}]
  run: 0,               // the number of the latest run started
  controller: null,
  timer: 0,
};

// ---- the editor: a textarea over a highlighted copy of its text ----

function escapeHtml(text) {
  return text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}

// One line of a story as highlighted HTML; `column` (1-based) underlines the token there.
function highlightLine(line, column) {
  const token = /(#.*)|([A-Za-z_][A-Za-z0-9_]*)|(\d+)|(==|!=|<=|>=|=>|->|<->|\.\.|[-+*\/%<>=:])|(\s+|.)/g;
  let html = "";
  let match;
  while ((match = token.exec(line)) !== null) {
    const [text, comment, word, number, op] = match;
    const start = match.index + 1;
    let kind = "";
    if (comment) kind = "comment";
    else if (word) {
      if (KEYWORDS.has(word)) kind = "keyword";
      else if (FUNCTIONS.has(word) && line.slice(token.lastIndex).trimStart().startsWith("(")) kind = "function";
      else if (/^[A-Z]/.test(word)) kind = "name";
    } else if (number) kind = "number";
    else if (op) kind = "op";
    let classes = kind ? ["tok-" + kind] : [];
    if (column && start <= column && column < start + text.length && !/^\s+$/.test(text)) {
      classes.push("err-at");
    }
    const escaped = escapeHtml(text);
    html += classes.length ? `<span class="${classes.join(" ")}">${escaped}</span>` : escaped;
  }
  return html;
}

// The highlighted copy holds one block per line: long lines wrap in it as they do in
// the textarea (same font, width and wrapping), and each line number takes the height of
// its line.
function renderEditor() {
  const lines = $("source").value.split("\n");
  $("highlight").innerHTML = lines.map((line, i) => {
    const n = i + 1;
    const column = state.errorLines.get(n);
    const cls = column !== undefined ? "err-line" : state.failedLines.has(n) ? "fail-line"
      : n === state.markLine ? "hl-line" : "";
    const html = highlightLine(line, column) || " ";
    return `<div class="${cls ? "ln " + cls : "ln"}" data-line="${n}">${html}</div>`;
  }).join("");
  alignGutter();
  syncScroll();
}

// One number per line of the story, as tall as the line is once wrapped.
function alignGutter() {
  const rows = $("highlight").children;
  const gutter = $("gutter");
  // The number column takes its width (as wide as the largest number) before the lines
  // are measured: the code beside it is then as wide as it stays, and its lines wrap
  // where they will be drawn.
  gutter.style.width = `max(3.2em, calc(${String(rows.length).length}ch + 1em + 1px))`;
  // Fractional heights (a line is 1.45 × 13 = 18.85 px): whole pixels, as offsetHeight
  // gives them, put each number a little lower than the last, a line lower after a
  // hundred lines.
  const heights = [...rows].map((row) => row.getBoundingClientRect().height);
  gutter.textContent = "";
  heights.forEach((height, i) => {
    const div = document.createElement("div");
    div.textContent = String(i + 1);
    div.style.height = `${height}px`;
    gutter.append(div);
  });
  // Room for the textarea's last line when scrolled to the end.
  gutter.append(document.createElement("br"));
  // As tall as the story once wrapped, within the window.
  const height = heights.reduce((a, b) => a + b, 0);
  $("editor").style.height = `min(78vh, max(14em, calc(${height}px + var(--line) + 1.2em)))`;
}

function syncScroll() {
  const source = $("source");
  $("highlight").scrollTop = source.scrollTop;
  $("highlight").scrollLeft = source.scrollLeft;
  $("gutter").scrollTop = source.scrollTop;
}

// Puts the caret at line:column and scrolls there.
function goTo(line, column) {
  const source = $("source");
  const lines = source.value.split("\n");
  let offset = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) offset += lines[i].length + 1;
  offset += Math.max(0, (column || 1) - 1);
  source.focus();
  source.setSelectionRange(offset, offset);
  const row = $("highlight").children[line - 1];
  const lineHeight = parseFloat(getComputedStyle(source).lineHeight) || 18;
  source.scrollTop = Math.max(0, (row ? row.offsetTop : 0) - 4 * lineHeight);
  syncScroll();
}

// ---- settings and the shareable link ----

function settings() {
  // The values typed in (or brought by a link), for the consts the story declares now
  // (a value set for a const the edited story no longer has is left out, not an error).
  const source = $("source").value;
  const known = new Set([...source.matchAll(/^[ \t]*const[ \t]+([A-Za-z_][A-Za-z0-9_]*)/gm)].map((m) => m[1]));
  const sets = {};
  for (const [name, v] of Object.entries(state.sets)) {
    if (v !== undefined && v !== "" && known.has(name)) sets[name] = Number(v);
  }
  return {
    source: $("source").value,
    name: state.name,
    sets,
    seed: Number($("seed").value) || 0,
    backend: $("backend").value,
    limit: Math.min(1000, Math.max(1, Number($("limit").value) || 20)),
  };
}

function renderConsts() {
  const box = $("consts");
  box.textContent = "";
  for (const c of state.consts) {
    const label = document.createElement("label");
    label.title = `--set ${c.name}=…: the story says ${c.value}`;
    label.append(`${c.name} = `);
    const input = document.createElement("input");
    input.type = "number";
    input.step = "1";
    input.placeholder = c.value;
    input.value = state.sets[c.name] ?? "";
    input.dataset.const = c.name;
    input.addEventListener("change", () => {
      state.sets[c.name] = input.value;
      scheduleRun(0);
    });
    label.append(input);
    box.append(label);
  }
}

function toBase64Url(text) {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text) {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

function shareLink() {
  const s = settings();
  const params = new URLSearchParams();
  params.set("name", s.name);
  params.set("story", toBase64Url(s.source));
  if (s.seed) params.set("seed", String(s.seed));
  if (s.backend !== "auto") params.set("backend", s.backend);
  for (const [name, value] of Object.entries(s.sets)) params.set("set." + name, String(value));
  const url = `${location.origin}${location.pathname}#${params}`;
  history.replaceState(null, "", url);
  const link = $("link");
  link.hidden = false;
  link.value = url;
  link.select();
  if (navigator.clipboard) {
    navigator.clipboard.writeText(url).then(
      () => status("link copied to the clipboard"),
      () => status("copy the link next to the settings"));
  }
}

// Loads the story a shared link carries; returns whether there was one.
function loadFromLink() {
  const params = new URLSearchParams(location.hash.slice(1));
  if (!params.has("story")) return false;
  try {
    $("source").value = fromBase64Url(params.get("story"));
  } catch (e) {
    status("the link's story is damaged: " + e.message, true);
    return false;
  }
  state.name = params.get("name") || "story";
  $("seed").value = params.get("seed") || "0";
  $("backend").value = params.get("backend") || "auto";
  state.sets = {};
  for (const [key, value] of params) {
    if (key.startsWith("set.")) state.sets[key.slice(4)] = value;
  }
  const known = state.stories.some((s) => s.file === state.name);
  $("story").value = known ? state.name : "";
  return true;
}

function pickStory(file) {
  const story = state.stories.find((s) => s.file === file);
  if (!story) return;
  state.name = story.file;
  state.sets = {};
  state.consts = [];
  $("seed").value = "0";
  $("source").value = story.source;
  $("source").scrollTop = 0;
  state.errorLines = new Map();
  state.failedLines = new Set();
  state.markLine = 0;
  // Another story: its first checkpoint's model again, whichever step was picked, and no
  // formula asked yet.
  state.pickedAt = false;
  state.asked = [];
  state.answers = [];
  state.current = -1;
  askNote("");
  renderConsts();
  renderEditor();
  scheduleRun(0);
}

// ---- running ----

function status(text, bad) {
  $("status").textContent = text;
  $("status").classList.toggle("bad", !!bad);
}

function scheduleRun(delay) {
  clearTimeout(state.timer);
  state.timer = setTimeout(run, delay);
}

async function post(path, body, signal) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
    signal,
  });
  const answer = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new Error(answer.error || `HTTP ${response.status}`);
  return answer;
}

async function run() {
  const number = ++state.run;
  if (state.controller) state.controller.abort();
  state.controller = new AbortController();
  const request = settings();
  const started = performance.now();
  status("running…");
  document.body.dataset.state = "running";
  let answer;
  try {
    answer = await post("/api/run", request, state.controller.signal);
  } catch (e) {
    if (e.name === "AbortError") return;
    status("the server did not answer: " + e.message, true);
    document.body.dataset.state = "failed";
    return;
  }
  if (number !== state.run) return;
  const ms = performance.now() - started;
  showRun(answer, ms);
  await drawGraph(request, number);
  if (number === state.run) document.body.dataset.state = "done";
}

function showRun(answer, ms) {
  if (answer.consts && answer.consts.length + state.consts.length > 0) {
    const same = JSON.stringify(answer.consts) === JSON.stringify(state.consts);
    state.consts = answer.consts;
    if (!same) renderConsts();
  }
  state.errorLines = new Map();
  state.failedLines = new Set();
  const error = $("error");
  if (answer.error) {
    for (const at of answer.error.locations) {
      if (!state.errorLines.has(at.line)) state.errorLines.set(at.line, at.column);
    }
    error.hidden = false;
    error.textContent = "";
    // The CLI's text, its `file:line:col` made links to the place.
    const pattern = /^(.*?):(\d+):(\d+): error: /;
    for (const line of answer.error.message.replace(/\n$/, "").split("\n")) {
      const m = line.match(pattern);
      if (m && m[1] === state.name) {
        const a = document.createElement("a");
        a.href = "#";
        a.textContent = `${m[1]}:${m[2]}:${m[3]}`;
        a.addEventListener("click", (e) => { e.preventDefault(); goTo(+m[2], +m[3]); });
        error.append(a, line.slice(a.textContent.length) + "\n");
      } else {
        error.append(line + "\n");
      }
    }
    const kind = answer.exit_code === 2 ? "story error" : "solver failure";
    status(`exit code ${answer.exit_code}: ${kind}`, true);
    // The previous run's checkpoints, steps and events are gone with it.
    if (!answer.checkpoints) answer.checkpoints = [];
  } else if (answer.smcdel) {
    // A pasted SMCDEL file: its jobs' answers, in the trace.
    error.hidden = true;
    const n = answer.smcdel.jobs.length;
    status(`SMCDEL file: ${n} job${n === 1 ? "" : "s"} answered · ${ms.toFixed(0)} ms · ${answer.backend} backend`);
  } else {
    error.hidden = true;
    const n = answer.worlds.worlds.length;
    const count = answer.worlds.complete ? `${n} world${n === 1 ? "" : "s"}`
      : n === 1 ? "more than one world" : `more than ${n} worlds`;
    // A check that fails, a hint refuted or a plan that found none: the run failed
    // (exit code 1), as in the CLI.
    const failed = refutations(answer.trace || [], answer.hints || []);
    for (const line of [...failed.checks, ...failed.hints, ...failed.plans]) state.failedLines.add(line);
    const verdicts = [];
    if (failed.checks.length) verdicts.push(onLines("check", failed.checks, "fails", "fail"));
    if (failed.hints.length) verdicts.push(onLines("hint", failed.hints, "is refuted", "are refuted"));
    if (failed.plans.length) verdicts.push(onLines("plan", failed.plans, "finds none", "find none"));
    const code = answer.exit_code ? ` · exit code ${answer.exit_code}` : "";
    status(`${count} at the end · ${verdicts.map((v) => v + " · ").join("")}${ms.toFixed(0)} ms · ` +
      `${answer.backend} backend${code}`, verdicts.length > 0);
  }
  renderEditor();
  showWorlds(answer.worlds);
  showTrace(answer.trace || []);
  showHints(answer.hints || []);
  showFates(answer.fates);
  state.trace = answer.trace || [];
  showCheckpoints(answer.checkpoints, answer.trace || []);
  showEvents(answer.events || []);
}

// The lines of the checks that fail, of the hints refuted and of the plans that found
// none.
function refutations(trace, hints) {
  return {
    checks: trace.filter((t) => t.kind === "check" && t.holds === false).map((t) => t.line),
    hints: hints.filter((h) => h.holds === false).map((h) => h.line),
    plans: trace.filter((t) => t.kind === "plan" && t.solvable === false).map((t) => t.line),
  };
}

// `the check on line 42 fails`, `the checks on lines 42 and 49 fail`.
function onLines(what, lines, one, many) {
  if (lines.length === 1) return `the ${what} on line ${lines[0]} ${one}`;
  const listed = lines.slice(0, -1).join(", ") + " and " + lines[lines.length - 1];
  return `the ${what}s on lines ${listed} ${many}`;
}

// A world's probability, when the story speaks of chances: the view carries it in the
// world's object as `"probability": "1/3"` (an exact fraction's text, which no
// constant's value is).
function chanceOf(world) {
  const p = world.probability;
  return typeof p === "string" && /^-?[0-9]+(\/[0-9]+)?$/.test(p) ? p : null;
}

// A world's constants, without its probability.
function constantsOf(world) {
  return Object.entries(world).filter(([k]) => !(k === "probability" && chanceOf(world) !== null));
}

// A world's values, and its probability as `epipen run` prints it: `month = 7, day = 16`,
// `car = two, pick = one   [1/3]`.
function worldText(world, chance) {
  const parts = constantsOf(world).map(([k, v]) => `${k} = ${v}`);
  const p = chance === undefined ? chanceOf(world) : chance;
  return (parts.length ? parts.join(", ") : "(no constants)") + (p === null || p === undefined ? "" : `   [${p}]`);
}

function table(headers, rows) {
  const t = document.createElement("table");
  const head = t.createTHead().insertRow();
  for (const h of headers) {
    const th = document.createElement("th");
    th.textContent = h;
    head.append(th);
  }
  const body = t.createTBody();
  for (const row of rows) {
    const tr = body.insertRow();
    for (const cell of row) {
      const td = tr.insertCell();
      if (cell instanceof Node) td.append(cell); else td.textContent = String(cell);
    }
  }
  return t;
}

function showWorlds(worlds) {
  const box = $("worlds");
  box.textContent = "";
  if (!worlds) {
    box.append(note("no answer: see the error"));
    return;
  }
  const list = worlds.worlds;
  if (list.length === 0) {
    // The first line of the CLI's listing: which statement left no world.
    box.append(note(worlds.complete ? worlds.text.split("\n")[0] : "none listed"));
    return;
  }
  const keys = constantsOf(list[0]).map(([k]) => k);
  // When the story speaks of chances: each world's probability, last.
  const chances = list.some((w) => chanceOf(w) !== null);
  const headers = chances ? [...keys, "probability"] : keys;
  // A value a story changed: `4 (was 3)`, as `epipen worlds` prints it.
  box.append(table(headers, list.map((w, i) => {
    const before = worlds.before ? worlds.before[i] : null;
    const row = keys.map((k) => before && k in before && String(before[k]) !== String(w[k])
      ? `${w[k]} (was ${before[k]})` : w[k]);
    return chances ? [...row, chanceOf(w) ?? ""] : row;
  })));
  if (chances) box.querySelector("table").classList.add("chances");
  box.append(note(worlds.complete ? "(and that's all)" : "(more worlds exist; raise “list up to” to see more)"));
}

function note(text) {
  const p = document.createElement("p");
  p.className = "note";
  p.textContent = text;
  return p;
}

function countText(count) {
  if (count === "infinite") return "∞";
  return String(count);
}

function worldList(worlds, cls) {
  const ul = document.createElement("ul");
  for (const w of worlds) {
    const li = document.createElement("li");
    li.textContent = worldText(w);
    if (cls) li.className = cls;
    ul.append(li);
  }
  return ul;
}

// The plans found by top-level `plan` statements, whose steps the model can be drawn
// after (`/api/graph`'s `step` and `plan_step`): for each, its item's index in the
// trace, the trace step of its statement (the next step, on its line: the plan's answer
// comes just before it), its line and its first plan's actions.
function followedPlans(trace) {
  const plans = [];
  let steps = 0;
  trace.forEach((item, index) => {
    if (item.kind === "step") steps++;
    if (item.kind !== "plan" || !item.solvable || !item.plans[0].length) return;
    const next = trace.slice(index + 1).find((t) => t.kind === "step");
    if (!next || next.line !== item.line || next.round) return;
    plans.push({ index, step: steps, line: item.line, actions: item.plans[0] });
  });
  return plans;
}

// The model after step `k` (from 1) of a plan (one of followedPlans): the graph menu's
// value, and its label.
const planModel = (plan, k) => `plan:${plan.step}:${k}`;
const planLabel = (plan, k) => `after line ${plan.line}'s plan, step ${k} (${plan.actions[k - 1]})`;

function showTrace(trace) {
  const list = $("trace");
  list.textContent = "";
  const counts = [];
  let steps = 0;
  const plans = new Map(followedPlans(trace).map((p) => [p.index, p]));
  for (const [index, item] of trace.entries()) {
    const li = document.createElement("li");
    li.dataset.kind = item.kind;
    // A step's number among the trace's steps: the model after it is `/api/graph`'s
    // `step`.
    const step = item.kind === "step" ? steps++ : undefined;
    if (step !== undefined) {
      li.dataset.step = step;
      li.title = "click: the model after this step";
    }
    li.addEventListener("click", () => {
      if (item.line) { state.markLine = item.line; renderEditor(); goTo(item.line, 1); }
      if (step !== undefined) pickModel(`step:${step}`);
    });
    if (item.kind === "step") {
      if (item.changed === true) counts.push(countText(item.worlds));
      const title = item.label;
      if (item.line) li.title = item.event;
      const count = document.createElement("span");
      count.className = "count";
      const n = item.worlds;
      count.textContent = n === "infinite" ? "infinitely many worlds"
        : typeof n === "number" ? `${n} world${n === 1 ? "" : "s"}`
        : n === ">1" ? "more than one world" : `${n.replace(">", "more than ")} worlds`;
      li.append(`${title}  ⇒  `, count);
      if (item.removed) {
        const gone = document.createElement("span");
        gone.className = "gone";
        gone.textContent = ` (${item.removed} eliminated)`;
        li.append(gone);
      } else if (item.changed === false) {
        li.classList.add("unchanged");
        li.append(" (unchanged)");
      }
      // An event without an actual world: which cases each character tells apart.
      if (item.sees) {
        const p = document.createElement("p");
        p.className = "belief";
        p.textContent = item.sees.join("; ");
        li.append(p);
      }
      if (item.changed && item.list) li.append(worldList(item.list));
      // What the characters the statement asks about believe.
      for (const b of item.beliefs || []) {
        const p = document.createElement("p");
        p.className = "belief";
        p.dataset.who = b.who;
        // As `epipen run --trace` says it.
        p.textContent = b.text;
        li.append(p);
      }
    } else if (item.kind === "worlds" || item.kind === "where") {
      // The CLI's heading, then the worlds as a list.
      li.classList.add("event");
      const head = item.kind === "worlds" ? "worlds" : `where ${item.formula}`;
      li.append(`line ${item.line}: ${head} — ${item.worlds.length}${item.complete ? "" : "+"}`);
      li.append(worldList(item.worlds));
    } else {
      // A reveal, an event, a repeat done, a check, a hint or a plan: as `epipen run`
      // prints it.
      li.classList.add("event");
      // A check's verdict: holds (✔), fails (✘, in red, with the world where it fails),
      // or vacuous (no world was possible). A plan: found (✔, with its steps) or none
      // (✘, in red).
      if (item.kind === "check") {
        li.classList.add(item.vacuous ? "vacuous" : item.holds ? "holds" : "fails");
      } else if (item.kind === "plan") {
        li.classList.add(item.solvable ? "holds" : "fails");
      } else if (item.vacuous) {
        li.classList.add("vacuous");
      }
      li.textContent = item.text.replace(/\n$/, "");
      // A plan found: its (first plan's) steps, numbered; a click on one draws the model
      // after it.
      const plan = plans.get(index);
      if (plan) {
        const ol = document.createElement("ol");
        ol.className = "plan-steps";
        plan.actions.forEach((action, k) => {
          const step = document.createElement("li");
          step.dataset.plan = plan.step;
          step.dataset.planStep = k + 1;
          step.title = `click: the model ${planLabel(plan, k + 1)}`;
          step.textContent = `${k + 1}. ${action}`;
          step.addEventListener("click", (e) => {
            e.stopPropagation();
            state.markLine = item.line;
            renderEditor();
            goTo(item.line, 1);
            pickModel(planModel(plan, k + 1));
          });
          ol.append(step);
        });
        li.append(ol);
      }
    }
    list.append(li);
  }
  $("counts").textContent = counts.length > 1 ? counts.join(" → ") : "";
}

function showHints(hints) {
  $("hints-section").hidden = hints.length === 0;
  const ul = $("hints");
  ul.textContent = "";
  for (const h of hints) {
    const li = document.createElement("li");
    // As `epipen check` prints it.
    li.className = h.holds ? "verified" : "refuted";
    li.textContent = h.text;
    ul.append(li);
  }
}

function showFates(fates) {
  const box = $("fates");
  box.textContent = "";
  $("fates-section").hidden = !fates;
  if (!fates) return;
  const since = fates.since ? `after line ${fates.since}` : "at the start";
  box.append(note(`The ${fates.fates.length} worlds possible ${since}:`));
  const rows = fates.fates.map((f) => {
    const cell = document.createElement("span");
    if (f.eliminated_by === null) {
      cell.textContent = "still possible";
      cell.className = "alive";
    } else {
      cell.textContent = f.label;
    }
    return [worldText(f.world), cell];
  });
  const t = table(["world", "eliminated by"], rows);
  for (const td of t.querySelectorAll("td span.alive")) td.parentElement.classList.add("alive");
  box.append(t);
}

// The graph's menu: the model at each checkpoint, at the end, after each step of the
// trace (`step:K`) and after each step of a plan found (`plan:K:J`, step J of the plan
// of the `plan` statement at step K of the trace).
function showCheckpoints(checkpoints, trace) {
  if (!checkpoints) return;
  const select = $("at");
  const before = select.value;
  const steps = trace.filter((item) => item.kind === "step").map((item) => item.label);
  const plans = followedPlans(trace).flatMap((plan) =>
    plan.actions.map((_, k) => [planModel(plan, k + 1), planLabel(plan, k + 1)]));
  const same = JSON.stringify(checkpoints) === JSON.stringify(state.checkpoints) &&
    JSON.stringify(steps) === JSON.stringify(state.steps) &&
    JSON.stringify(plans) === JSON.stringify(state.plans);
  state.checkpoints = checkpoints;
  state.steps = steps;
  state.plans = plans;
  if (same && select.options.length) return;
  select.textContent = "";
  for (const c of checkpoints) select.append(new Option(`at checkpoint ${c}`, c));
  select.append(new Option("at the end", ""));
  const group = document.createElement("optgroup");
  group.label = "after a step of the trace";
  steps.forEach((label, k) => {
    const option = new Option(`after ${shortLabel(label)}`, `step:${k}`);
    option.title = label;
    group.append(option);
  });
  if (steps.length) select.append(group);
  const planned = document.createElement("optgroup");
  planned.label = "after a step of a plan";
  for (const [value, label] of plans) planned.append(new Option(label, value));
  if (plans.length) select.append(planned);
  const kept = [...select.options].some((o) => o.value === before);
  if (state.pickedAt && kept) {
    select.value = before;
  } else {
    // The first checkpoint by default: usually the model the characters reason about.
    state.pickedAt = false;
    select.value = checkpoints.includes(before) ? before : checkpoints[0] ?? "";
  }
}

// A step's label without its statement: `line 14`, `line 26, round 3`, `lines 4-5 (i in
// 0..3)`, `the start`.
function shortLabel(label) {
  if (label === "start") return "the start";
  const cut = label.indexOf(": ");
  return cut < 0 ? label : label.slice(0, cut);
}

// The story's events and actions, whose event models can be drawn.
function showEvents(events) {
  const same = JSON.stringify(events) === JSON.stringify(state.events);
  state.events = events;
  $("events-section").hidden = events.length === 0;
  const select = $("event");
  if (!same || !select.options.length) {
    const before = select.value;
    select.textContent = "";
    for (const name of events) select.append(new Option(`event ${name}`, name));
    if (events.includes(before)) select.value = before;
  }
  if (events.length) drawEvent();
  else { $("event-graph").textContent = ""; $("event-note").textContent = ""; }
}

// The event model of the event picked: its cases, and which each character tells apart.
async function drawEvent() {
  const name = $("event").value;
  if (!name) return;
  let answer;
  try {
    answer = await post("/api/event", { ...settings(), limit: undefined, event: name });
  } catch (e) {
    $("event-note").textContent = "the server did not answer: " + e.message;
    return;
  }
  if (name !== $("event").value) return;
  $("event-graph").textContent = "";
  if (answer.error) {
    $("event-note").textContent = answer.error.message.split("\n")[0].replace(/^.*?error: /, "");
    return;
  }
  $("event-note").textContent = answer.title;
  $("event-graph").append(drawModel(answer));
}

// Draws the model the visitor picked: `NAME` (a checkpoint), `` (the end), `step:K` or
// `plan:K:J`.
function pickModel(value) {
  const select = $("at");
  if (![...select.options].some((o) => o.value === value)) return;
  select.value = value;
  state.pickedAt = true;
  const number = ++state.run;
  if (state.controller) state.controller.abort();
  state.controller = new AbortController();
  document.body.dataset.state = "running";
  drawGraph(settings(), number).then(() => {
    if (number === state.run) document.body.dataset.state = "done";
  });
}

// Marks the trace's step (or the plan's step) whose model is drawn, and puts the slider
// there.
function markDrawnStep() {
  const at = $("at").value;
  for (const li of document.querySelectorAll("#trace li[data-step]")) {
    li.classList.toggle("drawn", at === `step:${li.dataset.step}`);
  }
  for (const li of document.querySelectorAll("#trace li[data-plan-step]")) {
    li.classList.toggle("drawn", at === `plan:${li.dataset.plan}:${li.dataset.planStep}`);
  }
  const n = state.steps.length;
  $("stepper").hidden = n < 2;
  const slider = $("step-slider");
  slider.max = String(Math.max(0, n - 1));
  if (at.startsWith("step:")) {
    const k = Number(at.slice(5));
    slider.value = String(k);
    slider.classList.remove("off");
    $("step-label").textContent = `step ${k} of ${n - 1}: ${shortLabel(state.steps[k] || "")}`;
  } else {
    // A checkpoint or the end: the slider waits at the start, greyed.
    slider.value = "0";
    slider.classList.add("off");
    $("step-label").textContent = "slide to step";
  }
}

// ---- the epistemic model ----

async function drawGraph(request, number) {
  const note = $("graph-note");
  const at = $("at").value;
  // After a step: numbered in the trace `/api/run` made with the same settings (the
  // limit included); after a plan's step: that of the `plan` statement's step.
  const step = at.startsWith("step:") ? Number(at.slice(5)) : undefined;
  const [, planned, planStep] = at.match(/^plan:(\d+):(\d+)$/) || [];
  const asked = step !== undefined ? { ...request, step }
    : planned !== undefined ? { ...request, step: Number(planned), plan_step: Number(planStep) }
    : { ...request, limit: undefined, at: at || undefined };
  let answer;
  try {
    answer = await post("/api/graph", asked, state.controller.signal);
  } catch (e) {
    if (e.name !== "AbortError") note.textContent = "the server did not answer: " + e.message;
    return;
  }
  if (number !== state.run) return;
  $("graph").textContent = "";
  $("legend").textContent = "";
  $("focus-note").hidden = true;
  $("download").hidden = true;
  state.model = null;
  markDrawnStep();
  const why = answer.error && answer.error.message.split("\n")[0].replace(/^.*?error: /, "");
  if (answer.error && at && !state.pickedAt && answer.exit_code === 2) {
    // The first checkpoint, picked for the visitor, has too many worlds: the end then.
    $("at").value = "";
    await drawGraph(request, number);
    if (number === state.run) note.textContent = `(at checkpoint ${at}: ${why}) ` + note.textContent;
    return;
  }
  if (answer.error) {
    note.textContent = why;
    const hint = answer.error.message.split("\n").find((l) => l.includes("= hint:"));
    if (hint) note.textContent += " (" + hint.replace(/^.*= hint: /, "") + ")";
    return;
  }
  note.textContent = answer.title;
  const drawing = drawModel(answer);
  $("graph").append(drawing);
  state.model = answer;
  // Another model: the formulas asked are asked of it, the world clicked forgotten.
  state.picked = null;
  state.answers = [];
  for (const g of drawing.querySelectorAll("g.node")) {
    g.addEventListener("click", () => pickWorld(Number(g.dataset.world)));
  }
  if (state.asked.length) await askModel(number);
  else showAnswers();
  if (!answer.characters.includes(state.focus)) state.focus = null;
  const legend = $("legend");
  state.legendRows = [];
  // Every character is in the legend (a click on one that tells every world apart
  // says so); the downloaded drawing's legend has those with edges of their own.
  const own = new Set(answer.edges.filter((e) => e.who.length === 1).map((e) => e.who[0]));
  answer.characters.forEach((name, i) => {
    const colour = COLOURS[i % COLOURS.length];
    const span = document.createElement("span");
    span.className = "who";
    span.dataset.who = name;
    span.tabIndex = 0;
    span.setAttribute("role", "button");
    span.title = `click: highlight the worlds ${name} cannot tell apart` +
      (plausibleOf(answer, name) ? " and those it finds most plausible" : "") + " (again: all)";
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.background = colour;
    const text = `${name} cannot tell these apart`;
    span.append(swatch, text);
    if (own.has(name)) state.legendRows.push({ colour, text });
    const toggle = () => {
      state.focus = state.focus === name ? null : name;
      showFocus();
    };
    span.addEventListener("click", toggle);
    span.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); toggle(); }
    });
    legend.append(span);
  });
  if (answer.edges.some((e) => e.who.length > 1)) {
    const span = document.createElement("span");
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.background = "#555";
    span.append(swatch, "several characters");
    state.legendRows.push({ colour: "#555", text: "several characters" });
    legend.append(span);
  }
  if (answer.actual !== null && answer.actual !== undefined) {
    const span = document.createElement("span");
    span.className = "actual";
    const ring = document.createElement("span");
    ring.className = "ring";
    span.append(ring, "the actual world");
    state.legendRows.push({ ring: true, text: "double ring: the actual world" });
    legend.append(span);
  }
  if ((answer.beliefs || []).length) {
    state.legendRows.push({ dashed: true,
      text: "dashed arrows: the worlds a character believes most plausible among those it cannot tell apart" });
  }
  showFocus();
}

// ---- asking the model (Hintikka's World's lesson: where does a formula hold?) ----

// Where the model drawn is, as `/api/ask` takes it: `{step}`, `{}` for the end, the
// last step that is a checkpoint's statement for a checkpoint; null after a plan's step
// (which no formula can be asked at).
function askedStep() {
  const at = $("at").value;
  if (at.startsWith("step:")) return { step: Number(at.slice(5)) };
  if (at === "") return {};
  if (at.startsWith("plan:")) return null;
  let found = -1;
  state.trace.filter((t) => t.kind === "step").forEach((t, k) => {
    if (t.event === `checkpoint ${at}`) found = k;
  });
  return found < 0 ? null : { step: found };
}

function askNote(text, bad) {
  const note = $("ask-note");
  note.hidden = !text;
  note.textContent = text || "";
  note.classList.toggle("bad", !!bad);
}

// Asks the server where each formula asked holds in the model drawn; true when it
// answered.
async function askModel(number) {
  const where = askedStep();
  if (where === null) {
    state.answers = [];
    askNote("formulas are asked after a step of the trace, at a checkpoint or at the end");
    showAnswers();
    return false;
  }
  let answer;
  try {
    answer = await post("/api/ask", { ...settings(), ...where, formulas: state.asked },
      state.controller.signal);
  } catch (e) {
    if (e.name !== "AbortError") askNote("the server did not answer: " + e.message, true);
    return false;
  }
  if (number !== state.run) return false;
  if (answer.error) {
    // The CLI's text: where the formula fails to compile, with its caret and hint.
    askNote(answer.error.message.replace(/\n$/, ""), true);
    showAnswers();
    return false;
  }
  askNote("");
  state.answers = answer.answers;
  showAnswers();
  return true;
}

// A formula typed: asked of the model drawn, its worlds filled.
async function submitAsk(event) {
  event.preventDefault();
  const formula = $("ask").value.trim();
  if (!formula || !state.model) return;
  let k = state.asked.indexOf(formula);
  const added = k < 0;
  if (added) {
    state.asked.push(formula);
    k = state.asked.length - 1;
  }
  const before = state.current;
  state.current = k;
  const number = ++state.run;
  if (state.controller) state.controller.abort();
  state.controller = new AbortController();
  document.body.dataset.state = "running";
  const answered = await askModel(number);
  if (!answered && added) {
    // Not asked: the formula is dropped, its error stays.
    state.asked.pop();
    state.current = before;
    showAnswers();
  }
  if (number === state.run) document.body.dataset.state = "done";
}

// The formulas asked (a click on one fills its worlds), the worlds where the current
// one holds filled, the world clicked outlined and described.
function showAnswers() {
  const list = $("asked");
  list.textContent = "";
  const answers = state.answers.length === state.asked.length ? state.answers : [];
  if (state.current >= answers.length) state.current = answers.length - 1;
  answers.forEach((a, k) => {
    const li = document.createElement("li");
    li.dataset.formula = a.formula;
    li.classList.toggle("current", k === state.current);
    const count = a.holds.filter(Boolean).length;
    const where = document.createElement("span");
    where.className = "where";
    where.textContent = `  holds in ${count} of ${plural(a.holds.length, "world")}`;
    li.append(a.formula, where);
    li.title = "click: fill the worlds where it holds";
    li.addEventListener("click", () => { state.current = k; showAnswers(); });
    list.append(li);
  });
  const holds = answers[state.current] ? answers[state.current].holds : null;
  const root = $("graph").querySelector("svg");
  if (root) {
    for (const g of root.querySelectorAll("g.node")) {
      const i = Number(g.dataset.world);
      g.classList.toggle("holds", !!holds && holds[i] === true);
      g.classList.toggle("picked", i === state.picked);
    }
  }
  const info = $("world-info");
  info.textContent = "";
  const model = state.model;
  info.hidden = state.picked === null || !model || !model.worlds[state.picked];
  if (info.hidden) return;
  const i = state.picked;
  const chance = model.probabilities ? model.probabilities[i] : undefined;
  const head = document.createElement("div");
  head.textContent = `world ${i + 1}${i === model.actual ? " (the actual world)" : ""}: ` +
    worldText(model.worlds[i], chance);
  info.append(head);
  answers.forEach((a) => {
    const line = document.createElement("div");
    line.className = a.holds[i] ? "yes" : "no";
    line.textContent = `${a.holds[i] ? "✔ holds" : "✘ does not hold"}: ${a.formula}`;
    info.append(line);
  });
  if (!answers.length) {
    info.append(note("type a formula above to see whether it holds here"));
  }
}

// A world clicked: its values and the formulas asked that hold there (again: none).
function pickWorld(i) {
  state.picked = state.picked === i ? null : i;
  showAnswers();
}

// The worlds `who` finds most plausible (indices), when its plausibility is not flat.
function plausibleOf(model, who) {
  const found = (model.plausible || []).find((p) => p.who === who);
  return found ? found.worlds : null;
}

// The worlds `who` cannot tell apart in `model`: its classes of more than one world
// (the components of its edges), each sorted, in the order of their first world.
function classesOf(model, who) {
  const parent = model.worlds.map((_, i) => i);
  const find = (i) => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  for (const e of model.edges) {
    if (e.who.includes(who)) parent[find(e.a)] = find(e.b);
  }
  const classes = new Map();
  model.worlds.forEach((_, i) => {
    const root = find(i);
    if (!classes.has(root)) classes.set(root, []);
    classes.get(root).push(i);
  });
  return [...classes.values()].filter((c) => c.length > 1).sort((a, b) => a[0] - b[0]);
}

function plural(n, one, many) {
  return `${n} ${n === 1 ? one : many || one + "s"}`;
}

// Highlights what the character picked in the legend cannot tell apart: its edges and
// belief arrows (those of several characters among them), the others dimmed; the worlds
// of its classes ringed in its colour; the worlds it finds most plausible filled (when
// its plausibility is not flat). None picked: all alike.
function showFocus() {
  const who = state.focus;
  const root = $("graph").querySelector("svg");
  for (const span of $("legend").querySelectorAll(".who")) {
    span.classList.toggle("active", span.dataset.who === who);
    span.setAttribute("aria-pressed", String(span.dataset.who === who));
  }
  const note = $("focus-note");
  note.textContent = "";
  note.hidden = true;
  if (!root) return;
  root.classList.toggle("focusing", who !== null);
  for (const el of root.querySelectorAll("[data-who]")) {
    const mine = who !== null && el.dataset.who.split(", ").includes(who);
    el.classList.toggle("focus", mine);
    el.classList.toggle("dim", who !== null && !mine);
  }
  const model = state.model;
  const classes = who !== null && model ? classesOf(model, who) : [];
  const plausible = who !== null && model ? plausibleOf(model, who) : null;
  const inClass = new Set(classes.flat());
  const liked = new Set(plausible || []);
  const colour = who !== null && model
    ? COLOURS[model.characters.indexOf(who) % COLOURS.length] : "";
  for (const g of root.querySelectorAll("g.node")) {
    const i = Number(g.dataset.world);
    g.classList.toggle("focus", inClass.has(i));
    g.classList.toggle("plausible", liked.has(i));
    if (inClass.has(i) || liked.has(i)) g.style.setProperty("--who", colour);
    else g.style.removeProperty("--who");
  }
  if (who !== null && model) {
    const n = model.worlds.length;
    const known = n - inClass.size;
    let text = classes.length === 0
      ? `${who} tells every world apart`
      : `${who} cannot tell apart the worlds of each of ${plural(classes.length, "group")} ` +
        `(${plural(inClass.size, "world")}, ringed in its colour)`;
    if (classes.length && known) text += `; it knows which world it is in ${plural(known, "other")}`;
    if (plausible) text += `; filled: the ${plural(plausible.length, "world")} it finds most plausible`;
    note.textContent = text;
    note.hidden = false;
  }
  if (state.model) offerDownload(root, $("graph-note").textContent);
}

// The drawing as a standalone SVG file, its style inside: a data URL (no network).
// The drawing as a standalone SVG file, its style inside, and under the graph a legend
// as `epipen graph --svg` writes one: the title, a line per character with edges of its
// own (its colour), shared edges, the actual world's ring, the belief arrows and what
// the highlight shows. A data URL (no network).
function offerDownload(root, title) {
  const copy = root.cloneNode(true);
  copy.setAttribute("xmlns", SVG);
  const box = (root.getAttribute("viewBox") || "0 0 480 200").split(" ").map(Number);
  const rows = [{ text: title }, ...state.legendRows];
  const focus = $("focus-note");
  if (!focus.hidden && focus.textContent) rows.push({ text: focus.textContent });
  const line = 16, margin = 8, swatch = 28, size = 11;
  const legend = svg("g", { class: "legend", "font-family": "sans-serif", "font-size": size }, copy);
  rows.forEach((row, k) => {
    const x = box[0] + margin, y = box[1] + box[3] + line * (k + 1);
    const indent = row.colour || row.ring || row.dashed ? swatch : 0;
    if (row.colour) {
      svg("line", { x1: x, y1: y - 4, x2: x + 22, y2: y - 4, stroke: row.colour, "stroke-width": 3 }, legend);
    } else if (row.ring) {
      svg("circle", { cx: x + 11, cy: y - 4, r: 5, fill: "none", stroke: "#1f2328", "stroke-width": 2.5 }, legend);
    } else if (row.dashed) {
      svg("line", { x1: x, y1: y - 4, x2: x + 22, y2: y - 4, stroke: "#555", "stroke-dasharray": "5 4" }, legend);
    }
    svg("text", { x: x + indent, y, fill: "#1f2328" }, legend).textContent = row.text;
  });
  // Wide enough for the legend's longest line (a sans-serif's letters at most 0.62 em
  // on average), tall enough for its lines.
  const wide = Math.max(box[2], ...rows.map((r) => 2 * margin + swatch + 0.62 * size * r.text.length));
  const high = box[3] + line * rows.length + 8;
  copy.setAttribute("viewBox", `${box[0]} ${box[1]} ${wide} ${high}`);
  copy.setAttribute("width", String(Math.round(wide)));
  copy.setAttribute("height", String(Math.round(high)));
  const style = document.createElementNS(SVG, "style");
  style.textContent = MODEL_STYLE;
  copy.insertBefore(style, copy.firstChild);
  const heading = document.createElementNS(SVG, "title");
  heading.textContent = title;
  copy.insertBefore(heading, copy.firstChild);
  const text = '<?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(copy);
  const link = $("download");
  link.href = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(text);
  const stem = state.name.replace(/\.story$/, "") || "story";
  const at = $("at").value;
  const place = at.startsWith("step:") ? `step-${at.slice(5)}`
    : at.startsWith("plan:") ? at.replace(/:/g, "-") : at || "end";
  link.download = `${stem}-${place}.svg`;
  link.hidden = false;
}

// The drawing's style in a downloaded file (the page's is in style.css).
const MODEL_STYLE = `
.edge { stroke-width: 1.6; }
.edge-label { font: 10px sans-serif; paint-order: stroke; stroke: #fff; stroke-width: 3px; }
.node circle { fill: #fff; stroke: #1f2328; stroke-width: 1.2; }
.node.actual circle.ring { fill: none; stroke: #1f2328; stroke-width: 2.5; }
.node text { font-family: monospace; text-anchor: middle; dominant-baseline: central; }
.axis { font: 10px sans-serif; }
.dim { opacity: 0.1; }
.edge.focus { stroke-width: 3; }
.belief.focus { stroke-width: 2; }
.node.focus circle:not(.ring) { stroke: var(--who); stroke-width: 3; }
.node.plausible circle:not(.ring) { fill: #fff1b8; }
`;

function svg(tag, attributes, parent) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attributes)) el.setAttribute(k, v);
  if (parent) parent.append(el);
  return el;
}

// A world's label in its circle: the font size (px) and the lines that fit a circle of
// `radius`, its parts (values) wrapped at their separator into as many lines as let the
// font be largest (at most the page's 10.5 px).
const LABEL_PX = 10.5, CHAR_EM = 0.6, LINE_EM = 1.15;
function fitLabel(parts, sep, radius) {
  const room = radius - 3;
  let best = null;
  const total = parts.join(sep).length;
  for (let n = 1; n <= Math.min(parts.length, 8); n++) {
    // Greedy lines of about total / n characters.
    const target = Math.ceil(total / n);
    const lines = [];
    let line = [];
    for (const part of parts) {
      if (line.length && (line.join(sep) + sep + part).length > target && lines.length < n - 1) {
        lines.push(line);
        line = [];
      }
      line.push(part);
    }
    lines.push(line);
    const texts = lines.map((l, k) => l.join(sep) + (k < lines.length - 1 ? sep.trimEnd() : ""));
    const wide = Math.max(...texts.map((t) => t.length)) * CHAR_EM / 2;
    const high = texts.length * LINE_EM / 2;
    // The text's box within the circle: its corner on the circle at most.
    const size = Math.min(LABEL_PX, room / Math.hypot(wide, high));
    if (!best || size > best.size + 0.01) best = { size, lines: texts };
  }
  return best;
}

// The model drawn where the server laid it out (`layout`: the one layout of every
// front end, `epipen graph --svg`'s too): each world's circle at its point, each edge's
// label at its place.
function drawModel(model) {
  const n = model.worlds.length;
  const keys = n ? constantsOf(model.worlds[0]).map(([k]) => k) : [];
  // When the story speaks of chances: each world's probability, under its values.
  const chances = model.probabilities || null;
  const lay = model.layout;
  const radius = lay.radius;
  // Booleans as 1 and 0, side by side: `110` for three of them.
  const bools = n > 0 && lay.sep === "";
  const points = lay.points.map(([x, y]) => ({ x, y }));
  // Room above for the line that says what the labels are.
  const top = keys.length ? 18 : 0;
  const minX = 0, minY = -top, maxX = lay.width, maxY = lay.height;
  const root = svg("svg", {
    viewBox: `${minX} ${minY} ${maxX - minX} ${maxY - minY}`,
    role: "img",
    class: "model",
    "aria-label": `the epistemic model: ${n} worlds, ${model.edges.length} edges` +
      ((model.beliefs || []).length ? `, ${model.beliefs.length} belief arrows` : ""),
  });
  const index = new Map(model.characters.map((c, i) => [c, i]));
  const edgeLayer = svg("g", {}, root), labelLayer = svg("g", {}, root), nodeLayer = svg("g", {}, root);
  const showLabels = model.edges.length <= 60;
  model.edges.forEach((e, k) => {
    const a = points[e.a], b = points[e.b];
    const colour = e.who.length === 1 ? COLOURS[index.get(e.who[0]) % COLOURS.length] : "#555";
    const line = svg("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, stroke: colour, class: "edge",
      "data-who": e.who.join(", ") }, edgeLayer);
    svg("title", {}, line).textContent = `${e.who.join(", ")}: ${worldText(model.worlds[e.a])} ~ ${worldText(model.worlds[e.b])}`;
    if (showLabels) {
      const [x, y] = lay.labels[k];
      const text = svg("text", { x, y, fill: colour, "dominant-baseline": "central",
        class: "edge-label", "text-anchor": "middle", "data-who": e.who.join(", ") }, labelLayer);
      text.textContent = e.who.join(", ");
    }
  });
  // Belief: a dashed arrow from a world to each world a character finds most plausible
  // among those it cannot tell from it, stopping at the target's circle.
  if ((model.beliefs || []).length) {
    const defs = svg("defs", {}, root);
    const marker = svg("marker", { id: "belief-head", viewBox: "0 0 10 10", refX: 10, refY: 5,
      markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" }, defs);
    svg("path", { d: "M 0 0 L 10 5 L 0 10 z", fill: "context-stroke" }, marker);
  }
  for (const a of model.beliefs || []) {
    const p = points[a.from], q = points[a.to];
    const dx = q.x - p.x, dy = q.y - p.y, length = Math.hypot(dx, dy) || 1;
    const end = { x: q.x - dx / length * (radius + 2), y: q.y - dy / length * (radius + 2) };
    const bend = 18;  // off the knowledge edge between the same worlds
    const mid = { x: (p.x + end.x) / 2 - dy / length * bend, y: (p.y + end.y) / 2 + dx / length * bend };
    const colour = a.who.length === 1 ? COLOURS[index.get(a.who[0]) % COLOURS.length] : "#555";
    const path = svg("path", { d: `M ${p.x} ${p.y} Q ${mid.x} ${mid.y} ${end.x} ${end.y}`, fill: "none",
      stroke: colour, "stroke-dasharray": "5 4", class: "belief", "marker-end": "url(#belief-head)",
      "data-who": a.who.join(", ") }, edgeLayer);
    svg("title", {}, path).textContent =
      `${a.who.join(", ")}: in ${worldText(model.worlds[a.from])}, believes ${worldText(model.worlds[a.to])} most plausible`;
  }
  model.worlds.forEach((w, i) => {
    const actual = i === model.actual;
    const g = svg("g", { class: actual ? "node actual" : "node", "data-world": i,
      transform: `translate(${points[i].x} ${points[i].y})` }, nodeLayer);
    // The actual world: a second, thicker ring around its circle.
    if (actual) svg("circle", { r: radius + 4, class: "ring" }, g);
    svg("circle", { r: radius }, g);
    const fit = fitLabel(lay.parts[i], lay.sep, radius);
    const text = svg("text", { "font-size": fit.size.toFixed(2) }, g);
    const chance = chances ? chances[i] : null;
    const rows = chance ? fit.lines.length + 1 : fit.lines.length;
    fit.lines.forEach((line, k) => {
      const dy = (k - (rows - 1) / 2) * LINE_EM;
      svg("tspan", { x: 0, y: `${dy.toFixed(3)}em` }, text).textContent = line;
    });
    if (chance) {
      const dy = ((rows - 1) / 2) * LINE_EM;
      svg("tspan", { x: 0, y: `${dy.toFixed(3)}em`, class: "probability" }, text).textContent = chance;
    }
    svg("title", {}, g).textContent = (actual ? "the actual world: " : "") + worldText(w, chance);
  });
  if (keys.length) {
    svg("text", { x: minX + 8, y: minY + 13, class: "axis", fill: "#6b7280" }, root)
      .textContent = (bools ? `nodes: ${keys.join(" ")} (1: true, 0: false)` : `nodes: (${keys.join(", ")})`) +
        (chances ? "; under them, each world's probability" : "");
  }
  return root;
}

// ---- start ----

async function start() {
  const source = $("source");
  source.addEventListener("input", () => {
    state.errorLines = new Map();
    state.failedLines = new Set();
    state.markLine = 0;
    renderEditor();
    if ($("live").checked) scheduleRun(600);
  });
  source.addEventListener("scroll", syncScroll);
  source.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      scheduleRun(0);
    } else if (e.key === "Tab" && !e.shiftKey) {
      e.preventDefault();
      document.execCommand("insertText", false, "  ");
    }
  });
  $("run").addEventListener("click", () => scheduleRun(0));
  $("share").addEventListener("click", shareLink);
  $("story").addEventListener("change", (e) => pickStory(e.target.value));
  for (const id of ["seed", "backend", "limit"]) $(id).addEventListener("change", () => scheduleRun(0));
  $("at").addEventListener("change", () => pickModel($("at").value));
  $("ask-form").addEventListener("submit", submitAsk);
  $("event").addEventListener("change", drawEvent);
  $("step-slider").addEventListener("input", () => pickModel(`step:${$("step-slider").value}`));
  // Long lines wrap anew at another width: the window's, or the editor's column's when
  // what the page shows beside it changes.
  window.addEventListener("resize", alignGutter);
  let codeWidth = 0;
  new ResizeObserver(() => {
    const width = $("code").clientWidth;
    if (width !== codeWidth) {
      codeWidth = width;
      alignGutter();
    }
  }).observe($("code"));
  window.addEventListener("hashchange", () => { if (loadFromLink()) { renderEditor(); scheduleRun(0); } });

  fetch("/api/version").then((r) => r.json()).then((v) => {
    $("version").textContent = `epipen ${v.epipen} · Z3 ${v.z3}`;
  }).catch(() => {});
  try {
    state.stories = await (await fetch("/api/stories")).json();
  } catch (e) {
    status("cannot load the stories: " + e.message, true);
  }
  const select = $("story");
  select.append(new Option("(your own story)", ""));
  for (const s of state.stories) select.append(new Option(`${s.title} — ${s.file}`, s.file));
  if (loadFromLink()) {
    renderEditor();
    scheduleRun(0);
  } else {
    select.value = "cheryl.story";
    pickStory("cheryl.story");
  }
}

start();
