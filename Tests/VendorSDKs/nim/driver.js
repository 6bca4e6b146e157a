#!/usr/bin/env node
// Runs the genuine NIM Web SDK 8.5.0 (NIM_Web_SDK_v8.5.0.js, loaded from $VENDOR_SDK_DIR, never
// copied here) against a local mock server (server.py) for one named scenario, and prints the
// SDK's own callbacks as JSON lines on stdout: {"t": ms since start, "cb": name, "args": [...]}.
//
//   VENDOR_SDK_DIR=/path/to/sdks node --experimental-websocket driver.js SCENARIO --port N
//       [--seconds S] [--account NAME] [--to PEER] [--role sender|receiver]
//
// --account logs in as NAME (alice), --to names the peer messages go to (bob); --role receiver
// (clean only) sends nothing until its peer's first message arrives, then answers it once.
// Scenarios: clean, drop, refuse, kick, kick-silent, error, hb-unanswered (see server.py for what the server does in each).
// The driver only uses the SDK's public API (NIM.getInstance, sendText, disconnect) and its
// own timers; the browser stand-ins below (window, navigator, XMLHttpRequest over fetch) are
// what the SDK needs to run under Node 20. Requests to any host other than 127.0.0.1 (the
// SDK's statistics/report URLs) are refused locally and logged as "blocked".
'use strict';

const fs = require('fs');
const path = require('path');

const SDK_FILE = 'NIM_Web_SDK_v8.5.0.js';
const args = process.argv.slice(2);
const scenario = args[0];
const portIndex = args.indexOf('--port');
const port = portIndex >= 0 ? Number(args[portIndex + 1]) : NaN;
const durIndex = args.indexOf('--seconds');
function opt(name, dflt) {
  const i = args.indexOf('--' + name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : dflt;
}
const account = opt('account', 'alice');
const peer = opt('to', 'bob');
const role = opt('role', 'sender');

const dir = process.env.VENDOR_SDK_DIR;
if (!dir) {
  console.error('skipped: VENDOR_SDK_DIR not set (it must hold ' + SDK_FILE + ')');
  process.exit(77);
}
const sdkPath = path.join(dir, SDK_FILE);
if (!fs.existsSync(sdkPath)) {
  console.error('skipped: ' + sdkPath + ' missing');
  process.exit(77);
}
const SCENARIOS = ['clean', 'drop', 'refuse', 'kick', 'kick-silent', 'error', 'hb-unanswered'];
if (!SCENARIOS.includes(scenario) || !(port > 0)) {
  console.error('usage: node --experimental-websocket driver.js {' + SCENARIOS.join('|') + '} --port N [--seconds S]');
  process.exit(64);
}
if (typeof globalThis.WebSocket !== 'function') {
  console.error('run with node --experimental-websocket (Node 20) or Node >= 22');
  process.exit(64);
}

const start = Date.now();
// The SDK's own logger writes with console.*: keep stdout for the callback log.
for (const k of ['log', 'info', 'warn', 'debug']) console[k] = (...a) => console.error(...a);
function log(cb, ...a) {
  let line;
  try {
    line = JSON.stringify({ t: Date.now() - start, cb, args: a });
  } catch (e) {
    line = JSON.stringify({ t: Date.now() - start, cb, args: [String(a)] });
  }
  process.stdout.write(line + '\n');
}

// ---- browser stand-ins ---------------------------------------------------------------------

const store = new Map();
globalThis.window = globalThis;
globalThis.localStorage = {
  getItem: (k) => (store.has(k) ? store.get(k) : null),
  setItem: (k, v) => store.set(k, String(v)),
  removeItem: (k) => store.delete(k),
  clear: () => store.clear(),
};
Object.defineProperty(globalThis, 'navigator', {
  value: {
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
    onLine: true,
    language: 'en-US',
    platform: 'Linux x86_64',
  },
  configurable: true,
  writable: true,
});
globalThis.location = { protocol: 'http:', hostname: 'localhost', port: '80', href: 'http://localhost/' };
globalThis.addEventListener = () => {};
globalThis.removeEventListener = () => {};

function localURL(url) {
  try {
    const u = new URL(url);
    return u.hostname === '127.0.0.1' || u.hostname === 'localhost';
  } catch (e) {
    return false;
  }
}

// A small XMLHttpRequest over fetch: async GET/POST, status, responseText, the ready-state and
// load/error/timeout callbacks. Only 127.0.0.1 is reachable.
class XMLHttpRequest {
  constructor() {
    this.readyState = 0;
    this.status = 0;
    this.responseText = '';
    this.response = '';
    this.withCredentials = false;
    this.timeout = 0;
    this.headers = {};
    this.onreadystatechange = null;
    this.onload = null;
    this.onerror = null;
    this.ontimeout = null;
    this.onabort = null;
    this.aborted = false;
  }
  open(method, url) {
    this.method = method;
    this.url = url;
    this.readyState = 1;
  }
  setRequestHeader(k, v) {
    this.headers[k] = v;
  }
  getAllResponseHeaders() {
    return this.responseHeaders || '';
  }
  getResponseHeader(k) {
    return (this.responseHeaderMap || {})[String(k).toLowerCase()] || null;
  }
  abort() {
    this.aborted = true;
    if (this.controller) this.controller.abort();
  }
  _finish(ok) {
    this.readyState = 4;
    if (typeof this.onreadystatechange === 'function') this.onreadystatechange();
    if (ok && typeof this.onload === 'function') this.onload();
    if (!ok && typeof this.onerror === 'function') this.onerror(new Error('network error'));
  }
  send(body) {
    const url = this.url;
    if (!localURL(url)) {
      log('blocked', this.method, url.split('?')[0]);
      setTimeout(() => this._finish(false), 0);
      return;
    }
    this.controller = new AbortController();
    let timer = null;
    if (this.timeout > 0) {
      timer = setTimeout(() => {
        this.controller.abort();
        this.readyState = 4;
        if (typeof this.ontimeout === 'function') this.ontimeout(new Error('timeout'));
        else this._finish(false);
      }, this.timeout);
    }
    const init = { method: this.method, headers: this.headers, signal: this.controller.signal };
    if (body != null && this.method !== 'GET' && this.method !== 'HEAD') init.body = body;
    fetch(url, init)
      .then(async (res) => {
        const text = await res.text();
        if (timer) clearTimeout(timer);
        if (this.aborted) return;
        this.status = res.status;
        this.responseText = this.response = text;
        const map = {};
        let raw = '';
        res.headers.forEach((v, k) => {
          map[k] = v;
          raw += k + ': ' + v + '\r\n';
        });
        this.responseHeaderMap = map;
        this.responseHeaders = raw;
        this._finish(true);
      })
      .catch(() => {
        if (timer) clearTimeout(timer);
        if (this.aborted) return;
        this.status = 0;
        this._finish(false);
      });
  }
}
globalThis.XMLHttpRequest = XMLHttpRequest;

// ---- the SDK -------------------------------------------------------------------------------

const SDK = require(sdkPath);
const NIM = SDK.NIM;
if (!NIM || typeof NIM.getInstance !== 'function') {
  console.error('NIM.getInstance not found in ' + sdkPath);
  process.exit(2);
}

const seconds = durIndex >= 0 ? Number(args[durIndex + 1]) : { clean: 70, drop: 40, refuse: 60, kick: 20, 'kick-silent': 20, error: 20, 'hb-unanswered': 60 }[scenario];
const base = 'http://127.0.0.1:' + port;

function brief(obj) {
  // Keep what matters of large SDK objects.
  if (obj == null || typeof obj !== 'object') return obj;
  const out = {};
  for (const k of ['code', 'message', 'reason', 'from', 'custom', 'callFunc', 'retryCount', 'duration', 'willReconnect',
    'type', 'idClient', 'idServer', 'text', 'status', 'scene', 'to', 'time', 'event', 'cmd']) {
    if (obj[k] !== undefined && typeof obj[k] !== 'function') out[k] = obj[k];
  }
  if (obj.event && typeof obj.event === 'object') out.event = brief(obj.event);
  return out;
}

let nim;
let sentOnce = false;

function sendOne(text) {
  nim.sendText({
    scene: 'p2p',
    to: peer,
    text,
    done: (err, msg) => log('sendText:done', err ? brief(err) : null, msg ? brief(msg) : null),
  });
}

const options = {
  appKey: 'imwire-app-key-0000000000000000',
  account,
  token: scenario === 'error' ? 'bad-token' : 'token-' + account,
  debug: !!process.env.NIM_DEBUG,
  db: false,
  dbLog: false,
  logReport: false,
  lbsBackup: false,
  // the SDK's own heartbeat interval, timers and backoff are left at their defaults
  privateConf: {
    lbs_web: base + '/lbs/webconf.jsp',
    link_web: '127.0.0.1:' + port,
    link_ssl_web: false,
    https_enabled: false,
    nt_server: '',
  },
  onconnect: (obj) => {
    log('onconnect', brief(obj));
  },
  onwillreconnect: (obj) => log('onwillreconnect', brief(obj)),
  ondisconnect: (err) => log('ondisconnect', brief(err)),
  onerror: (err) => log('onerror', brief(err)),
  onkicked: (obj) => log('onkicked', brief(obj)),
  onloginportschange: (ports) => log('onloginportschange', (ports || []).length),
  onsyncdone: () => {
    log('onsyncdone');
    if (!sentOnce && role === 'sender' && (scenario === 'clean' || scenario === 'error')) {
      sentOnce = true;
      sendOne('hello from the NIM Web SDK');
      if (scenario === 'error') {
        // the server answers the 1st send 414 and the 2nd 416 (r=[3]: a 3 s lockout of sendMsg);
        // the 3rd falls in the lockout, the 4th after it
        setTimeout(() => sendOne('second (answered 416)'), 1000);
        setTimeout(() => sendOne('third (inside the 416 lockout)'), 2000);
        setTimeout(() => sendOne('fourth (after the lockout)'), 5000);
      }
    }
  },
  onofflinemsgs: (msgs) => log('onofflinemsgs', (msgs || []).map(brief)),
  onroamingmsgs: (msgs) => log('onroamingmsgs', (msgs || []).map(brief)),
  onmsg: (msg) => {
    log('onmsg', brief(msg));
    // A receiver answers the first message of its peer.
    if (role === 'receiver' && !sentOnce && msg && msg.from === peer) {
      sentOnce = true;
      sendOne('hello ' + peer + ', from ' + account);
    }
  },
  onsessions: (s) => log('onsessions', (s || []).length),
  onupdatesession: (s) => log('onupdatesession', brief(s)),
};

log('start', { scenario, port, seconds, sdk: SDK_FILE });
nim = NIM.getInstance(options);

if (scenario === 'clean' && role === 'sender') {
  // a second message later in the session, after the first heartbeat
  setTimeout(() => sendOne('second message'), 40_000);
}

setTimeout(() => {
  log('logout');
  try {
    nim.disconnect({ done: (e) => log('disconnect:done', e ? String(e) : null) });
  } catch (e) {
    log('disconnect:threw', String(e));
  }
  setTimeout(() => {
    log('exit');
    process.exit(0);
  }, 2500);
}, seconds * 1000);

process.on('uncaughtException', (e) => {
  log('uncaughtException', String(e && e.stack ? e.stack.split('\n').slice(0, 3).join(' | ') : e));
});
process.on('unhandledRejection', (e) => {
  log('unhandledRejection', String(e && e.stack ? e.stack.split('\n').slice(0, 3).join(' | ') : e));
});
