// Tally's service worker, served at /sw.js so its scope is the whole site. One section per
// job; each stays independent of the others.
"use strict";

// ---- Life cycle: a new version takes over open pages at once ----
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

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
