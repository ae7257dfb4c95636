// Offline play's engine (issue 46), a module worker: Pyodide (CPython compiled to WebAssembly,
// served by this server from /assets/offline/pyodide/, never from a CDN) runs taash's own
// rules core and bots, unchanged, from /assets/offline/taash.zip; taash.offline.Engine answers
// each message.  The page posts {id, op, ...} (offline_engine.js does) and gets {id, ...answer}
// back, in order; the hard bot's search runs here, so the page stays smooth while it thinks.
const HERE = new URL('./offline/', import.meta.url);
const LIB = '/home/pyodide/taash';

const ready = start();

// Pyodide's loader waits for ever when its WebAssembly cannot be compiled or fetched (it only
// warns on the console), so both are tried first: an empty module compiled (a policy without
// 'wasm-unsafe-eval' refuses it) and the interpreter's file asked for its headers, or, with no
// connection, looked for among the files the service worker keeps (sw.js).
async function usable(wasm) {
  try {
    await WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
  } catch (e) {
    throw new Error(`WebAssembly cannot run here: ${e.message}`);
  }
  let res = null;
  try {
    res = await fetch(wasm, { method: 'HEAD' });
  } catch { /* no connection: the service worker answers no HEAD, but may keep the file */ }
  if (res && res.ok) return;
  if (!res && globalThis.caches && await caches.match(wasm)) return;
  throw new Error(`${wasm.pathname}: ${res ? res.status : 'no connection, and no copy kept here'}`);
}

async function start() {
  const t0 = performance.now();
  await usable(new URL('pyodide/pyodide.asm.wasm', HERE));
  const { loadPyodide } = await import(new URL('pyodide/pyodide.mjs', HERE).href);
  const py = await loadPyodide({ indexURL: new URL('pyodide/', HERE).href });
  const t1 = performance.now();
  const res = await fetch(new URL('taash.zip', HERE));
  if (!res.ok) throw new Error(`taash.zip: ${res.status}`);
  py.unpackArchive(await res.arrayBuffer(), 'zip', { extractDir: LIB });
  py.pyimport('sys').path.insert(0, LIB);
  const engine = py.pyimport('taash.offline').Engine();
  const t2 = performance.now();
  const about = {
    python: py.pyimport('sys').version.split(' ')[0],
    pyodide: py.version,
    load_ms: { pyodide: Math.round(t1 - t0), taash: Math.round(t2 - t1) },
  };
  return { engine, about };
}

async function answer(msg) {
  let loaded;
  try {
    loaded = await ready;
  } catch (e) {
    return { error: { code: 'unavailable', rule: null, message: `offline play could not start: ${e}` } };
  }
  if (msg.op === 'hello') return loaded.about;
  try {
    return JSON.parse(loaded.engine.handle_json(JSON.stringify(msg)));
  } catch (e) { // a fault of the engine itself: said, so the page never waits for nothing
    return { error: { code: 'internal', rule: null, message: String(e) } };
  }
}

// one message at a time, in the order they came: each answer starts after the last one ended
let queue = Promise.resolve();
globalThis.addEventListener('message', (e) => {
  const { id, ...msg } = e.data || {};
  queue = queue.then(() => answer(msg)).then((out) => globalThis.postMessage({ id, ...out }));
});
