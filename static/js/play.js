/* The dispute page's card picker (docs/PLAY.md): tapping a card types its code into "The tricks as played",
   one trick a line, a new line when a trick is full. The text field is the form's input either way, so the
   page works the same without JavaScript (the picker stays hidden then). Cards already typed are greyed. */
(function () {
  "use strict";
  function field(picker) { return document.getElementById(picker.dataset["for"]); }
  function cardsOf(text) {
    return text.toUpperCase().split(/\n/).map(function (line) {
      return line.split(/[\s,;]+/).filter(Boolean);
    });
  }
  function sync() {
    document.querySelectorAll(".card-picker").forEach(function (picker) {
      var input = field(picker);
      if (!input) { return; }
      picker.hidden = false;
      var typed = {};
      cardsOf(input.value).forEach(function (line) { line.forEach(function (card) { typed[card] = true; }); });
      picker.querySelectorAll("button[data-card]").forEach(function (button) {
        button.disabled = Boolean(typed[button.dataset.card]);
      });
    });
  }
  function changed(input) {
    sync();
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }
  document.addEventListener("click", function (event) {
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
  document.addEventListener("htmx:afterSwap", sync);
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", sync); } else { sync(); }
})();
