#!/usr/bin/env node
// Drives the genuine LeanCloud JS realtime SDK (leancloud-realtime 5.0.0-rc.7, dist/im.js of
// leancloud/js-realtime-sdk @ 8b139d0) through one scenario against a server on 127.0.0.1, with
// the SDK's own API and timers, and logs the SDK's callbacks as JSON lines on stdout:
//   {"t": ms since start, "cb": "<object>.<event>", "args": [...]}
// The SDK is loaded from $VENDOR_SDK_DIR (never from this repository); without it: exit 77.
//
//   node --experimental-websocket driver.js SCENARIO --port N [--peer alice] [--to bob]
//        [--no-binary] [--router] [--duration S] [--role sender|receiver] [--url wss://HOST:PORT/]
// --url: the RTM server's URL instead of ws://127.0.0.1:PORT/ (record_tls.py: wss:// through
// `imwire proxy --tls`, the IMWire CA trusted with NODE_EXTRA_CA_CERTS).
// --router: name the server as `server` (the SDK asks GET /v1/route first) instead of RTMServers.
// Scenarios: clean, drop, refuse, kick, error, error-login, ackclose, twouser, goaway, close-fatal,
// close-retry, freechat (see server.py). freechat also loads typed-messages.js and av-core.js
// (ImageMessage -2, AudioMessage -3 over AV.File.createWithoutData: no upload).
'use strict';
const fs = require('fs');
const path = require('path');

const START = Date.now();
function log(cb, ...args) {
  const clean = args.map(function one(a) {
    if (Array.isArray(a) && a.length && a[0] && a[0].constructor && a[0].constructor.name.endsWith('Message')) return a.map(one);
    if (a instanceof Error) return { error: a.message, code: a.code, name: a.name };
    if (a && typeof a === 'object' && a.constructor && a.constructor.name.endsWith('Message')) {
      return { type: a.constructor.name, id: a.id, cid: a.cid, from: a.from, timestamp: a.timestamp && +a.timestamp, text: a.text };
    }
    if (a && typeof a === 'object' && a.constructor && /Conversation/.test(a.constructor.name)) return { conversation: a.id };
    return a;
  });
  process.stdout.write(JSON.stringify({ t: Date.now() - START, cb, args: clean }) + '\n');
}

const dir = process.env.VENDOR_SDK_DIR;
if (!dir) {
  console.error('skipped: VENDOR_SDK_DIR not set (it must hold im.js of leancloud-realtime 5.0.0-rc.7)');
  process.exit(77);
}
const imPath = path.join(dir, 'im.js');
if (!fs.existsSync(imPath)) {
  console.error(`skipped: ${imPath} missing (leancloud-realtime 5.0.0-rc.7 dist/im.js)`);
  process.exit(77);
}
if (typeof globalThis.WebSocket !== 'function') {
  console.error('run with node --experimental-websocket (Node 20): no global WebSocket');
  process.exit(2);
}

const argv = process.argv.slice(2);
const scenario = argv[0];
function opt(name, dflt) {
  const i = argv.indexOf('--' + name);
  return i >= 0 ? argv[i + 1] : dflt;
}
const port = Number(opt('port', '0'));
const url = opt('url', null);
const peer = opt('peer', 'alice');
const to = opt('to', 'bob');
const role = opt('role', 'sender');
const noBinary = argv.includes('--no-binary');
const defaultDurations = { clean: 195, drop: 25, refuse: 45, kick: 15, error: 8, 'error-login': 8, ackclose: 6, twouser: 12,
  goaway: 12, 'close-fatal': 15, 'close-retry': 12, freechat: 16 };
const duration = Number(opt('duration', defaultDurations[scenario] || 10)) * 1000;
if (!scenario || !(port || url) || !(scenario in defaultDurations)) {
  console.error(`usage: driver.js (${Object.keys(defaultDurations).join('|')}) --port N | --url URL`);
  process.exit(64);
}

const LC = require(imPath);
const { Realtime, TextMessage, Event, setAdapters } = LC;
// The HTTP adapter is only used for the router, which RTMServers skips; with --router the SDK
// asks the server's router (GET /v1/route, as against LeanCloud's cloud) over Node's fetch.
const router = argv.includes('--router');
setAdapters({
  WebSocket: globalThis.WebSocket,
  // (it is also asked for the REST API of notification sync on re-open: logged, refused)
  request: async (url, o) => {
    log('http.request', { method: o && o.method, url });
    if (!router || !url.includes('/v1/route')) throw new Error('no HTTP in this driver but the router');
    const response = await fetch(url, { method: (o && o.method) || 'GET' });
    const data = await response.json();
    log('http.response', { status: response.status, data });
    return { ok: response.ok, status: response.status, headers: {}, data };
  },
});

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const until = (ms) => sleep(Math.max(0, ms - (Date.now() - START)));

let typed = null;
if (scenario === 'freechat') {
  for (const f of ['av-core.js', 'typed-messages.js']) {
    if (!fs.existsSync(path.join(dir, f))) {
      console.error(`skipped: ${path.join(dir, f)} missing (freechat needs leancloud-storage av-core.js and typed-messages)`);
      process.exit(77);
    }
  }
  const AV = require(path.join(dir, 'av-core.js'));
  const mem = new Map();
  AV.setAdapters({
    storage: { async: false, getItem: (k) => (mem.has(k) ? mem.get(k) : null), setItem: (k, v) => mem.set(k, v),
      removeItem: (k) => mem.delete(k), clear: () => mem.clear() },
    request: () => Promise.reject(new Error('no HTTP in this driver')),
  });
  AV.init({ appId: 'imwireVendorSdkTest-MdYXbMMI', appKey: 'imwire-app-key', serverURL: 'http://127.0.0.1:9' });
  typed = require(path.join(dir, 'typed-messages.js'))(AV, LC);
  typed.AV = AV;
}
function file(id, name, metaData) {
  const f = typed.AV.File.createWithoutData(id);
  f.set({ name, url: `http://127.0.0.1:9/files/${name}`, metaData });
  return f;
}

const realtime = new Realtime({
  plugins: typed ? [typed.TypedMessagesPlugin] : [],
  // an international app id (suffix -MdYXbMMI): CN apps must name a `server` even with RTMServers
  appId: 'imwireVendorSdkTest-MdYXbMMI', appKey: 'imwire-app-key',
  ...(router ? { server: `http://127.0.0.1:${port}` } : { RTMServers: url || `ws://127.0.0.1:${port}/` }), noBinary,
});
for (const ev of ['disconnect', 'schedule', 'retry', 'reconnect', 'offline', 'online', 'error']) {
  realtime.on(ev, (...a) => log('realtime.' + ev, ...a));
}

function watchClient(client) {
  const events = ['disconnect', 'schedule', 'retry', 'reconnect', 'reconnecterror', 'conflict', 'close', 'offline', 'online',
    'unreadmessagescountupdate', 'invited', 'kicked', 'membersjoined', 'membersleft', 'unhandledmessage'];
  for (const ev of events) client.on(ev, (...a) => log('client.' + ev, ...a));
}

let exiting = false;
async function finish(client) {
  if (exiting) return;
  exiting = true;
  try {
    if (client) {
      await client.close();
      log('api.close.resolved');
    }
  } catch (e) {
    log('api.close.rejected', e);
  }
  await sleep(500);
  log('exit');
  process.exit(0);
}

async function login() {
  log('api.createIMClient', peer);
  const client = await realtime.createIMClient(peer);
  log('api.createIMClient.resolved', client.id);
  watchClient(client);
  return client;
}

async function send(conv, text) {
  try {
    const m = await conv.send(new TextMessage(text));
    log('api.send.resolved', m);
    return m;
  } catch (e) {
    log('api.send.rejected', e);
    return null;
  }
}

async function main() {
  log('start', { scenario, port, peer, noBinary, sdk: 'leancloud-realtime ' + (LC.version || '5.0.0-rc.7') });
  let client;
  try {
    client = await login();
  } catch (e) {
    log('api.createIMClient.rejected', e);
    await until(duration);
    // No client registered: the SDK keeps the connection; drop it the way a page would on unload.
    log('exit');
    process.exit(0);
  }
  const received = [];
  client.on(Event.MESSAGE, (message, conversation) => {
    log('client.message', message, conversation);
    received.push(message);
    if (scenario === 'ackclose' && received.length === 2) {
      // the user closes right away: the second push's ack is still held by the SDK's throttle
      log('api.close (right after the second push)');
      finish(client);
    }
    if (scenario === 'twouser' && role === 'receiver' && received.length === 1) {
      conversation.send(new TextMessage('hi ' + message.from + ', from ' + peer)).then(
        (m) => log('api.send.resolved', m), (e) => log('api.send.rejected', e));
    }
  });

  if (scenario === 'freechat') return freechat(client, received);
  if (scenario === 'twouser' && role === 'receiver') {
    await until(duration);
    return finish(client);
  }
  let conv;
  try {
    conv = await client.createConversation({ members: [to], name: `${peer} & ${to}`, unique: true });
    log('api.createConversation.resolved', conv);
  } catch (e) {
    log('api.createConversation.rejected', e);
    return finish(client);
  }
  if (scenario === 'ackclose') {
    await until(duration);
    return finish(client);
  }
  await send(conv, 'hello from ' + peer);
  if (scenario === 'error') await send(conv, 'second try from ' + peer);
  if (scenario === 'kick') {
    // after the kick the SDK closes by itself; wait to show that it does not reconnect
    await until(duration);
    log('exit');
    process.exit(0);
  }
  if (['drop', 'refuse', 'goaway', 'close-retry', 'close-fatal'].includes(scenario)) {
    client.on('reconnect', () => send(conv, 'after reconnect from ' + peer));
  }
  await until(duration);
  return finish(client);
}

async function step(name, promise) {
  try {
    const value = await promise;
    if (Array.isArray(value)) log('api.' + name + '.resolved', value);
    else if (value && value.successfulClientIds) log('api.' + name + '.resolved', { successfulClientIds: value.successfulClientIds, failures: value.failures });
    else log('api.' + name + '.resolved', value && value.constructor && /Message|Conversation|ChatRoom/.test(value.constructor.name) ? value : undefined);
    return value;
  } catch (e) {
    log('api.' + name + '.rejected', e);
    return null;
  }
}

// The FreeChat app's flows: alice (sender) runs the group, bob (receiver) follows.
async function freechat(client, received) {
  client.on('invited', async (payload, conversation) => {
    if (role !== 'receiver') return;
    await sleep(300);
    await step('queryMessages', conversation.queryMessages({ limit: 10 }));
  });
  if (role === 'receiver') {
    client.on(Event.MESSAGE, async (message) => {
      if (typeof message.text === 'string' && message.text.startsWith('room:')) {
        const room = await step('getConversation', client.getConversation(message.text.slice(5)));
        if (room) await step('join', room.join());
      }
    });
    await until(duration);
    return finish(client);
  }
  const group = await step('createConversation', client.createConversation({ members: [to, 'carol'], name: 'FreeChat group' }));
  if (!group) return finish(client);
  await sleep(500);
  await step('send', group.send(new TextMessage('hello group from ' + peer)));
  await step('send', group.send(new typed.ImageMessage(file('5f00000000000000000000a1', 'cat.png', { width: 64, height: 48, size: 2048, format: 'png' }))));
  await step('send', group.send(new typed.AudioMessage(file('5f00000000000000000000a2', 'hi.m4a', { duration: 2.5, size: 4096, format: 'm4a' }))));
  await step('add', group.add(['dave']));
  await step('remove', group.remove(['dave']));
  group.name = 'FreeChat group (renamed)';
  await step('save', group.save());
  await step('mute', group.mute());
  await step('unmute', group.unmute());
  await step('queryMessages', group.queryMessages({ limit: 10 }));
  const room = await step('createChatRoom', client.createChatRoom({ name: 'lobby' }));
  if (room) {
    await step('send', group.send(new TextMessage('room:' + room.id)));
    await sleep(1500);
    await step('send', room.send(new TextMessage('hello room from ' + peer)));
  }
  await sleep(1000);
  await step('quit', group.quit());
  await until(duration);
  return finish(client);
}

main().catch((e) => {
  log('driver.error', e);
  process.exit(1);
});
