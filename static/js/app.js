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
  document.addEventListener("htmx:sendError", function () { show("offline"); });
  document.addEventListener("htmx:responseError", function () { show("failed"); });
  document.addEventListener("htmx:afterRequest", function (event) {
    var box = notice();
    if (box && event.detail.successful) { box.hidden = true; }
  });
})();
