// The epipen playground: edits a story, runs it through the server's JSON API
// (POST /api/run, /api/graph; see src/serve/api.rs) and shows the worlds, the trace,
// the hints' verdicts and the epistemic model, which model.js draws as SVG.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";

const KEYWORDS = new Set(("characters int bool announce learns checkpoint worlds true false " +
  "not and or if then else in const enum for simultaneously actual reveals repeat until " +
  "assert_adds_ck check max event sees expects def where action do plan by keeping " +
  "coordinated show prior weight forall exists others").split(" "));
const FUNCTIONS = new Set(("knows knows_value knows_whether believes believes_value " +
  "believes_whether at all any sum count distinct abs min max sample everyone_knows " +
  "common_knowledge distributed_knowledge each probability").split(" "));
// The languages the editor highlights: a story's, SMCDEL's format and mA* (recognised as
// the server recognises them, by their first word after comments), each with its
// comments, keywords and functions.
const LANGUAGES = {
  story: { comment: "#", keywords: KEYWORDS, functions: FUNCTIONS },
  smcdel: {
    comment: "--",
    keywords: new Set("VARS LAW OBS VALID WHERE TRUE Top Bot knows that whether comknow distknow Forall Exists".split(" ")),
    functions: new Set(["K", "Kw"]),
  },
  mastar: {
    comment: "%",
    keywords: new Set(("fluent action agent executable if causes determines announces observes " +
      "aware_of initially goal").split(" ")),
    functions: new Set(["B", "C", "E"]),
  },
};

// The language of `source`: SMCDEL's format when its first word after `--` comments is
// `VARS`, mA* when its first after `%` comments declares fluents, actions or agents and
// its statements end with `;`, else a story.
function languageOf(source) {
  const first = (comment) => source.split("\n").map((l) => l.split(comment)[0])
    .join(" ").trim().split(/\s+/)[0];
  if (first("--") === "VARS") return LANGUAGES.smcdel;
  if (["fluent", "action", "agent"].includes(first("%")) && source.includes(";")) return LANGUAGES.mastar;
  return LANGUAGES.story;
}

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
  end: "",              // the label of the model at the end in the graph's menu
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

// One line of a story (or a file in `language`) as highlighted HTML; `column` (1-based)
// underlines the token there.
function highlightLine(line, column, language = LANGUAGES.story) {
  const token = new RegExp(`(${language.comment}.*)|([A-Za-z_][A-Za-z0-9_]*)|(\\d+)|` +
    "(==|!=|<=|>=|=>|->|<->|\\.\\.|[-+*\\/%<>=:])|(\\s+|.)", "g");
  let html = "";
  let match;
  while ((match = token.exec(line)) !== null) {
    const [text, comment, word, number, op] = match;
    const start = match.index + 1;
    let kind = "";
    if (comment) kind = "comment";
    else if (word) {
      if (language.keywords.has(word)) kind = "keyword";
      else if (language.functions.has(word) && line.slice(token.lastIndex).trimStart().startsWith("(")) kind = "function";
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
  const source = $("source").value;
  const language = languageOf(source);
  const lines = source.split("\n");
  $("highlight").innerHTML = lines.map((line, i) => {
    const n = i + 1;
    const column = state.errorLines.get(n);
    const cls = column !== undefined ? "err-line" : state.failedLines.has(n) ? "fail-line"
      : n === state.markLine ? "hl-line" : "";
    const html = highlightLine(line, column, language) || " ";
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
  } else if (answer.mastar) {
    // An mA* file: its plan (as `epipen plan` says it) in the trace, with its steps.
    error.hidden = true;
    const failed = refutations(answer.trace || [], []);
    for (const line of failed.plans) state.failedLines.add(line);
    const code = answer.exit_code ? ` · exit code ${answer.exit_code}` : "";
    status(`mA* file: ${answer.mastar.text} · ${ms.toFixed(0)} ms · ${answer.backend} backend${code}`,
      !answer.mastar.solvable);
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
  // An mA* file's story ends where it starts (its `plan` statement changes nothing):
  // the model there is the initial state's.
  showCheckpoints(answer.checkpoints, answer.trace || [], answer.mastar ? "at the start" : "at the end");
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
// comes just before it; an mA* file's plan, the only item of its trace, carries it as
// `step`), its line and its first plan's actions.
function followedPlans(trace) {
  const plans = [];
  let steps = 0;
  trace.forEach((item, index) => {
    if (item.kind === "step") steps++;
    if (item.kind !== "plan" || !item.solvable || !item.plans[0].length) return;
    if (item.step !== undefined) {
      plans.push({ index, step: item.step, line: item.line, actions: item.plans[0], file: true });
      return;
    }
    const next = trace.slice(index + 1).find((t) => t.kind === "step");
    if (!next || next.line !== item.line || next.round) return;
    plans.push({ index, step: steps, line: item.line, actions: item.plans[0] });
  });
  return plans;
}

// The model after step `k` (from 1) of a plan (one of followedPlans): the graph menu's
// value, and its label.
const planModel = (plan, k) => `plan:${plan.step}:${k}`;
const planLabel = (plan, k) => plan.file ? `after step ${k} of the plan (${plan.actions[k - 1]})`
  : `after line ${plan.line}'s plan, step ${k} (${plan.actions[k - 1]})`;

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

// The graph's menu: the model at each checkpoint, at the end (`end`: its label), after
// each step of the trace (`step:K`) and after each step of a plan found (`plan:K:J`,
// step J of the plan of the `plan` statement at step K of the trace).
function showCheckpoints(checkpoints, trace, end) {
  if (!checkpoints) return;
  const select = $("at");
  const before = select.value;
  const steps = trace.filter((item) => item.kind === "step").map((item) => item.label);
  const plans = followedPlans(trace).flatMap((plan) =>
    plan.actions.map((_, k) => [planModel(plan, k + 1), planLabel(plan, k + 1)]));
  const same = JSON.stringify(checkpoints) === JSON.stringify(state.checkpoints) &&
    JSON.stringify(steps) === JSON.stringify(state.steps) &&
    JSON.stringify(plans) === JSON.stringify(state.plans) && end === state.end;
  state.end = end;
  state.checkpoints = checkpoints;
  state.steps = steps;
  state.plans = plans;
  if (same && select.options.length) return;
  select.textContent = "";
  for (const c of checkpoints) select.append(new Option(`at checkpoint ${c}`, c));
  select.append(new Option(end, ""));
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
  // The stories, then the example files of SMCDEL's format and of mA*, a group each.
  const select = $("story");
  select.append(new Option("(your own story)", ""));
  const groups = new Map();
  for (const s of state.stories) {
    const label = s.group || "Stories";
    if (!groups.has(label)) {
      const group = document.createElement("optgroup");
      group.label = label;
      groups.set(label, group);
      select.append(group);
    }
    groups.get(label).append(new Option(s.title ? `${s.title} — ${s.file}` : s.file, s.file));
  }
  if (loadFromLink()) {
    renderEditor();
    scheduleRun(0);
  } else {
    select.value = "cheryl.story";
    pickStory("cheryl.story");
  }
}

start();
