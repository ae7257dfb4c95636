// The page's side of offline play's engine (issue 46): starts offline_worker.js (Pyodide with
// taash's rules core and bots) and asks it one thing at a time.  `ask({op, ...})` resolves with
// the engine's answer, which holds `error` ({code, rule, message}) when the request was
// refused: the rules' refusals carry the same rule ids as the server's.
export class OfflineEngine {
  constructor(url = '/assets/offline_worker.js') {
    this.worker = new Worker(url, { type: 'module' });
    this.waiting = new Map();
    this.next = 1;
    this.worker.addEventListener('message', (e) => {
      const { id, ...answer } = e.data;
      const done = this.waiting.get(id);
      this.waiting.delete(id);
      if (done) done.resolve(answer);
    });
    this.worker.addEventListener('error', (e) => this.fail(e.message || 'the engine did not start'));
  }

  ask(msg) {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ ...msg, id });
    });
  }

  fail(why) {
    for (const { reject } of this.waiting.values()) reject(new Error(why));
    this.waiting.clear();
  }

  close() {
    this.worker.terminate();
    this.fail('the engine was closed');
  }
}
