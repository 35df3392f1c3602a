// The preview page: one panel per scene, kept current by the server's
// event stream (no polling). Settings chosen here go to the server, which
// re-renders and sends the new state to every open page.
"use strict";

const panels = new Map();

function element(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

function postSettings(panel) {
  fetch(`/scenes/${panel.index}/settings`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(panel.settings),
  });
}

function makePanel(state) {
  const p = { index: state.scene, settings: state.settings, pictureKey: "", playing: false, paramsKey: "" };
  p.root = element("section", "scene");
  p.root.dataset.scene = state.scene;
  const title = element("h2");
  p.name = element("span", "name", state.name);
  p.status = element("span", "status");
  p.renderTime = element("span", "render-time");
  title.append(p.name, p.status, p.renderTime);

  const toolbar = element("div", "toolbar");
  const scales = element("span", "group scales");
  p.scaleButtons = [1, 2, 3].map((s) => {
    const b = element("button", "", `${s}×`);
    b.dataset.scale = s;
    b.addEventListener("click", () => { p.settings.scale = s; postSettings(p); });
    scales.append(b);
    return b;
  });
  p.appearance = element("span", "group appearance");
  p.appearanceButtons = ["light", "dark"].map((a) => {
    const b = element("button", "", a);
    b.dataset.appearance = a;
    b.addEventListener("click", () => { p.settings.appearance = a; postSettings(p); });
    p.appearance.append(b);
    return b;
  });
  // The gamut switch: the picture painted in sRGB (out-of-gamut colours
  // mapped, the warning listing them below) or in Display P3.
  p.gamut = element("span", "group gamut");
  p.gamutButtons = [["srgb", "sRGB"], ["display-p3", "P3"]].map(([space, label]) => {
    const b = element("button", "", label);
    b.dataset.colorSpace = space;
    b.addEventListener("click", () => { p.settings.colorSpace = space; postSettings(p); });
    p.gamut.append(b);
    return b;
  });
  // The format switch: the picture as a build would ship it (PNG, WebP,
  // AVIF) with its size in bytes; a quality for WebP (lossy) and AVIF.
  p.formatGroup = element("span", "group format");
  p.formatButtons = [["png", "PNG"], ["webp", "WebP"], ["avif", "AVIF"]].map(([format, label]) => {
    const b = element("button", "", label);
    b.dataset.format = format;
    b.addEventListener("click", () => { p.settings.format = format; postSettings(p); });
    p.formatGroup.append(b);
    return b;
  });
  p.quality = element("input");
  p.quality.type = "number";
  p.quality.name = "quality";
  p.quality.min = 1;
  p.quality.max = 100;
  p.quality.placeholder = "quality";
  p.quality.addEventListener("change", () => {
    const q = Number(p.quality.value);
    p.settings.quality = p.quality.value === "" || !(q >= 1 && q <= 100) ? null : Math.round(q);
    postSettings(p);
  });
  p.pictureSize = element("span", "picture-size");
  p.formatGroup.append(p.quality, p.pictureSize);
  // The locales the string tables define and the pseudo-locales.
  p.localeGroup = element("label", "group locale", "locale ");
  p.localeSelect = element("select");
  p.localeSelect.name = "locale";
  p.localeSelect.addEventListener("change", () => {
    p.settings.locale = p.localeSelect.value || null;
    postSettings(p);
  });
  p.localeGroup.append(p.localeSelect);
  p.localesKey = "";
  p.timeGroup = element("span", "group time");
  p.play = element("button", "play", "▶");
  p.slider = element("input");
  p.slider.type = "range";
  p.slider.min = 0;
  p.slider.step = 0.01;
  p.timeLabel = element("span", "time-label");
  p.slider.addEventListener("input", () => { p.playing = false; p.settings.time = Number(p.slider.value); postSettings(p); });
  p.play.addEventListener("click", () => {
    p.playing = !p.playing;
    p.playStarted = performance.now() - p.settings.time * 1000;
    if (p.playing) advance(p);
    showPlaying(p);
  });
  p.timeGroup.append(p.play, p.slider, p.timeLabel);
  p.params = element("span", "group params");
  toolbar.append(scales, p.appearance, p.gamut, p.formatGroup, p.localeGroup, p.timeGroup, p.params);

  const body = element("div", "body");
  const stage = element("div", "stage");
  p.frame = element("div", "frame");
  p.image = element("img");
  p.image.alt = state.name;
  p.image.addEventListener("load", () => {
    p.image.dataset.version = p.loadingVersion;
    if (p.playing) advance(p);
  });
  p.outline = element("div", "outline");
  p.overflows = element("div", "overflows");
  p.diagnostics = element("pre", "diagnostics");
  p.frame.append(p.image, p.overflows, p.outline, p.diagnostics);
  stage.append(p.frame);
  p.nodes = element("ul", "nodes");
  body.append(stage, p.nodes);
  p.warnings = element("pre", "warnings");

  p.root.append(title, toolbar, body, p.warnings);
  document.getElementById("scenes").append(p.root);
  return p;
}

// The next frame of a playing animation once the last one is on screen.
function advance(p) {
  if (!p.duration) { p.playing = false; showPlaying(p); return; }
  const t = ((performance.now() - p.playStarted) / 1000) % p.duration;
  p.settings.time = Math.round(t * 100) / 100;
  postSettings(p);
}

function showPlaying(p) { p.play.textContent = p.playing ? "❚❚" : "▶"; }

function update(state) {
  let p = panels.get(state.scene);
  if (!p) { p = makePanel(state); panels.set(state.scene, p); }
  p.state = state;
  p.settings = state.settings;
  p.duration = state.duration;
  p.root.dataset.version = state.version;
  p.status.textContent = state.rendering ? "rendering…" : state.ok ? "ok" : "has errors";
  p.status.classList.toggle("failed", !state.ok);
  if (state.renderMilliseconds != null) p.renderTime.textContent = `compiled and rendered in ${state.renderMilliseconds} ms`;

  for (const b of p.scaleButtons) b.classList.toggle("selected", Number(b.dataset.scale) === state.settings.scale);
  for (const b of p.appearanceButtons) b.classList.toggle("selected", b.dataset.appearance === state.settings.appearance);
  p.appearance.hidden = !state.hasDark;
  for (const b of p.gamutButtons) b.classList.toggle("selected", b.dataset.colorSpace === (state.settings.colorSpace || state.colorSpace));
  const format = state.settings.format || "png";
  for (const b of p.formatButtons) b.classList.toggle("selected", b.dataset.format === format);
  p.quality.hidden = format === "png";
  if (document.activeElement !== p.quality) p.quality.value = state.settings.quality ?? "";
  if (state.picture) p.pictureSize.textContent = `${(state.picture.bytes / 1024).toFixed(1)} KB`;
  const localesKey = (state.locales || []).join(",");
  if (localesKey !== p.localesKey) {
    p.localesKey = localesKey;
    p.localeSelect.replaceChildren(element("option", "", "—"));
    p.localeSelect.firstChild.value = "";
    for (const l of state.locales || []) { const o = element("option", "", l); o.value = l; p.localeSelect.append(o); }
  }
  p.localeSelect.value = state.settings.locale || "";
  p.timeGroup.hidden = !state.duration;
  if (state.duration) {
    p.slider.max = state.duration;
    if (!p.playing) p.slider.value = state.settings.time;
    p.timeLabel.textContent = `${state.settings.time.toFixed(2)} s / ${state.duration} s`;
  }
  updateParameters(p, state);

  const errors = state.diagnostics.filter((d) => d.severity === "error");
  const warnings = state.diagnostics.filter((d) => d.severity !== "error");
  p.diagnostics.textContent = errors.map((d) => d.text).join("\n");
  p.diagnostics.classList.toggle("visible", !state.ok);
  p.warnings.textContent = warnings.map((d) => d.text).join("\n");

  const picture = state.picture;
  if (picture && `${state.run}/${picture.version}` !== p.pictureKey) {
    p.pictureKey = `${state.run}/${picture.version}`;
    p.loadingVersion = picture.version;
    p.image.style.width = `${picture.width}px`;
    p.image.style.height = `${picture.height}px`;
    // The run in the URL too: a browser reuses an image it has for the same URL.
    p.image.src = `/scenes/${state.scene}/image.${picture.format}?v=${p.pictureKey}`;
    p.sceneWidth = picture.width;
    fetch(`/scenes/${state.scene}/layout.json?v=${p.pictureKey}`)
      .then((r) => r.json()).then((tree) => { showNodes(p, tree); showOverflows(p, tree, state); }).catch(() => {});
  }
}

function updateParameters(p, state) {
  const key = JSON.stringify(state.parameters.map((q) => [q.name, q.type]));
  if (key !== p.paramsKey) {
    p.paramsKey = key;
    p.params.replaceChildren();
    p.paramInputs = new Map();
    for (const q of state.parameters) {
      const label = element("label", "", q.name);
      const input = element("input");
      input.name = q.name;
      input.type = q.type === "color" ? "text" : "text";
      input.title = `${q.type}, default ${q.defaultValue}`;
      input.addEventListener("change", () => {
        p.settings.parameters[q.name] = input.value;
        postSettings(p);
      });
      label.append(input);
      p.params.append(label);
      p.paramInputs.set(q.name, input);
    }
  }
  for (const q of state.parameters) {
    const input = p.paramInputs.get(q.name);
    if (input && document.activeElement !== input) input.value = state.settings.parameters[q.name] ?? q.value;
  }
}

// The layout pass's nodes; hovering one outlines its frame on the picture.
// A list of a few thousand rows stays quick to build and to scroll; the
// rest are counted.
const maxListedNodes = 2000;

function showNodes(p, tree) {
  p.nodes.replaceChildren();
  let listed = 0, skipped = 0;
  const visit = (node, depth) => {
    if (listed >= maxListedNodes) { skipped += 1; for (const child of node.children || []) visit(child, depth + 1); return; }
    listed += 1;
    const item = element("li");
    item.style.paddingLeft = `${6 + depth * 12}px`;
    item.append(element("span", "element", node.element + (node.id ? `#${node.id}` : "")));
    if (node.line) item.append(" ", element("span", "line", `line ${node.line}`));
    item.addEventListener("mouseenter", () => { item.classList.add("hovered"); outline(p, node.frame); });
    item.addEventListener("mouseleave", () => { item.classList.remove("hovered"); p.outline.style.display = "none"; });
    p.nodes.append(item);
    for (const child of node.children || []) visit(child, depth + 1);
  };
  if (tree.element) visit(tree, 0);
  if (skipped) p.nodes.append(element("li", "more", `… and ${skipped} more nodes`));
}

// Texts that overflow their frames (a warning names their line), marked
// where they are: the frame, and the lines' real extent beyond it.
function showOverflows(p, tree, state) {
  p.overflows.replaceChildren();
  const lines = new Set(state.diagnostics.filter((d) => d.message.includes("overflows its frame")).map((d) => d.line));
  if (!lines.size || !p.sceneWidth) return;
  const k = p.image.clientWidth / p.sceneWidth;
  const box = (r, className, title) => {
    const b = element("div", className);
    b.title = title;
    Object.assign(b.style, { left: `${r.x * k}px`, top: `${r.y * k}px`, width: `${r.width * k}px`, height: `${r.height * k}px` });
    p.overflows.append(b);
  };
  const visit = (node) => {
    if (node.textBounds && lines.has(node.line)) {
      const message = state.diagnostics.find((d) => d.line === node.line && d.message.includes("overflows")).message;
      box(node.frame, "overflow-frame", message);
      box(node.textBounds, "overflow-text", message);
    }
    for (const child of node.children || []) visit(child);
  };
  visit(tree);
}

function outline(p, frame) {
  if (!frame || !p.sceneWidth) return;
  const k = p.image.clientWidth / p.sceneWidth;
  Object.assign(p.outline.style, {
    display: "block", left: `${frame.x * k}px`, top: `${frame.y * k}px`,
    width: `${frame.width * k}px`, height: `${frame.height * k}px`,
  });
}

const connection = document.getElementById("connection");
const events = new EventSource("/events");
events.addEventListener("open", () => { connection.textContent = "live"; connection.classList.add("live"); });
events.addEventListener("error", () => { connection.textContent = "reconnecting…"; connection.classList.remove("live"); });
events.addEventListener("scene", (e) => update(JSON.parse(e.data)));
