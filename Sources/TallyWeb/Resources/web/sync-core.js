// The offline outbox (docs/offline.md): changes made without a connection, kept in IndexedDB as
// sync changes (docs/sync.md) until the server acknowledges them. Shared by the pages
// (offline.js) and the service worker (sw.js), so it touches no DOM.
"use strict";

self.TallySync = (() => {
  const DATABASE = "tally-offline";
  const BATCH = 500;
  const MAX_COUNTER = 0xffffffff;
  let opened = null;

  function done(request) {
    return new Promise((resolve, reject) => {
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  }

  function finished(transaction) {
    return new Promise((resolve, reject) => {
      transaction.oncomplete = () => resolve();
      transaction.onerror = transaction.onabort = () => reject(transaction.error || new Error("storage refused"));
    });
  }

  function database() {
    if (!opened) {
      const request = indexedDB.open(DATABASE, 1);
      request.onupgradeneeded = () => {
        request.result.createObjectStore("outbox", { keyPath: "key" });
        request.result.createObjectStore("meta");
      };
      opened = done(request);
      opened.catch(() => { opened = null; });
    }
    return opened;
  }

  async function readMeta(name) {
    const db = await database();
    return done(db.transaction("meta").objectStore("meta").get(name));
  }

  async function writeMeta(name, value) {
    const db = await database();
    const transaction = db.transaction("meta", "readwrite");
    transaction.objectStore("meta").put(value, name);
    return finished(transaction);
  }

  // crypto.randomUUID needs a secure page; a LAN address over http still gets an id.
  function uuid() {
    if (self.crypto.randomUUID) return self.crypto.randomUUID();
    const bytes = self.crypto.getRandomValues(new Uint8Array(16));
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  // ---- The hybrid logical clock, in sync.md's text: 16 digits of milliseconds, 8 hex digits
  // of counter, the device. Wall time is the server's, as last read from an answer (a device
  // whose own clock is days off would have every push refused), and a stamp is never behind
  // one this browser made or saw.
  const stampText = (ms, counter, device) =>
    `${String(ms).padStart(16, "0")}-${counter.toString(16).padStart(8, "0")}-${device}`;

  function wall(serverClock) {
    return Math.max(0, Math.round(Date.now() + (serverClock ? serverClock.server - serverClock.local : 0)));
  }

  function tick(latest, now) {
    if (!latest || latest.ms < now) return { ms: now, counter: 0 };
    if (latest.counter < MAX_COUNTER) return { ms: latest.ms, counter: latest.counter + 1 };
    return { ms: latest.ms + 1, counter: 0 };
  }

  // Every answer names the server's clock (`Tally-Clock`); the freshest reading wins, and
  // the clock has then seen that time.
  function sawServerClockIn(response) {
    return sawServerClock(Number(response.headers.get("Tally-Clock"))).catch(() => {});
  }

  async function sawServerClock(serverMs) {
    if (!Number.isFinite(serverMs) || serverMs <= 0) return;
    const db = await database();
    const transaction = db.transaction("meta", "readwrite");
    const meta = transaction.objectStore("meta");
    const [best, latest] = await Promise.all([done(meta.get("serverClock")), done(meta.get("latest"))]);
    if (!best || serverMs > best.server) meta.put({ server: serverMs, local: Date.now() }, "serverClock");
    if (!latest || serverMs > latest.ms) meta.put({ ms: serverMs, counter: 0 }, "latest");
    return finished(transaction);
  }

  async function now() {
    return wall(await readMeta("serverClock"));
  }

  // Stamps the change and keeps it in one transaction, so two tabs never share a stamp and
  // a change is either kept with its stamp or not at all. A later change of the same
  // entity replaces the earlier one: sync takes the latest value anyway.
  async function record(user, { kind, id, fields, deleted }) {
    const db = await database();
    const transaction = db.transaction(["meta", "outbox"], "readwrite");
    const meta = transaction.objectStore("meta");
    let device = await done(meta.get("device"));
    if (!device) {
      device = uuid();
      meta.put(device, "device");
    }
    const [latest, serverClock] = await Promise.all([done(meta.get("latest")), done(meta.get("serverClock"))]);
    const next = tick(latest, wall(serverClock));
    meta.put(next, "latest");
    const change = { key: `${user}|${kind}|${id}`, user, kind, id, fields, stamp: stampText(next.ms, next.counter, device) };
    if (deleted) change.deleted = true;
    transaction.objectStore("outbox").put(change);
    await finished(transaction);
    return change;
  }

  async function pending(user) {
    const db = await database();
    const all = await done(db.transaction("outbox").objectStore("outbox").getAll());
    return all.filter((change) => change.user === user).sort((a, b) => (a.stamp < b.stamp ? -1 : 1));
  }

  // Only what the server acknowledged goes, and only if it was not edited again meanwhile.
  async function acknowledge(changes) {
    const db = await database();
    const transaction = db.transaction("outbox", "readwrite");
    const outbox = transaction.objectStore("outbox");
    for (const change of changes) {
      const kept = await done(outbox.get(change.key));
      if (kept && kept.stamp === change.stamp) outbox.delete(change.key);
    }
    return finished(transaction);
  }

  // The server's reason (its problem's detail) and status; the page words it (offline.js).
  class Refused extends Error {
    constructor(detail, status) {
      super(detail);
      this.status = status;
    }
  }

  // Pushes the user's outbox through /api/v1/sync with the browser's session. A refusal
  // (4xx) keeps the changes and says why; nothing is dropped unacknowledged.
  async function sendAll(user) {
    const changes = await pending(user);
    const device = await readMeta("device");
    for (let start = 0; start < changes.length; start += BATCH) {
      const batch = changes.slice(start, start + BATCH);
      const response = await fetch("/api/v1/sync", {
        method: "POST", credentials: "same-origin", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ device, changes: batch.map(({ kind, id, stamp, fields, deleted }) => (deleted ? { kind, id, stamp, deleted } : { kind, id, stamp, fields })) }),
      });
      await sawServerClockIn(response);
      if (!response.ok) {
        const body = await response.json().catch(() => ({}));
        const detail = response.status === 401 ? "" : body.detail || "";
        if (response.status >= 500 || response.status === 429) throw new Error(detail || String(response.status));
        throw new Refused(detail, response.status);
      }
      await acknowledge(batch);
    }
    if (changes.length) await writeMeta(`lastSync|${user}`, Date.now());
    return changes.length;
  }

  // One sender at a time across tabs and the worker (a batch sent twice is harmless, but
  // wasted).
  function send(user) {
    return self.navigator.locks ? self.navigator.locks.request("tally-sync", () => sendAll(user)) : sendAll(user);
  }

  return {
    record, pending, send, sawServerClockIn, now, uuid, Refused,
    lastSync: (user) => readMeta(`lastSync|${user}`),
    // Who the browser's session last belonged to, for the worker's Background Sync.
    signedIn: () => readMeta("user"),
    setSignedIn: (user) => writeMeta("user", user),
  };
})();
