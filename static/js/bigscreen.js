/* The big screen's standings (issue 18): page through a long list by itself, a page of rows every 10 s.
   The list itself refreshes by htmx polling (304 while nothing changed); after a swap the paging goes on
   from the page shown. Without JavaScript every row shows. No inline script, no eval (CSP). */
(function () {
  "use strict";
  var INTERVAL = 10000;
  var page = 0;

  function pageRows() {
    var section = document.querySelector(".bigscreen");
    if (!section) { return; }
    var size = parseInt(section.dataset.rows, 10) || 12;
    var rows = section.querySelectorAll("tbody tr");
    var pages = Math.max(1, Math.ceil(rows.length / size));
    if (page >= pages) { page = 0; }
    rows.forEach(function (row, i) {
      row.classList.toggle("paged-out", Math.floor(i / size) !== page);
    });
    var label = section.querySelector(".bigscreen-page");
    if (label) { label.textContent = pages > 1 ? (page + 1) + " / " + pages : ""; }
  }

  function next() {
    page += 1;
    pageRows();
  }

  document.addEventListener("DOMContentLoaded", function () {
    pageRows();
    window.setInterval(next, INTERVAL);
  });
  document.addEventListener("htmx:afterSwap", pageRows);
})();
