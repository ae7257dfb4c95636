// The records of offline matches (issue 46), kept in this browser's IndexedDB: each match's
// taash-record/1, written again after every deal (a closed tab loses at most the deal being
// played), listed with "offline" marked, exported as a file, and uploaded once to the player's
// history (POST /api/me/records) when the server can be reached: a record the server took is
// marked uploaded, one it refused keeps the server's reason and is not sent again.
import { api } from './api.js';

const DB = 'taash-offline';
const STORE = 'records';

function open() {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: 'key' });
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/** One transaction on the store: `work(store)` makes a request whose result is resolved. */
async function inStore(mode, work) {
  const db = await open();
  try {
    return await new Promise((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const req = work(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(req ? req.result : undefined);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  } finally {
    db.close();
  }
}

/** Keep (or replace) a match's entry: {key, game, seat, bots, created, updated, over, record}. */
export function keepRecord(entry) {
  return inStore('readwrite', (s) => s.put(entry));
}

/** Every kept entry, newest first. */
export async function offlineRecords() {
  const all = await inStore('readonly', (s) => s.getAll());
  return (all || []).sort((a, b) => b.created - a.created);
}

/** Change some fields of an entry (its upload state). */
async function mark(key, fields) {
  return inStore('readwrite', (s) => {
    const req = s.get(key);
    req.onsuccess = () => { if (req.result) s.put({ ...req.result, ...fields }); };
    return req;
  });
}

/** A file name for an entry's record: taash-<game>-<date and time>.json */
export function recordFileName(entry) {
  const when = new Date(entry.created).toISOString().slice(0, 19).replace(/[T:]/g, '-');
  return `taash-${entry.game}-${when}.json`;
}

/** Download an entry's record as a file. */
export function exportRecord(entry) {
  const blob = new Blob([JSON.stringify(entry.record, null, 1)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = recordFileName(entry);
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

let uploading = null;

/** Send each finished match not sent yet to the player's history, once; at most one run at a
 * time.  Resolves with how many the server took this time.  No connection, or a server that
 * cannot take them now (no such route yet, busy): they wait for the next run. */
export function uploadRecords() {
  if (!uploading) {
    uploading = sendAll().finally(() => { uploading = null; });
  }
  return uploading;
}

async function sendAll() {
  let sent = 0;
  let entries;
  try { entries = await offlineRecords(); } catch { return 0; }
  for (const e of entries) {
    if (!e.over || e.uploaded || e.refused) continue;
    try {
      const res = await api('POST', '/api/me/records', { body: { record: e.record, seat: e.seat } });
      await mark(e.key, { uploaded: { id: res && res.id, at: Date.now() } });
      sent += 1;
    } catch (err) {
      if (err.status === 400 && err.code === 'record_refused') {
        await mark(e.key, { refused: { message: err.message, at: Date.now() } });
        continue;
      }
      return sent; // no connection, no session, no route yet: later
    }
  }
  return sent;
}
