/* scorekeep printout: a Print button where JavaScript runs (without it the button stays hidden and
   the browser's own Print menu does the same). No inline handlers: the page's Content-Security-
   Policy allows scripts from the site only. */
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-print]").forEach(function (button) {
      button.hidden = false;
      button.addEventListener("click", function () { window.print(); });
    });
  });
})();
