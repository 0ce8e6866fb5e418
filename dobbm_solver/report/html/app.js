// dobbm serve: the page of one tab. It keeps a session id (its own position on the server)
// and renders every state document the server answers with.
(function () {
  "use strict";
  var SUITS = { E: 0, L: 1, H: 2, S: 3 };
  var NAMES = ["Eichel", "Laub", "Herz", "Schellen"];
  var ORDER = ["H", "E", "L", "S"];
  var session = null;
  var state = null;
  var busy = false;
  function $(id) { return document.getElementById(id); }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    return e;
  }
  function icon(suit) {
    var ns = "http://www.w3.org/2000/svg";
    var svg = document.createElementNS(ns, "svg");
    svg.setAttribute("class", "sy");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", NAMES[SUITS[suit]]);
    var use = document.createElementNS(ns, "use");
    use.setAttribute("href", "#suit-" + suit);
    svg.appendChild(use);
    return svg;
  }
  function card(name, rankOnly) {
    var s = el("span", "c s" + SUITS[name[0]]);
    s.setAttribute("data-card", name);
    if (!rankOnly) { s.appendChild(icon(name[0])); }
    s.appendChild(document.createTextNode(name.slice(1)));
    return s;
  }
  function costText(v) {
    if (v.cost === 0) { return "best"; }
    return "costs " + v.cost + " (" + v.units_cost + " unit" + (v.units_cost === 1 ? "" : "s") + ")";
  }
  function value(v) {
    var s = el("span", "v");
    s.appendChild(el("span", "pts", v.points));
    if (v.cost === 0) { s.appendChild(el("span", "best", " ✓")); }
    else { var c = el("span", "cost", " −" + v.cost); c.title = costText(v); s.appendChild(c); }
    return s;
  }
  function say(text, note) {
    var m = $("message");
    m.textContent = text || "";
    m.className = note ? "message note" : "message";
    m.hidden = !text;
  }
  function setBusy(on) {
    busy = on;
    $("busy").hidden = !on;
  }
  function post(action, payload) {
    var body = payload || {};
    body.session = session;
    return fetch("api/" + action, { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body) }).then(function (r) {
      return r.json().then(function (j) { return { status: r.status, body: j }; },
        function () { return { status: r.status, body: { error: "the server answered " + r.status } }; });
    });
  }
  function act(action, payload, after) {
    if (busy) { return Promise.resolve(); }
    setBusy(true);
    return post(action, payload).then(function (r) {
      setBusy(false);
      if (r.status === 410) {
        return start().then(function () { say(r.body.error); });
      }
      if (r.body.error) { say(r.body.error); return; }
      say("");
      if (r.body.state) { render(r.body.state); }
      if (r.body.practice) { renderPractice(r.body.practice); }
      if (after) { after(r.body); }
    }, function () { setBusy(false); say("the server cannot be reached: is dobbm serve still running?"); });
  }
  function hand(seat, names, legal) {
    var box = el("div", "hand");
    ORDER.forEach(function (suit) {
      var row = el("div", "suit");
      row.appendChild(icon(suit));
      var any = false;
      names.forEach(function (name) {
        if (name[0] !== suit) { return; }
        any = true;
        var v = legal ? legal[name] : undefined;
        if (legal) {
          var b = el("button", "card" + (v ? " legal" : "") + (v && v.best ? " isbest" : ""));
          b.type = "button";
          b.setAttribute("data-card", name);
          b.appendChild(card(name, true));
          if (v) {
            b.setAttribute("data-points", v.points);
            b.setAttribute("data-cost", v.cost);
            b.title = name + ": " + v.points + ", " + costText(v);
            b.appendChild(value(v));
            b.addEventListener("click", function () { act("play", { card: name }); });
          } else { b.disabled = true; }
          row.appendChild(b);
        } else {
          var s = el("span", "hc");
          s.appendChild(card(name, true));
          row.appendChild(s);
        }
      });
      if (!any) { row.appendChild(el("span", "muted", "—")); }
      box.appendChild(row);
    });
    return box;
  }
  function render(s) {
    state = s;
    if (s.empty) { $("view").hidden = true; return; }
    $("view").hidden = false;
    var kind = s.contract === "dobbm" ? "Dobbm" : "Solo";
    $("heading").textContent = s.title + ": " + kind + " by " + s.declarer +
      (s.doublings ? ", " + s.doublings + " doubling" + (s.doublings === 1 ? "" : "s") : "");
    var res = s.result + ". In tricks so far: " + s.declarer + " " + s.points_taken.declarer +
      ", defenders " + s.points_taken.defenders + ".";
    if (s.last) { res += " " + s.last.seat + " played " + s.last.card + ": " + costText(s.last) + "."; }
    $("result").textContent = res;
    var legal = {};
    s.choices.forEach(function (v) { legal[v.card] = v; });
    var table = $("table");
    table.textContent = "";
    s.positions.forEach(function (seat, k) {
      var box = el("section", "seat p" + k + (seat === s.to_play ? " to-play" : ""));
      box.setAttribute("data-seat", seat);
      var h = el("h3", null, seat + " ");
      h.appendChild(el("span", "role", s.roles[seat] + (seat === s.to_play ? " · to play" : "")));
      box.appendChild(h);
      box.appendChild(hand(seat, s.hands[seat], seat === s.to_play ? legal : null));
      table.appendChild(box);
    });
    var centre = el("div", "center");
    centre.appendChild(el("span", "muted", s.to_play ? "trick " + s.trick : "the hand is over"));
    var now = el("span", "now-trick");
    s.current.forEach(function (p) {
      var w = el("span", "played");
      w.appendChild(el("span", "who", p.seat + " "));
      w.appendChild(card(p.card));
      now.appendChild(w);
      now.appendChild(document.createTextNode(" "));
    });
    centre.appendChild(now);
    table.appendChild(centre);
    var ex = $("extra");
    ex.textContent = "";
    ex.appendChild(document.createTextNode("Dobb: "));
    s.dobb.forEach(function (n) { ex.appendChild(card(n)); ex.appendChild(document.createTextNode(" ")); });
    if (s.discard) {
      ex.appendChild(document.createTextNode(" · laid away: "));
      s.discard.forEach(function (n) { ex.appendChild(card(n)); ex.appendChild(document.createTextNode(" ")); });
    }
    var ch = $("choices");
    ch.textContent = "";
    if (s.to_play) {
      ch.appendChild(el("h3", null, s.to_play + " (" + s.roles[s.to_play] + ") to play: each card with the " +
        "declarer's final points after it, best first"));
      var ul = el("ul", "choices");
      s.choices.forEach(function (v) {
        var li = el("li", v.best ? "isbest" : "");
        li.setAttribute("data-card", v.card);
        li.setAttribute("data-points", v.points);
        li.setAttribute("data-cost", v.cost);
        li.appendChild(card(v.card));
        li.appendChild(el("b", null, " " + v.points + " "));
        li.appendChild(el("span", v.best ? "best" : "cost", costText(v)));
        ul.appendChild(li);
      });
      ch.appendChild(ul);
    }
    $("undo").disabled = s.played.length === 0;
    $("redo").disabled = s.ahead === 0;
    $("redo").textContent = s.ahead ? (s.recorded ? "Next as played (" + s.next + ")" : "Redo " + s.next) : "Redo";
    $("best").disabled = !s.to_play;
    $("line").disabled = !s.to_play;
    $("advice").disabled = !s.to_play;
    var lo = $("line-out");
    lo.textContent = "";
    if (s.line) {
      var p = el("p", "line");
      p.appendChild(document.createTextNode("Best line from here: "));
      s.line.forEach(function (x) {
        p.appendChild(el("span", "who", x.seat + " "));
        p.appendChild(card(x.card));
        p.appendChild(document.createTextNode("  "));
      });
      p.appendChild(document.createTextNode(" → " + s.value));
      lo.appendChild(p);
    }
    $("advice-out").textContent = "";
    var tr = $("tricks");
    tr.textContent = "";
    var head = el("tr");
    ["#", "lead", "cards in play order", "won by", s.declarer, "def."].forEach(function (t) {
      var th = el("th", null, t);
      if (t === "cards in play order") { th.colSpan = 4; }
      head.appendChild(th);
    });
    var thead = el("thead");
    thead.appendChild(head);
    tr.appendChild(thead);
    var tb = el("tbody");
    s.tricks.forEach(function (row) {
      var r = el("tr");
      var num = el("td");
      var go = el("button", "goto", row.number);
      go.type = "button";
      go.title = "go to the start of trick " + row.number;
      go.addEventListener("click", function () { act("goto", { trick: row.number }); });
      num.appendChild(go);
      r.appendChild(num);
      r.appendChild(el("td", null, row.leader));
      for (var i = 0; i < 4; i++) {
        var td = el("td", "tc");
        var c = row.cards[i];
        if (c) {
          td.setAttribute("data-card", c.card);
          td.setAttribute("data-points", c.points);
          td.setAttribute("data-cost", c.cost);
          td.appendChild(el("span", "who", c.seat));
          td.appendChild(card(c.card));
          td.appendChild(value(c));
        }
        r.appendChild(td);
      }
      r.appendChild(el("td", null, row.winner || "…"));
      r.appendChild(el("td", "num", row.winner ? row.declarer_total : ""));
      r.appendChild(el("td", "num", row.winner ? row.defender_total : ""));
      tb.appendChild(r);
    });
    tr.appendChild(tb);
  }
  function renderAdvice(a) {
    var out = $("advice-out");
    out.textContent = "";
    out.appendChild(el("h3", null, "Advice for " + a.seat + " from its own view (dobbm play, " + a.samples +
      " samples): " + a.recommendation));
    var t = el("table", "advice");
    var h = el("tr");
    ["card", "units (expected)", "± s.e.", "declarer's points", "win %"].forEach(function (x) { h.appendChild(el("th", null, x)); });
    t.appendChild(h);
    a.options.forEach(function (o) {
      var r = el("tr");
      var c = el("td");
      c.appendChild(card(o.option));
      r.appendChild(c);
      r.appendChild(el("td", "num", o.ev_units));
      r.appendChild(el("td", "num", o.stderr_units === null || o.stderr_units === undefined ? "" : o.stderr_units));
      r.appendChild(el("td", "num", o.expected_points));
      r.appendChild(el("td", "num", o.win_probability === null || o.win_probability === undefined ? "" :
        Math.round(o.win_probability * 1000) / 10));
      t.appendChild(r);
    });
    out.appendChild(t);
    (a.notes || []).forEach(function (n) { out.appendChild(el("p", "muted", n)); });
  }
  var chosen = {};
  function renderPractice(p) {
    var view = $("practice-view");
    view.hidden = !p.active;
    if (!p.active) { return; }
    $("practice-head").textContent = "· you are " + p.seat + ", seed " + p.seed + ", " + p.hands +
      " hand" + (p.hands === 1 ? "" : "s") + " played";
    var log = $("practice-log");
    log.textContent = p.lines.join("\n") + (p.failed ? "\n" + p.failed : "");
    log.scrollTop = log.scrollHeight;
    var a = p.ask;
    $("practice-ask").hidden = !a;
    $("practice-next").hidden = !!a || p.playing;
    chosen = {};
    if (!a) { return; }
    $("practice-question").textContent = a.text;
    var opts = $("practice-options");
    opts.textContent = "";
    (a.kind === "bid" || a.kind === "double" ? a.options : []).forEach(function (o) {
      var b = el("button", "say", o);
      b.type = "button";
      b.setAttribute("data-answer", o);
      b.addEventListener("click", function () { act("practice-answer", { text: o }); });
      opts.appendChild(b);
    });
    $("practice-discard").hidden = a.kind !== "discard";
    $("practice-discard").disabled = true;
    var hand = $("practice-hand");
    hand.textContent = "";
    ORDER.forEach(function (suit) {
      var row = el("div", "suit");
      row.appendChild(icon(suit));
      a.hand.forEach(function (name) {
        if (name[0] !== suit) { return; }
        var b = el("button", "card");
        b.type = "button";
        b.setAttribute("data-card", name);
        b.appendChild(card(name, true));
        if (a.kind === "play") {
          if (a.legal.indexOf(name) >= 0) {
            b.className = "card legal";
            b.addEventListener("click", function () { act("practice-answer", { text: name }); });
          } else { b.disabled = true; }
        } else if (a.kind === "discard") {
          b.className = "card legal";
          b.addEventListener("click", function () {
            if (chosen[name]) { delete chosen[name]; } else { chosen[name] = true; }
            b.classList.toggle("chosen", !!chosen[name]);
            $("practice-discard").disabled = Object.keys(chosen).length !== 4;
          });
        } else { b.disabled = true; }
        row.appendChild(b);
      });
      hand.appendChild(row);
    });
  }
  function start() {
    return post("session", {}).then(function (r) {
      session = r.body.session;
      if (state && !state.empty) { $("view").hidden = true; }
    });
  }
  function folded() { $("input").open = false; }   // the deal loaded: the table comes first
  $("paste-form").addEventListener("submit", function (e) {
    e.preventDefault();
    act("load", { text: $("paste").value }, folded);
  });
  $("random-form").addEventListener("submit", function (e) {
    e.preventDefault();
    var f = e.target, fields = {};
    ["seed", "dealer", "declarer", "contract", "trumps", "points", "strength"].forEach(function (k) {
      fields[k] = f.elements[k].value;
    });
    act("random", fields, folded);
  });
  ["undo", "redo", "best", "line"].forEach(function (id) {
    $(id).addEventListener("click", function () { act(id); });
  });
  $("practice-form").addEventListener("submit", function (e) {
    e.preventDefault();
    var f = e.target;
    act("practice", { seat: f.elements.seat.value, seed: f.elements.seed.value },
      function () { $("practice-input").open = false; $("input").open = false; });
  });
  $("practice-discard").addEventListener("click", function () {
    act("practice-answer", { text: Object.keys(chosen).join(" ") });
  });
  $("practice-hint").addEventListener("click", function () { act("practice-answer", { text: "hint" }); });
  $("practice-send").addEventListener("click", function () {
    act("practice-answer", { text: $("practice-text").value }, function () { $("practice-text").value = ""; });
  });
  $("practice-next").addEventListener("click", function () { act("practice-deal"); });
  $("goto").addEventListener("change", function (e) {
    var n = parseInt(e.target.value, 10);
    e.target.value = "";
    if (n) { act("goto", { trick: n }); }
  });
  $("advice").addEventListener("click", function () {
    act("advice", {}, function (b) { if (b.advice) { renderAdvice(b.advice); } });
  });
  start().then(function () {
    var given = new URLSearchParams(window.location.search).get("deal");   // a link to a deal: ?deal=LINE
    if (given) {
      $("paste").value = given;
      return act("load", { text: given }, folded);
    }
  }).then(function () { document.body.setAttribute("data-ready", "1"); },
    function () { say("the server cannot be reached"); });
})();
