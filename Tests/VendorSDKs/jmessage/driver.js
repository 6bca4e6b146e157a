#!/usr/bin/env node
// Drives the genuine JMessage web SDK 2.5.0 (jmessage-sdk-web.2.5.0.min.js, loaded from
// $VENDOR_SDK_DIR, never copied here) through one scenario against server.py, with the SDK's own
// API and timers, and prints the SDK's callbacks as JSON lines:
//   {"t": <ms since start>, "cb": "<callback>", "args": [...]}
//
//   node --experimental-websocket driver.js SCENARIO --port N [--user NAME] [--to PEER] [--duration S] [--role receiver]
//
// --user and --to name the two users (alice and bob by default); --duration shortens the
// scenario's wait (the recordings use the defaults); --role receiver (clean only) sends nothing
// until a message arrives, then answers it: two drivers talk to each other through a server
// that delivers (imwire serve, Tests/VendorSDKs/serve_scorecard.py).
//
// Scenarios (the server plays its part, see server.py): clean, drop, refuse, kick, error, drop-pending, drop-sync, unanswered,
// kick-password.
// Besides the app-level callbacks (init/login/send onSuccess/onFail/onTimeout/onAck, onMsgReceive,
// onEventNotification, onSyncConversation, onSyncEvent, onDisconnect) the driver listens, read
// only, to the events of the SDK's own socket.io client (channel.client: connect, disconnect,
// reconnect_attempt, reconnect, reconnect_error, connect_error) as "io.*" lines, so the
// transport's reconnect attempts and delays are visible; nothing of the SDK is changed.
'use strict';
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');

const argv = process.argv.slice(2);
const scenario = argv[0];
const portIndex = argv.indexOf('--port');
const port = portIndex >= 0 ? Number(argv[portIndex + 1]) : 18300;
function option(name, fallback) {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : fallback;
}
const durationOption = option('--duration', null);
// The scenario's wait: its default, or what --duration leaves of it.
const wait = (ms) => (durationOption === null ? ms : Math.min(ms, Number(durationOption) * 1000));
const role = option('--role', 'sender');
const scenarios = ['clean', 'drop', 'refuse', 'kick', 'error', 'drop-pending', 'drop-sync', 'unanswered', 'kick-password'];
if (!scenarios.includes(scenario)) {
  console.error(`usage: node --experimental-websocket driver.js {${scenarios.join('|')}} --port N`);
  process.exit(64);
}

const dir = process.env.VENDOR_SDK_DIR;
const file = dir ? path.join(dir, 'jmessage-sdk-web.2.5.0.min.js') : null;
if (!dir) {
  console.error('skipped: VENDOR_SDK_DIR not set (it must hold jmessage-sdk-web.2.5.0.min.js)');
  process.exit(77);
}
if (!fs.existsSync(file)) {
  console.error(`skipped: ${file} missing`);
  process.exit(77);
}
if (typeof globalThis.WebSocket !== 'function') {
  console.error('run with node --experimental-websocket (the SDK uses the global WebSocket)');
  process.exit(64);
}

const start = Date.now();
function log(cb, ...args) {
  process.stdout.write(JSON.stringify({ t: Date.now() - start, cb, args }) + '\n');
}

// Browser stand-ins: window, navigator, localStorage.
const store = new Map();
globalThis.window = globalThis;
if (typeof globalThis.navigator === 'undefined') {
  globalThis.navigator = { userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Node/' + process.versions.node };
}
globalThis.localStorage = {
  get length() { return store.size; },
  key(i) { return Array.from(store.keys())[i] ?? null; },
  getItem(k) { return store.has(k) ? store.get(k) : null; },
  setItem(k, v) { store.set(String(k), String(v)); },
  removeItem(k) { store.delete(k); },
  clear() { store.clear(); },
};

// Node 20's WebSocket (undici) fires `error` synchronously inside close() on a connection that is
// still CONNECTING; engine.io-client's onerror calls close() again, so a refused connection
// recurses until the stack overflows. Browsers queue those events; this subclass only makes
// close() idempotent and asynchronous, like a browser's, before the SDK captures the constructor.
class BrowserLikeWebSocket extends globalThis.WebSocket {
  close(...a) {
    if (this.__closing) return;
    this.__closing = true;
    queueMicrotask(() => { try { super.close(...a); } catch (e) { /* already closed */ } });
  }
}
globalThis.WebSocket = BrowserLikeWebSocket;

require(file);
const JMessage = globalThis.JMessage;

const appkey = '4f7aef34fb361292c566a1cd';
const secret = 'imwire-vendor-sdk-secret';
const user = option('--user', 'alice');
const password = user + '-password';
const peer = option('--to', 'bob');

const jim = new JMessage({ address: `ws://127.0.0.1:${port}` });

function watchTransport() {
  const client = jim.channel.client;
  for (const name of ['connect', 'disconnect', 'connect_error', 'connect_timeout', 'reconnect_attempt', 'reconnect', 'reconnect_error', 'reconnect_failed']) {
    client.on(name, (...a) => log('io.' + name, ...a.map((x) => (x instanceof Error ? String(x.message || x) : x))));
  }
}
watchTransport();

let answered = false;
jim.onMsgReceive((data) => {
  log('onMsgReceive', data);
  // A receiver answers the first message of its peer.
  if (role === 'receiver' && !answered && (data.messages || []).some((m) => m.content && m.content.from_id === peer)) {
    answered = true;
    send(`hello ${peer}, from ${user}`);
  }
});
jim.onEventNotification((data) => {
  log('onEventNotification', data);
  // loginOut() inside the SDK replaced the channel's socket.io client: follow the new one.
  setImmediate(() => { if (!jim.isLogin()) watchTransport(); });
});
jim.onSyncConversation((data) => log('onSyncConversation', data));
jim.onSyncEvent((data) => log('onSyncEvent', data));
jim.onSyncMsgReceipt((data) => log('onSyncMsgReceipt', data));
jim.onMsgReceiptChange((data) => log('onMsgReceiptChange', data));
jim.onTransMsgRec((data) => log('onTransMsgRec', data));
jim.onDisconnect(() => log('onDisconnect'));

function init() {
  const timestamp = Date.now();
  const random_str = crypto.randomBytes(8).toString('hex');
  const signature = crypto.createHash('md5')
    .update(`appkey=${appkey}&timestamp=${timestamp}&random_str=${random_str}&key=${secret}`).digest('hex');
  return new Promise((resolve) => {
    jim.init({ appkey, random_str, signature, timestamp, flag: 0 })
      .onSuccess((d) => { log('init.onSuccess', d); resolve(true); })
      .onFail((d) => { log('init.onFail', d); resolve(false); })
      .onTimeout((d) => { log('init.onTimeout', d); resolve(false); })
      .onAck((d) => log('init.onAck', d));
  });
}

function login(pw = password) {
  return new Promise((resolve) => {
    jim.login({ username: user, password: pw })
      .onSuccess((d) => { log('login.onSuccess', d); resolve(true); })
      .onFail((d) => { log('login.onFail', d); resolve(false); })
      .onTimeout((d) => { log('login.onTimeout', d); resolve(false); })
      .onAck((d) => log('login.onAck', d));
  });
}

function send(text) {
  return new Promise((resolve) => {
    jim.sendSingleMsg({ target_username: peer, content: text })
      .onSuccess((d, msg) => { log('sendSingleMsg.onSuccess', d, msg); resolve(true); })
      .onFail((d) => { log('sendSingleMsg.onFail', d); resolve(false); })
      .onTimeout((d) => { log('sendSingleMsg.onTimeout', d); resolve(false); })
      .onAck((d) => log('sendSingleMsg.onAck', d));
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function loginOut() {
  log('app.loginOut');
  jim.loginOut();
  watchTransport(); // loginOut() re-inits the channel: a new socket.io client
}

async function main() {
  log('app.start', { scenario, port, sdk: 'jmessage-sdk-web.2.5.0.min.js' });
  switch (scenario) {
    case 'clean': {
      // ≥ 150 s: two engine.io pings (25 s), the SDK's own sync_check (SYNC_INTERVAL 150 s).
      if (!(await init()) || !(await login())) break;
      if (role !== 'receiver') await send('hello from the genuine JMessage web SDK');
      await sleep(wait(155000)); // the server pushes a message meanwhile; the SDK acks it (msg_recv_v2)
      loginOut();
      await sleep(3000);
      break;
    }
    case 'drop':
    case 'refuse': {
      // The server drops the connection 3 s after login; the app does nothing but watch.
      if (!(await init()) || !(await login())) break;
      await sleep(wait(scenario === 'drop' ? 30000 : 45000));
      log('app.state', { isInit: jim.isInit(), isLogin: jim.isLogin(), isConnect: jim.isConnect() });
      break;
    }
    case 'drop-pending': {
      // A send is in flight (the server withholds its ack) when the server drops the connection.
      if (!(await init()) || !(await login())) break;
      await sleep(2000);
      send('in flight when the connection drops');
      await sleep(40000);
      log('app.state', { isInit: jim.isInit(), isLogin: jim.isLogin(), isConnect: jim.isConnect() });
      break;
    }
    case 'drop-sync': {
      // The SDK's own sync_check after login is in flight (no ack) when the server drops the connection.
      if (!(await init()) || !(await login())) break;
      await sleep(40000);
      log('app.state', { isInit: jim.isInit(), isLogin: jim.isLogin(), isConnect: jim.isConnect() });
      break;
    }
    case 'unanswered': {
      // The server never acks nor answers the login: the SDK's own re-sends, then onTimeout.
      if (!(await init())) break;
      await login();
      await sleep(2000);
      break;
    }
    case 'kick':
    case 'kick-password': {
      // The server sends event_notification event_type 1 (extra 0: logged in elsewhere), or 2.
      if (!(await init()) || !(await login())) break;
      await send('before the kick');
      await sleep(wait(15000));
      log('app.state', { isInit: jim.isInit(), isLogin: jim.isLogin(), isConnect: jim.isConnect() });
      break;
    }
    case 'error': {
      // The server refuses the first login (801004) and the first two sends (803003, 803010).
      if (!(await init())) break;
      if (!(await login('wrong-password'))) await login();
      await send('to a user who does not exist');
      await send('too fast');
      await send('third time lucky');
      await sleep(2000);
      loginOut();
      await sleep(2000);
      break;
    }
  }
  log('app.end');
  process.exit(0);
}

process.on('uncaughtException', (e) => { log('uncaughtException', String(e && e.stack || e)); });
main();
