import IMWireCore

extension JMessageStatusCodes {
    /// Android SDK error codes 871xxx (jmessage.md §1.4): made up by the Android SDK.
    public static let android = StatusTable(
        .jmessage, "android", title: "Android SDK error codes 871xxx", kind: .codes,
        source: "\(docs)/im_errorcode_android.md (JMessage Android table)", travel: .clientLocal,
        notes: ["871101 and above are Android; 871001–871008 are iOS JMRTC (see `jmrtc-ios`)."],
        ranges: [
            CodeRange(871100, 871199, "requests to the server", source: "INFERRED from the entries"),
            CodeRange(871300, 871399, "API calls", source: "INFERRED from the entries"),
            CodeRange(871400, 871499, "file upload and download", source: "INFERRED from the entries"),
            CodeRange(871500, 871599, "push registration", source: "INFERRED from the entries"),
        ]
    ) { row in
        [
            row(0, "Success", "Success", .success, original: "成功"),
            row(
                871101, "Invalid request parameters.", "Illegal request parameters", .clientLocal,
                original: "请求参数不合法"),
            row(
                871102, "Request failed.please check your network connection.", "Request failed; check the network",
                .clientLocal,
                original: "请求失败，请检查网络"),
            row(
                871103, "Server returned an unexpected error code.", "Server internal error (an unexpected error code)",
                .clientLocal,
                original: "服务器内部错误"),
            row(
                871104, "Server internal error.", "Server internal error", .clientLocal,
                original: "服务器内部错误"),
            row(
                871105, "User info not found.", "The requested user info does not exist", .clientLocal,
                original: "请求的用户信息不存在"),
            row(
                871201, "Get response timeout,please try again later.", "Response timed out", .clientLocal,
                original: "响应超时"),
            row(
                871300, "Have not logged in.", "The API caller has not logged in", .clientLocal,
                original: "api调用发起者尚未登录"),
            row(
                871301, "Invalid parameters.", "Illegal API arguments", .clientLocal,
                original: "api调用传入的参数不合法"),
            row(
                871302, "Message content exceeds its max length.", "Message body too large (at most 4 KB in all)",
                .clientLocal,
                original: "发送消息的消息体过大，整个消息体大小不能超过4k"),
            row(871303, "Invalid username.", "Illegal user name", .clientLocal, original: "用户名不合法"),
            row(871304, "Invalid password.", "Illegal password", .clientLocal, original: "密码不合法"),
            row(
                871305, "Invalid name.", "Illegal name (nickname, group name, note name)", .clientLocal,
                original: "名称不合法（包括nickname groupname notename）"),
            row(871306, "Invalid input.", "Other illegal input", .clientLocal, original: "其他输入不合法"),
            row(
                871307, "Some user not exists,operate failed.",
                "Adding or removing group members: a user in the list does not exist",
                .clientLocal, original: "添加或移除群成员时，传入的成员列表中有用户不存在"),
            row(871308, "SDK have not init yet.", "SDK not initialised", .clientLocal, original: "SDK尚未初始化"),
            row(
                871309, "Attached file not found.", "The message's file does not exist", .clientLocal,
                original: "消息中包含的文件不存在"),
            row(
                871310, "Network not available,please check your network connection.",
                "Network disconnected; check the network",
                .clientLocal, original: "网络连接已断开，请检查网络"),
            row(
                871311, "User avatar not specified. download avatar failed.",
                "The user has no avatar; downloading it failed", .clientLocal,
                original: "用户未设定头像，下载头像失败"),
            row(
                871312, "Create image content failed.", "Creating ImageContent failed", .clientLocal,
                original: "创建ImageContent失败"),
            row(
                871313, "Message parse error,version not match.", "Message parse error: protocol version mismatch",
                .clientLocal,
                original: "消息解析出错，协议版本号不匹配"),
            row(
                871314, "Message parse error,lack of key parameter.", "Message parse error: a key parameter is missing",
                .clientLocal,
                original: "消息解析出错，缺少关键参数"),
            row(
                871315, "Message parse error,check logcat for more information", "Message parse error", .clientLocal,
                original: "消息解析出错"),
            row(
                871317, "Target user cannot be yourself.", "The target user cannot be oneself", .clientLocal,
                original: "操作目标用户不能是自己"),
            row(
                871318, "Illegal message content.",
                "Illegal message body, possibly an obfuscation setup that ignores the integration guide",
                .clientLocal,
                original: """
                    不合法的消息体，\
                    出现这个问题可能是由于上层没有参照集成文档进行混淆配置导致的，\
                    关于jmessage的混淆配置见集成指南
                    """),
            row(
                871319, "Create ForwardMessage failed", "Creating a forwarded message failed (see logcat)",
                .clientLocal,
                original: "创建转发消息失败，具体原因见logcat打印"),
            row(
                871320, "Set message HaveRead status failed.",
                "Marking the message read failed: already read, or not a received message",
                .clientLocal,
                original: """
                    将消息标记为已读时出现问题，可能这条消息已经是已读状态，\
                    或者这条消息本身不是接受类型的消息
                    """),
            row(
                871321, "Get receipt details failed.", "Getting receipt details failed: only the sender may query them",
                .clientLocal,
                original: "获取未回执详情失败，只有消息的发送者可以查询消息的未回执详情"),
            row(
                871322, "Get receipt details failed.",
                "Getting receipt details failed: the message was not sent successfully", .clientLocal,
                original: """
                    获取未回执详情失败，这条消息尚未成功发送，\
                    只有成功发送的消息可以查询未回执详情
                    """),
            row(
                871323, "Chatroom not exist.", "Chatroom info not found: the chatroom does not exist", .clientLocal,
                original: "请求的聊天室信息未找到，该聊天室不存在"),
            row(
                871324, "Illegal message content type, when send message.",
                "Illegal content type to send (eventNotification and prompt cannot be sent)",
                .clientLocal,
                original: """
                    发送消息时消息体类型不合法，\
                    注意eventNotification和prompt类型的消息体不能发送
                    """),
            row(
                871325, "Illegal message status. only created or send_failed message can be sent.",
                "Illegal message status: only created or send-failed messages can be sent",
                .clientLocal,
                original: """
                    发送消息时消息状态不合法，\
                    只有消息状态为创建和发送失败的消息可以被发送
                    """),
            row(
                871326, "unsupported operation.", "Unsupported operation, e.g. retracting in a chatroom", .clientLocal,
                original: "不支持的操作，例如聊天室撤回消息"),
            row(
                871327, "operation is cancelled", "Operation cancelled by the caller (sending or attachment download)",
                .clientLocal,
                original: """
                    操作已被取消，上层调用取消接口（消息发送取消，\
                    附件下载取消），取消成功后返回此错误码
                    """),
            row(
                871402, "Upload file failed.auth error.", "File upload failed", .clientLocal,
                original: "文件上传失败"),
            row(871403, "Upload file failed.", "File upload failed", .clientLocal, original: "文件上传失败"),
            row(871404, "Download file failed.", "File download failed", .clientLocal, original: "文件下载失败"),
            row(
                871501, "Push register error,appkey and appid not match.",
                "Appkey does not match the package name, or invalid token",
                .clientLocal, original: "appkey与包名不匹配或者token无效"),
            row(
                871502, "Push register error,invalid appkey.",
                "Invalid appKey: check the appKey in AndroidManifest.xml (it must come from the JPush console)",
                .clientLocal,
                original: """
                    appKey无效。请检查 AndroidManifest.xml 里的 appKey \
                    配置，它必须是从 JPush 控制台创建应用得到的。
                    """),
            row(
                871503, "Push register error,appkey not matches platform",
                "AppKey does not match the platform (Android perhaps not enabled for it in the console)",
                .clientLocal,
                original: """
                    appKey与平台不匹配。有可能在 JPush \
                    控制台上，未配置此 appKey 支持 Android 平台。
                    """),
            row(
                871504, "Push register not finished.",
                "Push registration not finished; retry later (if it persists, JPush may be misconfigured)",
                .clientLocal,
                original: """
                    Push 注册未完成，请稍后重试。\
                    如果持续出现这个问题，可能你的 JPush 配置不正确。
                    """),
            row(
                871505, "Push register error,package not exists.",
                "Push registration failed: the package name does not exist in the console",
                .clientLocal, original: "Push 注册失败,对应包名在控制台上不存在。"),
            row(
                871506, "Push register error,invalid IMEI.", "Push registration failed: illegal device IMEI",
                .clientLocal,
                original: "Push 注册失败，设备IMEI不合法"),
        ]
    }

    /// Android JMRTC error codes 872xxx.
    public static let jmrtcAndroid = StatusTable(
        .jmessage, "jmrtc-android", title: "Android JMRTC error codes 872xxx", kind: .codes,
        source: "\(docs)/im_errorcode_android.md (JMRTC Android table)", travel: .clientLocal
    ) { row in
        [
            row(0, "ok", "Success", .success, original: "成功"),
            row(
                872100, "Jmrtc engine init failed. appkey is empty.",
                "Audio/video engine initialisation failed: empty appkey", .clientLocal,
                original: "音视频引擎初始化失败，appkey为空"),
            row(
                872101, "Jmrtc engine init failed. due to some error occurs . see logcat for more detail.",
                "Audio/video engine initialisation failed (see the log)",
                .clientLocal, original: "音视频引擎由于一些问题初始化失败，详情请看日志"),
            row(
                872102, "Jmrtc engine init failed. due to network exception.",
                "Audio/video engine initialisation failed: network error",
                .clientLocal, original: "音视频引擎初始化失败，由于网络异常造成"),
            row(
                872103, "Jmrtc engine init failed. due to server return error.",
                "Audio/video engine initialisation failed: the server returned wrong content",
                .clientLocal, original: "音视频引擎初始化失败，由于服务器端返回内容错误造成"),
            row(
                872104, "Jmrtc engine init failed. due to server internal error.",
                "Audio/video engine initialisation failed: server internal error",
                .clientLocal, original: "音视频引擎初始化失败，由于服务器端内部错误造成"),
            row(
                872105, "Jmrtc engine init failed. due to required permission not granted.",
                "Audio/video engine initialisation failed: a required permission was not granted",
                .clientLocal,
                original: "音视频引擎初始化失败，由于需要的权限没有获取成功造成"),
            row(
                872106, "Jmrtc engine have not init yet.", "Audio/video engine not initialised yet", .clientLocal,
                original: "音视频引擎还未初始化"),
            row(
                872001, "Can not send %s signaling message . state error. cur state is %s.",
                "The state machine cannot start this action in its current state",
                .clientLocal, original: "状态机当前状态不能发起此行为"),
            row(
                872002, "State time out. cur state is %s. will return to idle state immediately.",
                "State timed out; returning to idle",
                .clientLocal, original: "状态机状态超时，将回到idle状态"),
            row(
                872003, "Invite user failed. user %s is already in chat.",
                "Inviting failed: the user is already in the call channel",
                .clientLocal, original: "邀请用户失败，用户已在聊天频道中"),
            row(
                872004, "Received a signaling message but engine not init yet. should init engine first.",
                "Received signaling before the engine was initialised; initialise it first",
                .clientLocal,
                original: "收到信令，但当前引擎处于未初始化状态，先进行初始化操作"),
        ]
    }
}
