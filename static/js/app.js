/* scorekeep: what htmx does not say by itself. A request that never reached the server (no network
   at the card table) or that the server could not answer leaves the page as it was; without a word
   the scorer would think the deal was saved. The sentences come from the page (translated there). */
(function () {
  "use strict";
  function notice() { return document.getElementById("connection"); }
  function show(kind) {
    var box = notice();
    if (!box) { return; }
    box.textContent = box.dataset[kind];
    box.hidden = false;
  }
  // A live section (the ledger, polled every 2 s) sends the version it shows; the server answers 304
  // Not Modified while nothing changed, and htmx (configured in base.html) then swaps nothing.
  document.addEventListener("htmx:configRequest", function (event) {
    var etag = event.detail.elt.dataset && event.detail.elt.dataset.etag;
    if (etag) { event.detail.headers["If-None-Match"] = etag; }
  });
  function isPoll(event) { return Boolean(event.detail.elt.dataset && event.detail.elt.dataset.etag); }
  // A poll answered 200 with the very version the section shows (a shared cache refilling itself asks the
  // server without the version, README's haproxy) swaps nothing either: the big screen keeps its page.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var xhr = event.detail.xhr;
    if (isPoll(event) && xhr && xhr.status === 200 && xhr.getResponseHeader("ETag") === event.detail.elt.dataset.etag) {
      event.detail.shouldSwap = false;
    }
  });
  // An answer asked before a save (or an Undo, any htmx POST) was sent describes the page as it was before it,
  // and must not land after the save's answer: a preview asked while typing brings every message slot of the
  // form out of band, by id, and emptied the refused save's "entered meanwhile on another phone" (found under
  // load: the preview's 400 ms wait ended while the save was on its way). So each POST is counted, an answer
  // asked before the last one swaps nothing, and the form asks nothing while a POST is on its way.
  var posts = 0;
  var posting = 0;
  function verb(event) { return ((event.detail.requestConfig || {}).verb || "").toLowerCase(); }
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    if (!elt || verb(event) === "post") { return; }
    // A form's element the save's answer took off the page (a preview's timer running out after it) asks
    // nothing either.
    if (elt.isConnected === false || (posting && elt.closest && elt.closest("form"))) { event.preventDefault(); }
  });
  document.addEventListener("htmx:beforeSend", function (event) {
    var xhr = event.detail.xhr;
    if (!xhr) { return; }
    if (verb(event) === "post") {
      posts += 1;
      posting += 1;
      xhr.scorekeepPost = true;
    } else {
      xhr.scorekeepPosts = posts;
    }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.xhr && event.detail.xhr.scorekeepPost) { posting = Math.max(0, posting - 1); }
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    var xhr = event.detail.xhr;
    if (xhr && xhr.scorekeepPosts !== undefined && xhr.scorekeepPosts !== posts) { event.detail.shouldSwap = false; }
  });
  document.addEventListener("htmx:sendError", function (event) { show(isPoll(event) ? "live" : "offline"); });
  document.addEventListener("htmx:responseError", function (event) { show(isPoll(event) ? "live" : "failed"); });
  document.addEventListener("htmx:afterRequest", function (event) {
    var box = notice();
    if (box && event.detail.successful) { box.hidden = true; }
  });
})();

/* The language switch submits as soon as a language is chosen (its button stays for keyboards and
   for pages without JavaScript). */
document.addEventListener("change", function (event) {
  var select = event.target;
  if (select.matches && select.matches("select[data-autosubmit]")) { select.form.requestSubmit(); }
});

/* A form's inputs that only some games take (a tariff: Schafkopf's prices on the new tournament's form) show
   while such a game is chosen ("game:rule set" in the select marked data-game-choice). Without JavaScript they
   all show, each with its hint. */
(function () {
  "use strict";
  function follow(select) {
    var game = select.value.split(":")[0];
    select.form.querySelectorAll("[data-for-games]").forEach(function (input) {
      var field = input.closest(".field") || input;
      field.hidden = input.dataset.forGames.split(" ").indexOf(game) < 0;
      input.disabled = field.hidden;  // not sent: a tariff typed, then another game chosen, is not refused
    });
  }
  document.addEventListener("change", function (event) {
    if (event.target.matches && event.target.matches("select[data-game-choice]")) { follow(event.target); }
  });
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("select[data-game-choice]").forEach(follow);
  });
})();

/* The table page. Pages mark that JavaScript runs (the "update the form" button is for pages without it). */
document.documentElement.classList.add("js");
(function () {
  "use strict";
  // After a save: the form for the next deal starts at the top of the screen, under the standings, with the
  // saved row in view; a refused save puts the focus on the first input that needs attention.
  document.addEventListener("htmx:afterSettle", function (event) {
    var region = event.detail.elt;
    if (!region || region.id !== "table-region") { return; }
    var wrong = region.querySelector('#deal-form [aria-invalid="true"]');
    if (wrong && !wrong.getClientRects().length) {
      // An input hidden while JavaScript runs (the selects behind a chain of taps): its question's first tap.
      var question = wrong.closest(".q");
      wrong = question && question.querySelector(".jsonly button:not([disabled])");
    }
    if (wrong) {
      wrong.focus({ preventScroll: true });
      wrong.scrollIntoView({ block: "center" });
      return;
    }
    if (region.querySelector(".just-saved")) { window.scrollTo({ top: 0 }); }
    var undo = region.querySelector("[data-undo]");
    if (undo) { window.setTimeout(function () { undo.hidden = true; }, 10000); }
  });
  // A choice folded under "Other" (a bid of 30, a Solo Tout): the fold closes and its summary names the
  // choice, so the questions below come back where they were; a choice in view gives "Other" its name back.
  document.addEventListener("change", function (event) {
    var input = event.target;
    if (!input.matches || !input.matches(".tap-row input[type=radio]")) { return; }
    var row = input.closest("fieldset");
    var fold = row && row.querySelector("details.more-choices");
    if (!fold) { return; }
    var summary = fold.querySelector("summary");
    var label = summary.querySelector(".fold-label");
    if (fold.contains(input)) {
      label.textContent = input.closest("label").textContent.trim();
      summary.classList.add("chosen");
      fold.open = false;
    } else {
      label.textContent = label.dataset.other;
      summary.classList.remove("chosen");
    }
  });
  // "More" opened by a tap or a click takes the place of the questions above it on the screen (table.css), so
  // the rarer questions open in view above the Save bar; opened from the keyboard (a click with no pointer) the
  // form stays whole, as the focus moves down it. Closed, the questions above are back.
  document.addEventListener("click", function (event) {
    var summary = event.target.closest && event.target.closest("#table-region details.more:not(.dealer) > summary");
    if (!summary) { return; }
    var fold = summary.parentElement;
    if (!fold.open && event.pointerType) { fold.dataset.inPlace = "yes"; } else { delete fold.dataset.inPlace; }
  });
  // The screen stays on while a table page is open (where the browser has a wake lock; elsewhere nothing).
  var lock = null;
  function keepAwake() {
    if (!document.getElementById("table-region") || !("wakeLock" in navigator) || document.visibilityState !== "visible") { return; }
    navigator.wakeLock.request("screen").then(function (sentinel) { lock = sentinel; }).catch(function () { lock = null; });
  }
  document.addEventListener("DOMContentLoaded", keepAwake);
  document.addEventListener("visibilitychange", function () { if (!lock || lock.released) { keepAwake(); } });
})();

/* A chain of taps (Kop's doublings, table.html#question): each tap on a player adds him to the chain, shown in
   order; "Remove last" and "Clear" take players back. The chain is kept in the selects the server reads, one
   per call, hidden while JavaScript runs; changing them sends the preview like any input. */
(function () {
  "use strict";
  function selects(chain) { return Array.prototype.slice.call(chain.querySelectorAll(".nojs select")); }
  function named(chain) { return selects(chain).filter(function (select) { return select.value !== ""; }); }
  function show(chain) {
    var filled = named(chain);
    var list = chain.querySelector(".chain-list");
    list.textContent = "";
    filled.forEach(function (select) {
      var item = document.createElement("li");
      item.textContent = select.options[select.selectedIndex].text;
      list.appendChild(item);
    });
    if (!filled.length) {
      var empty = document.createElement("li");
      empty.className = "empty";
      empty.textContent = list.dataset.empty;
      list.appendChild(empty);
    }
    var full = filled.length === selects(chain).length;
    chain.querySelectorAll("[data-chain-add]").forEach(function (button) { button.disabled = full; });
    chain.querySelectorAll("[data-chain-undo], [data-chain-clear]").forEach(function (button) {
      button.disabled = !filled.length;
    });
  }
  function write(chain, values) {
    var all = selects(chain);
    all.forEach(function (select, index) { select.value = index < values.length ? values[index] : ""; });
    show(chain);
    if (all.length) { all[0].dispatchEvent(new Event("input", { bubbles: true })); }
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-chain-add], [data-chain-undo], [data-chain-clear]");
    var chain = button && button.closest("[data-chain]");
    if (!chain) { return; }
    var values = named(chain).map(function (select) { return select.value; });
    if (button.hasAttribute("data-chain-add")) {
      values.push(button.dataset.chainAdd);
    } else if (button.hasAttribute("data-chain-undo")) {
      values.pop();
    } else {
      values = [];
    }
    write(chain, values);
    // A button that became disabled (the chain full or empty) leaves the focus in the chain's row.
    if (button.disabled) {
      var next = chain.querySelector(".jsonly button:not([disabled])");
      if (next) { next.focus(); }
    }
  });
  function showAll(root) {
    (root || document).querySelectorAll("[data-chain]").forEach(show);
  }
  document.addEventListener("DOMContentLoaded", function () { showAll(document); });
  document.addEventListener("htmx:load", function (event) { showAll(event.detail.elt.parentNode || document); });
})();

/* Checks while a number is typed on the table page, before any round trip (and offline): letters are "not a
   number", a number out of its range says the range, one no deal can have (the engine's description lists
   them on the input: data-impossible) says the nearest that can be, and the numbers of a list with a total
   (a Ramsch's card points) that add up to more, or to another total once all are typed, say so. The limits
   ride on the inputs and the sentences on #entry (deal_inputs.live_words): the same the server writes when
   the preview or Save answers. Nothing is held back: the typing goes on, the message sits in the question's
   message slot until the number is fixed. */
(function () {
  "use strict";
  function fill(text, values) {
    return String(text || "").replace(/%\((\w+)\)s/g, function (whole, name) { return name in values ? String(values[name]) : whole; });
  }
  function say(input, name, values) {
    var entry = input.closest("#entry");
    var key = "say" + name.replace(/(^|-)(\w)/g, function (whole, dash, letter) { return letter.toUpperCase(); });
    return fill(entry && entry.dataset[key], values);
  }
  // What is wrong with one number: [message, at once] — at once where more digits cannot mend it.
  function judge(input) {
    var text = input.value.trim();
    if (text === "") { return null; }
    var bounds = { lo: Number(input.getAttribute("min")), hi: Number(input.getAttribute("max")) };
    if (!/^[0-9]+$/.test(text)) { return [say(input, "not-number", bounds), true]; }
    var n = Number(text);
    if (n > bounds.hi) { return [say(input, "range", bounds), true]; }
    if (n < bounds.lo) { return [say(input, "range", bounds), false]; }
    var gaps = (input.dataset.impossible || "").split(" ").filter(Boolean).map(Number);
    if (gaps.indexOf(n) >= 0) {
      var below = n, above = n;
      while (below >= bounds.lo && gaps.indexOf(below) >= 0) { below -= 1; }
      while (above <= bounds.hi && gaps.indexOf(above) >= 0) { above += 1; }
      return [say(input, "impossible", { n: n, below: below >= bounds.lo ? below : "—", above: above <= bounds.hi ? above : "—" }), false];
    }
    return null;
  }
  // A list with a total: the sum of what is typed, against the total.
  function judgeList(question) {
    var total = Number(question.dataset.total);
    var inputs = Array.prototype.slice.call(question.querySelectorAll("input[data-live]"));
    var typed = inputs.filter(function (input) { return input.value.trim() !== ""; });
    if (!typed.length || typed.some(function (input) { return judge(input); })) { return null; }
    var sum = typed.reduce(function (all, input) { return all + Number(input.value.trim()); }, 0);
    if (sum > total) { return [say(question, "over-total", { sum: sum, total: total }), true]; }
    if (typed.length === inputs.length && sum !== total) { return [say(question, "off-total", { sum: sum, total: total }), false]; }
    return null;
  }
  var timers = {};
  function show(question, found) {
    var slot = question.querySelector(".errors");
    if (!slot) { return; }
    if (found) {
      slot.replaceChildren(Object.assign(document.createElement("p"), { textContent: found[0] }));
      slot.dataset.live = "shown";
    } else if (slot.dataset.live) {  // only what this script said is taken back; the server's stays
      slot.replaceChildren();
      delete slot.dataset.live;
    }
  }
  document.addEventListener("input", function (event) {
    var input = event.target;
    if (!input.matches || !input.matches("#entry input[data-live]")) { return; }
    var question = input.closest(".q");
    if (!question) { return; }
    var own = judge(input);
    var found = own || (question.dataset.total ? judgeList(question) : null);
    input.setAttribute("aria-invalid", own ? "true" : "false");
    window.clearTimeout(timers[question.id]);
    if (!found || found[1]) {
      show(question, found);
    } else {  // a number still being typed may become right: said after a pause
      timers[question.id] = window.setTimeout(function () { show(question, found); }, 500);
    }
  });
})();
