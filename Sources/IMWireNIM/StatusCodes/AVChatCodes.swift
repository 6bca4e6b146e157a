import IMWireCore

extension NIMStatusCodes {
    private static let avNote =
        """
        Error domain of the iOS NIMAVChat framework; the audio/video protocol is \
        out of IMWire's scope, so whether a code crosses the wire is not known.
        """

    /// iOS NIMAVChat 5.4.0 `NIMNetCallErrorCode` (nim.md §1.5, Appendix A).
    public static let netCallErrorCode = StatusTable(
        .nim, "NIMNetCallErrorCode", title: "iOS net-call error codes", kind: .codes, source: iOSAVHeaders,
        travel: .clientLocal, notes: [avNote]
    ) { row in
        [
            row(
                20001, "NIMNetCallErrorCodeNotStarted", "Net call not started", .clientLocal,
                original: "网络通话没有启动"),
            row(
                20002, "NIMNetCallErrorCodeOperationFailed", "Operation failed", .clientLocal,
                original: "操作失败"),
            row(
                20202, "NIMNetCallErrorCodeBypassSetExceedMax", "Live-streaming node count over the maximum",
                .clientLocal,
                original: "超过最大允许直播节点数量"),
            row(
                20203, "NIMNetCallErrorCodeBypassSetHostNotJoined", "The host must start the live stream first",
                .clientLocal,
                original: "必须由主播第一个开启直播"),
            row(
                20204, "NIMNetCallErrorCodeBypassSetServerError", "Interactive live-streaming server error",
                .clientLocal,
                original: "互动直播服务器错误"),
            row(
                20205, "NIMNetCallErrorCodeBypassSetOtherError", "Interactive live-streaming: other error",
                .clientLocal,
                original: "互动直播其他错误"),
            row(
                20404, "NIMNetCallErrorCodeBypassSetNoResponse", "Interactive live-streaming server did not answer",
                .clientLocal,
                original: "互动直播服务器没有响应"),
            row(
                20405, "NIMNetCallErrorCodeBypassReconnecting", "Not possible while reconnecting; try later",
                .clientLocal,
                original: "重连过程中无法进行相关操作，稍后再试"),
            row(
                20408, "NIMNetCallErrorCodeBypassSetTimeout", "Interactive live-streaming setup timed out",
                .clientLocal,
                original: "互动直播设置超时"),
            row(
                20409, "NIMNetCallErrorCodeServerDisconnected", "Disconnected from the audio/video server",
                .clientLocal,
                original: "与音视频服务器连接断开"),
            row(
                20410, "NIMNetCallErrorCodePeerLeftForTimeout", "The peer left the room after a timeout", .clientLocal,
                original: "对方超时离开了房间"),
            row(
                20411, "NIMNetCallErrorCodeAudioDeviceError", "Audio device error", .clientLocal,
                original: "音频设备异常"),
            row(
                20412, "NIMNetCallErrorCodeBeKicked", "Kicked out of the audio/video call", .clientLocal,
                original: "被踢出了音视频"),
            row(20413, "NIMNetCallErrorCodeChannelClosed", "Room closed", .clientLocal, original: "房间被关闭"),
        ]
    }

    /// iOS NIMAVChat 5.4.0 `NIMAVLocalErrorCode`.
    public static let avLocalErrorCode = StatusTable(
        .nim, "NIMAVLocalErrorCode", title: "iOS audio/video local error codes", kind: .codes, source: iOSAVHeaders,
        travel: .clientLocal, notes: [avNote]
    ) { row in
        [
            row(
                10012, "NIMAVLocalErrorCodeNetCallBusy", "A net call is already in progress", .clientLocal,
                original: "有正在进行的网络通话"),
            row(
                10013, "NIMAVLocalErrorCodeNetCallOtherHandled", "This call was already handled on another device",
                .clientLocal,
                original: "这一通网络通话已经被其他端处理过了"),
            row(
                10015, "NIMAVLocalErrorCodeAudioDeviceInitFailed", "Audio device initialisation failed", .clientLocal,
                original: "音频设备初始化失败"),
            row(
                10017, "NIMAVLocalErrorCodeRecordInvalidFilePath", "Cannot start recording: invalid file path",
                .clientLocal,
                original: "无法开始录制, 因为文件路径不合法"),
            row(
                10018, "NIMAVLocalErrorCodeRecordStartFailed", "Starting the recording failed", .clientLocal,
                original: "开始录制失败"),
            row(
                10019, "NIMAVLocalErrorCodeRecordCreateFileFailed", "Creating the recording file failed", .clientLocal,
                original: "创建录制文件失败"),
            row(
                10020, "NIMAVLocalErrorCodeRecordInitAudioFailed", "Initialising audio recording failed", .clientLocal,
                original: "初始化录制音频失败"),
            row(
                10021, "NIMAVLocalErrorCodeRecordInitVideoFailed", "Initialising video recording failed", .clientLocal,
                original: "初始化录制视频失败"),
            row(
                10022, "NIMAVLocalErrorCodeRecordStartWritingFailed", "Starting to write the recording file failed",
                .clientLocal,
                original: "开始写录制文件失败"),
            row(
                10023, "NIMAVLocalErrorCodeRecordStopFailed", "Stopping the recording failed", .clientLocal,
                original: "结束录制失败"),
            row(
                10024, "NIMAVLocalErrorCodeRecordWritingFileFailed", "Writing the recording file failed", .clientLocal,
                original: "写录制文件失败"),
            row(
                10025, "NIMAVLocalErrorCodeRecordWillStopForLackSpace", "Out of space; recording is about to stop",
                .clientLocal,
                original: "空间不足，录制即将结束"),
            row(
                10027, "NIMAVLocalErrorCodeOperationIncomplete", "Operation not complete yet", .clientLocal,
                original: "操作尚未完成"),
            row(
                10029, "NIMAVLocalErrorCodeNetCallConnectTimeout", "Connecting to the net-call server timed out",
                .clientLocal,
                original: "连接网络通话服务器超时"),
            row(
                10030, "NIMAVLocalErrorCodeNetCallCannotJoinBypassChannel",
                "Only live-streaming users (host and co-hosts) may join a room with interactive live streaming on",
                .clientLocal,
                original: """
                    非互动直播用户无法加入开启互动直播的房间，\
                    互动直播用户指主播和连麦者
                    """),
            row(
                10031, "NIMAVLocalErrorCodeNetCallTooManyBypassStreamers",
                "Channel over its interactive live-streaming user limit (one host, three co-hosts)",
                .clientLocal,
                original: """
                    该频道超过了互动直播房间用户数限制: \
                    每个房间只能有一个主播和三个连麦者
                    """),
            row(
                10032, "NIMAVLocalErrorCodeNetCallTooManyBypassStreamingHosts",
                "Room over its live-streaming host limit (one host, three co-hosts)",
                .clientLocal,
                original: """
                    该房间超过了互动直播主播数限制: \
                    每个房间只能有一个主播和三个连麦者
                    """),
            row(
                10033, "NIMAVLocalErrorCodeNetCallHostNotJoined",
                "The host has not joined; co-hosts cannot join before the host",
                .clientLocal, original: "主播尚未加入互动直播房间，连麦者无法在主播之前加入"),
            row(
                10034, "NIMAVLocalErrorCodeBypassStreamingCustomLayoutError",
                "The host's custom layout parameters are wrong",
                .clientLocal, original: "主播设置定制布局参数错误"),
        ]
    }

    /// iOS NIMAVChat 5.4.0 `NIMAVRoomServerErrorCode`: the audio/video room server's answers.
    public static let avRoomServerErrorCode = StatusTable(
        .nim, "NIMAVRoomServerErrorCode", title: "iOS audio/video room server error codes", kind: .codes,
        source: iOSAVHeaders,
        travel: .message, notes: [avNote]
    ) { row in
        [
            row(101, "NIMAVRoomServerErrorServerError", "Server error", .serverError, original: "服务器错误"),
            row(102, "NIMAVRoomServerErrorConnctionFailed", "Request failed", .serverError, original: "请求失败"),
            row(
                103, "NIMAVRoomServerErrorNotAnchor", "The requester is not the host", .permissionDenied,
                original: "发起者不是主播"),
            row(104, "NIMAVRoomServerErrorModeFault", "Wrong mode", .invalidRequest, original: "模式错误"),
            row(
                400, "NIMAVRoomServerErrorUserInvalidParam", "Wrong request parameters", .invalidRequest,
                original: "请求参数错误"),
            row(
                401, "NIMAVRoomServerErrorKeyInvalid", "Request authentication error", .fatalCredentials,
                original: "请求认证错误"),
            row(404, "NIMAVRoomServerErrorRoomNotExsit", "Room does not exist", .notFound, original: "房间不存在"),
            row(
                405, "NIMAVRoomServerErrorUserNotJoined", "The user is not in the room", .notMember,
                original: "房间内不存在该用户"),
            row(
                417, "NIMAVRoomServerErrorInvalidRequst", "Wrong request data", .invalidRequest,
                original: "请求数据错误"),
            row(
                500, "NIMAVRoomServerErrorServerUnknown", "Server internal error", .serverError,
                original: "服务器内部错误"),
        ]
    }

    /// iOS NIMAVChat 5.4.0 `NIMAVRemoteErrorCode`.
    public static let avRemoteErrorCode = StatusTable(
        .nim, "NIMAVRemoteErrorCode", title: "iOS audio/video remote error codes", kind: .codes, source: iOSAVHeaders,
        travel: .message
    ) { row in
        [
            row(
                11001, "NIMAVRemoteErrorCodeCalleeOffline", "Callee offline (no reachable callee)", .notFound,
                original: "被叫离线(无可送达的被叫方)")
        ]
    }

    /// iOS NIMAVChat 5.4.0 `NIMRTSConferenceErrorCode`.
    public static let rtsConferenceErrorCode = StatusTable(
        .nim, "NIMRTSConferenceErrorCode", title: "iOS RTS conference error codes", kind: .codes, source: iOSAVHeaders,
        travel: .clientLocal, notes: [avNote]
    ) { row in
        [
            row(
                21001, "NIMRTSConferenceErrorCodeServerDisconnected", "Disconnected from the server", .clientLocal,
                original: "与服务器连接已断开"),
            row(
                21002, "NIMRTSConferenceErrorCodeTcpConnectionClosed", "TCP connection closed", .clientLocal,
                original: "TCP 连接关闭"),
        ]
    }
}
