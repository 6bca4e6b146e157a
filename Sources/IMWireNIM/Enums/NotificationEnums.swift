import IMWireCore

extension NIMStatusCodes {
    /// iOS `NIMNotificationType`: the kind of a notification message.
    public static let notificationType = StatusTable(
        .nim, "NIMNotificationType", title: "iOS notification types", kind: .enumeration,
        source: "\(iOSHeaders)/NIMNotificationContent.h", travel: .sdkEnum
    ) { row in
        [
            row(
                0, "NIMNotificationTypeUnsupport", "Unsupported notification type",
                original: "未被支持的通知类型"),
            row(1, "NIMNotificationTypeTeam", "Team notification", original: "群通知"),
            row(2, "NIMNotificationTypeNetCall", "Net-call notification", original: "网络电话通知"),
            row(3, "NIMNotificationTypeChatroom", "Chatroom notification", original: "聊天室通知"),
        ]
    }

    /// iOS `NIMSystemNotificationType` (C `NIMSysMsgType` uses the same numbers for these).
    public static let systemNotificationType = StatusTable(
        .nim, "NIMSystemNotificationType", title: "iOS system notification types", kind: .enumeration,
        source: "\(iOSHeaders)/NIMSystemNotification.h", travel: .sdkEnum,
        notes: [
            """
            C `NIMSysMsgType` has the same 0–3 and 5, and adds 6 friend \
            deleted, 100/101/103 custom messages, 1000 unknown (nim.md §2.2).
            """
        ]
    ) { row in
        [
            row(0, "NIMSystemNotificationTypeTeamApply", "Application to join a team", original: "申请入群"),
            row(1, "NIMSystemNotificationTypeTeamApplyReject", "Team application rejected", original: "拒绝入群"),
            row(2, "NIMSystemNotificationTypeTeamInvite", "Invitation to a team", original: "邀请入群"),
            row(
                3, "NIMSystemNotificationTypeTeamIviteReject", "Team invitation rejected",
                original: "拒绝入群邀请"),
            row(5, "NIMSystemNotificationTypeFriendAdd", "Friend added", original: "添加好友"),
        ]
    }

    /// iOS `NIMTeamOperationType` (C `kNIMNotificationIdTeam*` use the same numbers 0–10).
    public static let teamOperationType = StatusTable(
        .nim, "NIMTeamOperationType", title: "iOS team operation types", kind: .enumeration,
        source: "\(iOSHeaders)/NIMTeamNotificationContent.h", travel: .sdkEnum,
        notes: [
            """
            C `NIMNotificationId` numbers the same team operations 0–10 \
            (kNIMNotificationIdTeamInvite … TeamMuteMember, nim.md §2.2).
            """
        ]
    ) { row in
        [
            row(0, "NIMTeamOperationTypeInvite", "Members invited", original: "邀请成员"),
            row(1, "NIMTeamOperationTypeKick", "Members removed", original: "移除成员"),
            row(2, "NIMTeamOperationTypeLeave", "Left the team", original: "离开群"),
            row(3, "NIMTeamOperationTypeUpdate", "Team info updated", original: "更新群信息"),
            row(4, "NIMTeamOperationTypeDismiss", "Team dismissed", original: "解散群"),
            row(
                5, "NIMTeamOperationTypeApplyPass", "Application to an advanced team accepted",
                original: "高级群申请加入成功"),
            row(
                6, "NIMTeamOperationTypeTransferOwner", "Advanced team owner transferred ownership",
                original: "高级群群主转移群主身份"),
            row(7, "NIMTeamOperationTypeAddManager", "Managers added", original: "添加管理员"),
            row(8, "NIMTeamOperationTypeRemoveManager", "Managers removed", original: "移除管理员"),
            row(
                9, "NIMTeamOperationTypeAcceptInvitation", "Invitation to an advanced team accepted",
                original: "高级群接受邀请进群"),
            row(10, "NIMTeamOperationTypeMute", "Members muted or unmuted", original: "群内禁言/解禁"),
        ]
    }

    /// C/Node `NIMNotificationId`: the id of a notification message, with the JSON its attachment carries.
    public static let notificationIdC = StatusTable(
        .nim, "NIMNotificationId", title: "C/Node notification ids", kind: .enumeration, source: nodeEnums,
        travel: .sdkEnum,
        notes: [
            """
            0–10 use the numbers of iOS `NIMTeamOperationType`, 101/102 those of iOS \
            `NIMNetCallEventType` (Miss, Bill); 401–411 are the super-team counterparts of the \
            team notifications; 2000–2011 and 3103–3105 are local operations (nim.md §2.2).
            """
        ]
    ) { row in
        [
            row(
                0, "kNIMNotificationIdTeamInvite",
                """
                Normal team: members invited. {"ids":[…],"user_namecards":[…],"attach":""}; \
                attach is an optional app-defined extension, check for it before parsing
                """,
                original:
                    """
                    普通群拉人，{"ids":["a1", "a2"],"user_namecards":["namecard1", \
                    "namecard2"], "attach" : ""} attach为可选字段，\
                    作为应用自定义扩展字段,解析前需要判断有没有这个字段
                    """
            ),
            row(
                1, "kNIMNotificationIdTeamKick",
                """
                Normal team: members removed. {"ids":[…],"user_namecards":[…],"attach":""}; \
                attach is an optional app-defined extension, check for it before parsing
                """,
                original:
                    """
                    普通群踢人，{"ids":["a1", "a2"],"user_namecards":["namecard1", \
                    "namecard2"], "attach" : ""} attach为可选字段，\
                    作为应用自定义扩展字段,解析前需要判断有没有这个字段
                    """
            ),
            row(
                2, "kNIMNotificationIdTeamLeave", "Left the team. {\"id\":\"a1\",\"user_namecards\":[…]}",
                original: "退出群，{\"id\" : \"a1\",\"user_namecards\":[\"namecard1\", \"namecard2\"]}"),
            row(
                3, "kNIMNotificationIdTeamUpdate",
                "Team info updated. {\"team_info\":team_info,\"user_namecards\":[…]}",
                original: """
                    群信息更新，{"team_info":team_info,\
                    "user_namecards":["namecard1", "namecard2"]}
                    """),
            row(
                4, "kNIMNotificationIdTeamDismiss", "Team dismissed. {\"user_namecards\":[…]}",
                original: "群解散，{\"user_namecards\":[\"namecard1\", \"namecard2\"]}"),
            row(
                5, "kNIMNotificationIdTeamApplyPass",
                "Application to an advanced team accepted. {\"id\":\"a1\",\"user_namecards\":[…]}",
                original: """
                    高级群申请加入成功，\
                    {"id":"a1","user_namecards":["namecard1", "namecard2"]}
                    """),
            row(
                6, "kNIMNotificationIdTeamOwnerTransfer",
                "Advanced team ownership transferred. {\"id\":\"a1\",\"leave\":boolean,\"user_namecards\":[…]}",
                original: """
                    高级群移交群主，{"id":"a1", "leave" : \
                    boolean,"user_namecards":["namecard1", "namecard2"]}
                    """),
            row(
                7, "kNIMNotificationIdTeamAddManager", "Managers added. {\"ids\":[…],\"user_namecards\":[…]}",
                original: """
                    增加管理员，{"ids":["a1","a2"],\
                    "user_namecards":["namecard1", "namecard2"]}
                    """),
            row(
                8, "kNIMNotificationIdTeamRemoveManager", "Managers removed. {\"ids\":[…],\"user_namecards\":[…]}",
                original: """
                    删除管理员，{"ids":["a1","a2"],\
                    "user_namecards":["namecard1", "namecard2"]}
                    """),
            row(
                9, "kNIMNotificationIdTeamInviteAccept",
                "Invitation to an advanced team accepted. {\"id\":\"a1\",\"user_namecards\":[…]}",
                original: """
                    高级群接受邀请进群，\
                    {"id":"a1","user_namecards":["namecard1", "namecard2"]}
                    """),
            row(
                10, "kNIMNotificationIdTeamMuteMember",
                """
                Team member muted or unmuted. \
                {"user_namecards":[…],"team_info":team_info,"id":"a1","mute":1 muted, 0 unmuted}
                """,
                original: """
                    禁言/解禁群成员，{"user_namecards":["namecard1", \
                    "namecard2"],"team_info":team_info,"id":"a1","mute":1-禁言,0-解禁}
                    """),
            row(
                101, "kNIMNotificationIdNetcallMiss",
                "Missed call. {\"calltype\":1,\"channel\":…,\"from\":\"id1\",\"ids\":[…],\"time\":…}",
                original: """
                    未接电话,{"calltype":1,"channel":6146078138783760761,"from":"id1","ids":["id1","id2"], \
                    "time":1430995380471}
                    """),
            row(
                102, "kNIMNotificationIdNetcallBill",
                "Call record (bill). {\"calltype\":2,\"channel\":…,\"duration\":8,\"ids\":[…],\"time\":…}",
                original: """
                    话单,{"calltype":2,"channel":6146077129466446197,\
                    "duration":8,"ids":["id1","id2"],"time":1430995117398}
                    """),
            row(
                1000, "kNIMNotificationIdTeamSyncCreate",
                "Team created. {\"team_info\":team_info} (keys: nim_team_def.h, team info JSON keys)",
                original: """
                    创建群 {"team_info" : team_info} //群组信息(Keys \
                    SEE MORE `nim_team_def.h` 『群组信息 Json Keys』)
                    """),
            row(
                1001, "kNIMNotificationIdTeamMemberChanged",
                """
                Team member changed. {"team_member":team_member_info}, members \
                other than oneself (keys: nim_team_def.h, team member JSON keys)
                """,
                original: """
                    群成员变更{"team_member" : team_member_info} //群组成员信息（不包括自己）\
                    (Keys SEE MORE `nim_team_def.h` 『群组成员信息 Json Keys』)
                    """),
            row(
                1002, "kNIMNotificationIdTeamSyncUpdateMemberProperty",
                """
                Sync notice: a team member's properties changed (one's own or another's). \
                {"team_member":team_member_info}; for now only kNIMTeamUserKeyNick and kNIMTeamUserKeyBits
                """,
                original: """
                    同步通知：修改群成员属性（可能是自己的或别人的）{"team_member" \
                    : team_member_info} 目前只需kNIMTeamUserKeyNick和kNIMTeamUserKeyBits
                    """),
            row(
                2000, "kNIMNotificationIdLocalCreateTeam", "Local operation: create a team. {\"ids\":[…]}",
                original: "本地操作创建群 {\"ids\" : [\"a1\", \"a2\"]}"),
            row(
                2001, "kNIMNotificationIdLocalApplyTeam", "Local operation: apply to join a team. {}",
                original: "本地操作申请加入群 {}"),
            row(
                2002, "kNIMNotificationIdLocalRejectApply", "Local operation: reject an application. {\"id\":\"a1\"}",
                original: "本地操作拒绝申请 {\"id\":\"a1\"}"),
            row(
                2003, "kNIMNotificationIdLocalRejectInvite", "Local operation: reject an invitation. {\"id\":\"a1\"}",
                original: "本地操作拒绝邀请 {\"id\":\"a1\"}"),
            row(
                2004, "kNIMNotificationIdLocalUpdateMemberProperty",
                "Local operation: update a team member's properties. {\"team_member\":team_member_info}",
                original: "本地操作更新群成员属性  {\"team_member\" : team_member_info}"),
            row(
                2005, "kNIMNotificationIdLocalUpdateOtherNick", "Local operation: update another member's nickname. {}",
                original: "本地操作更新他人nickname {}"),
            row(
                2006, "kNIMNotificationIdLocalGetTeamInfo", "Local operation: get team info. {\"team_info\":team_info}",
                original: "本地操作获取群信息 {\"team_info\":team_info}"),
            row(
                2007, "kNIMNotificationIdLocalGetTeamList", "Local operation: getting team member info finished",
                original: "本地操作获取群成员信息结束"),
            row(
                2008, "kNIMNotificationIdLocalMuteMember",
                "Local operation: mute a team member. {\"id\":\"a1\",\"mute\":1 muted, 0 unmuted}",
                original: "本地操作对群成员禁言 {\"id\":\"a1\", \"mute\":1-禁言,0-解禁}"),
            row(
                2009, "kNIMNotificationIdLocalMute", "Local operation: mute the team. {}",
                original: "本地操作对群禁言 {}"),
            row(
                2010, "kNIMNotificationIdLocalGetTeamMsgUnreadCount",
                """
                Get team message unread counts. {[{"client_msg_id":"","count":int,"read_accid":accid \
                of the member who has read it},…]}
                """,
                original: """
                    获取群消息未读数 {[{"client_msg_id":"", "count":int, \
                    "read_accid":"当前已读成员的accid"},...]}
                    """),
            row(
                2011, "kNIMNotificationIdLocalGetTeamMsgUnreadList",
                "Get a team message's unread list. {\"client_msg_id\":\"\",\"read\":[…],\"unread\":[…]}",
                original: """
                    获取群消息未读列表 {"client_msg_id":"", \
                    "read":["id1",...], "unread":["id2",...]}
                    """),
            row(
                3103, "kNIMNotificationIdLocalNetcallReject",
                "Call rejected. {\"calltype\":1,\"channel\":…,\"from\":\"id1\",\"ids\":[…],\"time\":…}",
                original: """
                    拒绝电话,{"calltype":1,"channel":6146078138783760761,\
                    "from":"id1","ids":["id1","id2"],"time":1430995380471}
                    """),
            row(
                3104, "kNIMNotificationIdLocalNetcallNoResponse",
                """
                No answer, call not connected. \
                {"calltype":1,"channel":…,"from":"id1","ids":[…],"time":…}
                """,
                original:
                    """
                    无应答，\
                    未接通电话,{"calltype":1,"channel":6146078138783760761,\
                    "from":"id1","ids":["id1","id2"],"time":1430995380471}
                    """),
            row(
                3105, "kNIMNotificationIdLocalNetcallCanceled",
                """
                The caller hung up before the call connected. \
                {"calltype":1,"channel":…,"from":"id1","ids":[…],"time":…}
                """,
                original:
                    """
                    未接通前主叫方挂断，\
                    {"calltype":1,"channel":6146078138783760761,"from":"id1","ids":["id1","id2"],"time":1430995380471}
                    """),
            row(
                401, "kNIMNotificationIdSuperTeamInvite",
                """
                Super team: members invited. {"ids":[…],"user_namecards":[…],"attach":""}; \
                attach is an optional app-defined extension, check for it before parsing
                """,
                original:
                    """
                    超大群拉人，{"ids":["a1", "a2"],"user_namecards":["namecard1", \
                    "namecard2"], "attach" : ""} attach为可选字段，\
                    作为应用自定义扩展字段,解析前需要判断有没有这个字段
                    """
            ),
            row(
                402, "kNIMNotificationIdSuperTeamKick",
                """
                Super team: members removed. {"ids":[…],"user_namecards":[…],"attach":""}; \
                attach is an optional app-defined extension, check for it before parsing
                """,
                original:
                    """
                    超大群踢人，{"ids":["a1", "a2"],"user_namecards":["namecard1", \
                    "namecard2"], "attach" : ""} attach为可选字段，\
                    作为应用自定义扩展字段,解析前需要判断有没有这个字段
                    """
            ),
            row(
                403, "kNIMNotificationIdSuperTeamLeave",
                "Left the super team. {\"id\":\"a1\",\"user_namecards\":[…]}",
                original: "退出超大群，{\"id\" : \"a1\",\"user_namecards\":[\"namecard1\", \"namecard2\"]}"),
            row(
                404, "kNIMNotificationIdSuperTeamUpdate",
                "Super team info updated. {\"team_info\":team_info,\"user_namecards\":[…]}",
                original: """
                    超大群群信息更新，\
                    {"team_info":team_info,"user_namecards":["namecard1", "namecard2"]}
                    """),
            row(
                405, "kNIMNotificationIdSuperTeamDismiss", "Super team dismissed. {\"user_namecards\":[…]}",
                original: "超大群解散，{\"user_namecards\":[\"namecard1\", \"namecard2\"]}"),
            row(
                406, "kNIMNotificationIdSuperTeamOwnerTransfer",
                "Super team ownership transferred. {\"id\":\"a1\",\"uinfos\":[…]}",
                original: "超大群移交群主，{\"id\":\"a1\",\"uinfos\":[\"uinfo1\", \"uinfo2\"]}"),
            row(
                407, "kNIMNotificationIdSuperTeamAddManager",
                "Super team managers added. {\"ids\":[…],\"uinfos\":[…]}",
                original: "超大群增加管理员，{\"ids\":[\"a1\",\"a2\"],\"uinfos\":[\"uinfo1\", \"uinfo2\"]}"),
            row(
                408, "kNIMNotificationIdSuperTeamRemoveManager",
                "Super team managers removed. {\"ids\":[…],\"uinfos\":[…]}",
                original: "超大群删除管理员，{\"ids\":[\"a1\",\"a2\"],\"uinfos\":[\"uinfo1\", \"uinfo2\"]}"),
            row(
                409, "kNIMNotificationIdSuperTeamMuteMember",
                """
                Super team member muted or unmuted. \
                {"uinfos":[…],"tinfo":tinfo,"id":"a1","mute":1 muted, 0 unmuted}
                """,
                original: """
                    超大群禁言/解禁群成员，{"uinfos":["uinfo1", \
                    "uinfo2"],“tinfo”:tinfo,"id":"a1","mute":1-禁言,0-解禁}
                    """),
            row(
                410, "kNIMNotificationIdSuperTeamApplyPass",
                "Application to a super team accepted. {\"tinfo\":tinfo,\"id\":\"a1\",\"uinfos\":[…]}",
                original: """
                    超大群申请加入成功，\
                    {"tinfo":tinfo,"id":"a1","uinfos":["uinfo1", "uinfo2"]}
                    """),
            row(
                411, "kNIMNotificationIdSuperTeamInviteAccept",
                "Invitation to a super team accepted. {\"tinfo\":tinfo,\"id\":\"a1\"}",
                original: "超大群接受邀请进群，{\"tinfo\":tinfo,\"id\":\"a1\"}"),
        ]
    }

    /// C/Node `NIMSysMsgStatus`.
    public static let sysMsgStatusC = StatusTable(
        .nim, "NIMSysMsgStatus", title: "C/Node system message status", kind: .enumeration, source: nodeEnums,
        travel: .sdkEnum
    ) { row in
        [
            row(0, "kNIMSysMsgStatusNone", "Default, unread", original: "默认,未读"),
            row(1, "kNIMSysMsgStatusPass", "Received, accepted", original: "收到消息,通过"),
            row(2, "kNIMSysMsgStatusDecline", "Received, declined", original: "收到消息,拒绝"),
            row(3, "kNIMSysMsgStatusRead", "Received, read", original: "收到消息,已读"),
            row(4, "kNIMSysMsgStatusDeleted", "Deleted", original: "已删"),
            row(5, "kNIMSysMsgStatusInvalid", "No longer valid", original: "已失效"),
        ]
    }

    /// C/Node `NIMSysMsgType` (iOS `NIMSystemNotificationType` uses the same numbers for 0–3 and 5).
    public static let sysMsgTypeC = StatusTable(
        .nim, "NIMSysMsgType", title: "C/Node system message types", kind: .enumeration, source: nodeEnums,
        travel: .sdkEnum,
        notes: [
            """
            The Web `sysMsg.type` map uses the same numbers for 0–3, \
            5, 6, 100, 101 and 103 and names more types (nim.md §3.7).
            """
        ]
    ) { row in
        [
            row(0, "kNIMSysMsgTypeTeamApply", "Application to join a team", original: "申请入群"),
            row(1, "kNIMSysMsgTypeTeamReject", "Team application rejected", original: "拒绝入群申请"),
            row(
                2, "kNIMSysMsgTypeTeamInvite",
                """
                Invitation to a team; kNIMSysMsgKeyAttach: {"team_info":team_info,"attach":""}; \
                attach is an optional app-defined extension, check for it before parsing
                """,
                original: """
                    邀请进群 kNIMSysMsgKeyAttach : {"team_info":team_info, "attach" : ""} attach为可选字段，\
                    作为应用自定义扩展字段,解析前需要判断有没有这个字段
                    """),
            row(3, "kNIMSysMsgTypeTeamInviteReject", "Invitation rejected", original: "拒绝邀请"),
            row(
                5, "kNIMSysMsgTypeFriendAdd", "Add friend; kNIMSysMsgKeyAttach: {\"vt\":verify_type}",
                original: "加好友, kNIMSysMsgKeyAttach: {\"vt\":verify_type}"),
            row(6, "kNIMSysMsgTypeFriendDel", "Delete friend", original: "删除好友"),
            row(
                100, "kNIMSysMsgTypeCustomP2PMsg",
                """
                Point-to-point pass-through message (content in kNIMSysMsgKeyAttach); the \
                SDK does not count it as unread even when kNIMSysMsgKeyPushNeedBadge is 1
                """,
                original: """
                    点对点透传消息（透传消息的内容放到kNIMSysMsgKeyAttach）\
                    ,SDK对该类消息不计入未读数, 即使kNIMSysMsgKeyPushNeedBadge为1
                    """),
            row(
                101, "kNIMSysMsgTypeCustomTeamMsg",
                """
                Team pass-through message (content in kNIMSysMsgKeyAttach); the SDK \
                does not count it as unread even when kNIMSysMsgKeyPushNeedBadge is 1
                """,
                original: """
                    群透传消息（透传消息的内容放到kNIMSysMsgKeyAttach）\
                    ,SDK对该类消息不计入未读数, 即使kNIMSysMsgKeyPushNeedBadge为1
                    """),
            row(
                103, "kNIMSysMsgTypeCustomSuperTeamMsg",
                """
                Super team pass-through message (content in kNIMSysMsgKeyAttach); the \
                SDK does not count it as unread even when kNIMSysMsgKeyPushNeedBadge is 1
                """,
                original: """
                    超大群透传消息（透传消息的内容放到kNIMSysMsgKeyAttach）\
                    ,SDK对该类消息不计入未读数, 即使kNIMSysMsgKeyPushNeedBadge为1
                    """),
            row(
                1000, "kNIMSysMsgTypeUnknown", "Unknown: local default only, never send it",
                original: "未知类型，本地使用，发送时勿使用，作为默认"),
        ]
    }
}
