/* scorekeep's service worker (served by scorekeep.web.offline.service_worker at /sw.js, scope "/").
   It keeps the app shell (styles, scripts, icons) from the moment it installs, and a copy of each page
   and of the engine's input description (/api/games) as they were last loaded, so a table page that was
   open once reloads without a connection. Pages are asked from the network first: the copy is only for
   when no answer comes, and is then marked (data-cached on <html>) so the page can say it is not current.
   Deals typed offline are not the worker's business: the page keeps them in IndexedDB (static/js/offline.js). */
"use strict";
var VERSION = "{{ version }}";
var SHELL_CACHE = "scorekeep-shell-" + VERSION;
var PAGE_CACHE = "scorekeep-pages";
var SHELL = {{ shell|safe }};
var STATIC_PREFIX = "{{ static_prefix }}";
var KEEP_PAGES = 40;

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(SHELL_CACHE).then(function (cache) { return cache.addAll(SHELL); })
    .then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("scorekeep-shell-") === 0 && name !== SHELL_CACHE;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

// A page's copy carries when it was stored, as a header of the cached answer.
function keep(request, response) {
  var copy = response.clone();
  return copy.blob().then(function (body) {
    var headers = new Headers(copy.headers);
    headers.set("X-Scorekeep-Stored", new Date().toISOString());
    return caches.open(PAGE_CACHE).then(function (cache) {
      return cache.put(request, new Response(body, { status: copy.status, statusText: copy.statusText, headers: headers }))
        .then(function () { return cache.keys(); })
        .then(function (keys) {  // the oldest copies go first
          return Promise.all(keys.slice(0, Math.max(0, keys.length - KEEP_PAGES)).map(function (old) { return cache.delete(old); }));
        });
    });
  });
}

// The stored copy of a page, marked on <html> with when it was stored: the page says it is not current.
function stored(request, page) {
  return caches.open(PAGE_CACHE).then(function (cache) { return cache.match(request.url, { ignoreVary: true }); }).then(function (hit) {
    if (!hit) { return Response.error(); }
    if (!page) { return hit; }
    return hit.text().then(function (text) {
      var when = hit.headers.get("X-Scorekeep-Stored") || "";
      var marked = text.replace("<html ", '<html data-cached="' + when + '" ');
      return new Response(marked, { status: 200, headers: { "Content-Type": hit.headers.get("Content-Type") || "text/html" } });
    });
  });
}

// From the network, keeping a copy; the copy when no answer comes. A page is answered once its copy is
// kept (a few milliseconds): a reload right after it then finds the copy, whatever the network does.
function networkFirst(event, page) {
  var request = event.request;
  return fetch(request).then(function (response) {
    if (!response.ok || response.type !== "basic") { return response; }
    var kept = keep(new Request(request.url), response).catch(function () { /* full: served all the same */ });
    if (page) { return kept.then(function () { return response; }); }
    event.waitUntil(kept);
    return response;
  }, function () { return stored(request, page); });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) { return; }
  if (request.mode === "navigate" || request.headers.get("X-Scorekeep-Copy") === "page") {
    event.respondWith(networkFirst(event, true));
  } else if (url.pathname === "{% url 'api-games' %}") {
    event.respondWith(networkFirst(event, false));
  } else if (url.pathname.indexOf(STATIC_PREFIX) === 0) {
    event.respondWith(caches.match(request, { cacheName: SHELL_CACHE }).then(function (hit) {
      return hit || fetch(request);
    }));
  }
  // Everything else (htmx's partials, the poll, saves) goes to the network as it is: a page knows what
  // to do when it gets no answer.
});
