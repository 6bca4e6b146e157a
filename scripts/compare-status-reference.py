#!/usr/bin/env python3
"""Compare the status registry with the reference tables, row by row.

Usage: scripts/compare-status-reference.py [REFERENCE_DIR] [IMWIRE_BINARY]
(defaults ../shared/reference and .build/debug/imwire). For each table of the reference files it
checks the row count, the numbers, the symbolic names and the Chinese originals against
`imwire codes --format json`, and prints one line per table. Exit 1 on any difference.
The reference lives outside the repository, so this is a review tool, not a test.
"""
import json
import subprocess
import sys
import re, sys, json

def tables(path):
    out = {}
    heading = None
    blocks = []  # (heading, header, rows)
    current = None
    for line in open(path, encoding='utf-8'):
        line = line.rstrip('\n')
        m = re.match(r'^(#+)\s+(.*)$', line)
        if m:
            heading = m.group(2).strip()
            current = None
            continue
        if line.startswith('**') and line.endswith('**') or (line.startswith('**') and '(doc table)' in line):
            heading = line.strip('*').strip()
            current = None
            continue
        if line.startswith('|'):
            cells = [c.strip() for c in re.split(r'(?<!\\)\|', line.strip())[1:-1]]
            if current is None:
                current = {'heading': heading, 'header': cells, 'rows': []}
                blocks.append(current)
            elif all(re.fullmatch(r':?-+:?', c) for c in cells if c):
                continue
            else:
                current['rows'].append(cells)
        else:
            if line.strip() == '' and current is not None:
                current = None
            elif line.strip():
                current = None
    return blocks

REF = sys.argv[1] if len(sys.argv) > 1 else '../shared/reference'
IMWIRE = sys.argv[2] if len(sys.argv) > 2 else '.build/debug/imwire'
out = subprocess.run([IMWIRE, 'codes', '--format', 'json'], capture_output=True, text=True, check=True).stdout
mine = {(t['vendor'], t['name']): t['rows'] for t in json.loads(out)['tables']}

def num(cell):
    cell = cell.replace('**(conflict)**', '').strip()
    m = re.search(r'\(= (-?\d+)\)', cell)
    if m: return int(m.group(1))
    m = re.match(r'^-?\d+$', cell)
    return int(cell) if m else None

def block(path, heading_prefix, index=0):
    found = [b for b in tables(f'{REF}/{path}') if (b['heading'] or '').startswith(heading_prefix)]
    return found[index]

report = []
def compare(label, ref_rows, table, keep=lambda r: True, name_col=None, value_col=0, orig_col=None, extra=()):
    """ref_rows: reference cells; compare numbers in order, names, originals."""
    rows = [r for r in mine[table] if keep(r)]
    ref = [(num(r[value_col]), r[name_col] if name_col is not None else None, r[orig_col] if orig_col is not None else None) for r in ref_rows]
    ref = [x for x in ref if x[0] is not None]
    problems = []
    refnums = [x[0] for x in ref]; minenums = [r['number'] for r in rows]
    if sorted(refnums) != sorted(minenums):
        problems.append(f'numbers differ: only ref {sorted(set(refnums)-set(minenums))}, only mine {sorted(set(minenums)-set(refnums))}')
    pool = list(rows)
    for n, name, orig in ref:
        match = [r for r in pool if r['number'] == n and (name is None or r['name'] == name.strip('`'))]
        if not match:
            problems.append(f'{n} {name}: no row with that name'); continue
        r = match[0]; pool.remove(r)
        if orig is not None and re.search(r'[\u4e00-\u9fff]', orig) and r['original'] != orig:
            problems.append(f'{n}: original {r["original"]!r} != ref {orig!r}')
    report.append((label, len(ref), len(rows), table, problems))

# ---------- LeanCloud
b = block('leancloud.md', '5.1')
compare('leancloud §5.1 IM error table', b['rows'], ('leancloud', 'im-error'), keep=lambda r: r['number'] not in (1000, 5130), name_col=None)
for h in ['AVIMClientStatus', 'AVIMClientOpenOption', 'AVIMConversationOption', 'AVIMConversationMemberRole', 'AVIMConversationQueryOption',
          'AVIMCachePolicy', 'AVIMMessageQueryDirection', 'LCIMSessionConfigOptions', 'LCIMConvType', 'AVIMMessageMediaType',
          'AVIMMessageIOType', 'AVIMMessageStatus', 'AVIMMessagePriority']:
    b = block('leancloud.md', f'`{h}`')
    compare(f'leancloud §11 {h}', b['rows'], ('leancloud', h), name_col=0, value_col=1)
b = [x for x in tables(f'{REF}/leancloud.md') if x['header'] == ['name', 'value']][0]
compare('leancloud §11 AVIMMessageSendOption', b['rows'], ('leancloud', 'AVIMMessageSendOption'), name_col=0, value_col=1)
b = block('leancloud.md', '`AVIMErrorCode`')
compare('leancloud §11 AVIMErrorCode 90xx/91xx', [r for r in b['rows'] if r[1].startswith('9')], ('leancloud', 'sdk-local'),
        keep=lambda r: r['number'] < 9900, value_col=1)

# ---------- NIM
b = block('nim.md', '1.1')
cols = {1: 'NIMRemoteErrorCode', 2: 'NIMResCode', 3: 'web-error', 4: 'status-page'}
for i, t in cols.items():
    rows = [r for r in b['rows'] if r[i]]
    keep = (lambda r: r['number'] < 10000 or 13001 <= r['number'] <= 13006) if t == 'NIMResCode' else (lambda r: True)
    compare(f'nim §1.1 column {t}', rows, ('nim', t), keep=keep)
b = block('nim.md', '`NIMResCode`')
compare('nim §1.3 NIMResCode (full)', b['rows'], ('nim', 'NIMResCode'), keep=lambda r: r['number'] != 20004, name_col=0, value_col=1, orig_col=2)
b = block('nim.md', '`NIMLocalErrorCode`')
compare('nim §1.2 NIMLocalErrorCode', b['rows'], ('nim', 'NIMLocalErrorCode'), name_col=0, value_col=1, orig_col=2)
b = block('nim.md', '1.4')
web = [r for r in b['rows'] if r[0].isdigit()]
compare('nim §1.4 Web numeric (+ success set)', web, ('nim', 'web-error'), keep=lambda r: r['original'] is not None, orig_col=1)
for h in ['NIMRemoteErrorCode', 'NIMNetCallErrorCode', 'NIMAVLocalErrorCode', 'NIMAVRoomServerErrorCode', 'NIMAVRemoteErrorCode', 'NIMRTSConferenceErrorCode']:
    b = block('nim.md', f'`{h}`')
    compare(f'nim App.A {h}', b['rows'], ('nim', h), name_col=0, value_col=1, orig_col=2)
ios = ['NIMLoginStep', 'NIMKickReason', 'NIMLoginClientType', 'NIMMessageType', 'NIMMessageDeliveryState', 'NIMMessageAttachmentDownloadState',
       'NIMSessionType', 'NIMNotificationType', 'NIMSystemNotificationType', 'NIMTeamOperationType', 'NIMChatroomEventType',
       'NIMChatroomKickReason', 'NIMChatroomConnectionState']
for h in ios:
    b = block('nim.md', f'`{h}` (NSInteger)')
    compare(f'nim §2.1 {h}', b['rows'], ('nim', h), name_col=0, value_col=1, orig_col=2)
cmap = {'NIMLoginStep': 'NIMLoginStep-c', 'NIMKickReason': 'NIMKickReason-c', 'NIMMessageType': 'NIMMessageType-c',
        'NIMSessionType': 'NIMSessionType-c', 'NIMClientType': 'NIMClientType', 'NIMChatRoomExitReason': 'NIMChatRoomExitReason'}
for h, t in cmap.items():
    b = [x for x in tables(f'{REF}/nim.md') if x['heading'] == f'`{h}`'][0]
    compare(f'nim §2.2 {h}', b['rows'], ('nim', t), name_col=0, value_col=1, orig_col=2)

# ---------- JMessage
b = block('jmessage.md', '1.1')
compare('jmessage §1.1 server', b['rows'], ('jmessage', 'server'), name_col=1, orig_col=2)
b = block('jmessage.md', '1.2')
compare('jmessage §1.2 web', b['rows'], ('jmessage', 'web-error'), name_col=1, orig_col=2)
for h in ['JMSGSDKErrorCode', 'JMSGHttpErrorCode', 'JMSGTcpErrorCode']:
    b = block('jmessage.md', f'`{h}`')
    compare(f'jmessage §1.3 {h}', b['rows'], ('jmessage', h), name_col=0, value_col=1, orig_col=2)
b = block('jmessage.md', 'JMessage iOS')
compare('jmessage §1.3 iOS doc table (subset of JMSGSDKErrorCode)', b['rows'], ('jmessage', 'JMSGSDKErrorCode'),
        keep=lambda r: 'im_errorcode_ios' in r['sources'])
b = block('jmessage.md', 'JMRTC iOS')
compare('jmessage §1.3 JMRTC iOS', b['rows'], ('jmessage', 'jmrtc-ios'), name_col=1, orig_col=2)
b = block('jmessage.md', 'JMessage Android')
compare('jmessage §1.4 Android', b['rows'], ('jmessage', 'android'), name_col=1, orig_col=2)
b = block('jmessage.md', 'JMRTC Android')
compare('jmessage §1.4 JMRTC Android', b['rows'], ('jmessage', 'jmrtc-android'), name_col=1, orig_col=2)
for h in ['JMSGConversationType', 'JMSGGroupType', 'JMSGContentType', 'JMSGPromptContentType', 'JMSGMessageStatus', 'JMSGFileType',
          'JMSGPlatformType', 'JMSGGroupMemberType', 'JMSGTransMessageType', 'JMSGEventNotificationType', 'JMSGCommonEventType',
          'JMSGLoginStatusChangeEventType', 'JMSGFriendEventType', 'JMSGGroupEventType', 'JMSGChatRoomEventType', 'JMSGUserField', 'JMSGUserGender']:
    b = block('jmessage.md', f'`{h}`')
    compare(f'jmessage §2.1 {h}', b['rows'], ('jmessage', h), name_col=0, value_col=1, orig_col=2)
b = block('jmessage.md', '2.3')
compare('jmessage §2.3 web event_type', b['rows'], ('jmessage', 'web-event-type'), orig_col=None)

bad = 0
for label, nref, nmine, table, problems in report:
    flag = 'OK ' if not problems and nref == nmine else 'DIFF'
    if problems or nref != nmine: bad += 1
    print(f'{flag} {label}: reference {nref}, mine {nmine} ({table[0]} {table[1]})')
    for p in problems: print('      ', p)
print('tables compared:', len(report), 'with differences:', bad)
sys.exit(1 if bad else 0)
