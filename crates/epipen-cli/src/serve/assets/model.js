// The epistemic model in the playground (app.js runs the page): drawn where the server
// laid it out (/api/graph's `layout`), its legend and highlights, the drawing to
// download, asking the model (/api/ask) and the event models (/api/event). It uses
// app.js's `state`, `$`, `post` and helpers; both are the page's scripts, this one first.
"use strict";

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

// Where the model drawn is, as `/api/ask` takes it: `{step}`, `{at}` for a
// checkpoint, `{}` for the end; null after a plan's step (where no formula is asked).
function askedStep() {
  const at = $("at").value;
  if (at.startsWith("step:")) return { step: Number(at.slice(5)) };
  if (at.startsWith("plan:")) return null;
  return at === "" ? {} : { at };
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
    askNote("formulas are asked after a step of the trace, at a checkpoint or at the end, not after a plan's step");
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
  if (!formula) return;
  if (!state.model) {
    askNote("no model is drawn to ask: see the note above the drawing", true);
    return;
  }
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

// ---- the event models ----

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
let eventsDrawn = 0;
async function drawEvent() {
  const name = $("event").value;
  if (!name) return;
  // Only the latest request's answer is drawn (the story may have changed since).
  const number = ++eventsDrawn;
  let answer;
  try {
    answer = await post("/api/event", { ...settings(), limit: undefined, event: name });
  } catch (e) {
    $("event-note").textContent = "the server did not answer: " + e.message;
    return;
  }
  if (number !== eventsDrawn) return;
  $("event-graph").textContent = "";
  if (answer.error) {
    $("event-note").textContent = answer.error.message.split("\n")[0].replace(/^.*?error: /, "");
    return;
  }
  $("event-note").textContent = answer.title;
  $("event-graph").append(drawModel(answer));
}

