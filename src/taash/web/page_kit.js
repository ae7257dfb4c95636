// What the pages of their own (events.html, club.html) build with: `$`, `el` (an element with
// its properties and children) and `errorBox` (a failure said in the page's error box).

export const $ = (sel) => document.querySelector(sel);

/** An element: `props` set as its properties (`dataset` merged, `onclick` listened to). */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'dataset') Object.assign(node.dataset, v);
    else if (k === 'onclick') node.addEventListener('click', v);
    else node[k] = v;
  }
  for (const c of children) node.append(c);
  return node;
}

/** The page's error box (`sel`): `showError(e)` says e there (null hides it), and `run(fn)`
 * runs fn with the box cleared first and fn's failure said in it. */
export function errorBox(sel) {
  const showError = (e) => {
    const box = $(sel);
    box.textContent = e ? String(e.message || e) : '';
    box.hidden = !e;
  };
  const run = async (fn) => {
    try {
      showError(null);
      await fn();
    } catch (e) {
      showError(e);
    }
  };
  return { showError, run };
}
