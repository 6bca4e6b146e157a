import IMWireCore

extension JMessageStatusCodes {
    static let userHeader =
        "jmessage-phonegap-plugin@32a7f63 src/ios/lib/JMessage.framework/Headers/JMSGUser.h (JMessage iOS 3.8.0)"

    /// iOS `JMSGGroupType`.
    public static let groupType = StatusTable(
        .jmessage, "JMSGGroupType", title: "iOS group types", kind: .enumeration, source: iOSHeader, travel: .sdkEnum
    ) { row in
        [
            row(1, "kJMSGGroupTypePrivate", "Private group", original: "私有群"),
            row(2, "kJMSGGroupTypePublic", "Public group", original: "公开群"),
        ]
    }

    /// iOS `JMSGPlatformType`.
    public static let platformType = StatusTable(
        .jmessage, "JMSGPlatformType", title: "iOS platform types", kind: .enumeration, source: iOSHeader,
        travel: .sdkEnum
    ) { row in
        [
            row(0, "kJMSGPlatformTypeAll", "All platforms", original: "所有平台"),
            row(1, "kJMSGPlatformTypeAndroid", "Android", original: "Android 端"),
            row(2, "kJMSGPlatformTypeiOS", "iOS", original: "iOS 端"),
            row(4, "kJMSGPlatformTypeWindows", "Windows", original: "Windows 端"),
            row(16, "kJMSGPlatformTypeWeb", "Web", original: "web 端"),
        ]
    }

    /// iOS `JMSGGroupMemberType`.
    public static let groupMemberType = StatusTable(
        .jmessage, "JMSGGroupMemberType", title: "iOS group member types", kind: .enumeration, source: iOSHeader,
        travel: .sdkEnum
    ) { row in
        [
            row(0, "kJMSGGroupMemberTypeOrdinary", "Ordinary member", original: "普通成员"),
            row(1, "kJMSGGroupMemberTypeOwner", "Group owner", original: "群主"),
            row(2, "kJMSGGroupMemberTypeAdmin", "Admin", original: "管理员"),
        ]
    }

    /// iOS `JMSGUserField`.
    public static let userField = StatusTable(
        .jmessage, "JMSGUserField", title: "iOS user info fields", kind: .enumeration, source: userHeader,
        travel: .sdkEnum
    ) { row in
        [
            row(0, "kJMSGUserFieldsNickname", "User info field: nickname", original: "用户信息字段: 昵称"),
            row(1, "kJMSGUserFieldsBirthday", "User info field: birthday", original: "用户信息字段: 生日"),
            row(2, "kJMSGUserFieldsSignature", "User info field: signature", original: "用户信息字段: 签名"),
            row(3, "kJMSGUserFieldsGender", "User info field: gender", original: "用户信息字段: 性别"),
            row(4, "kJMSGUserFieldsRegion", "User info field: region", original: "用户信息字段: 区域"),
            row(
                5, "kJMSGUserFieldsAvatar", "User info field: avatar (an internal media_id)",
                original: "用户信息字段: 头像 (内部定义的 media_id)"),
            row(6, "kJMSGUserFieldsAddress", "User info field: address", original: "用户信息字段: 地址"),
            row(7, "kJMSGUserFieldsExtras", "User info field: extras", original: "用户信息字段: 扩展字段"),
        ]
    }

    /// iOS `JMSGUserGender`.
    public static let userGender = StatusTable(
        .jmessage, "JMSGUserGender", title: "iOS user gender", kind: .enumeration, source: userHeader, travel: .sdkEnum
    ) { row in
        [
            row(0, "kJMSGUserGenderUnknown", "Gender: unknown", original: "用户性别类型: 未知"),
            row(1, "kJMSGUserGenderMale", "Gender: male", original: "用户性别类型: 男"),
            row(2, "kJMSGUserGenderFemale", "Gender: female", original: "用户性别类型: 女"),
        ]
    }
}
