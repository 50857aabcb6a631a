/* The big screen's standings (issue 18): page through a long list by itself, a page of rows every 10 s.
   A page holds as many rows as the screen's height takes below the heading (issue 31: measured, since rows
   with notes are taller; `data-rows` is only the count when nothing can be measured). The list itself
   refreshes by htmx polling (304 while nothing changed); after a swap or a resize the pages are measured
   again and the paging goes on from the page shown. Without JavaScript every row shows. No inline script,
   no eval (CSP). */
(function () {
  "use strict";
  var INTERVAL = 10000;
  var page = 0;

  /* The first row of each page: rows in order, a new page where the next row would reach below the
     screen's bottom edge. */
  function pageStarts(section, rows) {
    rows.forEach(function (row) { row.classList.remove("paged-out"); });
    var fallback = parseInt(section.dataset.rows, 10) || 12;
    var first = rows[0].getBoundingClientRect();
    var bottomGap = 8; /* px kept clear at the bottom edge, so the last row is never cut by the frame */
    var legend = section.querySelector(".bigscreen-legend"); /* the abbreviations spelled out, under the rows */
    var spelled = legend ? legend.getBoundingClientRect().height * 1.5 : 0;
    var room = window.innerHeight - first.top - bottomGap - spelled;
    if (!(first.height > 0) || room <= first.height) {
      var fixed = [];
      for (var k = 0; k < rows.length; k += fallback) { fixed.push(k); }
      return fixed;
    }
    var starts = [0];
    var used = 0;
    rows.forEach(function (row, i) {
      var height = row.getBoundingClientRect().height;
      if (i > starts[starts.length - 1] && used + height > room) {
        starts.push(i);
        used = 0;
      }
      used += height;
    });
    return starts;
  }

  function pageRows() {
    var section = document.querySelector(".bigscreen");
    if (!section) { return; }
    var rows = Array.prototype.slice.call(section.querySelectorAll("tbody tr"));
    if (!rows.length) { return; }
    window.scrollTo(0, 0);
    var starts = pageStarts(section, rows);
    if (page >= starts.length) { page = 0; }
    var begin = starts[page];
    var end = page + 1 < starts.length ? starts[page + 1] : rows.length;
    rows.forEach(function (row, i) {
      row.classList.toggle("paged-out", i < begin || i >= end);
    });
    section.dataset.pageRows = String(end - begin);
    var label = section.querySelector(".bigscreen-page");
    if (label) { label.textContent = starts.length > 1 ? (page + 1) + " / " + starts.length : ""; }
  }

  function next() {
    page += 1;
    pageRows();
  }

  var resizing = null;
  window.addEventListener("resize", function () {
    window.clearTimeout(resizing);
    resizing = window.setTimeout(pageRows, 150);
  });
  document.addEventListener("DOMContentLoaded", function () {
    pageRows();
    window.setInterval(next, INTERVAL);
  });
  document.addEventListener("htmx:afterSwap", pageRows);
})();
