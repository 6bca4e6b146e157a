import IMWireCore

/// NetEase YunXin (NIM) status codes and enums (nim.md §1, §2). Where sources disagree on a
/// number (406, 415, 508, 810, 812), each source is its own table, so every meaning is kept with
/// its source: `NIMRemoteErrorCode` (iOS), `NIMResCode` (C/Node/C#), `web-error` (Web SDK) and
/// `status-page` (doc.commsease.com). `imwire explain 810` prints all four side by side.
public enum NIMStatusCodes {
    static let iOSHeaders = "NIM_iOS_SDK@69fa518 NIMSDK.framework/Headers"
    static let iOSAVHeaders = "NIM_iOS_SDK@69fa518 NIMAVChat.framework/Headers/NIMAVChatDefs.h"
    static let nodeNIM = "node-nim@290c791 ts/nim_def"
    /// nim.md §2.2 names the files of the C/Node enums together, not per enum.
    static let nodeEnums = "node-nim@290c791 ts/nim_def/{client,msglog,session,sysmsg}_def.ts, ts/chatroom_def/chatroom_def.ts"
    static let webBundle = "NIM_Web_Demo@6fa7624 demo/webdemo/imNew/3rd/NIM_Web_NIM_v8.5.0.js (bundle)"
    static let webChatroomBundle = "NIM_Web_Demo@6fa7624 demo/webdemo/imNew/3rd/NIM_Web_Chatroom_v8.5.0.js (bundle)"

    /// Every NIM table: status codes first, then enums.
    public static let tables: [StatusTable] = [
        remoteErrorCode, resCode, webErrors, statusPage, localErrorCode,
        netCallErrorCode, avLocalErrorCode, avRoomServerErrorCode, avRemoteErrorCode, rtsConferenceErrorCode,
        loginStep, loginStepC, kickReason, kickReasonC, webKickReason, loginClientType, clientTypeC,
        messageType, messageTypeC, messageDeliveryState, messageAttachmentDownloadState, sessionType, sessionTypeC,
        notificationType, systemNotificationType, teamOperationType,
        chatroomConnectionState, chatroomKickReason, webChatroomKickReason, chatRoomExitReasonC, chatroomEventType,
    ]

    /// Ranges shared by the server tables.
    static let serverRanges = [
        CodeRange(800, 899, "team (group)", source: "nim.md §1.1 (801–816 are all team codes)"),
        CodeRange(13001, 13006, "chatroom", source: "nim.md §1.1 note: chatroom codes are 13001–13006"),
    ]
}
