// pbem board, live mode: the prompt, the options as buttons, the map as input.
//
// Runs after board.js in the same inline script.  Every click ends as an action in the
// engine's notation sent to the local pbem, which applies it exactly as 'pbem act' does;
// the answer (the events, or the refusal naming the rule) is shown as it comes.
(function () {
  "use strict";
  var P = window.pbem;
  var el = P.el, clear = P.clear, panel = P.panel;
  var state = null, seenFiles = -1, selected = null, where = null, busy = false;

  // The calls are relative to the page: the board of one game answers them at /api/...,
  // the lobby's board of a game at /game/NAME/api/...
  //
  // Every answer becomes {ok, error, ...}: a refusal, an HTTP error or a lost connection
  // reads as a sentence on the page, never as "Failed to fetch" in the console.  The
  // cookie the one-time address was traded for goes with each call (same origin).
  function api(method, path, body) {
    var opts = { method: method, headers: {}, cache: "no-store", credentials: "same-origin" };
    if (body !== undefined) {
      opts.headers["Content-Type"] = "application/json";
      opts.body = JSON.stringify(body);
    }
    return fetch(path, opts).then(function (r) {
      if (r.status === 403) throw new Error("refused by pbem: this page is not signed in (open the address 'pbem board' printed, or start it again)");
      var json = (r.headers.get("Content-Type") || "").indexOf("application/json") === 0;
      return (json ? r.json() : r.text().then(function (t) { return { ok: false, error: t.trim() }; }))
        .then(function (v) {
          if (!r.ok && v && v.ok === undefined) v.ok = false;
          if (!r.ok && (!v || !v.error)) throw new Error("pbem answered " + r.status);
          return v;
        });
    }, function () {
      throw new Error("pbem did not answer: is 'pbem board' still running?");
    });
  }
  function failed(e) { busy = false; say("refused", String((e && e.message) || e)); }

  // --- the panel: notice, decision, options, choices, act, undo, say ---------------------
  var box = el("section", { id: "prompt" });
  var notice = el("div", { id: "notice" });
  var question = el("div", { id: "question" });
  var rule = el("div", { "class": "rule" });
  var options = el("div", { id: "options" });
  var choices = el("div", { id: "choices" });
  var actRow = el("div", { id: "act-row" });
  var actInput = el("input", { id: "act-input", type: "text", placeholder: "action in the game's notation" });
  var actBtn = el("button", { id: "act", type: "button" }, "act");
  actRow.appendChild(actInput); actRow.appendChild(actBtn);
  var liveActions = el("div", { id: "live-actions" });
  var undoBtn = el("button", { id: "undo", type: "button", title: "take back your last action (never past a die roll)" }, "undo");
  liveActions.appendChild(undoBtn);
  var sayRow = el("div", { id: "say-row" });
  var sayInput = el("input", { id: "say-input", type: "text", maxlength: "4000", placeholder: "a message sent with this file" });
  var sayBtn = el("button", { id: "say", type: "button" }, "say");
  sayRow.appendChild(sayInput); sayRow.appendChild(sayBtn);
  [notice, question, rule, options, choices, actRow, liveActions, sayRow].forEach(function (n) { box.appendChild(n); });
  panel.insertBefore(box, panel.firstChild);
  if (P.data.lobby) {
    // opened from the lobby: the way back to every game
    var back = el("a", { id: "to-lobby", href: P.data.lobby }, "\u2190 all games");
    var head = document.getElementById("head");
    head.insertBefore(back, head.firstChild);
  }
  var ordersBox = el("section", { id: "orders" });
  panel.appendChild(ordersBox);
  panel.appendChild(P.diceBox);

  function say(kind, text) {
    notice.className = kind;
    notice.textContent = text;
  }

  // on a phone the panel is under the map: what asks for a tap is brought into sight
  function reveal(node) {
    var r = node.getBoundingClientRect();
    if (r.bottom > window.innerHeight || r.top < 0) node.scrollIntoView({ block: "nearest" });
  }
  function choose(list, label) {
    clear(choices);
    if (label) choices.appendChild(el("div", {}, label));
    list.forEach(function (text) {
      var b = el("button", { type: "button", "data-action": text }, text);
      b.addEventListener("click", function () { act(text); });
      choices.appendChild(b);
    });
    reveal(choices);
  }

  function unselect() {
    selected = null; where = null;
    P.clearTargets();
    clear(choices);
    Array.prototype.forEach.call(document.querySelectorAll(".counter.selected"), function (n) { n.classList.remove("selected"); });
    document.body.removeAttribute("data-selected");
    offer();
  }
  // the hexes the listed answers name (a set-up's places), lit and answered by a tap
  function offer() {
    var hexes = state && state.my_turn && state.targets ? Object.keys(state.targets) : [];
    if (!hexes.length) return;
    where = { hexes: state.targets, other: [] };
    P.lightHexes(hexes, "target");
    document.body.setAttribute("data-targets", String(hexes.length));
  }

  function render(s, acted) {
    var before = state;
    state = s;
    var arrived = s.files !== seenFiles && seenFiles !== -1;
    var first = seenFiles === -1;
    seenFiles = s.files;
    P.setFrames(s.frames, s.pieces);
    var last = s.frames.length - 1;
    if ((first || arrived) && last > 0) {
      // what arrived: replay it, from its first frame, up to the board now
      P.go(0, false);
      P.play();
    } else {
      P.go(last, !!acted);
    }
    P.status.textContent = s.status;
    P.sub.textContent = s.game + ": you play " + s.side + " \u2014 " + s.awaiting +
      (s.pending ? " (" + s.pending + (s.pending === 1 ? " action" : " actions") +
       " in this file)" : "");
    clear(question); clear(options); rule.textContent = "";
    if (s.prompt) {
      question.textContent = s.prompt.prompt;
      rule.textContent = s.prompt.rule ? "(" + s.prompt.rule + ")" : "";
      s.prompt.options.forEach(function (o) {
        var b = el("button", { type: "button", "data-action": o.text, "class": o["default"] ? "default" : "" },
          o.text + (o["default"] ? "  (default)" : ""));
        b.addEventListener("click", function () { act(o.text); });
        options.appendChild(b);
      });
      if (Object.keys(s.targets || {}).length) {
        options.insertBefore(el("div", { "class": "rule" },
          "tap a lit hex on the map, or one of these"), options.firstChild);
      }
      if (!s.prompt.options.length) {
        options.appendChild(el("div", { "class": "rule" },
          "pick one of your units" + ((s.waiting || []).length ? " (on the map, or off it below)" : "") +
          " to see where it may go, then a lit hex" +
          (s.prompt["default"] ? "; default: " + s.prompt["default"] : "")));
        // units with no counter on the map to tap (reinforcements to enter): a button each
        (s.waiting || []).forEach(function (u) {
          var b = el("button", { type: "button", "data-unit": u.id, "class": "waiting" }, u.name);
          b.addEventListener("click", function () { select(u.id); });
          options.appendChild(b);
        });
        s.general.forEach(function (text) {
          var b = el("button", { type: "button", "data-action": text, "class": "general" +
            (text === s.prompt["default"] ? " default" : "") }, text);
          b.addEventListener("click", function () { act(text); });
          options.appendChild(b);
        });
      }
    } else {
      question.textContent = s.awaiting;
    }
    actRow.style.display = s.my_turn ? "" : "none";
    undoBtn.disabled = !s.pending;
    clear(ordersBox);
    ordersBox.appendChild(el("h2", {}, "Standing orders"));
    ordersBox.appendChild(el("div", {}, "yours: " + s.orders.mine));
    ordersBox.appendChild(el("div", {}, "your opponent's: " + s.orders.theirs));
    if (s.message) ordersBox.appendChild(el("div", {}, "your message with this file: " + s.message));
    if (!before || s.rolls !== before.rolls) P.fillDice(s.rolls);
    if (s.notice && s.notice.text) say(s.notice.kind, s.notice.text);
    if (!selected) { P.clearTargets(); where = null; offer(); }
    document.body.setAttribute("data-my-turn", s.my_turn ? "1" : "0");
    document.body.setAttribute("data-version", String(Number(document.body.getAttribute("data-version") || 0) + 1));
    document.body.setAttribute("data-files", String(s.files));
  }

  // A redraw as pbem sends it: the whole state, or, when it names the version this page
  // holds ("since"), only what changed: each key it has replaces ours, and each list keeps
  // our first "keep" items before its own.  null: it is not about the state we hold (two
  // answers crossed), and the whole state must be asked for.
  function merged(d) {
    if (d.since === undefined) return d;
    if (!state || state.version !== d.since) return null;
    var s = {};
    Object.keys(state).forEach(function (k) { s[k] = state[k]; });
    Object.keys(d).forEach(function (k) { if (k !== "since" && k !== "keep") s[k] = d[k]; });
    Object.keys(d.keep).forEach(function (k) {
      // a list that did not change stays the very list (the dice log is not built again)
      var same = d.keep[k] === state[k].length && !d[k].length;
      s[k] = same ? state[k] : state[k].slice(0, d.keep[k]).concat(d[k]);
    });
    return s;
  }
  function held() { return state ? state.version : null; }

  // whole: ask for the whole state, not what changed since ours
  function refresh(acted, whole) {
    var path = "api/state" + (state && !whole ? "?have=" + encodeURIComponent(state.version) : "");
    return api("GET", path).then(function (d) {
      if (d.ok === false) { say("refused", "refused: " + d.error); return; }
      var s = merged(d);
      if (!s) return refresh(acted, true);
      render(s, acted);
    })
      .catch(function (e) { say("refused", String(e.message || e)); });
  }
  // a command's answer carries the redraw that follows it: one request a click
  function redraw(r, acted) {
    var s = r.state ? merged(r.state) : null;
    if (s) { render(s, acted); return; }
    return refresh(acted, !!r.state);
  }

  function act(text) {
    if (busy) return;
    busy = true;
    unselect();
    api("POST", "api/act", { text: text, have: held() }).then(function (r) {
      busy = false;
      if (!r.ok) { say("refused", "refused: " + r.error); document.body.setAttribute("data-refused", r.error); return; }
      document.body.removeAttribute("data-refused");
      var lines = r.events.map(function (e) { return e[1]; });
      say(r.sealed ? "sealed" : "done", r.sealed ? r.sealed.text : (text + (lines.length ? ": " + lines.join("; ") : "")));
      return redraw(r, true);
    }).catch(failed);
  }
  actBtn.addEventListener("click", function () { if (actInput.value.trim()) act(actInput.value.trim()); });
  actInput.addEventListener("keydown", function (evt) { if (evt.key === "Enter") actBtn.click(); });
  undoBtn.addEventListener("click", function () {
    api("POST", "api/undo", { have: held() }).then(function (r) {
      say(r.ok ? "done" : "refused", r.ok ? r.events[0][1] : "refused: " + r.error);
      return r.ok ? redraw(r, false) : refresh(false);
    }).catch(failed);
  });
  sayBtn.addEventListener("click", function () {
    api("POST", "api/say", { text: sayInput.value, have: held() }).then(function (r) {
      say(r.ok ? "done" : "refused", r.ok ? r.events[0][1] : "refused: " + r.error);
      if (!r.ok) { document.body.setAttribute("data-refused", r.error); return; }
      document.body.removeAttribute("data-refused");
      return redraw(r, false);
    }).catch(failed);
  });

  // --- the map as input --------------------------------------------------------------------
  function select(unit) {
    unselect();
    // the set-up places unselect() offered are not this unit's: a tap on one before the
    // unit's own hexes arrive would be taken as something else
    P.clearTargets();
    document.body.removeAttribute("data-targets");
    selected = unit;
    document.body.setAttribute("data-selected", unit);
    api("GET", "api/where?unit=" + encodeURIComponent(unit)).then(function (w) {
      if (!w.hexes) { say("refused", "refused: " + w.error); return; }
      where = w;
      var hexes = Object.keys(w.hexes);
      P.lightHexes(hexes, "target");
      // a unit picked from the list off the map: bring its lit hexes into sight
      // a unit picked from a list (off the map, or one of a stack) on a phone, where the
      // list scrolled the map away: bring the map, and a unit off it its hexes, into sight
      if (hexes.length && !state.mine.some(function (u) { return u.id === unit; })) P.centerOn(hexes[0]);
      if (hexes.length) P.svg.scrollIntoView({ block: "nearest" });
      Array.prototype.forEach.call(document.querySelectorAll(".counter"), function (n) {
        if (n.getAttribute("data-piece") === unit) n.classList.add("selected");
      });
      if (w.other.length) choose(w.other, unit + ":");
      else if (!hexes.length) say("info", "no legal action takes " + unit + " anywhere now");
      document.body.setAttribute("data-targets", String(hexes.length));
    }).catch(failed);
  }

  function clickHex(hex) {
    if (where && where.hexes[hex]) {
      var acts = where.hexes[hex];
      if (acts.length === 1) act(acts[0]);
      else choose(acts, "to " + hex + ":");
      return;
    }
    if (!state || !state.my_turn) return;
    var mine = state.mine.filter(function (u) { return u.hex === hex; });
    if (mine.length === 1) select(mine[0].id);
    else if (mine.length > 1) {
      clear(choices);
      choices.appendChild(el("div", {}, "which unit in " + hex + "?"));
      mine.forEach(function (u) {
        var b = el("button", { type: "button", "data-unit": u.id }, u.id + (u.name ? " " + u.name : "") + " " + u.label);
        b.addEventListener("click", function () { select(u.id); });
        choices.appendChild(b);
      });
      reveal(choices);
    } else unselect();
  }

  P.svg.addEventListener("click", function (evt) {
    if (P.dragged()) return;
    var node = evt.target;
    while (node && node !== P.svg && !(node.getAttribute && node.getAttribute("data-hex"))) node = node.parentNode;
    if (!node || node === P.svg) return;
    clickHex(node.getAttribute("data-hex"));
  });

  // not our decision: look for the opponent's file now and then (a shared folder, or a
  // 'pbem receive' in a terminal)
  setInterval(function () {
    if (state && !state.my_turn && !busy && !state.result) refresh(false);
  }, 2000);
  window.pbemLive = { refresh: refresh, act: act, select: select, clickHex: clickHex,
    state: function () { return state; } };
  refresh(false).then(function () {
    var rows = state ? state.frames[state.frames.length - 1].pieces.map(function (k) { return state.pieces[k]; }) : [];
    var places = state ? Object.keys(state.targets || {}) : [];
    if (places.length && !rows.some(function (r) { return r[1] === state.side && P.data.map.centers[r[7]]; })) {
      // a set-up with nothing on the map yet: open on where the units may go
      rows = places.map(function (h) { return [h, state.side, "", "", "", 0, "", h, 0]; });
    }
    P.focusStart(rows, state ? state.side : "");
  });
})();
