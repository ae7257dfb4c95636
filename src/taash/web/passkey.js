// Passkeys in the browser: the server's WebAuthn options (JSON, binary fields in base64url)
// become what navigator.credentials takes (ArrayBuffers), and the credential it gives back
// becomes JSON again for the server (PublicKeyCredential.toJSON's shape).

/** base64url text (no padding) of bytes. */
export function toB64url(buffer) {
  const bytes = buffer instanceof ArrayBuffer ? new Uint8Array(buffer)
    : new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  let bin = '';
  for (let i = 0; i < bytes.length; i += 1) bin += String.fromCharCode(bytes[i]);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The bytes (an ArrayBuffer) of base64url text, padded or not. */
export function fromB64url(text) {
  const b64 = String(text).replace(/-/g, '+').replace(/_/g, '/');
  const bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i += 1) out[i] = bin.charCodeAt(i);
  return out.buffer;
}

/** Whether this page's address is one the browser makes no passkeys for, or may not: an
 * address of numbers (127.0.0.1, ::1), or a name other than localhost over plain http. */
export function numericOrPlain(where = location) {
  const host = where.hostname;
  const numeric = /^\d+\.\d+\.\d+\.\d+$/.test(host) || host.includes(':') || host.startsWith('[');
  const localName = host === 'localhost' || host.endsWith('.localhost');
  return numeric || (where.protocol !== 'https:' && !localName);
}

/** What to tell the player when the browser refuses a passkey (`e`, its DOMException), as
 * `{key, local}`: `passkey_local` (what passkeys need, and what signs in meanwhile) where the
 * page's address is the reason (a SecurityError anywhere, and any refusal on an address of
 * numbers or plain http, where the browser gives its "no" without asking anyone);
 * `passkey_cancelled` for a person's "no"; else null (the browser's own message). */
export function passkeyTrouble(e, where = location) {
  const name = e && e.name;
  if (name === 'SecurityError' || (numericOrPlain(where) && (name === 'NotAllowedError' || name === 'TypeError'))) {
    return { key: 'passkey_local', local: true };
  }
  if (name === 'NotAllowedError') return { key: 'passkey_cancelled', local: false };
  return null;
}

/** Why the page offers no passkeys where the browser has none: its address (the same
 * sentence as passkeyTrouble's), or the browser itself. */
export function noPasskeysKey(where = location) {
  const host = where.hostname;
  return numericOrPlain(where) || host === 'localhost' || host.endsWith('.localhost')
    ? 'passkey_local' : 'passkey_unsupported';
}

/** Whether this browser can make and use passkeys at all. */
export function passkeysSupported() {
  return typeof window.PublicKeyCredential === 'function' && !!navigator.credentials;
}

const descriptors = (list) => (list || []).map((d) => ({ ...d, id: fromB64url(d.id) }));

/** navigator.credentials.create with the server's registration options: the credential as
 * JSON.  Throws a DOMException named NotAllowedError when the person declines. */
export async function createPasskey(options) {
  const publicKey = {
    ...options,
    challenge: fromB64url(options.challenge),
    user: { ...options.user, id: fromB64url(options.user.id) },
    excludeCredentials: descriptors(options.excludeCredentials),
  };
  const cred = await navigator.credentials.create({ publicKey });
  const r = cred.response;
  return {
    id: cred.id,
    rawId: toB64url(cred.rawId),
    type: cred.type,
    authenticatorAttachment: cred.authenticatorAttachment || undefined,
    clientExtensionResults: cred.getClientExtensionResults ? cred.getClientExtensionResults() : {},
    response: {
      clientDataJSON: toB64url(r.clientDataJSON),
      attestationObject: toB64url(r.attestationObject),
      transports: typeof r.getTransports === 'function' ? r.getTransports() : [],
    },
  };
}

/** navigator.credentials.get with the server's sign-in options (any passkey of this site:
 * the authenticator offers the accounts it keeps): the assertion as JSON. */
export async function getPasskey(options) {
  const publicKey = {
    ...options,
    challenge: fromB64url(options.challenge),
    allowCredentials: descriptors(options.allowCredentials),
  };
  const cred = await navigator.credentials.get({ publicKey });
  const r = cred.response;
  return {
    id: cred.id,
    rawId: toB64url(cred.rawId),
    type: cred.type,
    authenticatorAttachment: cred.authenticatorAttachment || undefined,
    clientExtensionResults: cred.getClientExtensionResults ? cred.getClientExtensionResults() : {},
    response: {
      clientDataJSON: toB64url(r.clientDataJSON),
      authenticatorData: toB64url(r.authenticatorData),
      signature: toB64url(r.signature),
      userHandle: r.userHandle ? toB64url(r.userHandle) : undefined,
    },
  };
}
