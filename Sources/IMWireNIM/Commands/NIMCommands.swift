import IMWireCore

/// Who starts a packet: the client (a request the server answers with the same sid, cid and
/// ser) or the server (a push). The Web SDK does not label them; the split follows the handler
/// names (`kicked`, `msg`, `on…`, `sync…` ≥ 100, the notify wrappers) and is INFERRED.
public enum NIMOrigin: String, Sendable, Hashable {
    case request
    case push
}

/// One service/command id of the NIM Web link protocol (nim.md §3.5 and §3.6, Web SDK 8.5.0):
/// the name the client's `cmdConfig` gives it, the name of the `packetConfig` handler that
/// reads what arrives, and the order of the response fields in `r`.
public struct NIMCommand: Sendable, Hashable {
    public let sid: Int64
    public let cid: Int64
    public let service: String
    /// The `cmdConfig` name (nim.md §3.5), nil for ids only the inbound config knows.
    public let command: String?
    /// The `packetConfig` handler name (nim.md §3.6); nil for the notify wrappers.
    public let handler: String?
    /// The handler's service when §3.6 files it under another one (7_19 session, 3_16 chatroom).
    public let handlerService: String?
    /// Field names of `r[0]`, `r[1]`, … in a response or push.
    public let response: [String]
    public let origin: NIMOrigin

    public var key: String { "\(sid)_\(cid)" }
    public var name: String { command ?? handler ?? "notify" }
    /// 4_1, 4_2, 4_10, 4_11: `r[1]` wraps another packet (`headerPacket` + `body`).
    public var isNotifyWrapper: Bool { sid == 4 && handler == nil }
}

/// The complete id table. Typed once here; `Spec/nim.md` is generated from it.
public enum NIMCommands {
    private static func c(
        _ sid: Int64, _ cid: Int64, _ service: String, _ command: String?, handler: String?,
        handlerService: String? = nil, r response: [String] = [], _ origin: NIMOrigin
    ) -> NIMCommand {
        NIMCommand(
            sid: sid, cid: cid, service: service, command: command, handler: handler, handlerService: handlerService,
            response: response, origin: origin)
    }

    public static func command(sid: Int64, cid: Int64) -> NIMCommand? { index[Key(sid: sid, cid: cid)] }

    /// Found by the two numbers, not by a `"sid_cid"` string made for every message.
    private struct Key: Hashable {
        let sid: Int64
        let cid: Int64
    }
    private static let index: [Key: NIMCommand] = Dictionary(
        all.map { (Key(sid: $0.sid, cid: $0.cid), $0) }, uniquingKeysWith: { first, _ in first })

    public static let heartbeat: (sid: Int64, cid: Int64) = (1, 2)
    public static let login: (sid: Int64, cid: Int64) = (2, 3)
    public static let kicked: (sid: Int64, cid: Int64) = (2, 5)
    public static let sync: (sid: Int64, cid: Int64) = (5, 1)

    /// Every sid_cid of nim.md §3.5 (cmdConfig) and §3.6 (packetConfig), ordered by sid, cid.
    public static let all: [NIMCommand] = [
        c(1, 2, "link", "heartbeat", handler: "heartbeat", .request),
        c(1, 5, "link", "negotiateTransport", handler: "negotiateTransport", r: ["negotiateTransportTag"], .request),
        c(1, 6, "link", "initTransport", handler: "initTransport", r: ["initTransportTag"], .request),
        c(2, 3, "auth", "login", handler: "login", r: ["loginRes", "loginPorts", "aosPushInfo"], .request),
        c(2, 5, "auth", "kicked", handler: "kicked", r: ["from", "reason", "custom", "customClientType"], .push),
        c(2, 6, "auth", "logout", handler: "logout", .request),
        c(2, 7, "auth", "multiPortLogin", handler: "multiPortLogin", r: ["state", "loginPorts"], .push),
        c(2, 8, "auth", "kick", handler: "kick", r: ["deviceIds"], .request),
        c(3, 1, "user", "updatePushToken", handler: "updatePushToken", .request),
        c(3, 2, "user", "appBackground", handler: "appBackground", .request),
        c(3, 3, "user", "markInBlacklist", handler: "markInBlacklist", .request),
        c(3, 4, "user", "getBlacklist", handler: "getBlacklist", r: ["blacklist"], .request),
        c(3, 5, "user", "markInMutelist", handler: "markInMutelist", .request),
        c(3, 6, "user", "getMutelist", handler: "getMutelist", r: ["mutelist"], .request),
        c(3, 7, "user", "getUsers", handler: "getUsers", r: ["users"], .request),
        c(3, 8, "user", "getRelations", handler: "getRelations", r: ["specialRelations", "timetag"], .request),
        c(3, 10, "user", "updateMyInfo", handler: "updateMyInfo", r: ["timetag"], .request),
        c(3, 15, "user", "updateDonnop", handler: "updateDonnop", r: ["timetag"], .request),
        c(3, 16, "user", "syncRobot", handler: "syncRobot", handlerService: "chatroom", r: ["robots"], .request),
        c(3, 103, "user", nil, handler: "syncMarkInBlacklist", r: ["account", "isAdd"], .push),
        c(3, 105, "user", nil, handler: "syncMarkInMutelist", r: ["account", "isAdd"], .push),
        c(3, 109, "user", "syncMyInfo", handler: "syncMyInfo", r: ["user", "timetag"], .push),
        c(3, 110, "user", "syncUpdateMyInfo", handler: "syncUpdateMyInfo", r: ["user"], .push),
        c(3, 115, "user", nil, handler: "syncUpdateDonnop", r: ["donnop", "timetag"], .push),
        c(4, 1, "notify", nil, handler: nil, .push),
        c(4, 2, "notify", nil, handler: nil, .push),
        c(4, 3, "notify", "markRead", handler: "markRead", .request),
        c(4, 4, "notify", "syncOfflineMsgs", handler: "syncOfflineMsgs", r: ["msgs"], .push),
        c(4, 5, "notify", "batchMarkRead", handler: "batchMarkRead", .request),
        c(4, 6, "notify", "syncOfflineSysMsgs", handler: "syncOfflineSysMsgs", r: ["sysMsgs"], .push),
        c(4, 8, "notify", "syncOfflineNetcallMsgs", handler: "syncOfflineNetcallMsgs", r: ["msgs"], .push),
        c(4, 9, "notify", "syncRoamingMsgs", handler: "syncRoamingMsgs", r: ["msgs"], .push),
        c(4, 10, "notify", nil, handler: nil, .push),
        c(4, 11, "notify", nil, handler: nil, .push),
        c(4, 12, "notify", "syncMsgReceipts", handler: "syncMsgReceipts", r: ["msgReceipts", "timetag"], .push),
        c(4, 13, "notify", nil, handler: "syncDonnop", r: ["donnop", "timetag"], .push),
        c(4, 14, "notify", nil, handler: "syncSessionAck", r: ["p2p", "team", "timetag"], .push),
        c(4, 15, "notify", "syncRobots", handler: "syncRobots", r: ["robots"], .push),
        c(4, 16, "notify", "syncBroadcastMsgs", handler: "syncBroadcastMsgs", r: ["broadcastMsgs"], .push),
        c(4, 17, "notify", "syncSuperTeamRoamingMsgs", handler: "syncSuperTeamRoamingMsgs", r: ["msgs"], .push),
        c(
            4, 18, "notify", "syncOfflineSuperTeamSysMsgs", handler: "syncOfflineSuperTeamSysMsgs", r: ["sysMsgs"],
            .push),
        c(
            4, 19, "notify", "syncDeleteSuperTeamMsgOfflineRoaming", handler: "syncDeleteSuperTeamMsgOfflineRoaming",
            r: ["sysMsgs", "timetag", "type"], .push),
        c(4, 20, "notify", nil, handler: "syncSuperTeamSessionAck", r: ["superTeam", "timetag"], .push),
        c(4, 21, "notify", "syncDeleteMsgSelf", handler: "syncDeleteMsgSelf", r: ["deletedMsgs"], .push),
        c(
            4, 22, "notify", "syncSessionsWithMoreRoaming", handler: "syncSessionsWithMoreRoaming", r: ["sessions"],
            .push),
        c(
            4, 23, "notify", "syncStickTopSessions", handler: "syncStickTopSessions",
            r: ["timetag", "modify", "sessions"], .push),
        c(
            4, 24, "notify", "syncSessionHistoryMsgsDelete", handler: "syncSessionHistoryMsgsDelete",
            r: ["sessionHistoryMsgsDeleteTags"], .push),
        c(4, 100, "notify", nil, handler: "syncOfflineFilterMsgs", r: ["msgs"], .push),
        c(4, 101, "notify", nil, handler: "syncOfflineFilterSysMsgs", r: ["sysMsgs"], .push),
        c(5, 1, "sync", "sync", handler: "syncDone", r: ["timetag"], .request),
        c(5, 2, "sync", "syncTeamMembers", handler: "syncTeamMembersDone", r: ["timetag"], .request),
        c(5, 3, "sync", "syncSuperTeamMembers", handler: "syncSuperTeamMembersDone", r: ["timetag"], .request),
        c(6, 1, "misc", "getSimpleNosToken", handler: "getSimpleNosToken", r: ["nosTokens"], .request),
        c(6, 2, "misc", "getNosToken", handler: "getNosToken", r: ["nosToken"], .request),
        c(6, 3, "misc", "notifyUploadLog", handler: "notifyUploadLog", .request),
        c(6, 4, "misc", "uploadSdkLogUrl", handler: "uploadSdkLogUrl", .request),
        c(6, 5, "misc", "audioToText", handler: "audioToText", r: ["text"], .request),
        c(6, 6, "misc", "processImage", handler: "processImage", r: ["url"], .request),
        c(6, 7, "misc", "getNosTokenTrans", handler: "getNosTokenTrans", r: ["nosToken", "docId"], .request),
        c(6, 8, "misc", "notifyTransLog", handler: "notifyTransLog", r: ["transInfo"], .request),
        c(6, 9, "misc", "fetchFile", handler: "fetchFile", r: ["info"], .request),
        c(6, 10, "misc", "fetchFileList", handler: "fetchFileList", r: ["list", "totalCount"], .request),
        c(6, 11, "misc", "removeFile", handler: "removeFile", r: ["res"], .request),
        c(6, 17, "misc", "getClientAntispam", handler: "getClientAntispam", r: ["clientAntispam"], .request),
        c(6, 18, "misc", "fileQuickTransfer", handler: "fileQuickTransfer", r: ["fileQuickTransfer"], .request),
        c(6, 22, "misc", "getNosOriginUrl", handler: "getNosOriginUrl", r: ["nosFileUrlTag"], .request),
        c(6, 23, "misc", "getServerTime", handler: "getServerTime", r: ["time"], .request),
        c(6, 24, "misc", "getNosAccessToken", handler: "getNosAccessToken", r: ["nosAccessTokenTag"], .request),
        c(6, 25, "misc", "deleteNosAccessToken", handler: "deleteNosAccessToken", .request),
        c(6, 26, "misc", "getNosCdnHost", handler: "getNosCdnHost", r: ["nosConfigTag"], .request),
        c(7, 1, "msg", "sendMsg", handler: "sendMsg", r: ["msg"], .request),
        c(7, 2, "msg", "msg", handler: "msg", r: ["msg"], .push),
        c(7, 3, "msg", "sysMsg", handler: "sysMsg", r: ["sysMsg"], .push),
        c(7, 6, "msg", "getHistoryMsgs", handler: "getHistoryMsgs", r: ["msgs"], .request),
        c(7, 7, "msg", "sendCustomSysMsg", handler: "sendCustomSysMsg", .request),
        c(7, 8, "msg", "searchHistoryMsgs", handler: "searchHistoryMsgs", r: ["msgs"], .request),
        c(7, 9, "msg", "deleteSessions", handler: "deleteSessions", .request),
        c(7, 10, "msg", "getSessions", handler: "getSessions", r: ["sessions"], .request),
        c(7, 11, "msg", "sendMsgReceipt", handler: "sendMsgReceipt", r: ["msgReceipt"], .request),
        c(7, 12, "msg", "msgReceipt", handler: "msgReceipt", r: ["msgReceipt"], .push),
        c(7, 13, "msg", "deleteMsg", handler: "onDeleteMsg", .request),
        c(7, 14, "msg", "msgDeleted", handler: "onMsgDeleted", r: ["sysMsg"], .push),
        c(7, 15, "msg", nil, handler: "onDeleteMsgOfflineRoaming", r: ["sysMsgs", "timetag", "type"], .push),
        c(7, 16, "msg", "markSessionAck", handler: "onMarkSessionAck", .request),
        c(7, 17, "msg", "broadcastMsg", handler: "broadcastMsg", r: ["broadcastMsg"], .push),
        c(7, 18, "msg", "clearServerHistoryMsgs", handler: "clearServerHistoryMsgs", r: ["timetag"], .request),
        c(
            7, 19, "msg", "getServerSessions", handler: "getServerSessions", handlerService: "session",
            r: ["sessionReqTag", "sessionList"], .request),
        c(
            7, 20, "msg", "getServerSession", handler: "getServerSession", handlerService: "session", r: ["session"],
            .request),
        c(7, 21, "msg", "updateServerSession", handler: "updateServerSession", handlerService: "session", .request),
        c(7, 22, "msg", "deleteServerSessions", handler: "deleteServerSessions", handlerService: "session", .request),
        c(7, 23, "msg", "deleteMsgSelf", handler: "deleteMsgSelf", r: ["timetag"], .request),
        c(7, 24, "msg", "deleteMsgSelfBatch", handler: "deleteMsgSelfBatch", r: ["timetag"], .request),
        c(7, 25, "msg", "markSessionAckBatch", handler: "onMarkSessionAckBatch", .request),
        c(7, 26, "msg", "msgFtsInServer", handler: "msgFtsInServer", r: ["msgs"], .request),
        c(7, 101, "msg", "syncSendMsg", handler: "syncSendMsg", r: ["msg"], .push),
        c(7, 116, "msg", nil, handler: "syncMarkSessionAck", r: ["scene", "to", "timetag"], .push),
        c(
            7, 118, "msg", "onClearServerHistoryMsgs", handler: "onClearServerHistoryMsgs",
            r: ["sessionHistoryMsgsDeleteTag"], .push),
        c(7, 121, "msg", "syncUpdateServerSession", handler: "syncUpdateServerSession", r: ["session"], .push),
        c(7, 123, "msg", "onDeleteMsgSelf", handler: "onDeleteMsgSelf", r: ["deleteMsgSelfTag"], .push),
        c(7, 124, "msg", "onDeleteMsgSelfBatch", handler: "onDeleteMsgSelfBatch", r: ["deleteMsgSelfTags"], .push),
        c(8, 1, "team", "createTeam", handler: "createTeam", r: ["team", "abortedAccidList"], .request),
        c(8, 2, "team", "sendTeamMsg", handler: "sendTeamMsg", r: ["msg"], .request),
        c(8, 3, "team", "teamMsg", handler: "teamMsg", r: ["msg"], .push),
        c(8, 4, "team", "teamMsgs", handler: "teamMsgs", r: ["msgs"], .push),
        c(8, 5, "team", "addTeamMembers", handler: "addTeamMembers", r: ["time", "abortedAccidList"], .request),
        c(8, 6, "team", "removeTeamMembers", handler: "removeTeamMembers", .request),
        c(8, 7, "team", "updateTeam", handler: "updateTeam", r: ["id", "time"], .request),
        c(8, 8, "team", "leaveTeam", handler: "leaveTeam", .request),
        c(8, 9, "team", "getTeam", handler: "getTeam", r: ["team"], .request),
        c(8, 10, "team", "getTeams", handler: "getTeams", r: ["teams", "timetag"], .request),
        c(8, 11, "team", "getTeamMembers", handler: "getTeamMembers", r: ["teamId", "members", "timetag"], .request),
        c(8, 12, "team", "dismissTeam", handler: "dismissTeam", .request),
        c(8, 13, "team", "applyTeam", handler: "applyTeam", r: ["team"], .request),
        c(8, 14, "team", "passTeamApply", handler: "passTeamApply", .request),
        c(8, 15, "team", "rejectTeamApply", handler: "rejectTeamApply", .request),
        c(8, 16, "team", "addTeamManagers", handler: "addTeamManagers", .request),
        c(8, 17, "team", "removeTeamManagers", handler: "removeTeamManagers", .request),
        c(8, 18, "team", "transferTeam", handler: "transferTeam", .request),
        c(8, 19, "team", "updateInfoInTeam", handler: "updateInfoInTeam", .request),
        c(8, 20, "team", "updateNickInTeam", handler: "updateNickInTeam", .request),
        c(8, 21, "team", "acceptTeamInvite", handler: "acceptTeamInvite", r: ["team"], .request),
        c(8, 22, "team", "rejectTeamInvite", handler: "rejectTeamInvite", .request),
        c(8, 23, "team", "getTeamHistoryMsgs", handler: "getTeamHistoryMsgs", r: ["msgs"], .request),
        c(8, 24, "team", "searchTeamHistoryMsgs", handler: "searchTeamHistoryMsgs", r: ["msgs"], .request),
        c(8, 25, "team", "updateMuteStateInTeam", handler: "updateMuteStateInTeam", .request),
        c(8, 26, "team", "getMyTeamMembers", handler: "getMyTeamMembers", r: ["teamMembers"], .request),
        c(
            8, 27, "team", "getMutedTeamMembers", handler: "getMutedTeamMembers", r: ["teamId", "teamMembers"], .request
        ),
        c(8, 28, "team", "sendTeamMsgReceipt", handler: "sendTeamMsgReceipt", r: ["teamMsgReceipts"], .request),
        c(8, 29, "team", "getTeamMsgReads", handler: "getTeamMsgReads", r: ["teamMsgReceipts"], .request),
        c(
            8, 30, "team", "getTeamMsgReadAccounts", handler: "getTeamMsgReadAccounts",
            r: ["teamMsgReceipt", "readAccounts", "unreadAccounts"],
            .request),
        c(8, 31, "team", "notifyTeamMsgReads", handler: "notifyTeamMsgReads", r: ["teamMsgReceipts"], .push),
        c(8, 32, "team", "muteTeamAll", handler: "muteTeamAll", .request),
        c(
            8, 33, "team", "getTeamMemberInvitorAccid", handler: "getTeamMemberInvitorAccid", r: ["accountsMap"],
            .request),
        c(8, 34, "team", "getTeamsById", handler: "getTeamsById", r: ["teams", "tids"], .request),
        c(8, 101, "team", "syncCreateTeam", handler: "syncCreateTeam", r: ["team"], .push),
        c(8, 102, "team", "syncSendTeamMsg", handler: "syncSendTeamMsg", r: ["msg"], .push),
        c(8, 109, "team", "syncTeams", handler: "syncTeams", r: ["timetag", "teams"], .push),
        c(8, 111, "team", "syncTeamMembers", handler: "syncTeamMembers", r: ["teamId", "members", "timetag"], .push),
        c(8, 119, "team", "syncUpdateTeamMember", handler: "syncUpdateTeamMember", r: ["teamMember"], .push),
        c(8, 126, "team", "syncMyTeamMembers", handler: "syncMyTeamMembers", r: ["teamMembers", "timetag"], .push),
        c(12, 1, "friend", "friendRequest", handler: "friendRequest", .request),
        c(12, 2, "friend", "deleteFriend", handler: "deleteFriend", .request),
        c(12, 3, "friend", "updateFriend", handler: "updateFriend", .request),
        c(12, 4, "friend", "getFriends", handler: "getFriends", r: ["friends", "timetag"], .request),
        c(12, 5, "friend", nil, handler: "syncFriends", r: ["friends", "timetag"], .push),
        c(12, 6, "friend", nil, handler: "syncFriendUsers", r: ["users", "timetag"], .push),
        c(12, 101, "friend", "syncFriendRequest", handler: "syncFriendRequest", r: ["account", "type", "ps"], .push),
        c(12, 102, "friend", "syncDeleteFriend", handler: "syncDeleteFriend", r: ["account"], .push),
        c(12, 103, "friend", "syncUpdateFriend", handler: "syncUpdateFriend", r: ["friend"], .push),
        c(13, 1, "chatroom", "getChatroomAddress", handler: "getChatroomAddress", r: ["address"], .request),
        c(
            13, 2, "chatroom", "login", handler: "login", r: ["chatroom", "chatroomMember", "chatroomCdnInfo"], .request
        ),
        c(13, 3, "chatroom", "kicked", handler: "kicked", r: ["reason", "custom"], .push),
        c(13, 4, "chatroom", "logout", handler: "logout", .request),
        c(13, 6, "chatroom", "sendMsg", handler: "sendMsg", r: ["msg"], .request),
        c(13, 7, "chatroom", "msg", handler: "msg", r: ["msg"], .push),
        c(13, 8, "chatroom", "getChatroomMembers", handler: "getChatroomMembers", r: ["members"], .request),
        c(13, 9, "chatroom", "getHistoryMsgs", handler: "getHistoryMsgs", r: ["msgs"], .request),
        c(13, 11, "chatroom", "markChatroomMember", handler: "markChatroomMember", r: ["chatroomMember"], .request),
        c(13, 12, "chatroom", "closeChatroom", handler: "closeChatroom", .request),
        c(13, 13, "chatroom", "getChatroom", handler: "getChatroom", r: ["chatroom"], .request),
        c(13, 14, "chatroom", "updateChatroom", handler: "updateChatroom", .request),
        c(13, 15, "chatroom", "updateMyChatroomMemberInfo", handler: "updateMyChatroomMemberInfo", .request),
        c(13, 16, "chatroom", "getChatroomMembersInfo", handler: "getChatroomMembersInfo", r: ["members"], .request),
        c(13, 17, "chatroom", "kickChatroomMember", handler: "kickChatroomMember", .request),
        c(13, 19, "chatroom", "updateChatroomMemberTempMute", handler: "updateChatroomMemberTempMute", .request),
        c(13, 20, "chatroom", "queueOffer", handler: "queueOffer", .request),
        c(13, 21, "chatroom", "queuePoll", handler: "queuePoll", r: ["elementKey", "elementValue"], .request),
        c(13, 22, "chatroom", "queueList", handler: "queueList", r: ["queueList"], .request),
        c(13, 23, "chatroom", "peak", handler: "peak", r: ["elementKey", "elementValue"], .request),
        c(13, 24, "chatroom", "queueDrop", handler: "queueDrop", .request),
        c(13, 25, "chatroom", "queueInit", handler: "queueInit", .request),
        c(13, 26, "chatroom", "queueChange", handler: "queueChange", r: ["elementKeyArray"], .push),
        c(13, 30, "chatroom", "updateTagMembersTempMute", handler: "updateTagMembersTempMute", .request),
        c(13, 31, "chatroom", "getChatroomMembersByTag", handler: "getChatroomMembersByTag", r: ["members"], .request),
        c(
            13, 32, "chatroom", "getChatroomMemberCountByTag", handler: "getChatroomMemberCountByTag", r: ["count"],
            .request),
        c(13, 99, "chatroom", "notifyCdnInfo", handler: "notifyCdnInfo", r: ["chatroomCdnInfo"], .push),
        c(14, 1, "eventService", "publishEvent", handler: "publishEvent", r: ["msgEvent"], .request),
        c(14, 2, "eventService", "pushEvent", handler: "pushEvent", r: ["msgEvent"], .push),
        c(14, 3, "eventService", "subscribeEvent", handler: "subscribeEvent", r: ["accounts"], .request),
        c(
            14, 4, "eventService", "unSubscribeEventsByAccounts", handler: "unSubscribeEventsByAccounts",
            r: ["accounts"], .request),
        c(14, 5, "eventService", "unSubscribeEventsByType", handler: "unSubscribeEventsByType", .request),
        c(
            14, 6, "eventService", "querySubscribeEventsByAccounts", handler: "querySubscribeEventsByAccounts",
            r: ["msgEventSubscribes"], .request),
        c(
            14, 7, "eventService", "querySubscribeEventsByType", handler: "querySubscribeEventsByType",
            r: ["msgEventSubscribes"], .request),
        c(14, 9, "eventService", "pushEvents", handler: "pushEvents", r: ["msgEvents"], .push),
        c(15, 1, "avSignal", "signalingCreate", handler: "signalingCreate", r: ["avSignalTag"], .request),
        c(15, 2, "avSignal", "signalingDelay", handler: "signalingDelay", r: ["avSignalTag"], .request),
        c(15, 3, "avSignal", "signalingClose", handler: "signalingClose", r: ["avSignalTag"], .request),
        c(15, 4, "avSignal", "signalingJoin", handler: "signalingJoin", r: ["avSignalTag"], .request),
        c(15, 5, "avSignal", "signalingLeave", handler: "signalingLeave", .request),
        c(15, 6, "avSignal", "signalingInvite", handler: "signalingInvite", .request),
        c(15, 7, "avSignal", "signalingCancel", handler: "signalingCancel", .request),
        c(15, 8, "avSignal", "signalingReject", handler: "signalingReject", .request),
        c(15, 9, "avSignal", "signalingAccept", handler: "signalingAccept", .request),
        c(15, 10, "avSignal", "signalingControl", handler: "signalingControl", .request),
        c(15, 11, "avSignal", "signalingNotify", handler: "signalingNotify", r: ["avSignalTag"], .push),
        c(
            15, 12, "avSignal", "signalingMutilClientSyncNotify", handler: "signalingMutilClientSyncNotify",
            r: ["avSignalTag"], .push),
        c(
            15, 13, "avSignal", "signalingUnreadMessageSyncNotify", handler: "signalingUnreadMessageSyncNotify",
            r: ["avSignalTag"], .push),
        c(
            15, 14, "avSignal", "signalingChannelsSyncNotify", handler: "signalingChannelsSyncNotify",
            r: ["avSignalTag"], .push),
        c(
            15, 15, "avSignal", "signalingGetChannelInfo", handler: "signalingGetChannelInfo", r: ["avSignalTag"],
            .request),
        c(21, 2, "superTeam", "sendSuperTeamMsg", handler: "sendSuperTeamMsg", r: ["msg"], .request),
        c(21, 3, "superTeam", "superTeamMsg", handler: "superTeamMsg", r: ["msg"], .push),
        c(
            21, 5, "superTeam", "addSuperTeamMembers", handler: "addSuperTeamMembers",
            r: ["abortedAccidList", "timetag"], .request),
        c(21, 6, "superTeam", "removeSuperTeamMembers", handler: "removeSuperTeamMembers", .request),
        c(21, 7, "superTeam", "leaveSuperTeam", handler: "leaveSuperTeam", .request),
        c(21, 8, "superTeam", "updateSuperTeam", handler: "updateSuperTeam", r: ["teamId", "timetag"], .request),
        c(21, 9, "superTeam", "getSuperTeam", handler: "getSuperTeam", r: ["team"], .request),
        c(21, 10, "superTeam", "updateInfoInSuperTeam", handler: "updateInfoInSuperTeam", .request),
        c(21, 11, "superTeam", "getMySuperTeamMembers", handler: "getMySuperTeamMembers", r: ["members"], .request),
        c(21, 12, "superTeam", "getSuperTeams", handler: "getSuperTeams", r: ["teams", "isAll", "timetag"], .request),
        c(21, 13, "superTeam", "getSuperTeamMembers", handler: "getSuperTeamMembers", r: ["timetag"], .request),
        c(21, 14, "superTeam", "getSuperTeamHistoryMsgs", handler: "getSuperTeamHistoryMsgs", r: ["msgs"], .request),
        c(
            21, 15, "superTeam", "getSuperTeamMembersByJoinTime", handler: "getSuperTeamMembersByJoinTime",
            r: ["members"], .request),
        c(21, 16, "superTeam", "sendSuperTeamCustomSysMsg", handler: "sendSuperTeamCustomSysMsg", .request),
        c(21, 17, "superTeam", "deleteSuperTeamMsg", handler: "onDeleteSuperTeamMsg", .request),
        c(21, 18, "superTeam", "superTeamMsgDelete", handler: "onSuperTeamMsgDelete", r: ["sysMsg"], .push),
        c(21, 19, "superTeam", "superTeamCustomSysMsg", handler: "superTeamCustomSysMsg", r: ["sysMsg"], .push),
        c(21, 20, "superTeam", "applySuperTeam", handler: "applySuperTeam", r: ["team"], .request),
        c(21, 21, "superTeam", "passSuperTeamApply", handler: "passSuperTeamApply", .request),
        c(21, 22, "superTeam", "rejectSuperTeamApply", handler: "rejectSuperTeamApply", .request),
        c(21, 23, "superTeam", "acceptSuperTeamInvite", handler: "acceptSuperTeamInvite", r: ["team"], .request),
        c(21, 24, "superTeam", "rejectSuperTeamInvite", handler: "rejectSuperTeamInvite", .request),
        c(21, 25, "superTeam", "markSuperTeamSessionAck", handler: "onMarkSuperTeamSessionAck", .request),
        c(21, 26, "superTeam", "addSuperTeamManagers", handler: "addSuperTeamManagers", .request),
        c(21, 27, "superTeam", "removeSuperTeamManagers", handler: "removeSuperTeamManagers", .request),
        c(21, 28, "superTeam", "updateSuperTeamMute", handler: "updateSuperTeamMute", .request),
        c(
            21, 29, "superTeam", "updateSuperTeamMembersMute", handler: "updateSuperTeamMembersMute", r: ["timetag"],
            .request),
        c(21, 30, "superTeam", "updateNickInSuperTeam", handler: "updateNickInSuperTeam", .request),
        c(21, 31, "superTeam", "transferSuperTeam", handler: "transferSuperTeam", .request),
        c(21, 32, "superTeam", "markSuperTeamSessionsAck", handler: "onMarkSuperTeamSessionsAck", .request),
        c(
            21, 33, "superTeam", "getSuperTeamMembersByAccounts", handler: "getSuperTeamMembersByAccounts",
            r: ["members"], .request),
        c(
            21, 34, "superTeam", "getMutedSuperTeamMembers", handler: "getMutedSuperTeamMembers", r: ["members"],
            .request),
        c(21, 101, "superTeam", "syncCreateSuperTeam", handler: "syncCreateSuperTeam", r: ["team"], .push),
        c(21, 102, "superTeam", "syncSendSuperTeamMsg", handler: "syncSendSuperTeamMsg", r: ["msg"], .push),
        c(21, 109, "superTeam", "syncSuperTeams", handler: "syncSuperTeams", r: ["teams", "isAll", "timetag"], .push),
        c(
            21, 110, "superTeam", "syncUpdateSuperTeamMember", handler: "syncUpdateSuperTeamMember", r: ["teamMember"],
            .push),
        c(
            21, 111, "superTeam", "syncMySuperTeamMembers", handler: "syncMySuperTeamMembers",
            r: ["teamMembers", "timetag"], .push),
        c(
            21, 113, "superTeam", "syncSuperTeamMembers", handler: "syncSuperTeamMembers",
            r: ["teamId", "members", "isAll", "timetag"], .push),
        c(21, 117, "superTeam", "syncDeleteSuperTeamMsg", handler: "syncDeleteSuperTeamMsg", r: ["sysMsg"], .push),
        c(21, 125, "superTeam", nil, handler: "syncMarkSuperTeamSessionAck", r: ["to", "timetag"], .push),
        c(22, 1, "proxyService", "httpProxy", handler: "httpProxy", r: ["proxyTag"], .request),
        c(22, 2, "proxyService", "onProxyMsg", handler: "onProxyMsg", r: ["proxyMsg"], .push),
        c(
            23, 1, "msgExtend", "getThreadMsgs", handler: "getThreadMsgs", r: ["threadMsg", "threadMsgsMeta", "msgs"],
            .request),
        c(23, 2, "msgExtend", "getMsgsByIdServer", handler: "getMsgsByIdServer", r: ["msgs"], .request),
        c(23, 3, "msgExtend", "addQuickComment", handler: "addQuickComment", r: ["timetag"], .request),
        c(23, 4, "msgExtend", "deleteQuickComment", handler: "deleteQuickComment", r: ["timetag"], .request),
        c(23, 5, "msgExtend", "onQuickComment", handler: "onQuickComment", r: ["msg", "comment"], .push),
        c(23, 6, "msgExtend", "onDeleteQuickComment", handler: "onDeleteQuickComment", r: ["msg", "comment"], .push),
        c(23, 7, "msgExtend", "getQuickComments", handler: "getQuickComments", r: ["commentRes"], .request),
        c(23, 8, "msgExtend", "addCollect", handler: "addCollect", r: ["collect"], .request),
        c(23, 9, "msgExtend", "deleteCollects", handler: "deleteCollects", r: ["deleteNum"], .request),
        c(23, 10, "msgExtend", "updateCollect", handler: "updateCollect", r: ["collect"], .request),
        c(23, 11, "msgExtend", "getCollects", handler: "getCollects", r: ["total", "collectList"], .request),
        c(23, 12, "msgExtend", "addStickTopSession", handler: "addStickTopSession", r: ["stickTopSession"], .request),
        c(23, 13, "msgExtend", "deleteStickTopSession", handler: "deleteStickTopSession", r: ["timetag"], .request),
        c(
            23, 14, "msgExtend", "updateStickTopSession", handler: "updateStickTopSession", r: ["stickTopSession"],
            .request),
        c(23, 15, "msgExtend", "addMsgPin", handler: "addMsgPin", r: ["timetag"], .request),
        c(23, 16, "msgExtend", "updateMsgPin", handler: "updateMsgPin", r: ["timetag"], .request),
        c(23, 17, "msgExtend", "deleteMsgPin", handler: "deleteMsgPin", r: ["timetag"], .request),
        c(23, 18, "msgExtend", "onAddMsgPin", handler: "onAddMsgPin", r: ["msg", "pinTag", "timetag"], .push),
        c(23, 19, "msgExtend", "onUpdateMsgPin", handler: "onUpdateMsgPin", r: ["msg", "pinTag", "timetag"], .push),
        c(23, 20, "msgExtend", "onDeleteMsgPin", handler: "onDeleteMsgPin", r: ["msg", "pinTag", "timetag"], .push),
        c(23, 21, "msgExtend", "getMsgPins", handler: "getMsgPins", r: ["timetag", "modify", "pins"], .request),
        c(23, 103, "msgExtend", "syncAddQuickComment", handler: "syncAddQuickComment", r: ["msg", "comment"], .push),
        c(
            23, 104, "msgExtend", "syncDeleteQuickComment", handler: "syncDeleteQuickComment", r: ["msg", "comment"],
            .push),
        c(
            23, 112, "msgExtend", "syncAddStickTopSession", handler: "syncAddStickTopSession", r: ["stickTopSession"],
            .push),
        c(
            23, 113, "msgExtend", "syncDeleteStickTopSession", handler: "syncDeleteStickTopSession",
            r: ["timetag", "stickTopSession"], .push),
        c(
            23, 114, "msgExtend", "syncUpdateStickTopSession", handler: "syncUpdateStickTopSession",
            r: ["stickTopSession"], .push),
        c(23, 115, "msgExtend", "syncAddMsgPin", handler: "syncAddMsgPin", r: ["msg", "pinTag", "timetag"], .push),
        c(
            23, 116, "msgExtend", "syncUpdateMsgPin", handler: "syncUpdateMsgPin", r: ["msg", "pinTag", "timetag"],
            .push),
        c(
            23, 117, "msgExtend", "syncDeleteMsgPin", handler: "syncDeleteMsgPin", r: ["msg", "pinTag", "timetag"],
            .push),
        c(101, 1, "filter", "sendFilterMsg", handler: "sendFilterMsg", r: ["msg"], .request),
        c(101, 2, "filter", "filterMsg", handler: "filterMsg", r: ["msg"], .push),
        c(101, 3, "filter", "filterSysMsg", handler: "filterSysMsg", r: ["sysMsg"], .push),
        c(101, 7, "filter", "sendFilterCustomSysMsg", handler: "sendFilterCustomSysMsg", .request),
    ]
}
