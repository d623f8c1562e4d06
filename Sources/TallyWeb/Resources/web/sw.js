// Tally's service worker, served at /sw.js so its scope is the whole site. One section per
// job; each stays independent of the others.
"use strict";

// The server writes in the app shell's versioned URLs and a version made of them
// (Assets.versioned), so any new asset is a new worker with a cache of its own.
const VERSION = "TALLY_VERSION";
const SHELL = "TALLY_SHELL";
const SHELL_CACHE = `tally-shell-${VERSION}`;
const PAGES_CACHE = `tally-pages-${VERSION}`;
importScripts(SHELL.find((url) => url.startsWith("/assets/sync-core.js?")));

// ---- Life cycle: the whole shell is fetched before a version takes over; then older
// versions' caches go. Pages kept by the old version are fetched again for this one (their
// HTML names the old assets), so an offline page never mixes versions.
self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL_CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    const old = names.filter((name) => name.startsWith("tally-") && name !== SHELL_CACHE && name !== PAGES_CACHE);
    for (const name of old.filter((n) => n.startsWith("tally-pages-"))) {
      const keys = await (await caches.open(name)).keys();
      await Promise.all(keys.map((request) => keepPage(new Request(request.url)).catch(() => null)));
    }
    await Promise.all(old.map((name) => caches.delete(name)));
    await self.clients.claim();
  })());
});

// ---- Offline: the shell from its cache; Today, Habits, a habit's page and the calendar
// from the network, else the last copy kept of that address. Nothing else is kept: the
// API's answers never are, and the kept pages go when the user signs out.
const OFFLINE_PAGES = [/^\/today$/, /^\/habits$/, /^\/habits\/[0-9a-f-]{36}$/, /^\/calendar$/];

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST" && url.pathname === "/signout") {
    event.waitUntil(forgetPages());
    return;
  }
  if (request.method !== "GET") return;
  if (SHELL.includes(url.pathname + url.search)) {
    event.respondWith(caches.match(request, { cacheName: SHELL_CACHE }).then((hit) => hit || fetch(request)));
  } else if (OFFLINE_PAGES.some((page) => page.test(url.pathname))) {
    event.respondWith(networkFirst(request));
  } else if (request.mode === "navigate") {
    // Any other page, offline, says so in Tally's words rather than the browser's.
    event.respondWith(fetch(request).catch(() => offlinePage()));
  }
});

// ---- Keeping ahead: a page online names the pages it links to that open offline, and the
// worker keeps each one its kept copy of is older than ten minutes (by the copy's Date), so
// a habit's page opens offline without having been visited.
const KEEP_AHEAD_MS = 10 * 60 * 1000;

self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "tally-keep" && Array.isArray(event.data.urls)) {
    event.waitUntil(Promise.all([keepAhead(event.data.urls), keepOfflineWords(event.data.offlinePage)]));
  }
});

async function keepAhead(urls) {
  const cache = await caches.open(PAGES_CACHE);
  for (const href of new Set(urls)) {
    const url = new URL(href, self.location.origin);
    if (url.origin !== self.location.origin || url.search || !OFFLINE_PAGES.some((page) => page.test(url.pathname))) continue;
    const kept = await cache.match(url.href);
    if (kept && Date.now() - Date.parse(kept.headers.get("Date") || "") < KEEP_AHEAD_MS) continue;
    try {
      await keepPage(new Request(url.href));
    } catch (error) {
      return; // offline again: the next page online asks anew
    }
  }
}

function forgetPages() {
  return caches.keys().then((names) => Promise.all(names.filter((n) => n.startsWith("tally-pages-")).map((n) => caches.delete(n))));
}

// Keeps a signed-in page; a redirect (to sign-in) means the session is gone, and so do the
// pages kept for it.
async function keepPage(request) {
  const response = await fetch(request);
  self.TallySync.sawServerClockIn(response);
  if (response.type === "opaqueredirect" || response.redirected) {
    await forgetPages();
  } else if (response.ok && (response.headers.get("Content-Type") || "").startsWith("text/html")) {
    await (await caches.open(PAGES_CACHE)).put(request.url, response.clone());
  }
  return response;
}

async function networkFirst(request) {
  try {
    return await keepPage(request);
  } catch (error) {
    const kept = await caches.match(request.url, { cacheName: PAGES_CACHE, ignoreVary: true });
    return kept || offlinePage();
  }
}

// ---- The page for a page never kept, in the words of the last page seen online (its
// language, from the catalogs through words.js), kept with the pages; English before any.
const OFFLINE_WORDS_URL = "/__tally-offline-words";
const ENGLISH_OFFLINE_WORDS = {
  lang: "en", dir: "ltr", title: "Offline", heading: "You are offline",
  body: "This page was not kept on this device. Today, Habits, each habit's page and the calendar open offline once they have been opened online.",
  today: "Today",
};
const STYLESHEETS = SHELL.filter((url) => url.startsWith("/assets/") && url.includes(".css?"))
  .map((url) => `<link rel="stylesheet" href="${url}">`).join("");

async function keepOfflineWords(words) {
  if (!words || typeof words !== "object") return;
  const kept = {};
  for (const name of Object.keys(ENGLISH_OFFLINE_WORDS)) {
    if (typeof words[name] !== "string" || words[name].length > 1000) return;
    kept[name] = words[name];
  }
  const body = JSON.stringify(kept);
  await (await caches.open(PAGES_CACHE)).put(OFFLINE_WORDS_URL, new Response(body, { headers: { "Content-Type": "application/json" } }));
}

// The words are text: every one is escaped into the markup, whatever a page handed over.
function escaped(text) {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

async function offlinePage() {
  const kept = await caches.match(OFFLINE_WORDS_URL, { cacheName: PAGES_CACHE }).catch(() => null);
  const words = (kept && (await kept.json().catch(() => null))) || ENGLISH_OFFLINE_WORDS;
  const dir = words.dir === "rtl" ? "rtl" : "ltr";
  const html = `<!doctype html><html lang="${escaped(words.lang)}" dir="${dir}"><head><meta charset="utf-8">`
    + `<meta name="viewport" content="width=device-width, initial-scale=1"><title>${escaped(words.title)} · Tally</title>${STYLESHEETS}</head>`
    + `<body><main id="main"><div class="card narrow"><h1>${escaped(words.heading)}</h1><p role="alert">${escaped(words.body)}</p>`
    + `<p><a href="/today">${escaped(words.today)}</a></p></div></main></body></html>`;
  return new Response(html, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

// ---- Background Sync: where the browser has it, the outbox is sent when the connection
// returns even if no Tally page is open; open pages are told to show it.
self.addEventListener("sync", (event) => {
  if (event.tag !== "tally-outbox") return;
  event.waitUntil((async () => {
    const user = await self.TallySync.signedIn();
    if (!user) return;
    await self.TallySync.send(user);
    const windows = await self.clients.matchAll({ type: "window" });
    windows.forEach((client) => client.postMessage({ type: "tally-synced" }));
  })());
});

// ---- Web Push: show each reminder the server pushes (docs/reminders.md) ----
// The payload is Tally's JSON: title, body, tag (the reminder's key, so a repeat replaces
// rather than stacks) and url, the page a tap opens.
self.addEventListener("push", (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch (_) {
    message = { body: event.data ? event.data.text() : "" };
  }
  event.waitUntil(self.registration.showNotification(message.title || "Tally", {
    body: message.body || "",
    tag: message.tag || "tally",
    icon: "/assets/icon-192.png",
    data: { url: message.url || "/today" },
  }));
});

// A tap focuses a Tally window already open on that page, else opens one; only this site's
// pages are opened, whatever the payload says.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  let target = new URL((event.notification.data && event.notification.data.url) || "/today", self.location.origin);
  if (target.origin !== self.location.origin) target = new URL("/today", self.location.origin);
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
    const same = windows.find((client) => new URL(client.url).pathname === target.pathname);
    if (same) return same.focus();
    return self.clients.openWindow(target.href);
  }));
});
