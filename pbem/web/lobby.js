// pbem board with no game: the lobby of every game of the home.
//
// Everything from a file or a save (names, prompts, lines) reaches the page through
// textContent only, never as markup.  The list is read again whenever the server's cheap
// stamp changes (a file imported by 'pbem watch', the lobby's own watcher, a terminal).
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("pbem-data").textContent);
  var listed = null, stamp = null, busy = false, engines = [], contacts = [];

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { if (attrs[k] !== null && attrs[k] !== undefined) node.setAttribute(k, attrs[k]); });
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }

  // the board's own way of asking: an answer is always {ok, error, ...}
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
        .then(function (v) { if (!r.ok && v && v.ok === undefined) v.ok = false; return v; });
    }, function () {
      throw new Error("pbem did not answer: is 'pbem board' still running?");
    });
  }

  // --- the frame ----------------------------------------------------------------------------
  var head = el("header", { id: "head" });
  head.appendChild(el("h1", {}, "pbem: your games"));
  var who = el("div", { id: "who" }, data.me);
  head.appendChild(who);
  document.body.appendChild(head);
  var notice = el("div", { id: "notice", role: "status" });
  document.body.appendChild(notice);
  var main = el("main", { id: "lobby" });
  document.body.appendChild(main);
  var gamesBox = el("section", { id: "games" });
  var firstsBox = el("section", { id: "firsts" });
  var newBox = el("section", { id: "new-game" });
  var joinBox = el("section", { id: "join-game" });
  var notesBox = el("section", { id: "notes" });
  [firstsBox, gamesBox, newBox, joinBox, notesBox].forEach(function (n) { main.appendChild(n); });

  function say(kind, lines) {
    clear(notice);
    notice.className = kind;
    (Array.isArray(lines) ? lines : [lines]).forEach(function (t) { notice.appendChild(el("div", {}, t)); });
    notice.scrollIntoView({ block: "nearest" });
  }
  function failed(e) { busy = false; say("refused", String((e && e.message) || e)); }

  // --- the games ------------------------------------------------------------------------------
  function row(g) {
    var card = el("article", { "class": "game" + (g.your_move ? " yours" : "") + (g.over ? " over" : "") + (g.unsent ? " unsent" : ""), "data-game": g.name });
    var top = el("div", { "class": "top" });
    top.appendChild(el("h2", {}, g.name));
    var open = el("a", { "class": "open button", href: g.href, "data-open": g.name }, g.your_move ? "play" : "open");
    top.appendChild(open);
    card.appendChild(top);
    card.appendChild(el("div", { "class": "what" }, g.engine + " / " + g.scenario + ": you play " + g.side + " against " + (g.opponent || "(nobody has joined yet)")));
    card.appendChild(el("div", { "class": "whose" }, g.whose));
    if (g.overdue) card.appendChild(el("div", { "class": "overdue" }, g.overdue));
    if (g.position) card.appendChild(el("div", { "class": "position" }, g.position));
    card.appendChild(el("div", { "class": "times" }, "file " + g.seq + "; last in " + g.last_in + ", last out " + g.last_out));
    if (g.sent) {
      var sent = el("div", { "class": "sent" + (g.unsent ? " not" : "") }, g.sent);
      card.appendChild(sent);
      if (g.unsent && typeof g.sealed === "number") {
        // no terminal needed: the file to attach to a mail, or to drop in a shared folder
        card.appendChild(el("a", { "class": "button download", href: g.href + "file?seq=" + g.sealed, download: "" }, "download file " + g.sealed));
      }
    }
    card.appendChild(el("div", { "class": "route" }, g.route ? "route: " + g.route : "no route: download each file and send it yourself"));
    return card;
  }

  function render(s) {
    listed = s;
    stamp = s.stamp;
    who.textContent = "you are " + s.me.name + ", fingerprint " + s.me.fingerprint + (s.watching ? "; following every game's route" : "");
    clear(gamesBox);
    gamesBox.appendChild(el("h2", {}, "games"));
    if (!s.games.length) gamesBox.appendChild(el("p", { "class": "empty" }, "no games yet: start one, or join one from the invite your opponent sent"));
    s.games.forEach(function (g) { gamesBox.appendChild(row(g)); });
    clear(firstsBox);
    s.firsts.forEach(function (f) {
      var box = el("div", { "class": "first" });
      box.appendChild(el("div", {}, "first contact: " + f.who + " joined game " + f.game + " with fingerprint"));
      box.appendChild(el("div", { "class": "fingerprint" }, f.fingerprint));
      box.appendChild(el("div", {}, "compare it with the one they tell you (phone, in person)"));
      var yes = el("button", { type: "button", "data-confirm": f.fingerprint }, "it matches: import");
      yes.addEventListener("click", function () {
        api("POST", "/api/confirm", { fingerprint: f.fingerprint }).then(function (r) {
          if (!r.ok) say("refused", "refused: " + r.error); else refresh();
        }).catch(failed);
      });
      box.appendChild(yes);
      firstsBox.appendChild(box);
    });
    s.invitations.forEach(function (inv) {
      var box = el("div", { "class": "first invitation", "data-invitation": inv.game });
      box.appendChild(el("div", {}, "an invitation from " + inv.who + " (" + inv.from + "), fingerprint"));
      box.appendChild(el("div", { "class": "fingerprint" }, inv.fingerprint));
      var accept = el("button", { type: "button", "data-join": inv.game }, "join this game");
      accept.addEventListener("click", function () {
        pending = { found: inv.game };
        joinRoute.kind.value = "invite";
        joinRoute.kind.dispatchEvent(new Event("change"));
        join(false);
      });
      box.appendChild(accept);
      firstsBox.appendChild(box);
    });
    clear(notesBox);
    if (s.notes.length) {
      notesBox.appendChild(el("h2", {}, "news"));
      var list = el("ul", {});
      s.notes.slice().reverse().forEach(function (t) { list.appendChild(el("li", {}, t)); });
      notesBox.appendChild(list);
    }
    document.body.setAttribute("data-games", String(s.games.length));
    document.body.setAttribute("data-version", String(Number(document.body.getAttribute("data-version") || 0) + 1));
  }

  function refresh() {
    return api("GET", "/api/lobby").then(function (s) {
      if (s.ok === false) { say("refused", "refused: " + s.error); return; }
      render(s);
    }).catch(failed);
  }

  // --- a route: none, a shared folder, mail -------------------------------------------------
  function routeFields(prefix, withInvite) {
    var box = el("div", { "class": "route-fields" });
    var kind = el("select", { id: prefix + "-route" });
    var choices = withInvite ? [["invite", "the way the invite came"]] : [];
    choices = choices.concat([["none", "I send each file myself (download)"], ["folder", "a shared folder"], ["mail", "mail"]]);
    choices.forEach(function (c) { kind.appendChild(el("option", { value: c[0] }, c[1])); });
    var where = el("input", { id: prefix + "-where", type: "text", maxlength: "1000" });
    // a label a screen reader reads with the box, and one that stays when the box has
    // text (a placeholder alone goes as soon as it is typed into)
    var whereLabel = el("label", { "for": prefix + "-where" });
    var whereBox = el("div", { "class": "where" });
    whereBox.appendChild(whereLabel);
    whereBox.appendChild(where);
    function show() {
      var folder = kind.value === "folder";
      where.hidden = whereBox.hidden = kind.value === "none" || kind.value === "invite";
      whereLabel.textContent = folder ? "the shared folder's path" : "the opponent's mail address";
      where.placeholder = folder ? "a folder both of you see (Dropbox, Syncthing, a network drive)" : "blank: the one on their card";
    }
    kind.addEventListener("change", show);
    show();
    box.appendChild(el("label", { "for": prefix + "-route" }, "files travel by"));
    box.appendChild(kind);
    box.appendChild(whereBox);
    return { box: box, kind: kind, where: where };
  }

  function labelled(label, node) {
    var p = el("div", { "class": "field" });
    p.appendChild(el("label", { "for": node.id }, label));
    p.appendChild(node);
    return p;
  }

  // --- start a new game -----------------------------------------------------------------------
  var engineSel = el("select", { id: "new-engine" });
  var scenarioSel = el("select", { id: "new-scenario" });
  var sideSel = el("select", { id: "new-side" });
  var opponentSel = el("select", { id: "new-opponent" });
  var diceSel = el("select", { id: "new-dice" });
  [["sealed", "sealed (nobody can foresee a roll)"], ["open", "open (the file's writer could foresee its rolls)"]].forEach(function (d) { diceSel.appendChild(el("option", { value: d[0] }, d[1])); });
  var nameInput = el("input", { id: "new-name", type: "text", maxlength: "80", placeholder: "(a name is made up)" });
  var newRoute = routeFields("new", false);
  var startBtn = el("button", { id: "new-start", type: "button" }, "start the game");
  newBox.appendChild(el("h2", {}, "start a new game"));
  [labelled("game", engineSel), labelled("scenario", scenarioSel), labelled("your side", sideSel),
    labelled("opponent", opponentSel), labelled("dice", diceSel), labelled("name", nameInput)].forEach(function (n) { newBox.appendChild(n); });
  newBox.appendChild(newRoute.box);
  newBox.appendChild(startBtn);

  function fill(select, pairs) {
    clear(select);
    pairs.forEach(function (p) { select.appendChild(el("option", { value: p[0] }, p[1])); });
  }
  function chosenEngine() { return engines.filter(function (e) { return e.id === engineSel.value; })[0]; }
  engineSel.addEventListener("change", function () {
    var e = chosenEngine();
    if (!e) return;
    fill(scenarioSel, e.scenarios.map(function (s) { return [s.id, s.title + " (" + s.id + ")"]; }));
    fill(sideSel, e.sides.map(function (s) { return [s, s]; }));
  });
  opponentSel.addEventListener("change", function () {
    var c = contacts.filter(function (c) { return c.fingerprint === opponentSel.value; })[0];
    if (c && c.email && newRoute.kind.value === "mail" && !newRoute.where.value) newRoute.where.value = c.email;
  });

  function offerFile(r) {
    if (!r.file) return;
    var link = el("a", { href: r.file, download: "", id: "download-" + r.name, "class": "button" }, "download the file to send");
    notice.appendChild(link);
  }

  startBtn.addEventListener("click", function () {
    if (busy) return;
    busy = true;
    api("POST", "/api/new", {
      engine: engineSel.value, scenario: scenarioSel.value, side: sideSel.value,
      opponent: opponentSel.value, dice: diceSel.value, name: nameInput.value,
      route: newRoute.kind.value, where: newRoute.where.value
    }).then(function (r) {
      busy = false;
      if (!r.ok) { say("refused", "refused: " + r.error); document.body.setAttribute("data-refused", r.error); return; }
      document.body.removeAttribute("data-refused");
      say("done", r.told);
      offerFile(r);
      nameInput.value = "";
      return refresh();
    }).catch(failed);
  });

  // --- join from an invite file -----------------------------------------------------------
  var fileInput = el("input", { id: "join-file", type: "file", accept: ".pbem,.txt,.asc" });
  var joinName = el("input", { id: "join-name", type: "text", maxlength: "80", placeholder: "(a name is made up)" });
  var joinRoute = routeFields("join", true);
  var readBtn = el("button", { id: "join-read", type: "button" }, "read the invite");
  var confirmBox = el("div", { id: "join-confirm" });
  joinBox.appendChild(el("h2", {}, "join a game"));
  joinBox.appendChild(labelled("the invite file your opponent sent", fileInput));
  joinBox.appendChild(labelled("name", joinName));
  joinBox.appendChild(joinRoute.box);
  joinBox.appendChild(readBtn);
  joinBox.appendChild(confirmBox);

  var pending = null;  // the file read, while the player compares the fingerprint
  function join(confirmed) {
    if (!pending || busy) return;
    busy = true;
    var body = { file_name: pending.name, data: pending.data, found: pending.found, confirmed: confirmed,
      name: joinName.value, route: joinRoute.kind.value, where: joinRoute.where.value };
    api("POST", "/api/join", body).then(function (r) {
      busy = false;
      clear(confirmBox);
      if (!r.ok) { pending = null; say("refused", "refused: " + r.error); document.body.setAttribute("data-refused", r.error); return; }
      document.body.removeAttribute("data-refused");
      if (r.confirm) {
        // first contact: nothing is written until the player says the fingerprint matches
        confirmBox.appendChild(el("div", {}, "first contact: the invite (" + r.confirm.game + ", you would play " + r.confirm.side + ") is signed by " + r.confirm.who + " with fingerprint"));
        confirmBox.appendChild(el("div", { "class": "fingerprint" }, r.confirm.fingerprint));
        confirmBox.appendChild(el("div", {}, "compare it with the one they tell you (phone, in person)"));
        var yes = el("button", { type: "button", id: "join-yes" }, "it matches: join");
        var no = el("button", { type: "button", id: "join-no" }, "it does not: nothing is written");
        yes.addEventListener("click", function () { join(true); });
        no.addEventListener("click", function () { pending = null; clear(confirmBox); say("done", "not joined: nothing was written"); });
        confirmBox.appendChild(yes);
        confirmBox.appendChild(no);
        confirmBox.scrollIntoView({ block: "nearest" });
        return;
      }
      pending = null;
      fileInput.value = "";
      joinName.value = "";
      say("done", r.told);
      offerFile(r);
      return refresh();
    }).catch(failed);
  }
  readBtn.addEventListener("click", function () {
    var f = fileInput.files && fileInput.files[0];
    if (!f) { say("refused", "choose the invite file first"); return; }
    var reader = new FileReader();
    reader.onload = function () {
      var url = String(reader.result);
      pending = { name: f.name, data: url.slice(url.indexOf(",") + 1) };
      join(false);
    };
    reader.onerror = function () { say("refused", "the file could not be read: " + f.name); };
    reader.readAsDataURL(f);
  });

  // --- the start, and the live updates ---------------------------------------------------
  api("GET", "/api/engines").then(function (r) {
    if (r.ok === false) { say("refused", "refused: " + r.error); return; }
    engines = r.engines;
    contacts = r.contacts;
    fill(engineSel, engines.map(function (e) { return [e.id, e.title]; }));
    fill(opponentSel, [["", "someone new (no contact yet)"]].concat(contacts.map(function (c) { return [c.fingerprint, c.name + (c.email ? " <" + c.email + ">" : "")]; })));
    // the one person played before is the likely opponent; with more, the player picks
    if (contacts.length === 1) opponentSel.value = contacts[0].fingerprint;
    engineSel.dispatchEvent(new Event("change"));
    document.body.setAttribute("data-engines", String(engines.length));
  }).catch(failed);
  setInterval(function () {
    if (busy) return;
    api("GET", "/api/stamp").then(function (r) {
      if (r && r.stamp && r.stamp !== stamp) refresh();
    }).catch(function () { /* said once the next refresh fails */ });
  }, 2000);
  window.pbemLobby = { refresh: refresh };
  refresh();
})();
