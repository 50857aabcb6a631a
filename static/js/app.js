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
