// The pbem board in a browser: replays a game's frames, and (live mode) plays a turn.
//
// Plain script, no build step, no library: it ships in the wheel and is inlined in each
// page.  Everything that came from a game file (unit names, messages, purposes) is
// written with textContent or as SVG text nodes, never parsed as markup.
(function () {
  "use strict";
  var SVGNS = "http://www.w3.org/2000/svg";
  var data = JSON.parse(document.getElementById("pbem-data").textContent);
  var mode = document.body.getAttribute("data-mode") || "replay";
  var live = mode === "live";

  // --- small helpers ----------------------------------------------------------------
  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    for (var k in attrs || {}) node.setAttribute(k, attrs[k]);
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function sv(tag, attrs, text) {
    var node = document.createElementNS(SVGNS, tag);
    for (var k in attrs || {}) node.setAttribute(k, attrs[k]);
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  function parseColor(c) {
    var t = String(c || "").replace("#", "");
    if (t.length === 3) t = t[0] + t[0] + t[1] + t[1] + t[2] + t[2];
    if (!/^[0-9a-fA-F]{6}$/.test(t)) return [192, 192, 192];
    return [parseInt(t.slice(0, 2), 16), parseInt(t.slice(2, 4), 16), parseInt(t.slice(4, 6), 16)];
  }
  function hexOf(rgb) {
    return "#" + rgb.map(function (v) {
      var s = Math.max(0, Math.min(255, Math.round(v))).toString(16);
      return s.length < 2 ? "0" + s : s;
    }).join("");
  }
  function mix(a, b, t) {
    var x = parseColor(a), y = parseColor(b);
    return hexOf([0, 1, 2].map(function (i) { return x[i] + (y[i] - x[i]) * t; }));
  }
  function contrast(c) {
    var lum = parseColor(c).map(function (v) {
      v = v / 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    });
    var l = 0.2126 * lum[0] + 0.7152 * lum[1] + 0.0722 * lum[2];
    return l > 0.179 ? "#000000" : "#ffffff";
  }

  // --- the page ---------------------------------------------------------------------
  var header = el("header", { id: "head" });
  header.appendChild(el("h1", { id: "title" }, data.title));
  var sub = el("div", { id: "subtitle" });
  header.appendChild(sub);
  var statusLine = el("div", { id: "status" });
  header.appendChild(statusLine);
  document.body.appendChild(header);

  var main = el("main", { id: "main" });
  var mapBox = el("div", { id: "map" });
  main.appendChild(mapBox);
  var side = el("aside", { id: "panel" });
  main.appendChild(side);
  document.body.appendChild(main);

  // the map: the server drew it (terrain, hexsides, roads, places, boxes, legend)
  var svg;
  var parsed = new DOMParser().parseFromString(data.map.svg, "image/svg+xml");
  svg = document.importNode(parsed.documentElement, true);
  svg.setAttribute("id", "board");
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  mapBox.appendChild(svg);
  var full = svg.getAttribute("viewBox").split(/\s+/).map(Number);
  var view = full.slice();
  // The map pans by moving this group and zooms by the viewBox: Chromium lays every text
  // of the map out again whenever the viewBox changes, even when no size changed (tens of
  // ms on a big map, on every jump of a replay), and not when a group moves.
  var pan = sv("g", { id: "pan" });
  Array.prototype.slice.call(svg.childNodes).forEach(function (node) {
    if (node.nodeName !== "title") pan.appendChild(node);
  });
  svg.appendChild(pan);
  var shownBox = null;  // the viewBox written: the view's size, and where it was when written
  var R = data.map.r;
  var centers = data.map.centers;
  var boxes = data.map.boxes;
  var COUNTER = R * 1.12;  // a counter's side: most of the hex, as on the table
  var hexLayer = svg.querySelector("#hexes");
  var lit = sv("g", { id: "lit" });
  var targets = sv("g", { id: "targets" });
  var counters = sv("g", { id: "live-counters" });
  var ghosts = sv("g", { id: "ghosts" });
  var places = svg.querySelector("#places");
  // highlights under the lines and names; counters over everything but the place names
  hexLayer.parentNode.insertBefore(lit, hexLayer.nextSibling);
  lit.parentNode.insertBefore(targets, lit.nextSibling);
  // the place names over the terrain and the lines, the counters over the names: a name
  // that finds no clear place (see declutter) fades under a counter, never over one
  if (places) pan.appendChild(places);
  pan.appendChild(counters);
  pan.appendChild(ghosts);

  // The window on the map always has the map box's own shape, so a point on the screen
  // maps to the map by one scale (no letterbox to allow for) and the map fills its box
  // on a phone held upright as on a wide screen.
  function aspect() {
    var r = svg.getBoundingClientRect();
    return r.width > 0 && r.height > 0 ? r.height / r.width : full[3] / full[2];
  }
  function setView() {
    view[3] = view[2] * aspect();
    // never wander off the map: a window smaller than the map stays inside it (with a
    // small margin), a larger one is centered on it
    [0, 1].forEach(function (k) {
      var size = view[k + 2], lo = full[k] - size * 0.05, hi = full[k] + full[k + 2] - size * 0.95;
      view[k] = size >= full[k + 2] ? full[k] + (full[k + 2] - size) / 2 : Math.max(lo, Math.min(hi, view[k]));
    });
    var box = view.map(function (v) { return v.toFixed(1); });
    if (!shownBox || box[2] !== shownBox[2] || box[3] !== shownBox[3]) {
      shownBox = box;
      svg.setAttribute("viewBox", box.join(" "));
    }
    var move = "translate(" + (Number(shownBox[0]) - Number(box[0])).toFixed(1) + "," +
      (Number(shownBox[1]) - Number(box[1])).toFixed(1) + ")";
    if (pan.getAttribute("transform") !== move) pan.setAttribute("transform", move);
  }
  function zoomAt(factor, cx, cy, from) {
    var base = from || view;
    var w = Math.min(Math.max(full[2], full[3] / aspect()) * 1.2, Math.max(R * 5, base[2] * factor));
    view = [cx - (cx - base[0]) * w / base[2], cy - (cy - base[1]) * w / base[2], w, w * aspect()];
    setView();
  }
  function scale() {
    var rect = svg.getBoundingClientRect();
    return view[2] / (rect.width || 1);
  }
  function toSvg(evt) {
    var rect = svg.getBoundingClientRect(), s = scale();
    return [view[0] + (evt.clientX - rect.left) * s, view[1] + (evt.clientY - rect.top) * s, s];
  }
  svg.addEventListener("wheel", function (evt) {
    evt.preventDefault();
    var p = toSvg(evt);
    zoomAt(evt.deltaY > 0 ? 1.15 : 1 / 1.15, p[0], p[1]);
  }, { passive: false });
  // Drag to pan, pinch to zoom, by pointer events (a mouse, a finger, a pen alike).  No
  // pointer capture: the click a tap ends in must still reach the hex under the finger.
  var pointers = {};  // pointer id -> [x, y] on the screen, while pressed
  var drag = null;    // the gesture: where it began, the view then, and whether it moved
  function pressed() { return Object.keys(pointers).map(function (k) { return pointers[k]; }); }
  function begin(moved) {
    var p = pressed();
    if (!p.length) return;
    var rect = svg.getBoundingClientRect();
    drag = { view: view.slice(), moved: moved, left: rect.left, top: rect.top,
             s: scale(), x: p[0][0], y: p[0][1], pinch: p.length >= 2 };
    if (drag.pinch) {
      drag.x = (p[0][0] + p[1][0]) / 2; drag.y = (p[0][1] + p[1][1]) / 2;
      drag.dist = Math.max(1, Math.hypot(p[0][0] - p[1][0], p[0][1] - p[1][1]));
    }
  }
  svg.addEventListener("pointerdown", function (evt) {
    if (evt.pointerType === "mouse" && evt.button !== 0) return;
    pointers[evt.pointerId] = [evt.clientX, evt.clientY];
    begin(!!(drag && drag.moved) || pressed().length > 1);
  });
  window.addEventListener("pointermove", function (evt) {
    if (!pointers[evt.pointerId] || !drag) return;
    pointers[evt.pointerId] = [evt.clientX, evt.clientY];
    var p = pressed();
    if (drag.pinch && p.length >= 2) {
      var mx = (p[0][0] + p[1][0]) / 2, my = (p[0][1] + p[1][1]) / 2;
      var dist = Math.max(1, Math.hypot(p[0][0] - p[1][0], p[0][1] - p[1][1]));
      // the map point under the fingers' first midpoint follows the midpoint
      var px = drag.view[0] + (drag.x - drag.left) * drag.s, py = drag.view[1] + (drag.y - drag.top) * drag.s;
      zoomAt(drag.dist / dist, px, py, drag.view);
      var s = scale();
      view = [px - (mx - drag.left) * s, py - (my - drag.top) * s, view[2], view[3]];
      setView();
      return;
    }
    var dx = evt.clientX - drag.x, dy = evt.clientY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > (evt.pointerType === "mouse" ? 4 : 10)) drag.moved = true;
    if (drag.moved) {
      view = [drag.view[0] - dx * drag.s, drag.view[1] - dy * drag.s, view[2], view[3]];
      setView();
    }
  });
  function release(evt) {
    if (!pointers[evt.pointerId]) return;
    delete pointers[evt.pointerId];
    if (pressed().length) { begin(true); return; }  // one finger of a pinch still down
    setTimeout(function () { if (!pressed().length) drag = null; }, 0);
  }
  window.addEventListener("pointerup", release);
  window.addEventListener("pointercancel", release);
  window.addEventListener("resize", function () { setView(); });
  // Open where the units are, zoomed so the counters read (a big map whole is a picture
  // of specks): the window of that size holding the most of ``rows`` (those of
  // ``sideName``, or all for the referee or with no side), centered on them.
  function readableWidth() {
    var px = svg.getBoundingClientRect().width || 800;
    var counterPx = Math.max(46, Math.min(64, px / 14));  // a thumb's width on a phone
    return px * COUNTER / counterPx;
  }
  function focusStart(rows, sideName) {
    var pts = [];
    rows.forEach(function (row) {
      var c = centers[row[7]];
      if (c && (!sideName || row[1] === sideName || sideName === "referee")) pts.push([c[0], c[1], row[1]]);
    });
    var w = readableWidth(), h = w * aspect();
    // where both sides are (the front) before where most units are (a rear area)
    var best = [], bestScore = [-1, -1, -1];
    pts.forEach(function (c) {
      var inside = pts.filter(function (q) {
        return Math.abs(q[0] - c[0]) <= w * 0.4 && Math.abs(q[1] - c[1]) <= h * 0.4;
      });
      var sides = {};
      inside.forEach(function (q) { sides[q[2]] = (sides[q[2]] || 0) + 1; });
      var counts = Object.keys(sides).map(function (k) { return sides[k]; });
      var score = [counts.length, Math.min.apply(null, counts), inside.length];
      for (var k = 0; k < 3 && score[k] === bestScore[k]; k++) ;
      if (k < 3 && score[k] > bestScore[k]) { best = inside; bestScore = score; }
    });
    var cx = full[0] + full[2] / 2, cy = full[1] + full[3] / 2;
    if (best.length) {
      cx = best.reduce(function (a, q) { return a + q[0]; }, 0) / best.length;
      cy = best.reduce(function (a, q) { return a + q[1]; }, 0) / best.length;
    }
    view = [cx - w / 2, cy - h / 2, w, h];
    setView();
  }
  function pointOf(loc) {
    if (centers[loc]) return centers[loc];
    var b = boxes[loc];
    return b ? [b[0] + Math.min(b[2], R * 8) / 2, b[1] + b[3] / 2] : null;
  }
  function show(hex, width) {
    var c = pointOf(hex);
    if (!c) return;
    var w = width || view[2], h = w * aspect();
    view = [c[0] - w / 2, c[1] - h / 2, w, h];
    setView();
  }
  function centerOn(hex) {
    var c = centers[hex];
    if (!c) return;
    var x = c[0] - view[2] / 2, y = c[1] - view[3] / 2;
    // only when the hex is outside the middle of the window: the map does not jump
    if (c[0] < view[0] + view[2] * 0.15 || c[0] > view[0] + view[2] * 0.85 ||
        c[1] < view[1] + view[3] * 0.15 || c[1] > view[1] + view[3] * 0.85) {
      view = [x, y, view[2], view[3]];
      setView();
    }
  }

  // --- counters ---------------------------------------------------------------------
  function counterNode(row, size) {
    // row: [id, side, label, name, color, hidden, markers, location, depth]
    var g = sv("g", { "class": "counter", "data-piece": row[0], "data-side": row[1],
                      "data-hex": row[7] });
    var half = size / 2, step = size * 0.09;
    var fill = row[5] ? mix(row[4], "#404040", 0.5) : row[4];
    for (var k = Math.min(row[8], 3); k > 0; k--) {
      g.appendChild(sv("rect", { x: -half + k * step, y: -half - k * step, width: size, height: size,
        rx: size * 0.08, fill: mix(fill, "#000000", 0.25), stroke: "#000", "stroke-width": 0.6 }));
    }
    g.appendChild(sv("rect", { x: -half, y: -half, width: size, height: size, rx: size * 0.08,
      fill: fill, stroke: "#000", "stroke-width": 0.9, "class": "face" }));
    var ink = contrast(fill);
    // each line as large as the counter's width allows (a designation like "1259/381 6"
    // would spill over the edge at a fixed size): about 0.6 em a character
    function fit(text, most) { return Math.min(most, size * 0.9 / (0.6 * Math.max(1, text.length))); }
    var label = row[2];
    if (row[3]) {
      var name = row[3].length > 12 ? row[3].slice(0, 11) + "\u2026" : row[3];
      // a marker's band takes the counter's lower quarter: the lines move up over it
      var up = row[6] ? size * 0.1 : 0;
      g.appendChild(sv("text", { x: 0, y: -size * 0.12 - up, "font-size": fit(name, size * 0.26), fill: ink,
        "text-anchor": "middle" }, name));
      var f = fit(label, size * (row[6] ? 0.28 : 0.32));
      g.appendChild(sv("text", { x: 0, y: size * 0.1 + f * 0.8 - up * 1.2, "font-size": f, fill: ink,
        "text-anchor": "middle", "font-weight": "bold" }, label));
    } else {
      var big = fit(label, size * 0.4);
      g.appendChild(sv("text", { x: 0, y: big * 0.35 - (row[6] ? size * 0.12 : 0), "font-size": big, fill: ink,
        "text-anchor": "middle", "font-weight": "bold" }, label));
    }
    if (row[6]) {
      g.appendChild(sv("rect", { x: -half, y: half * 0.48, width: size, height: half * 0.52,
        fill: "#b00000" }));
      g.appendChild(sv("text", { x: 0, y: half * 0.9, "font-size": size * 0.19, fill: "#fff",
        "text-anchor": "middle", "font-weight": "bold" }, row[6]));
    }
    if (row[8] > 0) {
      g.appendChild(sv("text", { x: R * 0.62, y: -R * 0.35, "font-size": R * 0.28,
        "font-weight": "bold", "text-anchor": "middle", stroke: "#fff",
        "stroke-width": R * 0.08, "paint-order": "stroke", "class": "stack" }, "+" + row[8]));
    }
    g.appendChild(sv("title", {}, (row[3] ? row[3] + " " : "") + row[2] + " (" + row[0] + ")"));
    return g;
  }
  function place(node, x, y) { node.style.transform = "translate(" + x.toFixed(1) + "px," + y.toFixed(1) + "px)"; }

  function layout(rows) {
    var out = [], inBox = {};
    rows.forEach(function (row) {
      var loc = row[7];
      if (centers[loc]) {
        out.push({ row: row, x: centers[loc][0], y: centers[loc][1] + R * 0.04, size: COUNTER });
      } else if (boxes[loc]) {
        var b = boxes[loc], k = inBox[loc] || 0, size = R * 0.95;
        inBox[loc] = k + 1;
        out.push({ row: row, x: b[0] + R * 0.3 + size / 2 + k * size * 1.15,
                   y: b[1] + R * 0.65 + size / 2, size: size });
      }
    });
    return out;
  }

  var shown = {};  // piece id -> [x, y] currently drawn
  var drawn = new Map();  // row drawn -> [its size, its counter], this frame's only
  var speed = 1;
  function duration() { return Math.round(450 / speed); }
  function drawCounters(rows, animate) {
    // the names' boxes before the counters change: the layout is still the last frame's
    var boxes = placeBoxes();
    var before = shown, kept = drawn;
    shown = {};
    drawn = new Map();
    var placed = layout(rows);
    var moving = [];
    // A counter drawn last frame from the same row at the same size is kept, and stays
    // where it is among its siblings when it can: a counter made or moved in the document
    // is laid out again, and a long game's frame has a hundred counters, most unchanged.
    var next = counters.firstChild;
    placed.forEach(function (p) {
      var same = kept.get(p.row), node;
      if (same && same[0] === p.size) {
        kept.delete(p.row);
        node = same[1];
        put(node, "class", "counter");  // as made: not moving, not selected
      } else {
        node = counterNode(p.row, p.size);
      }
      drawn.set(p.row, [p.size, node]);
      var id = p.row[0];
      node.style.transition = "none";
      var old = before[id];
      if (animate && old && (Math.abs(old[0] - p.x) > 0.5 || Math.abs(old[1] - p.y) > 0.5)) {
        place(node, old[0], old[1]);
        node.classList.add("moving");
        moving.push([node, p.x, p.y]);
      } else {
        place(node, p.x, p.y);
      }
      if (node === next) next = node.nextSibling; else counters.insertBefore(node, next);
      shown[id] = [p.x, p.y];
    });
    while (next) {
      var gone = next;
      next = next.nextSibling;
      counters.removeChild(gone);
    }
    if (moving.length) {
      // the old places are styled before the slide starts (a style update, not a layout)
      moving.forEach(function (m) { getComputedStyle(m[0]).transform; });
      moving.forEach(function (m) {
        m[0].style.transition = "transform " + duration() + "ms ease-in-out";
        place(m[0], m[1], m[2]);
      });
    }
    declutter(boxes);
    clear(ghosts);
    if (animate) {
      // counters gone since the last frame: a red flash where they stood (a loss)
      Object.keys(before).forEach(function (id) {
        if (shown[id]) return;
        var old = before[id];
        var ring = sv("circle", { cx: old[0], cy: old[1], r: R * 0.6, "class": "lost" });
        ghosts.appendChild(ring);
      });
    }
  }

  // Town names must not hide counters: a name that would cross a counter moves above its
  // hex, then shrinks, and as a last resort fades (its hex still shows it on hover).
  var placeTexts = places ? Array.prototype.slice.call(places.querySelectorAll("text")) : [];
  // the shapes a name may take, in the order they are tried: [above its hex, size factor];
  // the first is where the map drew it
  var SHAPES = [[false, 1], [true, 1], [false, 0.75], [true, 0.75], [false, 0.6], [true, 0.6]];
  function shapeY(y0, shape) { return shape[0] ? y0 - R * 1.42 : y0; }  // as far above as below
  // Each name's box in each shape, read from a hidden copy of the name in that shape: a
  // box read from the name itself after moving it makes the browser lay the page out
  // again for every name and every try (most of a frame's time on a long game).  The
  // copies never change, so reading them costs no layout; they are read on every frame,
  // not kept, because Chromium's text box depends on the zoom.
  var copies = places ? sv("g", { id: "place-shapes", visibility: "hidden", "aria-hidden": "true" }) : null;
  var shapeNodes = placeTexts.map(function (t) {
    var y0 = Number(t.getAttribute("y")), size0 = Number(t.getAttribute("font-size"));
    t.setAttribute("data-y", t.getAttribute("y"));
    t.setAttribute("data-size", t.getAttribute("font-size"));
    return SHAPES.map(function (shape) {
      var c = t.cloneNode(true);
      c.removeAttribute("opacity"); c.removeAttribute("data-moved");
      c.setAttribute("y", shapeY(y0, shape)); c.setAttribute("font-size", size0 * shape[1]);
      copies.appendChild(c);
      return c;
    });
  });
  if (copies) places.parentNode.insertBefore(copies, places);
  function placeBoxes() {
    return shapeNodes.map(function (nodes) { return nodes.map(function (c) { return c.getBBox(); }); });
  }
  function put(node, name, value) {
    if (node.getAttribute(name) === value) return;  // an unchanged name is not laid out again
    if (value === null) node.removeAttribute(name); else node.setAttribute(name, value);
  }
  function declutter(boxes) {
    var rects = [];
    Object.keys(shown).forEach(function (id) {
      var c = shown[id], h = COUNTER / 2;
      // the counter and the stack edges drawn up and to the right of it
      rects.push([c[0] - h, c[1] - h - R * 0.25, c[0] + h + R * 0.25, c[1] + h]);
    });
    function hits(b) {
      for (var i = 0; i < rects.length; i++) {
        var r = rects[i];
        if (b.x < r[2] && b.x + b.width > r[0] && b.y < r[3] && b.y + b.height > r[1]) return true;
      }
      return false;
    }
    placeTexts.forEach(function (t, n) {
      var y0 = Number(t.getAttribute("data-y")), size0 = Number(t.getAttribute("data-size"));
      var k = 0;
      while (k < SHAPES.length && hits(boxes[n][k])) k++;
      if (k < SHAPES.length) {
        put(t, "y", String(shapeY(y0, SHAPES[k]))); put(t, "font-size", String(size0 * SHAPES[k][1]));
        put(t, "opacity", null); put(t, "data-moved", k ? "1" : null);
      } else {
        put(t, "y", String(y0)); put(t, "font-size", String(size0 * 0.75));
        put(t, "opacity", "0.35"); put(t, "data-moved", "faded");
      }
    });
  }

  function lightHexes(hexes, cls) {
    hexes.forEach(function (h) {
      var poly = hexLayer.querySelector('polygon[data-hex="' + CSS.escape(h) + '"]');
      if (!poly) return;
      var copy = sv("polygon", { points: poly.getAttribute("points"), "class": cls, "data-hex": h });
      (cls === "target" ? targets : lit).appendChild(copy);
    });
  }

  // --- panel: controls, events, dice, files ---------------------------------------------
  var controls = el("div", { id: "controls" });
  side.appendChild(controls);
  function button(id, text, title, handler) {
    var b = el("button", { id: id, type: "button", title: title }, text);
    b.addEventListener("click", handler);
    controls.appendChild(b);
    return b;
  }
  var frames = data.frames;
  var index = 0;
  var playing = false;
  var timer = null;
  button("first", "|\u25c0", "first frame", function () { pause(); go(0, false); });
  button("back", "\u25c0", "step back", function () { pause(); go(index - 1, false); });
  var playBtn = button("play", "play", "play / pause", function () { playing ? pause() : play(); });
  button("step", "\u25b6", "step forward", function () { pause(); go(index + 1, true); });
  button("last", "\u25b6|", "last frame", function () { pause(); go(frames.length - 1, false); });
  var speedSel = el("select", { id: "speed", title: "speed" });
  [0.5, 1, 2, 4, 8].forEach(function (s) {
    var o = el("option", { value: String(s) }, s + "\u00d7");
    if (s === 1) o.selected = true;
    speedSel.appendChild(o);
  });
  speedSel.addEventListener("change", function () { speed = Number(speedSel.value) || 1; });
  controls.appendChild(speedSel);
  var counterText = el("span", { id: "frame" });
  controls.appendChild(counterText);
  var slider = el("input", { id: "slider", type: "range", min: "0", max: String(Math.max(0, frames.length - 1)), value: "0" });
  slider.addEventListener("input", function () { pause(); go(Number(slider.value), false); });
  side.appendChild(slider);

  var eventsBox = el("section", { id: "events" });
  eventsBox.appendChild(el("h2", {}, "What happened"));
  var eventList = el("ol", { id: "event-list" });
  eventsBox.appendChild(eventList);
  side.appendChild(eventsBox);

  var listed = { frames: null, first: -1, last: -1 };  // the frames the event list holds
  function go(i, animate) {
    if (!frames.length) return;
    i = Math.max(0, Math.min(frames.length - 1, i));
    var f = frames[i];
    var rows = f.pieces.map(function (k) { return data.pieces[k]; });
    drawCounters(rows, animate && i === index + 1);
    clear(lit);
    lightHexes(f.hexes, animate ? "flash" : "lit");
    if (statusLine.textContent !== f.status) statusLine.textContent = f.status;
    // the story so far of this file (the whole arrival, on the live board's "now"),
    // this frame's events last and marked
    var first = i;
    while (first > 0 && (f.now || frames[first - 1].file === f.file) && !frames[first - 1].now) first--;
    // the lines of the frames before this one already listed stay (a step adds a frame's
    // lines to a list of hundreds); this frame's are always new, so that they flash
    var j = first, items = 0;
    if (listed.frames === frames && listed.first === first) {
      for (; j < i && j <= listed.last; j++) items += frames[j].events.length;
    }
    while (eventList.childNodes.length > items) eventList.removeChild(eventList.lastChild);
    var k = 0;
    for (var past = first; past < j; past++) {
      frames[past].events.forEach(function (e) { put(eventList.childNodes[k++], "class", "ev " + e[0] + " past"); });
    }
    for (; j <= i; j++) {
      frames[j].events.forEach(function (e) {
        var now = j === i;
        var li = el("li", { "class": "ev " + e[0] + (now ? " current" : " past") + (now && animate ? " flash" : "") }, e[1]);
        eventList.appendChild(li);
      });
    }
    listed = { frames: frames, first: first, last: i };
    if (eventList.lastChild && eventList.lastChild.scrollIntoView && playing) {
      eventList.lastChild.scrollIntoView({ block: "nearest" });
    }
    if (f.hexes.length) centerOn(f.hexes[0]);
    index = i;
    slider.value = String(i);
    counterText.textContent = (i + 1) + " / " + frames.length + (f.file ? "  (file " + f.file + ")" : "");
    document.body.setAttribute("data-frame", String(i));
    highlightRolls(f);
  }
  function delay() {
    var f = frames[index];
    return Math.min(4000, (500 + 350 * (f ? f.events.length : 1)) / speed);
  }
  function tick() {
    if (!playing) return;
    if (index >= frames.length - 1) { pause(); return; }
    go(index + 1, true);
    timer = setTimeout(tick, delay());
  }
  function play() {
    if (index >= frames.length - 1) go(0, false);
    playing = true;
    playBtn.textContent = "pause";
    document.body.setAttribute("data-playing", "1");
    timer = setTimeout(tick, Math.min(delay(), 600 / speed));
  }
  function pause() {
    playing = false;
    if (timer) clearTimeout(timer);
    timer = null;
    playBtn.textContent = "play";
    document.body.setAttribute("data-playing", "0");
  }
  document.addEventListener("keydown", function (evt) {
    if (evt.target && /INPUT|TEXTAREA|SELECT/.test(evt.target.tagName)) return;
    if (evt.key === " ") { evt.preventDefault(); playing ? pause() : play(); }
    else if (evt.key === "ArrowRight") { pause(); go(index + 1, true); }
    else if (evt.key === "ArrowLeft") { pause(); go(index - 1, false); }
    else if (evt.key === "+") { zoomAt(1 / 1.25, view[0] + view[2] / 2, view[1] + view[3] / 2); }
    else if (evt.key === "-") { zoomAt(1.25, view[0] + view[2] / 2, view[1] + view[3] / 2); }
  });

  // the dice log: every roll with its name, purpose, rule, and how it came out
  var diceBox = el("section", { id: "dice" });
  var diceHead = el("h2", {}, "Dice");
  diceBox.appendChild(diceHead);
  var diceList = el("div", { id: "dice-list" });
  diceBox.appendChild(diceList);
  var rollNodes = {};
  function fillDice(rolls) {
    clear(diceList);
    rollNodes = {};
    rollsLit = [];
    diceHead.textContent = "Dice (" + (rolls || []).length + " rolls)";
    (rolls || []).forEach(function (r) {
      var d = el("details", { "class": "roll", "data-roll": r.name });
      var s = el("summary");
      s.appendChild(el("b", {}, r.name));
      s.appendChild(document.createTextNode(" " + r.purpose + (r.rule ? " (" + r.rule + ")" : "") +
        ": " + r.dice + " \u2192 " + r.result));
      d.appendChild(s);
      if (r.explain) d.appendChild(el("pre", {}, r.explain.join("\n")));
      else d.appendChild(el("div", {}, "by the " + r.side + " player, after " + r.after));
      diceList.appendChild(d);
      rollNodes[r.name] = d;
    });
  }
  var rollsLit = [];  // the rolls marked now: only these are unmarked (a game has hundreds)
  function highlightRolls(f) {
    rollsLit.forEach(function (node) { node.classList.remove("now"); });
    rollsLit = [];
    f.events.forEach(function (e) {
      var m = /^roll (\d+\.\d+)/.exec(e[1]);
      if (m && rollNodes[m[1]]) {
        rollNodes[m[1]].classList.add("now");
        rollsLit.push(rollNodes[m[1]]);
      }
    });
  }
  fillDice(data.rolls);

  if (!live) {
    sub.textContent = "replay from the " + (data.side === "referee" ? "referee's view" : data.side + " player's view") +
      " \u2014 " + data.engine + " / " + data.scenario;
    var verdict = el("section", { id: "verdict", "class": data.clean ? "clean" : "unclean" });
    verdict.appendChild(el("h2", {}, "Audit"));
    verdict.appendChild(el("p", { id: "verdict-text" }, data.verdict));
    if (data.result) verdict.appendChild(el("p", { id: "result" }, "result: " + data.result));
    var table = el("table", { id: "files" });
    var head = el("tr");
    ["file", "kind", "side", "signer", "checks", "note"].forEach(function (h) { head.appendChild(el("th", {}, h)); });
    table.appendChild(head);
    (data.files || []).forEach(function (f) {
      var tr = el("tr");
      [f.seq === null ? "?" : f.seq, f.kind, f.side, String(f.signer).slice(0, 11),
       "sig " + f.signature + ", chain " + f.chain + ", dice " + f.dice + ", replay " + f.replay,
       f.note].forEach(function (v) { tr.appendChild(el("td", {}, v)); });
      table.appendChild(tr);
    });
    verdict.appendChild(table);
    side.appendChild(verdict);
    side.appendChild(diceBox);
    go(0, false);
    // open on the action: where the units of the latest frame are, both sides' (the
    // first frame may hold only the side set up first, far from where the game went)
    var latest = frames.length ? frames[frames.length - 1] : null;
    focusStart(latest ? latest.pieces.map(function (k) { return data.pieces[k]; }) : [], "");
  }

  // --- live mode: the prompt, clicks as actions ---------------------------------------
  window.pbem = {
    data: data, go: go, play: play, pause: pause,
    frame: function () { return index; }, count: function () { return frames.length; },
    setFrames: function (fs, rows) {
      frames = fs; data.frames = fs; data.pieces = rows;
      slider.max = String(Math.max(0, frames.length - 1));
    },
    lightHexes: lightHexes, clearTargets: function () { clear(targets); },
    fillDice: fillDice, panel: side, diceBox: diceBox, status: statusLine, sub: sub,
    svg: svg, centerOn: centerOn, show: show,
    showPiece: function (id, width) {
      var c = shown[id];
      if (!c) return false;
      var w = width || view[2], h = w * aspect();
      view = [c[0] - w / 2, c[1] - h / 2, w, h];
      setView();
      return true;
    }, focusStart: focusStart, el: el, clear: clear, toSvg: toSvg,
    dragged: function () { return drag && drag.moved; }
  };
})();
