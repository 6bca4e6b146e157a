#!/usr/bin/env node
// Runs the genuine yun2win web SDK (y2wIMSDK.min.js, Nov 2016) under Node 20 against a server on
// 127.0.0.1 and logs the SDK's own callbacks as JSON lines on stdout:
//   {"t": <ms since start>, "cb": "<callback>", "args": [...]}
// Driver actions are logged as {"t", "act", "args"}; the SDK's console output as cb "console.*".
//
//   node --experimental-websocket driver.js SCENARIO --port N [--seconds S] [--uid UID] [--peer UID]
//
// --uid and --peer name the user and the other member of the session (u1001 and u2001 by default).
// --role receiver (clean only) updates the session with both members, sends nothing until a
// message of the session arrives (not the server's own, y2wMessageId imwire-N), then answers once.
//
// Scenarios (the server, server.py, plays the matching part): clean, keepalive, drop, refuse,
// kick, error, error-token, error-uid, no-accept. The SDK file is third-party code: it is loaded from $VENDOR_SDK_DIR
// and never copied; without it this exits 77 ("skipped").
'use strict';

const fs = require('fs');
const path = require('path');

const argv = process.argv.slice(2);
const scenario = argv[0];
function opt(name, dflt) {
  const i = argv.indexOf('--' + name);
  return i >= 0 && i + 1 < argv.length ? argv[i + 1] : dflt;
}
const port = Number(opt('port', '0'));
const SCENARIOS = ['clean', 'keepalive', 'drop', 'refuse', 'kick', 'error', 'error-token', 'error-uid', 'no-accept'];
if (!SCENARIOS.includes(scenario) || !port) {
  console.error(`usage: node --experimental-websocket driver.js {${SCENARIOS.join('|')}} --port N [--seconds S]`);
  process.exit(2);
}

const sdkDir = process.env.VENDOR_SDK_DIR;
if (!sdkDir) {
  console.error('skipped: VENDOR_SDK_DIR not set (it must hold y2wIMSDK.min.js)');
  process.exit(77);
}
const sdkFile = path.join(sdkDir, 'y2wIMSDK.min.js');
if (!fs.existsSync(sdkFile)) {
  console.error(`skipped: ${sdkFile} missing`);
  process.exit(77);
}
if (typeof globalThis.WebSocket !== 'function') {
  console.error('needs a global WebSocket: run with node --experimental-websocket');
  process.exit(2);
}

// ------------------------------------------------------------------------------------------- log
const t0 = performance.now();
const now = () => Math.round((performance.now() - t0) * 10) / 10;
function plain(v, depth = 0) {
  if (v === undefined) return null;
  if (v === null || typeof v !== 'object') return typeof v === 'function' ? '[function]' : v;
  if (depth > 4) return '[…]';
  if (Array.isArray(v)) return v.map((x) => plain(x, depth + 1));
  if (v instanceof Error) return { error: v.message };
  const out = {};
  for (const k of Object.keys(v)) out[k] = plain(v[k], depth + 1);
  return out;
}
function emit(obj) { process.stdout.write(JSON.stringify(obj) + '\n'); }
const log = (cb, ...args) => emit({ t: now(), cb, args: plain(args) });
const act = (what, ...args) => emit({ t: now(), act: what, args: plain(args) });

// The SDK's own console output is part of what it did ("reconnecting:1…", "authenticate server error…").
for (const level of ['log', 'warn', 'error']) {
  console[level] = (...args) => log('console.' + level, ...args.map((a) => (typeof a === 'string' ? a : plain(a))));
}

// ------------------------------------------------------------------------------- browser stand-ins
// Typed-array species: the bundle's 2016 Buffer polyfill (feross/buffer 3.x) makes its Buffer a
// Uint8Array subclass by __proto__ and slices with `this.subarray(a, b)`, written before
// Symbol.species. In today's V8, subarray constructs `new Buffer(arrayBuffer, offset, length)`
// through the species, which the polyfill reads as "copy this whole ArrayBuffer": every slice is
// the whole buffer and MQTT.js never parses a packet. For constructors other than the built-in
// ones, answer Uint8Array, as the engines of 2016 did (the SDK file itself is untouched).
const TypedArray = Object.getPrototypeOf(Uint8Array);
const builtins = new Set([
  Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array,
  Float32Array, Float64Array, BigInt64Array, BigUint64Array, Buffer,
]);
Object.defineProperty(TypedArray, Symbol.species, {
  configurable: true,
  get() { return builtins.has(this) ? this : Uint8Array; },
});

const listeners = {};
globalThis.addEventListener = (type, fn) => { (listeners[type] = listeners[type] || []).push(fn); };
globalThis.document = { URL: 'http://127.0.0.1/' };
const storage = new Map();
globalThis.localStorage = {
  getItem: (k) => (storage.has(k) ? storage.get(k) : null),
  setItem: (k, v) => { storage.set(k, String(v)); },
  removeItem: (k) => { storage.delete(k); },
};
// jQuery's $.ajax, only for the hard-coded gate request (POST http://imgate1.yun2win.com/gateHandler):
// answered locally with the gate's documented reply; the host is 127.0.0.1, the port comes from
// connect's `servers`.
globalThis.$ = {
  ajax(o) {
    log('gate.request', { url: o.url, type: o.type, data: o.data, contentType: o.contentType });
    setTimeout(() => o.success({ rtnval: 'success', data: { url: '127.0.0.1', region: 'local' } }), 0);
  },
};

const y2wIM = require(sdkFile);
globalThis.y2wIM = y2wIM; // the bundle reads its own enums through the global y2wIM

// --------------------------------------------------------------------------------------- scenario
const UID = opt('uid', 'u1001');
const TOKEN = 'imtoken-3b1f';
const SESSION = { id: 'p2p_2001', mts: 1479460000000 };
const MEMBERS = [{ uid: UID, isDel: false }, { uid: opt('peer', 'u2001'), isDel: false }];
const ROLE = opt('role', 'sender');
const APP_MESSAGE = { syncs: [{ type: 0 }, { type: 1, sessionId: SESSION.id }], pns: { msg: '您有一条新消息' } };

let client = null;
let answered = false;
let connectedCount = 0;
let finished = false;

function finish(code = 0, after = 1500) {
  if (finished) return;
  finished = true;
  act('exit', { after_ms: after });
  setTimeout(() => process.exit(code), after);
}

function logout() {
  act('disconnect');
  client.disconnect(() => log('disconnect.callback'));
}

// Sends one sendMessage; resolves with ['success'] or ['failure', code, mts].
function send(label) {
  return new Promise((resolve) => {
    act('sendMessage', label);
    client.sendMessage(SESSION, APP_MESSAGE, {
      onSuccess: (session, message) => { log('sendMessage.onSuccess', label, session && session.id); resolve(['success']); },
      onFailure: (code, session, message, mts) => { log('sendMessage.onFailure', label, code, mts); resolve(['failure', code, mts]); },
    });
  });
}
function update(label, force) {
  return new Promise((resolve) => {
    act('updateSession', label);
    client.updateSession({ ...SESSION, members: MEMBERS, force: !!force }, APP_MESSAGE, {
      onSuccess: (session) => { log('updateSession.onSuccess', label, session && session.id); resolve(['success']); },
      onFailure: (code, session, mts) => { log('updateSession.onFailure', label, code, mts); resolve(['failure', code]); },
    });
  });
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// What the scenario does each time the SDK reports `connected` (n = 1, 2, …).
async function onConnected(n) {
  switch (scenario) {
    case 'clean': {
      if (ROLE === 'receiver') {
        await update('u1', false); // the server learns the session's members
        await sleep(Number(opt('seconds', '65')) * 1000 - now());
        logout();
        return finish();
      }
      await send('m1');
      await update('u1', false);
      await sleep(Number(opt('seconds', '65')) * 1000 - now()); // idle: the server's push arrives meanwhile
      logout();
      return finish();
    }
    case 'keepalive': {
      await send('m1');
      await sleep(Number(opt('seconds', '320')) * 1000 - now()); // one keep-alive interval (300 s) idle
      logout();
      return finish();
    }
    case 'drop':
    case 'refuse': {
      await send('m' + n);
      if (n >= 2) { await sleep(3000); logout(); return finish(); }
      return; // the server drops this connection
    }
    case 'kick': {
      await send('m1');
      return; // the server kicks; see onStatus
    }
    case 'error': {
      // The demos' recovery (yun2win.md §5): 26 → updateSession with the members, then resend.
      const first = await send('m1');
      if (first[0] === 'failure' && first[1] === 26) {
        await update('u1', true);
        await send('m1-resend');
      }
      await send('m2'); // the server refuses it with 31 (sessionMembersIsNull)
      await sleep(2000);
      logout();
      return finish();
    }
    case 'error-token': {
      if (n > 1) { logout(); return finish(); }
      await send('m1');
      // The server drops this connection after 3 s; after CONNACK 5 the SDK keeps allowReconnect =
      // false, so watch 8 s for an attempt of its own.
      await sleep(11000);
      return finish();
    }
  }
}

function onStatus(status, code) {
  log('onConnectionStatusChanged', status, code);
  if (status === 1) {
    connectedCount += 1;
    onConnected(connectedCount).catch((e) => { log('driver.error', e.message); finish(1); });
  }
  if (status === 100 && scenario === 'kick' && code === 10) {
    // The demos log out on 10; watch 15 s for any reconnect attempt of the SDK's own.
    setTimeout(() => finish(), 15000);
  }
  if (status === 100 && scenario === 'error-token' && code === 5 && connectedCount === 0) {
    // The SDK stops (allowReconnect = false). The demos get a new imToken and call reconnect(token):
    // wait 6 s (no attempt of the SDK's own should come), then do so.
    setTimeout(() => { act('reconnect', 'imtoken-new'); client.reconnect('imtoken-new'); }, 6000);
  }
}

if (scenario === 'error-uid') {
  // CONNACK 4: the SDK logs "uid is invalid!" and sets allowReconnect = false; watch 10 s.
  setTimeout(() => finish(), 10000);
}
if (scenario === 'no-accept') {
  // CONNACK 0 without {"returnCode":11}: watch 25 s (beyond the 10-s connectTimeout) for a retry.
  setTimeout(() => finish(), 25000);
}

act('start', { scenario, port, sdk: sdkFile });
y2wIM.connect(
  {
    appKey: 'app-key-1',
    uid: UID,
    token: TOKEN,
    servers: [{ host: '127.0.0.1', port }],
    onConnectionStatusChanged: onStatus,
    onMessage: (msg) => {
      log('onMessage', msg);
      const id = String((msg && (msg.y2wMessageId || (msg.message && msg.message.y2wMessageId))) || '');
      if (ROLE === 'receiver' && !answered && client && !id.startsWith('imwire-')) {
        answered = true;
        send('reply');
      }
    },
  },
  (c) => {
    client = c;
    log('connect.callback', { clientId: c.options.clientId, keepalive: c.options.keepalive, reconnectPeriod: c.options.reconnectPeriod });
    c.on('reconnect', () => log('client.reconnect', { clientId: c.options.clientId, reconnectingTimes: c.reconnectingTimes }));
    c.on('close', () => log('client.close'));
    c.on('offline', () => log('client.offline'));
  },
);

// A hard stop, whatever happens.
const limit = { clean: 90, keepalive: 360, drop: 40, refuse: 60, kick: 40, error: 60, 'error-token': 40, 'error-uid': 30, 'no-accept': 40 }[scenario];
setTimeout(() => { act('timeout', { seconds: limit }); process.exit(3); }, Number(opt('seconds', 0)) * 1000 + limit * 1000).unref();
