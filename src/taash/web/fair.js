// Fair deals, checked in the browser (taash-shuffle/1, RECORD.md "Fair deals"): before each
// deal the server shows its commit (SHA-256 of a secret); this page sends a seed of its own for
// the next deal; once a deal is over the record reveals its secret, and the deck is recomputed
// here with WebCrypto (HMAC-SHA256 and SHA-256, no library) and compared.
import { api } from './api.js';
import { gameOf, loadGames } from './catalogue.js';

export const SCHEME = 'taash-shuffle/1';
const SUITS = 'SHDC';
const RANKS = '23456789TJQKA';

const hex = (buf) => Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, '0')).join('');
const unhex = (s) => new Uint8Array((s.match(/../g) || []).map((x) => parseInt(x, 16)));
const canon = (code) => String(code).toUpperCase().replace(/^10/, 'T');

/** True where this browser can check (WebCrypto needs https or localhost). */
export const canCheck = () => !!(globalThis.crypto && crypto.subtle);

/** The commit of a secret: SHA-256 of its 32 bytes, lowercase hex. */
export async function commitOf(secret) {
  return hex(await crypto.subtle.digest('SHA-256', unhex(secret)));
}

/** A game's pack (`described`: the game as the core describes it, catalogue.js) in the
 * scheme's order: suits S H D C, and in each the game's ranks in the order 2 3 … T J Q K A,
 * whatever order they rank in the game (Goat's ten comes after its nine here). */
export function canonicalPack(described) {
  const ranks = [...RANKS].filter((r) => described.ranks.includes(r));
  const out = [];
  for (const s of SUITS) for (const r of ranks) out.push(r + s);
  return out;
}

/** The deck (top first) and, where the game shows a trump card from its stock (Goat), that
 * card, that a secret and seeds give. */
export async function derive(game, table, deal, seeds, secret) {
  await loadGames();
  const described = gameOf(game);
  const context = new TextEncoder().encode(JSON.stringify([SCHEME, game, table, deal, seeds]));
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', context));
  const key = await crypto.subtle.importKey('raw', unhex(secret), { name: 'HMAC', hash: 'SHA-256' },
    false, ['sign']);
  let k = 0;
  let words = [];
  const next = async () => {
    if (!words.length) {
      const msg = new Uint8Array(digest.length + 8);
      msg.set(digest);
      new DataView(msg.buffer).setBigUint64(digest.length, BigInt(k));
      k += 1;
      const view = new DataView(await crypto.subtle.sign('HMAC', key, msg));
      words = Array.from({ length: 8 }, (_, i) => view.getUint32(4 * i));
    }
    return words.shift();
  };
  const uniform = async (n) => {
    const limit = 2 ** 32 - (2 ** 32 % n);
    for (;;) {
      const u = await next();
      if (u < limit) return u % n;
    }
  };
  const deck = canonicalPack(described);
  for (let i = deck.length - 1; i > 0; i -= 1) {
    const j = await uniform(i + 1);
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  // GT-4: a uniform card of the stock, deck[start + uniform(stop - start)]
  const from = described.shows_trump_card ? described.trump_card_from : null;
  const trumpCard = from ? deck[from[0] + await uniform(from[1] - from[0])] : null;
  return { deck, trumpCard };
}

/** Check one finished deal of a record: `{ok, key, params}` (`key`: the i18n key to say). */
export async function checkDeal(game, index, deal, { commit, seed, seat } = {}) {
  const f = deal && deal.fair;
  if (!f || f.scheme !== SCHEME || !f.secret) return { ok: false, key: 'fair_warn_missing' };
  if (!canCheck()) return { ok: false, key: 'fair_unavailable' };
  if (!/^[0-9a-f]{64}$/.test(f.secret) || await commitOf(f.secret) !== f.commit
      || (commit && commit !== f.commit)) return { ok: false, key: 'fair_warn_commit' };
  const want = await derive(game, f.table, index, f.seeds, f.secret);
  const deck = (deal.deck || []).map(canon);
  if (deck.length !== want.deck.length || deck.some((c, i) => c !== want.deck[i])) {
    return { ok: false, key: 'fair_warn_deck' };
  }
  if (want.trumpCard && deal.trump_card && canon(deal.trump_card) !== want.trumpCard) {
    return { ok: false, key: 'fair_warn_deck' };
  }
  if (seed != null && seat != null && f.seeds[seat] !== seed) return { ok: false, key: 'fair_warn_seed' };
  return { ok: true, key: seed != null ? 'fair_checked' : 'fair_checked_noseed' };
}

const randomSeed = () => hex(crypto.getRandomValues(new Uint8Array(16)));
const storeKey = (id) => `taash-fair-${id}`;

/** The creator's seed for a new table's first deal (POST /api/tables `seed`), or null where
 * this browser has no WebCrypto random numbers. */
export const firstDealSeed = () => (globalThis.crypto && crypto.getRandomValues ? randomSeed() : null);

/** Keep the seed a page sent with a table's creation as its seat's seed for deal 0, so the
 * table's fair check of that deal looks for it. */
export function keepFirstSeed(id, seat, seed) {
  try {
    const mine = JSON.parse(sessionStorage.getItem(storeKey(id)) || '{}');
    mine[0] = { seed, seat };
    sessionStorage.setItem(storeKey(id), JSON.stringify(mine));
  } catch { /* no storage: the check says the deal was not seeded by this page */ }
}

/** A table's fair deals as this page sees them: the commits shown before each deal, the seeds
 * it sent (kept for the tab's life, a reload included), the checks of finished deals. */
export class FairWatch {
  constructor(table) {
    this.table = table;
    this.commits = {};
    this.checks = {};
    this.sending = new Set();
    this.storeKey = storeKey(table.id);
    try { this.mine = JSON.parse(sessionStorage.getItem(this.storeKey) || '{}'); } catch { this.mine = {}; }
  }

  /** A new view: note the commits shown; send a seed for the next deal once. */
  seen(v) {
    const f = v && v.table && v.table.fair;
    if (!f) return;
    if (!(f.deal in this.commits)) this.commits[f.deal] = f.commit;
    if (f.next_commit && !((f.deal + 1) in this.commits)) this.commits[f.deal + 1] = f.next_commit;
    const next = f.deal + 1;
    if (this.table.token && typeof v.seat === 'number' && !v.over && f.next_commit
        && !(next in this.mine) && !this.sending.has(next) && globalThis.crypto) {
      this.send(next, v.seat);
    }
  }

  async send(deal, seat) {
    this.sending.add(deal);
    const seed = randomSeed();
    try {
      const r = await api('POST', `/api/tables/${this.table.id}/seed`,
        { body: { seed }, token: this.table.token });
      this.mine[r.deal] = { seed, seat };
      sessionStorage.setItem(this.storeKey, JSON.stringify(this.mine));
    } catch { /* the deal is dealt without it: the check says so */ }
  }

  /** The check of finished deal `index` (once; the record fetched for it). */
  check(index) {
    if (!this.checks[index]) {
      this.checks[index] = (async () => {
        try {
          // the seat's record (a spectator's is as far behind as the table shows it)
          const rec = await api('GET', `/api/tables/${this.table.id}/record`, { token: this.table.token });
          const mine = this.mine[index];
          return await checkDeal(rec.game, index, (rec.deals || [])[index], {
            commit: this.commits[index], seed: mine ? mine.seed : null, seat: mine ? mine.seat : null,
          });
        } catch {
          delete this.checks[index];
          return { ok: false, key: 'fair_warn_missing' };
        }
      })();
    }
    return this.checks[index];
  }
}
