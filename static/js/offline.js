/* scorekeep without a connection (issue 16; docs/ARCHITECTURE.md, "Offline").

   1. The service worker (/sw.js) is registered on every page: it keeps the app shell and a copy of each page,
      so a table page that was open once reloads offline. A page shown from that copy says so (#offline-copy).
   2. On the table page, a deal saved while the server cannot be reached goes into an outbox in IndexedDB
      (idb-keyval, static/vendor/) with its idempotency key and its deal number, and shows at once as a pending
      row (#outbox). The outbox is sent in order — on reconnect, when the page becomes visible, on page load,
      after a poll that got through, and on "Send now" — as the same POST htmx would have made. Stored: the row
      goes and the ledger follows. Refused (illegal, or entered meanwhile on another phone): the row stays with
      the server's sentence, later rows wait behind it, and it opens for correction as the server answered it,
      with what was typed.
   3. What is being typed is kept as a draft on every input, so a reload, a closed tab or a locked phone loses
      nothing; the entry form of each contract is kept too, so choosing a game works offline.
   4. The deals follow each other offline as the engine seats them (#seating-plan, rules.seating.rotation: for
      each dealer who plays, who sits out, who is forehand and who deals next): the form for the next deal is
      the one kept for its players (an entry form is kept for each seating and contract), its head and the
      status line say its number and dealer, and a Bock deal, which only the server knows, is said pending.
   5. A deal another phone entered under the same number meanwhile (the server's #conflict) is said in the
      players' words; the deal stays, to be saved as the next number or left out.

   The checks made offline (what is still to enter, ranges) are read from the engine's description of the
   table's inputs (/api/games), never written here. Without JavaScript none of this runs: the page works as
   a plain form. */
(function () {
  "use strict";
  var script = document.currentScript;
  var worker = "serviceWorker" in navigator && script && script.dataset.worker ? navigator.serviceWorker : null;
  var copy = document.documentElement.dataset.cached;  // set by the worker on a page shown from its copy
  var pageKept = Promise.resolve();
  if (worker) {
    worker.register(script.dataset.worker, { scope: "/" }).catch(function () { /* a page works without it */ });
    if (!worker.controller && !copy) {
      // The first visit, before the worker ran: it keeps a copy of this page as soon as it takes over.
      pageKept = new Promise(function (resolve) { worker.addEventListener("controllerchange", resolve, { once: true }); })
        .then(function () { return fetch(location.href, { headers: { "X-Scorekeep-Copy": "page" } }); })
        .then(function () { document.documentElement.dataset.kept = "page"; }, function () { /* kept next time */ });
    }
  }

  function byId(id) { return document.getElementById(id); }
  function fill(text, values) {
    return text.replace(/%\((\w+)\)s/g, function (whole, name) { return name in values ? String(values[name]) : whole; });
  }

  // A page shown from the phone's copy: when it was stored, and that it is not current.
  var copyNote = byId("offline-copy");
  if (copy && copyNote) {
    var when = new Date(copy);
    copyNote.textContent = fill(copyNote.dataset.text, {
      time: isNaN(when) ? copy : when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) });
    copyNote.hidden = false;
    document.addEventListener("htmx:afterRequest", function (event) {  // a poll got through: the page is current
      if (event.detail.successful) { copyNote.hidden = true; }
    });
  }

  var box = byId("outbox");
  var kv = window.idbKeyval;
  if (!box || !kv) { return; }
  box.hidden = false;

  // The engine's seating of every dealer, the names, who deals next and whether Bock is played (the page's).
  function planOf(doc) {
    var data = doc.getElementById("seating-plan");
    try { return data ? JSON.parse(data.textContent) : null; } catch (err) { return null; }
  }
  var plan = planOf(document);

  var ACTION = box.dataset.action;
  var OUTBOX = "outbox " + ACTION;
  var DRAFT = "draft " + ACTION;
  var NEXT = "next " + ACTION;
  // The forms kept are for this table's rule set and size (the description's address says both): a change
  // of the night's settings makes them be fetched anew.
  var ENTRY = "entry " + ACTION + " " + box.dataset.inputs + " ";
  var HIDDEN = ["csrfmiddlewaretoken", "key", "expected", "expected_is"];
  var PATIENCE = 20000;  // ms an outbox request may take (a save answers in well under a second)
  // The outbox as stored: {id, key, expected, dealer, chosen, data: [[name, value] …], what, state, sentence,
  // form, next}; `dealer` is who dealt it (the rotation's, or `chosen`, "Someone else dealt?"), `next` the
  // number a deal entered meanwhile under its own leaves it (state "conflict").
  var rows = [];
  var server = { n: 0, dealer: plan ? plan.dealer : 0 };  // the next deal as the server last said it
  var sending = false;
  var typed = false;  // something was typed into the form since it was new
  var chosenGames = 0;  // the games chosen so far: only the entry of the last one asked goes in (showEntry)
  var description = null;

  // --- the form ------------------------------------------------------------------------------------------

  function form() { return byId("deal-form"); }
  function pairs(f) { return Array.from(new FormData(f)).map(function (p) { return [p[0], String(p[1])]; }); }
  function get(values, name) {
    var found = values.find(function (p) { return p[0] === name; });
    return found ? found[1] : null;
  }
  // The game chosen: a tap in the grid of players and games posts it with its declarer ("hearts@1").
  function contractOf(values) {
    var chosen = get(values, "contract");
    return chosen === null ? null : chosen.split("@")[0];
  }
  function setHidden(f, name, value) {
    var input = f.querySelector('input[type=hidden][name="' + name + '"]');
    if (input) { input.value = String(value); }
  }
  function newKey() {
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, function (b) { return b.toString(16).padStart(2, "0"); }).join("");
  }
  function csrf() {
    try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"]; } catch (err) { return ""; }
  }
  function labelOf(input) {
    var label = input.closest("label");
    var spoken = label && label.querySelector(".visually-hidden");  // a grid's tap: "Bernd: Hearts"
    return (spoken ? spoken.textContent : label ? label.textContent : input.value).trim();
  }
  function questionLabel(q) {
    var head = q.querySelector("legend, label");
    return head ? head.firstChild.textContent.trim() : "";
  }

  // The deal in a few words for its pending row: each answered question with what was chosen.
  function describe(f) {
    var parts = [];
    f.querySelectorAll("#entry .q:not(.scorer)").forEach(function (q) {
      var picked = [];
      q.querySelectorAll("input, select").forEach(function (input) {
        if (input.type === "hidden" || input.closest(".jsonly")) { return; }
        if (input.type === "radio" || input.type === "checkbox") {
          if (input.checked && input.value !== "") { picked.push(labelOf(input)); }
        } else if (input.value !== "") {
          picked.push(input.tagName === "SELECT" ? input.options[input.selectedIndex].text : input.value);
        }
      });
      if (!picked.length) { return; }
      // A yes-or-no question says itself ("Hand"); any other its label and what was chosen.
      parts.push(q.classList.contains("check") ? picked[0] : questionLabel(q) + ": " + picked.slice(0, 4).join(", "));
    });
    return parts.slice(0, 5).join(" · ");
  }

  // Puts `values` into the inputs under `root` that they name (the inputs not named keep what they have).
  function restore(root, values) {
    var named = {};
    values.forEach(function (p) { (named[p[0]] = named[p[0]] || []).push(p[1]); });
    root.querySelectorAll("input, select, textarea").forEach(function (input) {
      if (!input.name || input.type === "hidden" || !(input.name in named)) { return; }
      if (input.type === "radio" || input.type === "checkbox") {
        input.checked = named[input.name].indexOf(input.value) >= 0;
      } else {
        input.value = named[input.name][0];
      }
    });
  }

  // What each input's value means (its question's data-meaning, from the engine's description), by name.
  function meanings(root) {
    var meant = {};
    root.querySelectorAll("[data-meaning] [name]").forEach(function (input) {
      meant[input.name] = input.closest("[data-meaning]").dataset.meaning;
    });
    return meant;
  }
  function sameMeaning(root, meant, name) {
    if (!(name in meant)) { return true; }  // not an input of the game's questions (the game, who dealt, who enters)
    var now = meanings(root);
    return now[name] === meant[name];
  }

  // New content put in by this script is wired as if htmx had swapped it in (its inputs, the chains of taps).
  function processed(elt) {
    if (window.htmx) {
      htmx.process(elt);
      htmx.trigger(elt, "htmx:load", { elt: elt });
      htmx.trigger(elt, "htmx:afterSettle", { elt: elt });
    }
    return elt;
  }

  // --- the deals in turn, as the engine seats them (#seating-plan) -------------------------------------

  // A player by table position, as the form names him (its dealer's select lists everyone at the table).
  function nameOf(position) {
    var option = document.querySelector('#deal-form select[name="dealer"] option[value="' + position + '"]');
    return option ? option.textContent.trim() : String(position);
  }
  function dealOf(dealer) { return plan && plan.deals[dealer] ? plan.deals[dealer] : null; }
  function after(dealer) { var deal = dealOf(dealer); return deal ? deal.next : dealer; }
  function chosenOf(values) {  // "Someone else dealt?": the position chosen, or null (the rotation's dealer)
    var chosen = get(values, "dealer");
    return chosen === null || chosen === "" ? null : Number(chosen);
  }
  // The deal a new form is for: the one after the last deal waiting here, else the server's next.
  function turn() {
    var last = rows[rows.length - 1];
    if (!last) { return { n: server.n, dealer: server.dealer }; }
    return { n: last.expected + 1, dealer: typeof last.dealer === "number" ? after(last.dealer) : server.dealer };
  }
  // The rotation's dealer of the form on the page (the server's form says it; one this script made too).
  function turnOf(f) { return f && f.dataset.turn !== undefined && f.dataset.turn !== "" ? Number(f.dataset.turn) : server.dealer; }

  // The entry kept on this phone for a deal dealt by `dealer` (one for each seating): blank, or for `contract`.
  function entryKey(dealer, contract) {
    var deal = dealOf(dealer);
    return ENTRY + (deal ? deal.form : "") + (contract ? " " + contract : "");
  }

  // Deal `n` dealt by `dealer` in the page's words: its number, dealer (forehand and who sits out with
  // `whole`), and Bock: known for the server's next deal, pending after deals not sent yet.
  function turnWords(n, dealer, whole) {
    var deal = dealOf(dealer);
    var total = Number(box.dataset.series);
    var words = [total && n <= total ? fill(box.dataset.dealOf, { n: n, total: total }) : fill(box.dataset.deal, { n: n }),
                 fill(box.dataset.deals, { name: nameOf(dealer) })];
    if (whole && deal) {
      words.push(fill(box.dataset.forehand, { name: nameOf(deal.forehand) }));
      if (deal.out.length) {
        words.push(fill(box.dataset.sitsOut, { names: deal.out.map(function (p) { return nameOf(p); }).join(", ") }));
      }
    }
    if (n !== server.n && plan.bock) { words.push(box.dataset.bockPending); }
    else if (n === server.n && server.bock) {  // the server said so: its own words, in the status line
      var badge = document.querySelector("#live-ledger .status .badge");
      if (badge) { words.push(badge.textContent); }
    }
    return words.join(" · ");
  }

  // The status line under the standings: the next deal to enter, while deals wait here before it.
  function showTurn() {
    var status = document.querySelector("#live-ledger .status");
    if (!status || !plan || !rows.length) { return; }
    var next = turn();
    status.textContent = turnWords(next.n, next.dealer, false);
  }

  // A form made the deal's that `turnDealer` deals in turn (or `chosen`, "Someone else dealt?"): its head,
  // and the dealer's select, whose empty choice is the rotation's dealer. A form that is `fresh` (put in for the
  // next deal) starts with "Who dealt, who enters" folded; the form on the page keeps the fold as the scorer left
  // it (refit runs as the page's outbox is read and after each sync: it shut a fold just opened, CI saw "Your
  // name" hidden again between the tap that opened it and the typing).
  function fit(f, turnDealer, chosen, fresh) {
    if (!f || !plan) { return; }
    var dealer = chosen === null ? turnDealer : chosen;
    f.dataset.turn = String(turnDealer);
    var head = f.querySelector("#entry .deal-head");
    if (head && !f.dataset.outboxRow) { head.textContent = turnWords(Number(get(pairs(f), "expected")), dealer, true); }
    var select = f.querySelector('#entry select[name="dealer"]');
    if (select && select.options.length) {
      select.options[0].textContent = fill(box.dataset.nextInTurn, { name: nameOf(turnDealer) });
      select.value = chosen === null ? "" : String(chosen);
    }
    var fold = f.querySelector("#entry details.dealer");
    if (fold && chosen === null && fresh) { fold.open = false; }
  }

  // Puts a kept entry in place of the form's, for deal `turnDealer` deals in turn, with `values` in it.
  function install(html, turnDealer, values) {
    var entry = byId("entry");
    if (!html || !entry) { return false; }
    var holder = document.createElement("div");
    holder.innerHTML = html;
    var fresh = holder.querySelector("#entry");
    if (!fresh) { return false; }
    var meant = meanings(entry);
    entry.replaceWith(fresh);
    // The copy kept may be another game's form: what was typed goes back only into the inputs that mean the
    // same in it (the server does the same when it answers: entry.DealForm).
    restore(fresh, values.filter(function (p) { return sameMeaning(fresh, meant, p[0]); }));
    fit(form(), turnDealer, chosenOf(values), true);
    processed(fresh);
    return true;
  }

  // The entry for the contract `values` chose: from the server while it answers and no deal waits before
  // this one (the server's form is then for this deal), else the copy kept on this phone for the deal's
  // seating; what was typed is put back into it. Resolves false when neither is there.
  // Resolves null when a game chosen later asked for its own entry meanwhile: the later one goes in, whichever
  // answer (the server's or this phone's copy) comes first.
  function showEntry(values, online) {
    var mine = ++chosenGames;
    var turnDealer = turnOf(form());
    var chosen = chosenOf(values);
    var params = new URLSearchParams(values.filter(function (p) { return HIDDEN.indexOf(p[0]) < 0; }));
    var asked = online && !rows.length ? fetch(ACTION + "?" + params, { headers: { "HX-Request": "true", "HX-Target": "entry" } })
      .then(function (r) { if (!r.ok) { throw new Error(r.status); } return r.text(); }) : Promise.reject(new Error("offline"));
    return asked.then(function (html) { return [html, false]; }, function () {
      return kv.get(entryKey(chosen === null ? turnDealer : chosen, contractOf(values))).then(function (html) { return [html, true]; });
    }).then(function (answer) {
      if (mine !== chosenGames) { return null; }
      if (answer[1]) {
        if (!install(answer[0], turnDealer, values)) { return false; }
        showChecks(check(form()), false);
        return true;
      }
      var entry = byId("entry");
      if (!answer[0] || !entry) { return false; }
      var holder = document.createElement("div");
      holder.innerHTML = answer[0];
      var fresh = holder.querySelector("#entry");
      if (!fresh) { return false; }
      entry.replaceWith(fresh);
      processed(fresh);
      return true;
    });
  }

  // --- the checks made offline, from the engine's description of the inputs ----------------------------

  function describeInputs() {
    if (!description) {
      description = fetch(box.dataset.inputs).then(function (r) { return r.json(); })
        .then(function (answer) { kv.set("inputs " + box.dataset.inputs, answer); return answer; },
              function () { return kv.get("inputs " + box.dataset.inputs); })
        .catch(function () { return null; });
    }
    return description;
  }
  var inputs = null;  // the description, once read
  describeInputs().then(function (answer) { inputs = answer; });

  function fieldsOf(contract) {
    var sets = inputs && inputs.games && inputs.games[0] && inputs.games[0].rule_sets;
    var found = sets && sets[0].contracts.find(function (c) { return c.contract === contract; });
    return found ? found.fields : [];
  }

  // What the page can say without the server: the required inputs left empty and the numbers out of range;
  // `at` has each of them for its question's message slot (#err-<key>), in the words the server uses there
  // (entry.DealForm: "tap the player's name", "a whole number from 0 to 10" …).
  function check(f) {
    var result = { missing: [], wrong: [], at: [] };
    if (!f) { return result; }
    var values = pairs(f);
    var names = Array.from(f.querySelectorAll("#entry [name]"), function (input) { return input.name; });
    function inputsOf(key) { return names.filter(function (n) { return n === key || n.indexOf(key + "-") === 0; }); }
    function given(key) {
      var own = inputsOf(key);
      var standIn = f.querySelector('[data-stands-for="' + key + '"] input:checked');
      return values.filter(function (p) { return own.indexOf(p[0]) >= 0 && p[1] !== ""; }).length > 0 || Boolean(standIn);
    }
    function label(key) {
      var q = byId("q-" + key);
      return q ? questionLabel(q) : key;
    }
    function prompt(field) {  // entry.DealForm's prompt for an empty input
      if (field.kind === "seat") { return box.dataset.tapName; }
      if (field.kind === "seats") { return box.dataset.tapNames; }
      return f.querySelector('#q-' + field.key + ' input[type="radio"]') ? box.dataset.tapOne : box.dataset.needed;
    }
    var grid = f.querySelector("[data-grid]");
    var gridSlot = byId("err-declarer") ? "declarer" : "contract";  // where the server says it (table.html#grid)
    if (grid && !get(values, "contract")) {  // nothing tapped in the grid of players and games yet
      result.missing.push(grid.dataset.declarer);
      result.at.push([gridSlot, box.dataset.tapGame]);
      return result;
    }
    fieldsOf(contractOf(values)).forEach(function (field) {
      if (grid && field.key === "declarer" && !byId("q-declarer")) {  // asked with the game, in the grid
        if (field.need === "required" && (get(values, "contract") || "").indexOf("@") < 0) {
          result.missing.push(grid.dataset.declarer || field.key);
          result.at.push([gridSlot, box.dataset.tapGame]);
        }
        return;
      }
      var own = inputsOf(field.key);
      if (!own.length) { return; }  // the page does not ask it (the rule set gives it no weight)
      var filled = values.filter(function (p) { return own.indexOf(p[0]) >= 0 && p[1] !== ""; });
      if (!given(field.key)) {
        var excused = (field.unless || []).some(given) || field.total !== undefined;
        if (field.need === "required" && !excused) {
          result.missing.push(label(field.key));
          result.at.push([field.key, prompt(field)]);
        }
        return;
      }
      if (field.kind !== "count" && field.kind !== "per_seat") { return; }
      filled.forEach(function (p) {
        var n = Number(p[1]);
        var why = null;
        if (!Number.isInteger(n) || n < field.min || n > field.max) {
          why = fill(box.dataset.range, { lo: field.min, hi: field.max });
        } else if (field.values && field.values.indexOf(n) < 0) {
          why = fill(box.dataset.values, { values: field.values.join(", ") });
        }
        if (why) {
          result.wrong.push([label(field.key), why]);
          result.at.push([field.key, why]);
        }
      });
    });
    return result;
  }

  // A save refused on this phone says so at each question, as the server's refusal would: the message in its
  // slot, its inputs marked, the first of them in view. What the scorer changes there takes its message back.
  function markQuestions(result) {
    document.querySelectorAll('#entry .errors[data-offline]').forEach(function (slot) {
      slot.replaceChildren();
      delete slot.dataset.offline;
    });
    var first = null;
    result.at.forEach(function (at) {
      var slot = byId("err-" + at[0]);
      if (!slot || slot.dataset.offline) { return; }
      slot.replaceChildren(element("p", "", at[1]));
      slot.dataset.offline = "shown";
      var question = byId("q-" + at[0]);
      if (question) {
        question.querySelectorAll("input").forEach(function (input) { input.setAttribute("aria-invalid", "true"); });
      }
      first = first || question || slot;
    });
    return first;
  }
  function unmark(event) {
    var question = event.target.closest && event.target.closest("#entry .q");
    var slot = question && question.querySelector(".errors[data-offline]");
    if (!slot) { return; }
    slot.replaceChildren();
    delete slot.dataset.offline;
    question.querySelectorAll('input[aria-invalid="true"]').forEach(function (input) {
      input.setAttribute("aria-invalid", "false");
    });
  }
  document.addEventListener("input", unmark);
  document.addEventListener("change", unmark);

  function element(tag, className, text) {
    var made = document.createElement(tag);
    if (className) { made.className = className; }
    if (text !== undefined) { made.textContent = text; }
    return made;
  }

  function showChecks(result, saving) {
    var preview = byId("preview");
    if (!preview) { return; }
    var title = preview.querySelector("h3");
    preview.textContent = "";
    if (title) { preview.appendChild(title); }
    if (result.wrong.length) {
      var head = element("p", "outcome rejected");
      head.appendChild(element("strong", "", box.dataset.impossible));
      preview.appendChild(head);
      var list = element("ul", "problems");
      result.wrong.forEach(function (w) { list.appendChild(element("li", "", w[0] + ": " + w[1])); });
      preview.appendChild(list);
    } else if (result.missing.length) {
      var still = element("p", "outcome pending");
      still.appendChild(element("strong", "", box.dataset.still));
      still.appendChild(document.createTextNode(" " + result.missing.join(", ")));
      preview.appendChild(still);
    }
    preview.appendChild(element("p", "hint offline-checked", box.dataset.checked));
    if (saving && (result.wrong.length || result.missing.length)) {
      (markQuestions(result) || preview).scrollIntoView({ block: "center" });
    }
  }

  // --- the outbox ----------------------------------------------------------------------------------------

  function persist() { return kv.set(OUTBOX, rows.map(function (row) { return Object.assign({}, row, { state: row.state === "sending" ? "waiting" : row.state }); })); }
  function waiting() { return rows.length; }
  // What the server said is next (a page or an answer of it): the deal number, its dealer, whether Bock.
  function heard(doc) {
    var expected = doc.querySelector('#deal-form input[name="expected"]');
    var told = planOf(doc);
    if (!expected || !told) { return; }
    plan = told;
    server = { n: Number(expected.value), dealer: told.dealer, bock: told.bock_next };
    kv.set(NEXT, { next: server.n, dealer: server.dealer, bock: server.bock, at: Date.now() });
  }

  // The form for a new deal follows the deals waiting before it: its number, and while nothing is typed
  // in it, its players (a deal renumbered, left out, or stored with another dealer than this phone thought).
  function refit() {
    var f = form();
    if (f && !f.dataset.outboxRow) {
      var next = turn();
      setHidden(f, "expected", next.n);
      if (turnOf(f) !== next.dealer && !typed) { return nextForm(); }
      fit(f, turnOf(f), chosenOf(pairs(f)), false);
    }
    showTurn();
    return Promise.resolve();
  }

  function render() {
    var status = box.querySelector(".net-status");
    var n = waiting();
    var words = [navigator.onLine ? box.dataset.online : box.dataset.offline];
    if (n) { words.push(n === 1 ? box.dataset.waitingOne : fill(box.dataset.waitingMany, { n: n })); }
    status.textContent = words.join(" · ");
    box.classList.toggle("offline", !navigator.onLine);
    box.querySelector("[data-send-now]").hidden = !n;
    var list = box.querySelector(".outbox-rows");
    list.textContent = "";
    var template = byId("outbox-row");
    rows.forEach(function (row) {
      var item = template.content.firstElementChild.cloneNode(true);
      item.dataset.row = row.id;
      item.classList.add(row.state);
      item.querySelector(".number").textContent = fill(box.dataset.deal, { n: row.expected });
      item.querySelector(".what").textContent = row.what;
      var state = row.state === "sending" ? box.dataset.sending
        : row.state === "waiting" ? box.dataset.pending : box.dataset.refused + " " + row.sentence;
      if (row.state === "conflict") { state += " " + fill(box.dataset.conflict, { n: row.next }); }
      item.querySelector(".state").textContent = state;
      var saveAs = item.querySelector("[data-save-as]");
      saveAs.hidden = row.state !== "conflict";
      saveAs.textContent = fill(box.dataset.saveAs, { n: row.next });
      item.querySelector("[data-correct]").hidden = row.state !== "refused" || !row.form;
      item.querySelector("[data-discard]").hidden = ["refused", "correcting", "conflict"].indexOf(row.state) < 0;
      list.appendChild(item);
    });
  }

  // The form, emptied for the next deal after one went into the outbox: the entry kept for its players.
  function nextForm() {
    var f = form();
    if (!f) { return Promise.resolve(); }
    var next = turn();
    delete f.dataset.outboxRow;
    setHidden(f, "key", newKey());
    setHidden(f, "expected", next.n);
    typed = false;
    kv.del(DRAFT);
    var values = pairs(f).filter(function (p) { return p[0] === "by"; });
    var shown = entryKey(turnOf(f));
    chosenGames += 1;  // an entry asked for on the deal just kept must not replace the next deal's when it comes
    var ready = function () { f.inert = false; };
    return kv.get(entryKey(next.dealer)).then(function (html) {
      if (!install(html, next.dealer, values)) {
        f.reset();
        fit(f, next.dealer, null, true);
        var preview = byId("preview");  // no entry kept for this deal's players: say so, never offer others
        if (preview && shown !== entryKey(next.dealer)) {
          preview.replaceChildren(element("p", "outcome rejected", box.dataset.noForm));
        }
      }
      showTurn();
    }).finally(ready).then(function () { window.scrollTo({ top: 0 }); });
  }

  function say(text) {
    var line = document.querySelector("#table-region .saved-line");
    if (!line) { return; }
    line.textContent = "";
    line.appendChild(element("p", "saved kept", text));
  }

  // Save: into the outbox when the server cannot be reached or deals wait before this one.
  function enqueue(f) {
    var result = check(f);
    if (result.missing.length || result.wrong.length) { showChecks(result, true); return; }
    var id = f.dataset.outboxRow;
    var chosen = chosenOf(pairs(f));
    var row = { id: id || newKey(), key: get(pairs(f), "key"), expected: Number(get(pairs(f), "expected")),
                turn: turnOf(f), chosen: chosen, dealer: chosen === null ? turnOf(f) : chosen,
                data: pairs(f), what: describe(f), state: "waiting", sentence: "", form: null };
    var at = rows.findIndex(function (r) { return r.id === id; });
    if (id && at >= 0) { rows[at] = row; } else { rows.push(row); }
    // Until the next deal's form is in place (read from this phone's store, which a slow phone takes its time
    // over) the form takes no tap: one made meanwhile landed on the deal just kept, and the form that then came
    // replaced it (a game tapped and lost, or the kept deal's figures carried into the next).
    f.inert = true;
    persist().then(nextForm).then(function () {
      say(fill(box.dataset.kept, { n: row.expected }));
      render();
      send();
    }, function () { f.inert = false; });
  }

  document.addEventListener("submit", function (event) {
    var f = event.target;
    if (f.id !== "deal-form" || (event.submitter && event.submitter.name === "preview")) { return; }
    if (navigator.onLine && !rows.length && !f.dataset.outboxRow) { return; }  // htmx saves it, as ever
    event.preventDefault();
    event.stopPropagation();  // before htmx's own listener on the form
    enqueue(f);
  }, true);

  // No answer to a request of the table page: a save goes into the outbox (the server may have stored it
  // before the connection broke: the same key then stores it once); choosing a game takes the form kept.
  document.addEventListener("htmx:sendError", function (event) {
    var target = event.detail.target;
    var f = form();
    if (!target || !f) { return; }
    var notice = byId("connection");  // "nothing was saved" (app.js) is not so here: the outbox status says it
    if (notice && target.id !== "live-ledger") { notice.hidden = true; }
    if (target.id === "table-region" && event.detail.elt === f) {
      enqueue(f);
    } else if (target.id === "entry") {
      showEntry(pairs(f), false).then(function (shown) {
        var preview = byId("preview");
        if (shown === false && preview) { preview.replaceChildren(element("p", "outcome rejected", box.dataset.noForm)); }
      });
    } else if (target.id === "preview") {
      showChecks(check(f), false);
    }
  });

  function answerOf(response) {
    if (response.status >= 500 || response.status === 429 || response.status === 0) { throw new Error(response.status); }
    return response.text().then(function (text) {
      return { status: response.status, doc: new DOMParser().parseFromString(text, "text/html") };
    });
  }

  function sentence(answer) {
    var said = Array.from(answer.doc.querySelectorAll("#err-top p, #deal-form .errors p, .closed"), function (p) {
      return p.textContent.trim();
    }).filter(Boolean);
    if (!said.length) { said = [answer.doc.title || String(answer.status)]; }
    return said.join(" ");
  }

  // The ledger as the last answer has it (the strip and the latest deals); the form stays as it is.
  function showLedger(doc) {
    ["live-ledger", "latest"].forEach(function (id) {
      var fresh = doc.getElementById(id);
      var old = byId(id);
      if (fresh && old) {
        var made = document.importNode(fresh, true);
        old.replaceWith(made);
        processed(made);
      }
    });
    heard(doc);
    return refit();  // each deal waiting takes a number; the form is for the one after them
  }

  function open(row) {
    var f = form();
    var holder = document.createElement("div");
    holder.innerHTML = row.form || "";
    var fresh = holder.querySelector("#deal-form");
    if (!f || !fresh) { return; }
    fresh.dataset.outboxRow = row.id;
    f.replaceWith(fresh);
    processed(fresh);
    row.state = "correcting";
    typed = true;
    persist();
    render();
    var wrong = fresh.querySelector('[aria-invalid="true"]') || fresh.querySelector("#err-top");
    if (wrong) { wrong.scrollIntoView({ block: "center" }); }
  }

  // The server answered: "no connection" is over (and a page shown from the phone's copy now shows the
  // server's standings), and "kept on this phone" is said by the rows from now on.
  function answered() {
    ["connection", "offline-copy"].forEach(function (id) {
      var notice = byId(id);
      if (notice) { notice.hidden = true; }
    });
    document.querySelectorAll("#table-region .saved-line .kept").forEach(function (line) { line.remove(); });
  }

  // Sends the outbox in order, one deal at a time; a refused deal stops it (the later ones wait behind it).
  function send() {
    if (sending || !rows.length || rows[0].state !== "waiting") { render(); return; }
    sending = true;
    var row = rows[0];
    row.state = "sending";
    render();
    var run = function () {
      // A request the Wi-Fi swallowed without an error must not hold the outbox up: given up after a while,
      // the deal waits for the next chance (sent again with its key, it is stored once).
      var abort = new AbortController();
      var timer = window.setTimeout(function () { abort.abort(); }, PATIENCE);
      return fetch(ACTION, {
        method: "POST", body: new URLSearchParams(row.data), credentials: "same-origin", cache: "no-store",
        headers: { "HX-Request": "true", "HX-Target": "table-region", "X-CSRFToken": csrf() }, signal: abort.signal,
      }).then(answerOf).finally(function () { window.clearTimeout(timer); });
    };
    var done = navigator.locks ? navigator.locks.request(OUTBOX, run) : run();
    done.then(function (answer) {
      sending = false;
      answered();
      if (answer.status === 200 && answer.doc.querySelector(".saved-line .saved")) {
        rows.shift();
        return persist().then(function () {
          return showLedger(answer.doc);
        }).then(send);
      }
      var returned = answer.doc.getElementById("deal-form");
      var conflict = answer.doc.getElementById("conflict");
      if (conflict) {  // another phone's deal took this number: say whose and what; the deal stays, as it was
        row.state = "conflict";
        row.sentence = Array.from(conflict.querySelectorAll("p"), function (p) { return p.textContent.trim(); }).join(" ");
        row.next = Number(conflict.dataset.next);
        row.form = returned ? returned.outerHTML : null;
        return persist().then(function () {
          showLedger(answer.doc);
          render();
        });
      }
      row.state = "refused";
      row.sentence = sentence(answer);
      row.form = returned ? returned.outerHTML : null;
      return persist().then(function () {
        showLedger(answer.doc);
        render();
        if (!typed && row.form) { open(row); }
      });
    }, function () {  // no answer: the row waits for the next chance
      sending = false;
      row.state = "waiting";
      render();
    });
  }

  // Saves a deal another phone's took the number of as the number after it; the deals waiting behind it
  // move on with it, each dealt by whom the rotation (or the scorer) says from there.
  function saveAs(row) {
    var shift = row.next - row.expected;
    var dealer = server.dealer;
    rows.slice(rows.indexOf(row)).forEach(function (r) {
      r.expected += shift;
      r.data = r.data.map(function (p) { return p[0] === "expected" ? [p[0], String(r.expected)] : p; });
      r.turn = dealer;
      r.dealer = r.chosen === null || r.chosen === undefined ? dealer : r.chosen;
      dealer = after(r.dealer);
    });
    row.state = "waiting";
    row.sentence = "";
    row.form = null;
    delete row.next;
    return persist().then(refit).then(function () { render(); send(); });
  }

  // The outbox's buttons (the section is new after each save htmx swapped in: listened to on the document).
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("#outbox button");
    if (!button) { return; }
    if (button.hasAttribute("data-send-now")) { send(); return; }
    var item = button.closest("[data-row]");
    var row = item && rows.find(function (r) { return r.id === item.dataset.row; });
    if (!row) { return; }
    if (button.hasAttribute("data-save-as")) {
      saveAs(row);
    } else if (button.hasAttribute("data-correct")) {
      open(row);
    } else if (button.hasAttribute("data-discard")) {
      rows = rows.filter(function (r) { return r !== row; });
      var f = form();
      persist().then(function () {
        return f && f.dataset.outboxRow === row.id ? nextForm() : refit();
      }).then(function () {
        render();
        send();
      });
    }
  });

  // --- the draft: nothing typed is lost ----------------------------------------------------------------

  var pending = null;
  function keepDraft() {
    var f = form();
    if (!f || !typed) { return; }
    kv.set(DRAFT, { data: pairs(f), row: f.dataset.outboxRow || null, turn: turnOf(f), at: Date.now() });
  }
  document.addEventListener("input", function (event) {
    if (!event.target.closest || !event.target.closest("#deal-form")) { return; }
    typed = true;
    window.clearTimeout(pending);
    pending = window.setTimeout(function () {
      keepDraft();
      if (!navigator.onLine) { showChecks(check(form()), false); }  // no preview will come: say what is known
    }, 250);
  });
  document.addEventListener("change", function (event) {
    if (event.target.closest && event.target.closest("#deal-form")) { typed = true; keepDraft(); }
  });
  // Back to the front: another tab of this phone may have changed the outbox meanwhile.
  function reread() {
    if (sending) { return Promise.resolve(); }
    return kv.get(OUTBOX).then(function (stored) {
      var open = rows.find(function (r) { return r.state === "correcting"; });
      rows = (stored || []).map(function (r) { return open && r.id === open.id ? Object.assign(r, { state: "correcting" }) : r; });
    });
  }
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "hidden") { keepDraft(); } else { reread().then(send); }
  });
  window.addEventListener("pagehide", keepDraft);
  // "Leave it out" after another phone's deal under this form's number: the draft goes with it.
  document.addEventListener("click", function (event) {
    if (!event.target.closest || !event.target.closest("a[data-leave-draft]")) { return; }
    typed = false;
    window.clearTimeout(pending);
    event.preventDefault();
    var href = event.target.closest("a[data-leave-draft]").href;
    kv.del(DRAFT).then(function () { window.location.assign(href); }, function () { window.location.assign(href); });
  });

  // A save or an Undo htmx swapped in: a new form for the next deal, the draft is done with.
  document.addEventListener("htmx:afterSettle", function (event) {
    var region = event.detail.elt;
    if (region && region.id === "live-ledger") { showTurn(); return; }  // a poll: the deals waiting still count
    if (!region || region.id !== "table-region") { return; }
    box = byId("outbox") || box;  // the region holds the outbox: the new one shows the rows
    box.hidden = false;
    render();
    var f = form();
    if (region.querySelector(".saved-line .saved")) {  // stored: the draft is done with
      typed = false;
      kv.del(DRAFT);
    } else if (f && get(pairs(f), "same_as")) {  // refused as another phone's deal: the draft says so too
      keepDraft();
    }
    if (f && !f.querySelector("#err-top p, .errors p")) { heard(document); }
  });
  document.addEventListener("htmx:afterRequest", function (event) {  // a poll got through: the server is back
    if (event.detail.successful && event.detail.elt && event.detail.elt.id === "live-ledger") { send(); }
  });
  window.addEventListener("online", function () { render(); send(); });
  window.addEventListener("offline", render);

  // --- on load -----------------------------------------------------------------------------------------

  // The entry of each contract as the server renders it for a new deal, for each seating the table has (the
  // engine's rotation: at a table of four Skat players, four): kept for choosing a game offline, and for the
  // deals that follow offline, whoever plays them.
  function keepEntries() {
    var f = form();
    var entry = byId("entry");
    if (!f || !entry || copy || f.querySelector("#err-top p")) { return; }
    var own = turnOf(f);
    kv.set(entryKey(own), entry.outerHTML);
    var base = pairs(f).filter(function (p) { return HIDDEN.indexOf(p[0]) < 0 && p[0] !== "contract" && p[0] !== "dealer"; });
    var contracts = [];  // each game once (a grid has a tap per player and game)
    f.querySelectorAll('input[name="contract"]').forEach(function (input) {
      var contract = input.value.split("@")[0];
      if (contracts.indexOf(contract) < 0) { contracts.push(contract); }
    });
    var dealers = [];  // a dealer for each seating, the page's own first
    var seen = {};
    [own].concat(plan ? plan.deals.map(function (deal) { return deal.dealer; }) : []).forEach(function (dealer) {
      var form = dealOf(dealer) ? dealOf(dealer).form : "";
      if (!(form in seen)) { seen[form] = true; dealers.push(dealer); }
    });
    var wanted = [];
    dealers.forEach(function (dealer) {
      if (dealer !== own) { wanted.push([dealer, null]); }
      contracts.forEach(function (contract) { wanted.push([dealer, contract]); });
    });
    // The ones not kept on an earlier visit, asked in one request (the server renders each as its own request
    // for it would: table_views._offline_entries), each kept under its seating and game.
    Promise.all([describeInputs(), pageKept]).then(function () {
      return Promise.all(wanted.map(function (want) { return kv.get(entryKey(want[0], want[1])); }));
    }).then(function (kept) {
      var missing = wanted.filter(function (want, i) { return !kept[i]; });
      if (!missing.length) { return; }
      var params = new URLSearchParams(base.concat(missing.map(function (want) {
        return ["want", want[0] + ":" + (want[1] || "")];
      })));
      return fetch(ACTION + "?" + params, { headers: { "HX-Request": "true", "HX-Target": "entry" } })
        .then(function (r) { return r.ok ? r.json() : { entries: [] }; })
        .then(function (answer) {
          return Promise.all(answer.entries.map(function (entry) {
            var html = entry[2];
            if (html && html.indexOf('id="entry"') >= 0) { return kv.set(entryKey(entry[0], entry[1] || null), html); }
          }));
        });
    }).catch(function () { /* kept what could be fetched */ })
      .then(function () { box.dataset.ready = "offline"; });  // all a reload without a connection needs
  }

  Promise.all([kv.get(OUTBOX), kv.get(DRAFT), kv.get(NEXT)]).then(function (stored) {
    rows = (stored[0] || []).map(function (row) {
      return Object.assign(row, { state: row.state === "correcting" ? "refused" : row.state });
    });
    var draft = stored[1];
    var known = stored[2];
    var f = form();
    if (f) {
      server = { n: Number(get(pairs(f), "expected")), dealer: plan ? plan.dealer : 0, bock: plan && plan.bock_next };
      if (copy && known && known.at > Date.parse(copy) && known.next > server.n) {  // stored since the copy
        server = { n: known.next, dealer: known.dealer === undefined ? server.dealer : known.dealer, bock: known.bock };
      }
      var expected = turn().n;
      setHidden(f, "expected", expected);
      setHidden(f, "key", newKey());  // a copy of the page may hold a key already used
      if (!copy) { heard(document); }
    }
    render();
    var restored = Promise.resolve();
    if (f && draft && draft.data) {
      typed = true;
      var row = draft.row && rows.find(function (r) { return r.id === draft.row; });
      if (row || draft.turn !== undefined) { f.dataset.turn = String(row ? row.turn : draft.turn); }
      restored = showEntry(draft.data, navigator.onLine && !copy).then(function () {
        var now = form();
        restore(now, draft.data.filter(function (p) { return p[0] !== "csrfmiddlewaretoken"; }));
        setHidden(now, "key", get(draft.data, "key"));
        // The deals another phone entered under its number: the same entries saved again are refused as
        // that deal still (table_views.SAME_AS), after a reload too.
        setHidden(now, "same_as", get(draft.data, "same_as") || "");
        if (row) {
          row.state = "correcting";
          now.dataset.outboxRow = row.id;
          setHidden(now, "expected", get(draft.data, "expected"));
        } else {
          setHidden(now, "expected", expected);
        }
        render();
      });
    } else {
      keepEntries();  // the server's entry first: it is the one for the server's next deal
      if (f) { restored = refit(); }  // deals waiting here come before the form's: it is for the one after them
    }
    restored.then(function () { showTurn(); send(); });
  });
})();
