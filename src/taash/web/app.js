// taash in the browser: "/" is the home screen, "/t/{id}" a table.  An invite link
// (/t/{id}?seat=S&token=T) leaves its token in this browser's storage and the address bar
// keeps only /t/{id}?seat=S, so a copied address does not give the seat away.
import { saveSeat, seatAt } from './api.js';
import { pickLang, setLang } from './i18n.js';
import { mountHome } from './home.js';
import { mountTable } from './table.js';

const root = document.getElementById('app');
let unmount = null;

function navigate(url, replace = false) {
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  route();
}

async function relang(code) {
  await setLang(code);
  route();
}

function route() {
  if (unmount) unmount();
  unmount = null;
  window.scrollTo(0, 0);
  const m = location.pathname.match(/^\/t\/([^/]+)\/?$/);
  if (!m) {
    unmount = mountHome(root, { navigate, relang });
    return;
  }
  const id = decodeURIComponent(m[1]);
  const q = new URLSearchParams(location.search);
  let seat = q.get('seat');
  const token = q.get('token');
  if (token) {
    if (seat === null) seat = '0';
    saveSeat(id, seat, token, null);
    history.replaceState(null, '', `/t/${encodeURIComponent(id)}?seat=${seat}`);
  }
  const mine = token ? { seat: Number(seat), token } : seatAt(id, seat);
  unmount = mountTable(root, {
    id, seat: mine ? mine.seat : null, token: mine ? mine.token : null, navigate,
  });
}

window.addEventListener('popstate', route);
setLang(pickLang()).catch(() => setLang('en')).then(route);
