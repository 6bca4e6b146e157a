#!/usr/bin/env python3
"""Cross-check of the reconnect golden traces (Fixtures/reconnect/**) against an independent
reading of the reference: retry delays, budgets, codes that stop or refresh, reconnect flags,
heartbeat timers and the status an SDK shows when it stops. Every number below is typed from
../shared/reference/{leancloud,nim,jmessage,yun2win}.md, not taken from IMWire's code; only the
trace's events, actions and outputs are read from the fixtures.

Usage: python3 Tests/CrossCheck/reconnect.py [Fixtures/reconnect]
Exit 1 on any disagreement; prints a one-line summary.
"""
import glob
import json
import os
import sys

def swift_delay(n):            # leancloud.md §8: −1, 0, 1, 2, 4, 8, 16, then 30 s
    table = [-1000, 0, 1000, 2000, 4000, 8000, 16000]
    return table[n] if n < len(table) else 30000

def exponential(base, cap):
    return lambda n: min(base * 2 ** n, cap)

def within_jitter(base, cap, jitter):  # nim.md §3.2: 1600 ms doubling to 8000 ms, jitter 0.01
    def bounds(n):
        raw = base * 2 ** min(n, 40)
        return (min(raw * (1 - jitter), cap), min(raw * (1 + jitter), cap))
    return bounds

POLICIES = {
    "leancloud-swift": dict(delay=swift_delay, budget=None, flag="r=true", reset_on_network=True, reset_on_background=True,
                            heartbeat=(180000, 20000)),
    "leancloud-js": dict(delay=exponential(1000, 300000), budget=None, flag="r=true", reset_on_network=True, heartbeat=(180000, 200000),
                         close_stop={4100, 4103, 4110}, close_retry_all=True),
    "leancloud-java": dict(delay=exponential(2000, 8000), budget=(3, "stop"), flag="r=true", heartbeat=(180000, 180000)),
    "leancloud-csharp": dict(delay=lambda n: 10000, budget=(10, "reset"), flag="r=true", heartbeat=(180000, 180000)),
    "nim-web": dict(bounds=within_jitter(1600, 8000, 0.01), budget=None, flag=None, heartbeat=(30000, 5000)),
    # jmessage.md §3: ack within ACK_TIMEOUT 5000 ms, then the response within RESP_TIMEOUT 30000 ms,
    # else re-emit; RETRY_TIMES 5 re-emits shared by both waits.
    "jmessage-web": dict(delay=None, budget=(0, "stop"), flag=None, heartbeat=None, login_wait=(5000, 30000, 5)),
    "yun2win-web": dict(delay=lambda n: 1000, budget=None, flag="prefix 1", heartbeat=(300000, 300000),
                        fixed={("login", 7): None}, route_fail_delay=5000),
    "yun2win-android": dict(delay=lambda n: 10000, budget=None, flag="prefix 1", heartbeat=(30000, 30000),
                            fixed={("login", 7): 15000}, route_fail_stop=True),
    "yun2win-ios": dict(delay=lambda n: min(n + 1, 3) * 1000, budget=None, flag="prefix 1", heartbeat=(60000, 60000)),
}

LEANCLOUD_LOGIN_STOP = {4100, 4102, 4103, 4110, 4111, 4115}       # leancloud.md §5.1 fatal at login
LEANCLOUD_KICK_STOP = {4111, 4115}                                # §4.2 session/closed, §11 closed ⇒ no auto-recover
YUN2WIN_LOGIN_STOP = {2, 3, 4}                                    # yun2win.md §3 web error handler
YUN2WIN_REFRESH = {5, 6}                                          # yun2win.md §5 recovery rules
NIM_LOGIN_STOP = {302, 417, 422}                                  # nim.md §1.1
JMESSAGE_KICK_STOP = {1, 2, 70, 10001, 10002}                     # jmessage.md §2.1
ACCEPT = {"leancloud": {0}, "nim": {200}, "jmessage": {0}, "yun2win": {11}}

def expected_reaction(vendor, policy, event):
    """'stop', 'refresh', 'retry', 'wait:<ms>', 'ignore', or None when this reading has no opinion."""
    name, code = event["event"], event.get("code")
    if name == "kicked":
        if vendor == "leancloud":
            return "stop" if code in LEANCLOUD_KICK_STOP or policy == "leancloud-js" else None
        if vendor == "nim":
            # 2_5: reasons 1-3 stop; 4 (silentlyKick) is the ordinary reconnect in the Web SDK 8.5.0
            # (onDisconnect(1, "link::onKicked"), recorded in Fixtures/captures/vendor-sdk/nim/nim-kick-silent)
            return "retry" if code == 4 else "stop"
        if vendor == "jmessage":
            return "stop" if code in JMESSAGE_KICK_STOP else ("ignore" if code == 40 else None)
        if vendor == "yun2win":
            return "stop" if code == 10 else None
    if name == "login-response":
        if code in ACCEPT[vendor] or (vendor == "yun2win" and code == 0):
            return None
        if vendor == "leancloud":
            return "refresh" if code == 4112 else ("stop" if code in LEANCLOUD_LOGIN_STOP else None)
        if vendor == "nim":
            if code in NIM_LOGIN_STOP:
                return "stop"
            if code == 416:
                return "wait:%d" % event["wait_ms"] if "wait_ms" in event else "retry"
            return "retry" if code in (408, 415, 500, 503) else None
        if vendor == "jmessage":
            return "stop"                                        # onFail goes to the app
        if vendor == "yun2win":
            if code in YUN2WIN_LOGIN_STOP:
                return "stop"
            if code in YUN2WIN_REFRESH:
                return "refresh"
            return "retry"
    if name == "transport-closed" and vendor == "leancloud":
        if policy == "leancloud-js":
            return "stop" if code in POLICIES[policy]["close_stop"] else "retry"
        return "retry" if code in (None, 0, 1000, 1001, 1006, 4107) else None
    if name in ("transport-closed", "transport-failed"):
        return "stop" if vendor == "jmessage" else "retry"
    return None

FAILURES = {"transport-closed", "transport-failed", "login-response", "kicked", "route-failed", "command-timeout",
            "heartbeat-missed", "network-down"}

# leancloud.md §8 (objc LCIMCommon.h:48-57): LCIMClientStatus None 0 … Closed 6. None is the value
# before the first open; no transition leads back to it.
INITIAL = {"leancloud-swift": [("AVIMClientStatus", 0)], "leancloud-java": [("AVIMClientStatus", 0)],
           "leancloud-csharp": [("AVIMClientStatus", 0)]}

def check(path, problems, tally):
    fixture = json.load(open(path))
    policy, vendor = fixture["policy"], fixture["dialect"]
    spec = POLICIES[policy]
    index = 0          # retries since the last reset
    session = False    # an accepted login since the user's login
    halted = False
    phase = "idle"
    login_due = None   # when the login timer should fire, by this reading
    sends = 0          # logins sent on the current transport
    number = -1
    def fail(message):
        problems.append("%s step %d: %s" % (os.path.relpath(path), number, message))
    initial = [(o.get("table"), o.get("value")) for o in fixture.get("initial", [])]
    if initial != INITIAL.get(policy, []):
        fail("initial outputs %r, the reference reads %r" % (initial, INITIAL.get(policy, [])))
    if INITIAL.get(policy):
        tally["initial"] += 1
    for number, step in enumerate(fixture["trace"]):
        event, actions, outputs = step["event"], step["actions"], step["outputs"]
        name = event["event"]
        kinds = [a["do"] for a in actions]
        timer = event.get("timer")
        if any((o.get("table"), o.get("value")) in INITIAL.get(policy, []) for o in outputs):
            fail("a step shows the initial status again")
        # The login's ack and response waits (JMessage): 5 s after each send, 30 s after the ack;
        # a resend when one runs out; 1 + 5 sends on one transport at most.
        wait = spec.get("login_wait")
        if wait:
            if name == "transport-opened":
                sends = 0
            if name == "timer-fired" and timer == "login":
                tally["login-waits"] += 1
                if login_due is None or step["ms"] != login_due:
                    fail("the login timer fires at %d ms, the reference's waits say %s" % (step["ms"], login_due))
                login_due = None
            for action in actions:
                if action["do"] == "send-login":
                    sends += 1
                    if sends > 1 + wait[2]:
                        fail("login sent %d times on one transport, the reference allows 1 + %d" % (sends, wait[2]))
                if action["do"] == "cancel-timer" and action["timer"] == "login":
                    login_due = None
                if action["do"] == "schedule-timer" and action["timer"] == "login":
                    want = wait[1] if name == "login-acknowledged" else wait[0]
                    if action["delay_ms"] != want:
                        fail("login wait of %d ms after %s, the reference says %d ms" % (action["delay_ms"], name, want))
                    login_due = step["ms"] + want
            stop = next((a for a in actions if a["do"] == "stop"), None)
            if stop and stop["cause"] == "login-unanswered":
                tally["login-budgets"] += 1
                if sends != 1 + wait[2] or not (name == "timer-fired" and timer == "login"):
                    fail("gave the login up after %d sends on %s, the reference says after 1 + %d sends, at a timeout"
                         % (sends, name, wait[2]))
        if name == "user-login" and phase in ("idle", "stopped"):
            index, session, halted = 0, False, False
        if name in ("network-up", "network-down") and spec.get("reset_on_network"):
            index = 0
        if name == "app-background" and spec.get("reset_on_background") and step["to"] == "suspended":
            index = 0
        # Terminal codes: after a stop nothing connects until the user logs in.
        if halted and any(k in ("open-transport", "resolve-route", "send-login") for k in kinds):
            fail("connects after a stop")
        # The reaction to a coded event, where this reading has one.
        if phase in ("connecting", "authenticating", "online") or (name == "route-failed" and phase == "resolving"):
            reaction = expected_reaction(vendor, policy, event)
            if name == "route-failed":
                reaction = "stop" if (spec.get("route_fail_stop") or event.get("status") == 404 and vendor == "leancloud") else None
            if reaction == "stop":
                tally["stops"] += 1
                if "stop" not in kinds:
                    fail("%s %s should stop" % (name, event.get("code", event.get("status"))))
            elif reaction == "refresh":
                tally["refreshes"] += 1
                if "refresh-credentials" not in kinds:
                    fail("%s %s should refresh the credentials" % (name, event.get("code")))
            elif reaction in ("retry", "ignore") or (reaction or "").startswith("wait:"):
                if "stop" in kinds and not (spec["budget"] and spec["budget"][1] == "stop"):
                    fail("%s %s should not stop" % (name, event.get("code")))
        # Retry delays, from this reading's schedule and retry count.
        for action in actions:
            if action["do"] == "schedule-timer" and action["timer"] == "retry":
                delay = action["delay_ms"]
                tally["delays"] += 1
                fixed = None
                if name == "login-response":
                    fixed = spec.get("fixed", {}).get(("login", event["code"]))
                    if vendor == "nim" and event["code"] == 416 and "wait_ms" in event:
                        fixed = event["wait_ms"]
                if name == "route-failed" and spec.get("route_fail_delay"):
                    fixed = spec["route_fail_delay"]
                if spec["budget"] and index >= spec["budget"][0] and spec["budget"][1] == "reset":
                    index = 0
                if fixed is not None:
                    if delay != fixed:
                        fail("retry after %d ms, the reference says %d ms" % (delay, fixed))
                elif "bounds" in spec:
                    low, high = spec["bounds"](index)
                    if not (low - 1 <= delay <= high + 1):
                        fail("retry %d after %d ms, the reference allows %.0f–%.0f ms" % (index, delay, low, high))
                elif delay != spec["delay"](index):
                    fail("retry %d after %d ms, the reference says %d ms" % (index, delay, spec["delay"](index)))
                index += 1
                if spec["budget"] and spec["budget"][1] == "stop" and index > spec["budget"][0]:
                    fail("retry %d beyond the budget of %d" % (index, spec["budget"][0]))
            if action["do"] == "schedule-timer" and action["timer"] in ("heartbeat", "heartbeat-timeout"):
                tally["heartbeats"] += 1
                interval, answer = spec["heartbeat"] or (None, None)
                want = interval if action["timer"] == "heartbeat" else answer
                if action["delay_ms"] != want:
                    fail("%s timer of %d ms, the reference says %s" % (action["timer"], action["delay_ms"], want))
        # Immediate retries (Swift's −1 and 0 s): an attempt started by the failure itself.
        if name in FAILURES and phase not in ("idle", "stopped", "offline") and step["to"] in ("connecting", "resolving") \
                and "schedule-timer" not in [a["do"] for a in actions if a.get("timer") == "retry"]:
            if name not in ("network-down",):
                if spec.get("delay") and spec["delay"](index) > 0 and name != "route-failed":
                    fail("an immediate retry %d where the reference waits %d ms" % (index, spec["delay"](index)))
                tally["immediate"] += 1
                index += 1
        if spec["budget"] and spec["budget"][1] == "stop" and "stop" in kinds and spec["budget"][0] > 0:
            stop = next(a for a in actions if a["do"] == "stop")
            if stop["cause"] == "budget-exhausted":
                tally["budgets"] += 1
                if index != spec["budget"][0]:
                    fail("gave up after %d retries, the reference says %d" % (index, spec["budget"][0]))
        # Reconnect flags.
        for action in actions:
            if action["do"] == "send-login":
                tally["logins"] += 1
                flag = action["reconnect_flag"]
                want = spec["flag"] if session else None
                if (flag is None) != (want is None) or (want and want not in flag):
                    fail("login flag %r, the reference expects %r" % (flag, want))
        # What the SDK shows when it stops.
        if "stop" in kinds:
            stop = next(a for a in actions if a["do"] == "stop")
            shown = [(o.get("table"), o.get("value"), o.get("name"), o.get("code")) for o in outputs]
            if vendor == "leancloud" and policy != "leancloud-js" and ("AVIMClientStatus", 6) not in [(t, v) for t, v, _, _ in shown]:
                fail("a LeanCloud stop should show AVIMClientStatus 6 (Closed)")
            if vendor == "yun2win" and not any(t == "ConnectionStatus" and v == 100 for t, v, _, _ in shown):
                fail("a yun2win stop should show ConnectionStatus 100")
            if vendor == "yun2win" and stop["code"] is not None and not any(v == 100 and c == stop["code"] for _, v, _, c in shown):
                fail("a yun2win stop should carry its return code %s" % stop["code"])
            if vendor == "jmessage" and stop["cause"] == "disconnected" and not any(n == "onDisconnect" for _, _, n, _ in shown):
                fail("a JMessage disconnect should call onDisconnect")
            halted = True
            tally["checked-stops"] += 1
        if name == "login-response" and step["to"] == "online":
            session = True
            index = 0
        phase = step["to"]

def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "Fixtures/reconnect"
    paths = sorted(glob.glob(os.path.join(root, "*", "*.json")))
    problems = []
    tally = {k: 0 for k in ("delays", "immediate", "budgets", "stops", "refreshes", "logins", "heartbeats", "checked-stops",
                            "login-waits", "login-budgets", "initial")}
    per_vendor = {}
    for path in paths:
        vendor = os.path.basename(os.path.dirname(path))
        per_vendor[vendor] = per_vendor.get(vendor, 0) + 1
        check(path, problems, tally)
    for problem in problems:
        print("DISAGREE", problem)
    short = [v for v, n in per_vendor.items() if n < 15]
    if short or not paths:
        print("fewer than 15 golden traces for", short or "any vendor")
        problems.append("count")
    vendors = ", ".join("%s %d" % item for item in sorted(per_vendor.items()))
    detail = ", ".join("%s %d" % (k, v) for k, v in tally.items())
    print("reconnect cross-check: %d traces (%s); checked %s; %d disagreements" % (len(paths), vendors, detail, len(problems)))
    return 1 if problems else 0

if __name__ == "__main__":
    sys.exit(main())
