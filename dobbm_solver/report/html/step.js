// dobbm's pages: step through each play card by card. Without scripts every trick stays shown.
(function () {
  "use strict";
  function setup(play) {
    var cells = Array.prototype.slice.call(play.querySelectorAll(".tc[data-step]"));
    var held = Array.prototype.slice.call(play.querySelectorAll(".hc[data-step]"));
    var ends = Array.prototype.slice.call(play.querySelectorAll(".tw[data-done]"));
    var n = cells.length;
    if (!n) { return; }
    var bar = play.querySelector(".stepper");
    var range = bar.querySelector("input[type=range]");
    var where = bar.querySelector(".where");
    var centre = play.querySelector(".now-trick");
    var seats = Array.prototype.slice.call(play.querySelectorAll(".seat[data-seat]"));
    var at = parseInt(play.getAttribute("data-now") || "0", 10);
    range.max = String(n);
    bar.hidden = false;
    function show(k) {
      at = Math.max(0, Math.min(n, k));
      cells.forEach(function (c) {
        var s = parseInt(c.getAttribute("data-step"), 10);
        c.classList.toggle("future", s >= at);
        c.classList.toggle("now", s === at - 1);
      });
      ends.forEach(function (c) {
        c.classList.toggle("future", parseInt(c.getAttribute("data-done"), 10) >= at);
      });
      held.forEach(function (c) {
        c.classList.toggle("gone", parseInt(c.getAttribute("data-step"), 10) < at);
      });
      range.value = String(at);
      var last = at > 0 ? cells[at - 1] : null;
      where.textContent = "card " + at + " of " + n + (last ? ": " + last.getAttribute("data-note") : ": the opening lead");
      if (centre) {
        var from = at % 4 === 0 ? Math.max(0, at - 4) : at - (at % 4);
        centre.textContent = "";
        for (var i = from; i < at; i++) {
          var who = document.createElement("span");
          who.className = "who";
          who.textContent = cells[i].getAttribute("data-seat") + " ";
          centre.appendChild(who);
          centre.appendChild(cells[i].querySelector(".c").cloneNode(true));
          centre.appendChild(document.createTextNode(" "));
        }
      }
      var next = at < n ? cells[at].getAttribute("data-seat") : null;
      seats.forEach(function (s) { s.classList.toggle("to-play", s.getAttribute("data-seat") === next); });
    }
    bar.addEventListener("click", function (e) {
      var b = e.target.closest("button");
      if (!b) { return; }
      var go = b.getAttribute("data-go");
      show(go === "first" ? 0 : go === "prev" ? at - 1 : go === "next" ? at + 1 : n);
    });
    range.addEventListener("input", function () { show(parseInt(range.value, 10)); });
    play.addEventListener("keydown", function (e) {
      if (e.key === "ArrowRight") { show(at + 1); e.preventDefault(); }
      if (e.key === "ArrowLeft") { show(at - 1); e.preventDefault(); }
    });
    show(at);
  }
  Array.prototype.forEach.call(document.querySelectorAll(".play"), setup);
})();
