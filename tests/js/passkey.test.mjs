// passkey.js: which refusals of the browser are the page's address (what passkeys need is said
// then), which are a person's "no", and which are neither (issue 43).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { installBrowser } from './browser.mjs';

installBrowser();
const { numericOrPlain, passkeyTrouble, noPasskeysKey } = await import('../../src/taash/web/passkey.js');

const at = (href) => new URL(href);
const err = (name) => ({ name, message: 'x' });

test('an address of numbers or plain http cannot hold passkeys; https and localhost can', () => {
  assert.equal(numericOrPlain(at('http://127.0.0.1:8000/')), true);
  assert.equal(numericOrPlain(at('https://[::1]/')), true);
  assert.equal(numericOrPlain(at('http://taash.example/')), true);
  assert.equal(numericOrPlain(at('http://localhost:8000/')), false);
  assert.equal(numericOrPlain(at('https://taash.example/')), false);
});

test('a refusal is explained by the address where the address is the reason', () => {
  const local = { key: 'passkey_local', local: true };
  assert.deepEqual(passkeyTrouble(err('SecurityError'), at('http://127.0.0.1:8000/')), local);
  assert.deepEqual(passkeyTrouble(err('NotAllowedError'), at('http://127.0.0.1:8000/')), local);
  assert.deepEqual(passkeyTrouble(err('SecurityError'), at('https://taash.example/')), local);
  // where passkeys work, NotAllowedError is the person's "no"; anything else is the browser's
  assert.deepEqual(passkeyTrouble(err('NotAllowedError'), at('http://localhost:8000/')),
    { key: 'passkey_cancelled', local: false });
  assert.equal(passkeyTrouble(err('InvalidStateError'), at('https://taash.example/')), null);
  assert.equal(noPasskeysKey(at('http://127.0.0.1/')), 'passkey_local');
  assert.equal(noPasskeysKey(at('https://taash.example/')), 'passkey_unsupported');
});
