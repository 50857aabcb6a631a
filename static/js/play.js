/* The card picker (docs/PLAY.md): tapping a card types its code into "The tricks as played", one trick a line, a
   new line when a trick is full. The text field is the form's input either way, so the page works the same
   without JavaScript (the picker stays hidden then, the typed inputs open). With the picker shown, the typed
   inputs fold away; the picker says the trick being played, greys the cards already typed, and lists the tricks
   played a row each, the cards as the buttons write them ("♣A"). */
(function () {
  "use strict";
  function field(picker) { return document.getElementById(picker.dataset["for"]); }
  function cardsOf(text) {
    return text.toUpperCase().split(/\n/).map(function (line) {
      return line.split(/[\s,;]+/).filter(Boolean);
    }).filter(function (line) { return line.length; });
  }
  // One card as its button shows it, with the button's full name for a screen reader.
  function cardItem(picker, code) {
    var button = picker.querySelector('button[data-card="' + code + '"]');
    var span = document.createElement("span");
    span.className = "c" + (button ? " suit-" + code.charAt(0) : "");
    var face = document.createElement("span");
    face.setAttribute("aria-hidden", "true");
    face.textContent = button ? button.textContent : code;
    var name = document.createElement("span");
    name.className = "visually-hidden";
    name.textContent = button ? button.getAttribute("aria-label") : code;
    span.append(face, name);
    return span;
  }
  function cardsLine(picker, target, cards) {
    cards.forEach(function (code, i) {
      if (i) { target.append(" "); }
      target.append(cardItem(picker, code));
    });
  }
  function show(picker, input) {
    var size = parseInt(input.dataset.trickSize, 10) || 4;
    var tricks = cardsOf(input.value);
    var last = tricks.length ? tricks[tricks.length - 1] : [];
    var done = last.length >= size ? tricks : tricks.slice(0, -1);
    var current = last.length >= size ? [] : last;
    var list = picker.querySelector('[data-picker="tricks"]');
    if (list) {
      list.replaceChildren();
      done.forEach(function (trick) {
        var item = document.createElement("li");
        cardsLine(picker, item, trick);
        list.append(item);
      });
    }
    var now = picker.querySelector('[data-picker="current"]');
    if (now) {
      now.replaceChildren();
      if (!picker.classList.contains("complete")) {
        now.append((picker.dataset.trick || "{n}").replace("{n}", String(done.length + 1)) + ": ");
        cardsLine(picker, now, current);
      }
    }
  }
  // Set when a tap puts the last trick in (to the tricks' field): the verdict that answers it is brought into view
  // once (below).
  var finished = null;
  function sync() {
    document.querySelectorAll(".card-picker").forEach(function (picker) {
      var input = field(picker);
      if (!input) { return; }
      if (picker.hidden) {
        picker.hidden = false;
        // The typed inputs fold away once, as the picker shows; a person may open them again.
        var typed = picker.parentElement && picker.parentElement.querySelector("details.typed");
        if (typed) { typed.open = false; }
      }
      var typedCards = {};
      cardsOf(input.value).forEach(function (line) { line.forEach(function (card) { typedCards[card] = true; }); });
      picker.querySelectorAll("button[data-card]").forEach(function (button) {
        button.disabled = Boolean(typedCards[button.dataset.card]);
      });
      // The instructions are for the first tap; after it the screen is the deal's. When the cards left cannot
      // make another trick, every trick is in: the pack folds away and the verdict comes up beside the last one.
      var left = picker.querySelectorAll("button[data-card]:not(:disabled)").length;
      var size = parseInt(input.dataset.trickSize, 10) || 4;
      var tricks = cardsOf(input.value);
      var open = tricks.length && tricks[tricks.length - 1].length < size;
      picker.classList.toggle("started", Object.keys(typedCards).length > 0);
      var complete = Object.keys(typedCards).length > 0 && left < size && !open;
      if (complete && !picker.classList.contains("complete")) { finished = input; }
      picker.classList.toggle("complete", complete);
      show(picker, input);
    });
  }
  function changed(input) {
    sync();
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }
  document.addEventListener("click", function (event) {
    var summary = event.target.closest && event.target.closest("details > summary");
    if (summary && !summary.parentElement.open && summary.parentElement.querySelector(":scope > .card-picker")) {
      // Opening the cards brings them to the top of the screen: the picker and what follows it fill it.
      summary.parentElement.addEventListener("toggle", function () {
        summary.scrollIntoView({ block: "start" });
      }, { once: true });
      return;
    }
    var button = event.target.closest && event.target.closest(".card-picker button");
    if (!button) { return; }
    var input = field(button.closest(".card-picker"));
    if (!input) { return; }
    var size = parseInt(input.dataset.trickSize, 10) || 4;
    var lines = input.value.replace(/\s+$/, "").split(/\n/);
    var last = lines[lines.length - 1].split(/[\s,;]+/).filter(Boolean);
    if (button.dataset.card) {
      if (last.length >= size) { lines.push(button.dataset.card); }
      else { lines[lines.length - 1] = last.concat([button.dataset.card]).join(" "); }
    } else if (button.dataset.picker === "undo") {
      last.pop();
      lines[lines.length - 1] = last.join(" ");
      if (!last.length && lines.length > 1) { lines.pop(); }
    }
    input.value = lines.join("\n").replace(/^\n+/, "");
    changed(input);
  });
  document.addEventListener("input", function (event) {
    if (event.target.matches && event.target.matches("textarea.cards")) { sync(); }
  });
  // Paper has no way to open a fold: print the verdict's folded details open, and fold them back after.
  var opened = [];
  window.addEventListener("beforeprint", function () {
    opened = Array.prototype.filter.call(document.querySelectorAll("details.how, details.replay-more"),
      function (details) { return !details.open; });
    opened.forEach(function (details) { details.open = true; });
  });
  window.addEventListener("afterprint", function () {
    opened.forEach(function (details) { details.open = false; });
    opened = [];
  });
  document.addEventListener("htmx:afterSwap", sync);
  // The last card's verdict comes where the eye is. Where it lands as the pack folds depends on the fonts and on
  // the browser's scroll anchoring, so the page does not count on it: an outcome out of sight (below the screen's
  // edge, or under the outcome bar at a phone's bottom) is brought to the top, the tricks' replay under it; one
  // in sight stays where it is. Checked every frame for a short while after the swap settled: the folding pack,
  // the fonts and the scroll anchoring still move the page in the frames after it. A touch, a wheel or a key ends
  // the watch: the page is the person's again.
  var WATCH_MS = 600;
  function inSight() {
    var outcome = document.querySelector("#verdict .outcome");
    if (!outcome) { return; }
    var bar = document.querySelector(".verdict-bar");
    // The bar is fixed at the bottom of a phone's screen and hidden on a wide one: shown when it has a box
    // (offsetParent is null for every fixed element, shown or not, so it cannot tell).
    var bottom = bar && bar.getClientRects().length ? bar.getBoundingClientRect().top : window.innerHeight;
    var rect = outcome.getBoundingClientRect();
    if (rect.top < -1 || rect.bottom > bottom + 1) { outcome.scrollIntoView({ block: "start" }); }
  }
  var watching = 0;
  ["touchstart", "wheel", "keydown"].forEach(function (kind) {
    window.addEventListener(kind, function () { watching += 1; }, { passive: true });
  });
  function watch() {
    var until = performance.now() + WATCH_MS, id = ++watching;
    (function frame() {
      if (id !== watching) { return; }
      inSight();
      if (performance.now() < until) { requestAnimationFrame(frame); }
    })();
  }
  function words(text) { return (text || "").split(/\s+/).filter(Boolean).join(" "); }
  // Each tap asks for a verdict: one request is out, the last tap's waits behind it (hx-sync "queue last"), so the
  // verdict for a tap before the last still settles after it. Only the one asked with every trick in is brought
  // into view (the request's URL carries the tricks' field).
  function answersFinished(detail) {
    var path = detail && detail.pathInfo && detail.pathInfo.finalRequestPath;
    if (!path) { return true; }
    var asked = new URL(path, window.location.href).searchParams.get(finished.name);
    return asked !== null && words(asked) === words(finished.value);
  }
  document.addEventListener("htmx:afterSettle", function (event) {
    if (!finished || !document.querySelector("#verdict .outcome") || !answersFinished(event.detail)) { return; }
    finished = null;
    requestAnimationFrame(watch);
  });
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", sync); } else { sync(); }
})();
