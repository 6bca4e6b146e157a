#!/usr/bin/env python3
"""Writes Fixtures/reconnect/<vendor>/<case>.json: golden traces of the reconnect machine.

Each case below is an event file (Spec/reconnect.md §2); the expected trace is what
`imwire reconnect simulate --format json` prints for it, reviewed by hand and re-checked by
Tests/CrossCheck/reconnect.py, which re-derives delays, budgets, stops and flags from the
reference's numbers without IMWire's code.

Usage: scripts/make-reconnect-fixtures.py [path/to/imwire]   (run from the repository root)
"""
import json
import os
import subprocess
import sys
import tempfile

IMWIRE = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/imwire"
VERIFIED_BY = ["Tests/CrossCheck/reconnect.py (retry delays, budgets, stops, reconnect flags, outputs from the reference's numbers)"]

def ev(ms, name, **fields):
    return dict(ms=ms, event=name, **fields)

def login(ms, code, route=True, wait=None):
    """The user's login through a successful route lookup and transport."""
    events = [ev(ms, "user-login")]
    if route:
        events.append(ev(ms + 20, "route-resolved"))
    events.append(ev(ms + 50, "transport-opened"))
    extra = {} if wait is None else {"wait_ms": wait}
    events.append(ev(ms + 80, "login-response", code=code, **extra))
    return events

def relogin(ms, code, wait=None):
    """An automatic attempt that gets its transport and a login answer."""
    extra = {} if wait is None else {"wait_ms": wait}
    return [ev(ms, "transport-opened"), ev(ms + 30, "login-response", code=code, **extra)]

CASES = []

def case(vendor, name, policy, description, source, events, until=None, seed=0):
    CASES.append(dict(vendor=vendor, name=name, policy=policy, description=description, source=source,
                      input=dict(seed=seed, **({"until": until} if until is not None else {}), events=events)))

LC8 = "leancloud.md §8"
# ---- LeanCloud ----
case("leancloud", "swift-normal-reconnect", "leancloud-swift",
     "Swift: a 1006 close is answered by an immediate reconnect that re-opens with r=true; the client shows Paused, Resuming, then Opened with imClientResumed",
     LC8 + " swift-sdk backoff −1, 0, …; §4.2 r flag",
     login(0, 0) + [ev(5000, "transport-closed", code=1006)] + relogin(5100, 0))
case("leancloud", "swift-backoff-to-cap", "leancloud-swift",
     "Swift: consecutive failed attempts wait −1, 0, 1, 2, 4, 8, 16 s, then 30 s repeating",
     LC8 + " RTMConnection.swift:140-165",
     login(0, 0) + [ev(1000, "transport-closed", code=1006), ev(1010, "transport-failed"), ev(1020, "transport-failed")]
     + [ev(t, "transport-failed") for t in [2030, 4040, 8050, 16060, 32070, 62080, 92090]], until=122100)
case("leancloud", "swift-conflict-4111", "leancloud-swift",
     "Swift: session/closed 4111 (another device logged in) closes the client for good; nothing reconnects until the user logs in",
     LC8 + "; objc LCIMClientProtocol.h (closed ⇒ no auto-recover)",
     login(0, 0) + [ev(9000, "kicked", code=4111)], until=600000)
case("leancloud", "swift-kicked-by-app-4115", "leancloud-swift",
     "Swift: session/closed 4115 (kicked through the REST API) stops; a later user login starts again with r absent",
     LC8 + "; leancloud.md §5.1 4115",
     login(0, 0) + [ev(9000, "kicked", code=4115)] + login(60000, 0, route=False))
case("leancloud", "swift-token-expired-4112", "leancloud-swift",
     "Swift: a re-open answered 4112 SESSION_TOKEN_EXPIRED asks for a new signature, then re-opens",
     "leancloud.md §4.2: on 4112 re-sign and re-open (IMClient.swift:1465-1510)",
     login(0, 0) + [ev(5000, "transport-closed", code=1006)] + relogin(5100, 4112)
     + [ev(5600, "credentials-refreshed")] + relogin(5700, 0))
case("leancloud", "swift-goaway", "leancloud-swift",
     "Swift: goaway clears the router cache and reconnects at once through a fresh route lookup",
     "leancloud.md §3 goaway: RTMConnection.swift handleGoaway",
     login(0, 0) + [ev(7000, "goaway"), ev(7040, "route-resolved")] + relogin(7100, 0))
case("leancloud", "swift-wrong-signature-4102", "leancloud-swift",
     "Swift: the first session/open answered 4102 SIGNATURE_FAILED stops with Closed(4102)",
     "leancloud.md §5.1 4102; registry im-error fatal-credentials",
     login(0, 4102), until=300000)
case("leancloud", "swift-chat-room-rejoin-inside-window", "leancloud-swift",
     "Swift: a transient conversation joined before a 20-minute outage is re-joined on the reconnect",
     "issue #7 (30-minute window, UNCONFIRMED)",
     login(0, 0) + [ev(1000, "chat-room-joined"), ev(2000, "network-down"), ev(1202000, "network-up")] + relogin(1202100, 0))
case("leancloud", "swift-chat-room-rejoin-outside-window", "leancloud-swift",
     "Swift: after a 40-minute outage the re-join window has closed; the app is told to join again",
     "issue #7 (30-minute window, UNCONFIRMED)",
     login(0, 0) + [ev(1000, "chat-room-joined"), ev(2000, "network-down"), ev(2402000, "network-up")] + relogin(2402100, 0))
case("leancloud", "swift-network-flapping", "leancloud-swift",
     "Swift: the network flaps; attempts wait offline and every network change restarts the schedule",
     LC8 + ": reset on reachability change",
     login(0, 0) + [ev(3000, "network-down"), ev(3500, "network-up"), ev(3600, "transport-failed"),
                    ev(3700, "network-down"), ev(4000, "network-up"), ev(4100, "transport-failed"), ev(4200, "transport-failed")]
     + relogin(5200, 0))
case("leancloud", "swift-background-foreground", "leancloud-swift",
     "Swift on iOS: entering the background closes the connection (Paused); the foreground reconnects with r=true",
     LC8 + ": applicationStateChanged",
     login(0, 0) + [ev(4000, "app-background"), ev(60000, "app-foreground")] + relogin(60100, 0))
case("leancloud", "swift-router-404", "leancloud-swift",
     "Swift: the RTM router answers 404; the SDK stops retrying",
     LC8 + ": connectingWorkItem `if error.code != 404 { tryConnecting() }`",
     [ev(0, "user-login"), ev(300, "route-failed", status=404)], until=120000)
case("leancloud", "swift-route-cache-cleared", "leancloud-swift",
     "Swift: ten failed connects in a row clear the router cache; the next attempt looks the route up afresh",
     "leancloud.md §3: RTMRouter.swift Table.shouldClear (continuousFailureCount ≥ 10)",
     [ev(0, "user-login"), ev(20, "route-resolved")]
     + [ev(t, "transport-failed") for t in [100, 110, 1120, 3130, 7140, 15150, 31160, 61170, 91180, 121190]]
     + [ev(151200, "route-resolved")] + relogin(151300, 0))
case("leancloud", "swift-heartbeat-keeps-pinging", "leancloud-swift",
     "Swift: a ping every 180 s; an unanswered ping is followed by another after 20 s, the link stays up",
     LC8 + ": pingpongInterval 180, pingTimeout 20",
     login(0, 0) + [ev(180200, "heartbeat-answered")], until=440000)
case("leancloud", "js-backoff-to-cap", "leancloud-js",
     "JS: failed reconnects wait 1, 2, 4, … s up to 300 s, with a schedule event each time",
     LC8 + ": min(1000·2^attempt, 300000) ms",
     login(0, 0) + [ev(1000, "transport-closed", code=1006)]
     + [ev(t, "transport-failed") for t in [2010, 4020, 8030, 16040, 32050, 64060, 128070, 256080, 512090, 812100]],
     until=1112110)
case("leancloud", "js-fatal-close-4100", "leancloud-js",
     "JS: the WebSocket closes with 4100 APP_NOT_AVAILABLE, a fatal close code: no reconnect, an error event",
     "leancloud.md §5.2: realtime.js:255-270",
     login(0, 0) + [ev(2000, "transport-closed", code=4100)], until=600000)
case("leancloud", "js-conflict-4111", "leancloud-js",
     "JS: session/closed 4111 emits conflict and stops",
     "leancloud.md §4.2: im-client.js:160-190",
     login(0, 0) + [ev(2000, "kicked", code=4111)], until=600000)
case("leancloud", "js-close-4102-reconnects", "leancloud-js",
     "JS reconnects on every close but 4100, 4103 and 4110, even 4102",
     "leancloud.md §5.2: any other close → reconnect",
     login(0, 0) + [ev(2000, "transport-closed", code=4102)] + relogin(3000, 0))
case("leancloud", "js-heartbeat-dead", "leancloud-js",
     "JS: an echo every 180 s; unanswered for 200 s (380 s of silence) the link is dropped and the client reconnects",
     LC8 + ": HEARTBEAT_TIME 180000, TIMEOUT_TIME 380000",
     login(0, 0), until=382000)
case("leancloud", "js-offline-online", "leancloud-js",
     "JS: offline and online events; coming back online reconnects at once",
     LC8 + ": 0 when coming from offline",
     login(0, 0) + [ev(3000, "network-down"), ev(20000, "network-up")] + relogin(20050, 0))
case("leancloud", "java-budget-exhausted", "leancloud-java",
     "Java: three reconnects after 2, 4 and 8 s, then the SDK gives up",
     LC8 + ": LCConnectionManager.java:114-133",
     login(0, 0) + [ev(1000, "transport-closed", code=1006), ev(3010, "transport-failed"), ev(7020, "transport-failed"),
                    ev(15030, "transport-failed")], until=120000)
case("leancloud", "csharp-budget-resets-route", "leancloud-csharp",
     "C#: ten reconnects every 10 s, then the router is reset and the loop goes on",
     LC8 + ": ReconnectState.cs:8-10",
     login(0, 0) + [ev(1000, "transport-closed", code=1006)]
     + [ev(1000 + 10000 * i + 10, "transport-failed") for i in range(1, 11)] + [ev(111200, "route-resolved")] + relogin(111300, 0))

NIM3 = "nim.md §3.2, §3.4"
# ---- NIM ----
case("nim", "login-and-sync", "nim-web",
     "NIM Web: LBS, link, login 200, then syncing and sync OK in NIMLoginStep order",
     NIM3, login(0, 200) + [ev(500, "sync-completed")])
case("nim", "normal-reconnect", "nim-web",
     "NIM Web: a lost link reconnects after about 1.6 s (jitter 1 %) and logs in again",
     NIM3, login(0, 200) + [ev(500, "sync-completed"), ev(10000, "transport-closed")] + relogin(11700, 200), seed=7)
case("nim", "backoff-to-cap", "nim-web",
     "NIM Web: failed reconnects back off 1.6, 3.2, 6.4 s (±1 %) to the 8 s cap",
     NIM3 + ": reconnectionDelay 1600, reconnectionDelayMax 8000, reconnectionJitter 0.01",
     login(0, 200) + [ev(1000, "transport-closed")] + [ev(t, "transport-failed") for t in [2700, 6000, 12500, 20600, 28700]],
     until=40000, seed=3)
case("nim", "wrong-password-302", "nim-web",
     "NIM Web: login 302 (wrong user name or password) stops; the user must log in",
     "nim.md §1.1 302", login(0, 302), until=120000)
case("nim", "relogin-rejected-417", "nim-web",
     "NIM Web: an automatic re-login answered 417 cannot continue: stop, back to the login screen",
     "nim.md §1.1: 417 at an automatic re-login (C# RegAutoReloginCb)",
     login(0, 200) + [ev(2000, "transport-closed")] + relogin(3700, 417), until=120000, seed=1)
case("nim", "account-disabled-422", "nim-web",
     "NIM Web: login 422 (account disabled) stops", "nim.md §1.1 422", login(0, 422), until=120000)
case("nim", "frequency-control-416", "nim-web",
     "NIM Web: login 416 waits the lockout the server gave (r[0] = 20 s) before the next attempt",
     "nim.md §1.1: 416 blocks for 1000·r[0] ms", login(0, 416, wait=20000) + relogin(20200, 200))
case("nim", "kicked-same-platform-1", "nim-web",
     "NIM Web: 2_5 kicked with reason 1 (same platform elsewhere) stops with ondisconnect",
     "nim.md §2.2 kick reasons; §3.4 2_5", login(0, 200) + [ev(5000, "kicked", code=1)], until=120000)
case("nim", "kicked-silently-4", "nim-web",
     "NIM Web: 2_5 kicked with reason 4 (silentlyKick) reconnects: the Web SDK 8.5.0 calls onDisconnect(1, 'link::onKicked'), its ordinary reconnect path (recorded: Fixtures/captures/vendor-sdk/nim/nim-kick-silent)",
     "nim.md §2 notes: wire reason 4 silentlyKick; Spec/vendor-sdks.md", login(0, 200) + [ev(5000, "kicked", code=4)], until=120000)
case("nim", "heartbeat-two-misses", "nim-web",
     "NIM Web: heartbeat 1_2 after 30 s; unanswered for 5 s it is resent once; the second miss drops the link",
     NIM3 + " step 4", login(0, 200), until=45000, seed=2)
case("nim", "heartbeat-answered", "nim-web",
     "NIM Web: answered heartbeats keep the link; the next follows 30 s after each answer",
     NIM3 + " step 4", login(0, 200) + [ev(30200, "heartbeat-answered"), ev(60300, "heartbeat-answered")], until=90000)
case("nim", "lbs-failed-default-link", "nim-web",
     "NIM Web: when the LBS lookup fails the SDK connects to the default link",
     "nim.md §3.1: backup LBS, finally a default link",
     [ev(0, "user-login"), ev(2000, "route-failed"), ev(2100, "transport-opened"), ev(2150, "login-response", code=200)])
case("nim", "connect-timeout", "nim-web",
     "NIM Web: a link that does not open within 8 s is abandoned and retried",
     NIM3 + ": connectTimeout 8000", [ev(0, "user-login"), ev(20, "route-resolved")], until=12000, seed=5)
case("nim", "login-timeout", "nim-web",
     "NIM Web: a login unanswered for 8 s (cmdTimeout) drops the link and retries",
     NIM3 + ": cmdTimeout 8000", [ev(0, "user-login"), ev(20, "route-resolved"), ev(50, "transport-opened")],
     until=12000, seed=6)
case("nim", "network-flapping", "nim-web",
     "NIM Web: the network flaps; NetChanged each time, offline waits, the return reconnects",
     "nim.md §2.1 NIMLoginStepNetChanged",
     login(0, 200) + [ev(3000, "network-down"), ev(4000, "network-up"), ev(4100, "transport-failed"),
                      ev(4200, "network-down"), ev(9000, "network-up")] + relogin(9050, 200), seed=4)
case("nim", "logout", "nim-web",
     "NIM Web: the user logs out; timers stop and nothing reconnects",
     NIM3, login(0, 200) + [ev(5000, "user-logout")], until=120000)
case("nim", "token-invalid-302-on-relogin", "nim-web",
     "NIM Web: the login token is the password; an automatic re-login whose token is no longer valid is answered 302 "
     "(user name or password wrong, 'check whether the appKey and token are valid') and stops: the app needs a new token "
     "and a new login. NIM has no separate token-expired code",
     "nim.md §1.1 302 (Web message: 请检查appKey和token是否有效), §1.4",
     login(0, 200) + [ev(500, "sync-completed"), ev(4000, "transport-closed")] + relogin(5700, 302), until=120000, seed=8)
case("nim", "chat-room-not-rejoined-by-the-link", "nim-web",
     "NIM Web: a chat room is a separate connection with its own login (13_1 address, 13_2 login); the IM link's "
     "reconnect does not re-join it (no rejoin-chat-room action, chat-room-joined has no effect here). The chat room's "
     "own link is not modelled: the reference gives its states and kick reasons, not its reconnect timers",
     "nim.md §3.4 step 6; §2.1 NIMChatroomConnectionState, 13_3 kick reasons",
     login(0, 200) + [ev(500, "sync-completed"), ev(1000, "chat-room-joined"), ev(5000, "transport-closed")]
     + relogin(6700, 200), seed=7)
case("nim", "server-busy-503", "nim-web",
     "NIM Web: login 503 (server busy) backs off and retries",
     "nim.md §1.1 503; registry server-error → back off", login(0, 503) + relogin(1700, 200), seed=9)

JM3 = "jmessage.md §3"
JMSRC = "jchat-web@32670a7 jmessage-sdk-web.js"
# ---- JMessage ----
case("jmessage", "login-ok", "jmessage-web", "JMessage Web: login answered with code 0", JM3, login(0, 0, route=False))
case("jmessage", "wrong-password-880104", "jmessage-web",
     "JMessage Web: login 880104 (wrong password) goes to onFail and stops", "jmessage.md §1.2 880104",
     login(0, 880104, route=False), until=60000)
case("jmessage", "user-not-exist-880103", "jmessage-web",
     "JMessage Web: login 880103 (user does not exist) stops", "jmessage.md §1.2 880103", login(0, 880103, route=False))
case("jmessage", "server-busy-882005", "jmessage-web",
     "JMessage Web: login 882005 (system busy): the SDK leaves the retry to the app; stop",
     JMSRC + " MsgBuilder onFail", login(0, 882005, route=False), until=60000)
case("jmessage", "login-unanswered", "jmessage-web",
     "JMessage Web: a login without ack is re-emitted every 5 s, 5 times; then onTimeout and stop",
     JM3 + ": ACK_TIMEOUT 5000, RETRY_TIMES 5", [ev(0, "user-login"), ev(50, "transport-opened")], until=40000)
case("jmessage", "login-answered-after-resends", "jmessage-web",
     "JMessage Web: the login is answered after two re-emits",
     JM3 + ": ACK_TIMEOUT 5000", [ev(0, "user-login"), ev(50, "transport-opened"), ev(12000, "login-response", code=0)])
case("jmessage", "disconnect", "jmessage-web",
     "JMessage Web: a disconnect clears the user and calls onDisconnect; no automatic re-login",
     JMSRC + " JMessage.prototype._onDisconnect", login(0, 0, route=False) + [ev(5000, "transport-closed")], until=120000)
case("jmessage", "network-down", "jmessage-web",
     "JMessage Web: the network goes down: onDisconnect, stop; it coming back changes nothing",
     JMSRC + " _onDisconnect", login(0, 0, route=False) + [ev(5000, "network-down"), ev(9000, "network-up")], until=60000)
case("jmessage", "kicked-1", "jmessage-web",
     "JMessage: login status change 1 (kicked): log out", "jmessage.md §2.1 kJMSGEventNotificationLoginKicked",
     login(0, 0, route=False) + [ev(5000, "kicked", code=1)], until=60000)
case("jmessage", "password-changed-2", "jmessage-web",
     "JMessage: login status change 2 (password changed elsewhere): log out", "jmessage.md §2.1 ServerAlterPassword",
     login(0, 0, route=False) + [ev(5000, "kicked", code=2)])
case("jmessage", "user-info-changed-40", "jmessage-web",
     "JMessage: login status change 40 (user info changed elsewhere): the login stays", "jmessage.md §2.1 CurrentUserInfoChange",
     login(0, 0, route=False) + [ev(5000, "kicked", code=40)], until=60000)
case("jmessage", "status-unexpected-70", "jmessage-web",
     "JMessage: login status change 70 (state unexpected, log in again): stop", "jmessage.md §2.1 UserLoginStatusUnexpected",
     login(0, 0, route=False) + [ev(5000, "kicked", code=70)])
case("jmessage", "user-deleted-10001", "jmessage-web",
     "JMessage: login status change 10001 (user deleted): stop", "jmessage.md §2.1 CurrentUserDeleted",
     login(0, 0, route=False) + [ev(5000, "kicked", code=10001)])
case("jmessage", "user-disabled-10002", "jmessage-web",
     "JMessage: login status change 10002 (user disabled): stop", "jmessage.md §2.1 CurrentUserDisabled",
     login(0, 0, route=False) + [ev(5000, "kicked", code=10002)])
case("jmessage", "app-relogin-after-disconnect", "jmessage-web",
     "JMessage Web: after onDisconnect the app logs in again itself",
     JMSRC + " _onDisconnect", login(0, 0, route=False) + [ev(5000, "transport-closed")] + login(8000, 0, route=False))
case("jmessage", "logout", "jmessage-web", "JMessage Web: loginOut closes the connection; nothing follows",
     JMSRC + " JMessage.prototype.loginOut", login(0, 0, route=False) + [ev(5000, "user-logout")], until=60000)
case("jmessage", "login-acknowledged-then-answered", "jmessage-web",
     "JMessage Web: the server acks the login within 5 s; the login timer switches to the 30 s response wait; "
     "the response comes at 9 s",
     JM3 + ": ACK_TIMEOUT 5000, then RESP_TIMEOUT 30000",
     [ev(0, "user-login"), ev(50, "transport-opened"), ev(250, "login-acknowledged"), ev(9050, "login-response", code=0)])
case("jmessage", "login-response-timeout-resends", "jmessage-web",
     "JMessage Web: the login is acked but not answered within 30 s: it is re-emitted (waiting 5 s for a new ack), "
     "acked again and answered",
     JM3 + ": RESP_TIMEOUT 30000, resent with the same retry budget",
     [ev(0, "user-login"), ev(50, "transport-opened"), ev(250, "login-acknowledged"), ev(30400, "login-acknowledged"),
      ev(31000, "login-response", code=0)])
case("jmessage", "login-acknowledged-never-answered", "jmessage-web",
     "JMessage Web: every send of the login is acked, none answered: 6 sends 30 s after each ack (5 re-emits, one "
     "budget for both waits), then onTimeout and stop",
     JM3 + ": RESP_TIMEOUT 30000, RETRY_TIMES 5",
     [ev(0, "user-login"), ev(50, "transport-opened"), ev(150, "login-acknowledged")]
     + [ev(150 + 30000 * i + 100 * i, "login-acknowledged") for i in range(1, 6)], until=200000)
case("jmessage", "signature-expired-880106", "jmessage-web",
     "JMessage Web: the c_init signature is valid for 10 minutes; an app logging in again with an expired one gets "
     "880106 (signature expired) through onFail: stop, the app signs again and logs in. The Web SDK has no automatic "
     "re-sign (the 898010 token refresh is the REST API's, not the IM login's)",
     "jmessage.md §1.2 880106, §3 (signature valid 10 min), §1.1 898010",
     login(0, 0, route=False) + [ev(5000, "transport-closed")] + login(700000, 880106, route=False), until=760000)
case("jmessage", "network-flapping", "jmessage-web",
     "JMessage Web: the network flaps; the first drop ends the login (onDisconnect) and the flapping after it opens "
     "nothing; the app's own login connects again",
     JMSRC + " _onDisconnect",
     login(0, 0, route=False) + [ev(5000, "network-down"), ev(5500, "network-up"), ev(6000, "network-down"),
                                 ev(6400, "network-up")] + login(8000, 0, route=False))
case("jmessage", "network-down-before-login", "jmessage-web",
     "JMessage Web: the network is down when the app logs in; the attempt waits for it",
     "IMWire model: attempts wait offline", [ev(0, "network-down"), ev(10, "user-login"), ev(4000, "network-up"),
                                             ev(4050, "transport-opened"), ev(4080, "login-response", code=0)])

Y3 = "yun2win.md §3"
# ---- yun2win ----
case("yun2win", "web-connect", "yun2win-web",
     "yun2win Web: gate, CONNACK 0 keeps waiting, PUBLISH returnCode 11 is connected", Y3,
     [ev(0, "user-login"), ev(30, "route-resolved"), ev(60, "transport-opened"), ev(90, "login-response", code=0),
      ev(120, "login-response", code=11)])
case("yun2win", "web-reconnect", "yun2win-web",
     "yun2win Web: a dropped connection reconnects after 1 s with client id prefix 1", Y3 + "; clientId prefix",
     login(0, 11) + [ev(5000, "transport-closed")] + relogin(6050, 11))
case("yun2win", "web-reconnect-every-second", "yun2win-web",
     "yun2win Web: failed reconnects every 1 s (reconnectPeriod), reconnecting(times) each time", Y3,
     login(0, 11) + [ev(5000, "transport-closed")] + [ev(t, "transport-failed") for t in [6010, 7020, 8030, 9040]], until=10100)
case("yun2win", "web-kicked-10", "yun2win-web",
     "yun2win Web: PUBLISH returnCode 10 (same device type elsewhere) ends with disconnected(100, 10)", Y3,
     login(0, 11) + [ev(5000, "kicked", code=10)], until=60000)
case("yun2win", "web-identifier-rejected-2", "yun2win-web",
     "yun2win Web: CONNACK 2 (client id rejected) stops (allowReconnect=false)", Y3, login(0, 2), until=60000)
case("yun2win", "web-uid-invalid-4", "yun2win-web",
     "yun2win Web: CONNACK 4 (uid invalid) stops", Y3, login(0, 4), until=60000)
case("yun2win", "web-token-invalid-5", "yun2win-web",
     "yun2win: CONNACK 5 (imToken invalid): the app gets a new token and reconnects", "yun2win.md §5 recovery rules",
     login(0, 5) + [ev(3000, "credentials-refreshed")] + relogin(3050, 11))
case("yun2win", "web-token-expired-6", "yun2win-web",
     "yun2win: CONNACK 6 (imToken expired) on a reconnect: refresh the token; no new token, stop", "yun2win.md §5",
     login(0, 11) + [ev(5000, "transport-closed")] + relogin(6050, 6) + [ev(9000, "credentials-refresh-failed")])
case("yun2win", "web-auth-server-error-7", "yun2win-web",
     "yun2win Web: CONNACK 7 (authentication server error): log and reconnect", Y3,
     login(0, 7) + relogin(1200, 11))
case("yun2win", "web-gate-failed", "yun2win-web",
     "yun2win Web: the imgate request fails; retried after 5 s", Y3,
     [ev(0, "user-login"), ev(300, "route-failed", status=500), ev(5400, "route-resolved")] + relogin(5500, 11))
case("yun2win", "web-sleep-wake", "yun2win-web",
     "yun2win Web: the sleep check finds more than 3 min elapsed and forces a reconnect", Y3 + " sleep detection",
     login(0, 11) + [ev(400000, "system-wake")] + relogin(400100, 11))
case("yun2win", "web-offline-online", "yun2win-web",
     "yun2win Web: offline → networkDisconnected(3); online → reconnect", Y3,
     login(0, 11) + [ev(3000, "network-down"), ev(9000, "network-up")] + relogin(9050, 11))
case("yun2win", "web-network-flapping", "yun2win-web",
     "yun2win Web: the network flaps: offline → networkDisconnected(3); online starts a reconnect, which the next "
     "offline breaks; the last online reconnects with client id prefix 1",
     Y3 + " offline/online handlers",
     login(0, 11) + [ev(3000, "network-down"), ev(3500, "network-up"), ev(3600, "network-down"), ev(4200, "network-up"),
                     ev(4250, "network-down"), ev(6000, "network-up")] + relogin(6050, 11))
case("yun2win", "android-network-flapping", "yun2win-android",
     "yun2win Android: the network flaps; nothing reconnects while it is down; its return reconnects at once; a "
     "failed attempt waits 10 s, a drop during the wait cancels it, and the next return reconnects with prefix 1",
     Y3 + " Android: 10 s after onDisconnected unless the network is down",
     login(0, 11) + [ev(3000, "network-down"), ev(4000, "network-up"), ev(4100, "transport-failed"), ev(6000, "network-down"),
                     ev(8000, "network-up")] + relogin(8050, 11))
case("yun2win", "web-connack-timeout", "yun2win-web",
     "yun2win Web: no CONNACK within 10 s: the attempt is abandoned and retried", Y3 + " connectTimeout 10 s",
     [ev(0, "user-login"), ev(30, "route-resolved"), ev(60, "transport-opened")], until=11200)
case("yun2win", "android-auth-server-error-7", "yun2win-android",
     "yun2win Android: CONNACK 7 reconnects after 15 s", Y3 + " Android Tracer", login(0, 7) + relogin(15200, 11))
case("yun2win", "android-disconnect", "yun2win-android",
     "yun2win Android: onDisconnected → onChanged(100, 0), reconnect after 10 s", Y3 + " Android",
     login(0, 11) + [ev(5000, "transport-closed")] + relogin(15050, 11))
case("yun2win", "android-gate-failure", "yun2win-android",
     "yun2win Android: the gate request fails: onChanged(100, 101), no retry", Y3 + " Android gate",
     [ev(0, "user-login"), ev(300, "route-failed")], until=60000)
case("yun2win", "ios-watchdog", "yun2win-ios",
     "yun2win iOS: the watchdog retries after min(n+1, 3) s: 1, 2, 3, 3 s", Y3 + " iOS watchdog",
     login(0, 11) + [ev(5000, "transport-closed")] + [ev(t, "transport-failed") for t in [6010, 8020, 11030, 14040]], until=17100)
case("yun2win", "ios-kicked", "yun2win-ios",
     "yun2win iOS: PUBLISH returnCode 10 → didChangeStatus:100 returnCode:10", Y3 + " iOS",
     login(0, 11) + [ev(5000, "kicked", code=10)], until=60000)

def simulate(policy, data):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(data, handle)
        path = handle.name
    try:
        out = subprocess.run([IMWIRE, "reconnect", "simulate", "--policy", policy, "--events", path, "--format", "json"],
                             check=True, capture_output=True, text=True).stdout
    finally:
        os.unlink(path)
    return json.loads(out)

def main():
    counts = {}
    for item in CASES:
        trace = simulate(item["policy"], item["input"])
        fixture = {
            "description": item["description"],
            "dialect": item["vendor"],
            "layer": "reconnect",
            "policy": item["policy"],
            "input": item["input"],
        }
        if "initial" in trace:
            fixture["initial"] = trace["initial"]   # what the SDK shows before any event
        fixture.update({
            "trace": trace["steps"],
            "final": trace["final"],
            "expect": "ok",
            "verified_by": VERIFIED_BY,
            "source": item["source"],
        })
        folder = os.path.join("Fixtures", "reconnect", item["vendor"])
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, item["name"] + ".json"), "w") as handle:
            json.dump(fixture, handle, indent=2, ensure_ascii=False)
            handle.write("\n")
        counts[item["vendor"]] = counts.get(item["vendor"], 0) + 1
    print("wrote", ", ".join(f"{vendor} {count}" for vendor, count in counts.items()))

if __name__ == "__main__":
    main()
