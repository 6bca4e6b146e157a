import IMWireCore

extension NIMStatusCodes {
    static let page2023 =
        "https://doc.commsease.com/en/messaging/server-apis/TM5NTk2Mzc?platform=server (updated 2023-10-24)"
    static let page2021 = "https://doc.commsease.com/en/M5MzM5Njk/docs/Tk5ODIzNjk (updated 2021-12-03)"

    /// The official English status-code pages (nim.md §1.1 column "doc.commsease.com").
    public static let statusPage = StatusTable(
        .nim, "status-page", title: "doc.commsease.com status-code pages", kind: .codes,
        source: "\(page2023); \(page2021)", travel: .message,
        notes: ["The pages' \"Specific services\" list beyond 13005 and 10431–10433 is not covered (UNCONFIRMED)."],
        ranges: serverRanges
    ) { row in
        let only2021 = "\(page2021) only"
        return [
            row(200, "", "The operation succeeded", .success),
            row(201, "", "Incorrect client version, please upgrade the SDK", .invalidRequest),
            row(301, "", "Disabled (2021 page: the account or channel is banned)", .fatalCredentials),
            row(302, "", "Incorrect user name or password", .fatalCredentials),
            row(315, "", "IP restriction", .permissionDenied),
            row(403, "", "Invalid operation or no permission", .permissionDenied),
            row(404, "", "Object cannot be found", .notFound),
            row(405, "", "The parameter length is too long", .invalidRequest),
            row(406, "", "Object read-only", .permissionDenied),
            row(408, "", "Client request times out", .retry),
            row(413, "", "SMS verification failed", .invalidRequest),
            row(414, "", "Error parameter", .invalidRequest),
            row(415, "", "Client network problem", .retry),
            row(416, "", "Frequency control (invoking frequency exceeds limit)", .rateLimited),
            row(417, "", "Repeat operation", .invalidRequest),
            row(418, "", "SMS channel is not available", .serverError),
            row(419, "", "The quantity exceeds the limit", .invalidRequest),
            row(422, "", "Account is disabled", .fatalCredentials),
            row(423, "", "Account is muted", .permissionDenied, sources: only2021),
            row(431, "", "HTTP request is repeated", .invalidRequest),
            row(500, "", "Server internal error", .serverError),
            row(503, "", "Server is busy", .serverError),
            row(508, "", "Message recall time exceeded", .invalidRequest),
            row(509, "", "Invalid protocol (\"invalid agreement\")", .invalidRequest),
            row(514, "", "Service not available", .serverError),
            row(801, "", "The quantity of team members exceeds limit", .invalidRequest),
            row(802, "", "No permissions", .permissionDenied),
            row(803, "", "Team does not exist", .notFound),
            row(804, "", "User is not in the team", .notMember),
            row(805, "", "Team type cannot be matched", .invalidRequest),
            row(806, "", "The number of teams created reaches the limit", .invalidRequest),
            row(807, "", "Team member status error", .invalidRequest),
            row(808, "", "Application approved", .success),
            row(809, "", "User is already in the team", .invalidRequest),
            row(810, "", "Successfully invited (conflict: iOS reads 810 as not a team member)", .success),
            row(
                811, "", "The number of @ mentioned accounts exceeds the upper limit", .invalidRequest,
                sources: page2021),
            row(
                812, "", "The team is muted, ordinary members are not allowed to send messages", .permissionDenied,
                sources: page2021),
            row(813, "", "Successful partial invitation of team members", .success, sources: page2021),
            row(814, "", "Team read receipt is prohibited", .permissionDenied, sources: page2021),
            row(
                815, "", "The number of team administrators exceeds the upper limit", .invalidRequest, sources: page2021
            ),
            row(998, "", "Unpacking error", .invalidRequest),
            row(999, "", "Package error", .serverError),
            row(9102, "", "Channel fails", .invalidRequest, sources: page2021),
            row(9103, "", "The call is responded on other device", .invalidRequest, sources: page2021),
            row(10431, "", "The mailbox format is incorrect (\"Specific services\" section)", .invalidRequest),
            row(10432, "", "Mobile phone format is incorrect (\"Specific services\" section)", .invalidRequest),
            row(11001, "", "The call is unreachable, the callee goes offline", .notFound, sources: page2021),
            row(13001, "", "IM main connection status is abnormal", .retry),
            row(13002, "", "Chat room status is abnormal", .invalidRequest),
            row(
                13003, "", "The account is within the blocklist, it is prohibited from joining the chat room",
                .permissionDenied),
            row(13004, "", "Banned account, prohibited from speaking", .permissionDenied),
            row(
                13005, "", "Profile name, picture or extension in the chat room filtered by anti-spam",
                .invalidRequest),
        ]
    }
}
