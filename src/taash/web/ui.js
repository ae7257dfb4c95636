// Small DOM helpers shared by the home screen and the table: an element builder, toasts and
// modal dialogs.  No framework: the views are small and re-rendered from plain data.

/** h('button', {class: 'x', 'data-card': 'AS', onclick: f}, 'text', child, [more]) */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === null || v === undefined || v === false) continue;
      if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
      else if (k === 'class') el.className = v;
      else if (k === 'text') el.textContent = v;
      else if (k === 'style' && typeof v === 'object') Object.assign(el.style, v);
      else if (k in el && !k.includes('-') && typeof v !== 'string') el[k] = v;
      else el.setAttribute(k, v === true ? '' : String(v));
    }
  }
  append(el, children);
  return el;
}

/** Replace an element's children; null, false and undefined are skipped. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : String(c));
  }
}

let toastBox = null;

/** A short message; kind 'error' stays longer.  On the table it goes into the table's own
 * message row (between the felt and the status line: it takes room from the felt and never
 * lies over a control); elsewhere at the bottom of the screen. */
export function toast(message, kind = 'info', ms = kind === 'error' ? 5000 : 2500) {
  let box = document.querySelector('[data-notices]');
  if (!box) {
    if (!toastBox || !toastBox.isConnected) {
      toastBox = h('div', { class: 'toasts', role: 'status', 'aria-live': 'polite' });
      document.body.append(toastBox);
    }
    box = toastBox;
  }
  const el = h('div', { class: `toast toast-${kind}`, 'data-toast': kind }, message);
  // Two at most: an older one gives way to the newest.
  const shown = box.querySelectorAll(':scope > .toast');
  for (let i = 0; i < shown.length - 1; i++) shown[i].remove();
  box.append(el);
  const remove = () => el.remove();
  el.addEventListener('click', remove);
  setTimeout(remove, ms);
  return el;
}

let dialogs = 0; // the ids that tie a dialog to its title and its text

/**
 * A modal dialog, named by its title.  `actions`: [{label, action, primary, onClick}] —
 * onClick may return false to keep the dialog open.  `described`: its body is text to be read
 * whole (a deal's or the match's summary): a screen reader reads it after the title as the
 * focus moves into the dialog (aria-describedby).  Returns {el, close}.
 */
export function showDialog({ name, title, body, actions = [], onClose, dismissible = true, described = false }) {
  const id = `dialog-${++dialogs}`;
  const dlg = h('dialog', { class: 'dialog', 'data-dialog': name, 'aria-labelledby': title ? `${id}-title` : null,
    'aria-describedby': described ? `${id}-body` : null });
  const close = () => {
    if (!dlg.isConnected) return;
    if (dlg.open) dlg.close();
    dlg.remove();
    if (onClose) onClose();
  };
  const buttons = actions.map((a) => h('button', {
    class: a.primary ? 'btn primary' : 'btn',
    'data-action': a.action,
    onclick: async () => {
      const keep = a.onClick ? await a.onClick() : undefined;
      if (keep !== false) close();
    },
  }, a.label));
  dlg.append(
    title ? h('h2', { class: 'dialog-title', id: `${id}-title` }, title) : null,
    h('div', { class: 'dialog-body', id: `${id}-body` }, body),
    buttons.length ? h('div', { class: 'dialog-actions' }, buttons) : null,
  );
  dlg.addEventListener('cancel', (e) => {
    e.preventDefault();
    if (dismissible) close();
  });
  if (dismissible) {
    dlg.addEventListener('click', (e) => { if (e.target === dlg) close(); });
  }
  document.body.append(dlg);
  dlg.showModal();
  const primary = dlg.querySelector('.btn.primary');
  if (primary) primary.focus();
  return { el: dlg, close };
}

/** A question in the page's own dialog (never the browser's confirm(), which a phone shows
 * out of the page's style and language, and some browsers block): resolves true for `yes`,
 * false for `no` or a dismissal.  The safe answer is the primary one, focused first. */
export function askDialog({ name, title, text, yes, no }) {
  return new Promise((resolve) => {
    let answer = false;
    showDialog({
      name, title, body: [h('p', null, text)],
      actions: [
        { label: no.label, action: no.action, primary: true },
        { label: yes.label, action: yes.action, onClick: () => { answer = true; } },
      ],
      onClose: () => resolve(answer),
    });
  });
}

export function closeDialogs(name) {
  for (const d of document.querySelectorAll(name ? `dialog[data-dialog="${name}"]` : 'dialog')) {
    if (d.open) d.close();
    d.remove();
  }
}

/** Copy text to the clipboard; falls back to selecting it in a field. */
export async function copyText(text, field) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (field) { field.focus(); field.select(); }
    try { return document.execCommand('copy'); } catch { return false; }
  }
}
