// The table's messages from the server, in order (table.js): each view drawn one a frame,
// held behind a trick shown for a moment or a deal's summary; pings, errors and the table's
// seats handled at once.  Each takes the table view (`tb`).

/** Handle the messages that came, in order; while a trick is held on screen or a deal's
 * summary is open, the next ones wait (the next deal's trump call is not made behind the
 * summary, unseen).  A backlog (the bots' plays that came while a trick was held, the next
 * deal's behind a summary) is drawn one view a frame: each draw reads the table's layout
 * and writes it anew, so several in one task each forced a layout of their own and held the
 * page past its frame budget on a slow phone.  A hidden page draws them all at once.
 * `drawn`: the caller drew the table in this task already.  Returns whether the table was
 * drawn in this task. */
export function pumpFeed(tb, drawn = false) {
  if (tb.frameWait) {
    if (document.visibilityState === 'visible') return drawn; // the next frame goes on
    cancelAnimationFrame(tb.frameWait);
    tb.frameWait = 0;
  }
  while (!tb.holdTimer && !tb.summaries.holding && tb.queue.length && !tb.dead) {
    if (drawn && document.visibilityState === 'visible') {
      tb.frameWait = requestAnimationFrame(() => {
        tb.frameWait = 0;
        pumpFeed(tb);
      });
      return true;
    }
    drawn = handleMessage(tb, tb.queue.shift()) || drawn;
  }
  return drawn;
}

/** One message from the server; true when it drew a view. */
export function handleMessage(tb, msg) {
  if (msg.type === 'ping') {
    const now = typeof msg.now === 'string' ? Date.parse(msg.now) : NaN;
    if (!Number.isNaN(now)) tb.clockOffset = now - Date.now();
    if (typeof msg.version === 'number' && msg.version > tb.version) tb.resync();
    return false;
  }
  if (msg.type === 'error') {
    tb.showError(msg.error || msg);
    return false;
  }
  if (msg.type === 'table') {
    if (msg.table && typeof msg.version === 'number' && msg.version >= tb.version) tb.setInfo(msg.table);
    return false;
  }
  if (msg.type !== 'view' && msg.type !== 'event') return false;
  if (!msg.view || typeof msg.version !== 'number') return false;
  if (msg.version < tb.version || (msg.version === tb.version && tb.view)) return false;
  tb.setView({ ...msg.view, version: msg.version }, msg.type === 'event' ? msg.events : null);
  return true;
}
