import Foundation
import IMWire
import Testing

/// The settings each dialect declares (`DialectDefinition.settings`), which `check`, `proxy` and
/// `serve` offer without naming a dialect.
@Suite struct DialectSettingsTests {
    static let settings = Dialects.standard.all.flatMap(\.settings)

    @Test func eachSettingHasOneNameAcrossTheDialects() {
        let names = Self.settings.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(
            Set(names).isSuperset(of: [
                "timeout", "ack-timeout", "master-key", "master-key-file", "app-id", "nim-timeout", "nim-heartbeat",
                "jmessage-ack-timeout", "jmessage-response-timeout", "secret", "secret-file",
            ]))
    }

    @Test func secondsAreKeptAsMicroseconds() throws {
        var options = DialectOptionSet()
        try options.apply(
            [("nim-timeout", "2.5"), ("jmessage-ack-timeout", "7"), ("timeout", "0.001")], settings: Self.settings)
        #expect(options[NIMSessionOptions.self].requestTimeoutMicros == 2_500_000)
        #expect(options[JMessageSessionOptions.self].ackTimeoutMicros == 7_000_000)
        #expect(options[LeanCloudSessionOptions.self].requestTimeoutMicros == 1_000)
        // What was not given keeps its default.
        #expect(options[NIMSessionOptions.self].heartbeatIntervalMicros == NIMSessionOptions().heartbeatIntervalMicros)
    }

    @Test(arguments: ["0", "-1", "soon", "", "nan", "1e300"])
    func aNumberOfSecondsMustBeAboveZero(value: String) {
        var options = DialectOptionSet()
        #expect {
            try options.apply([("nim-heartbeat", value)], settings: Self.settings)
        } throws: { error in
            (error as? IMWireError).map {
                $0.code == .dialectSettingValue && $0.field == "nim-heartbeat"
                    && $0.description.hasPrefix("nim-heartbeat \(value):")
            } ?? false
        }
    }

    /// The app id names the app of the master key's signatures: it applies after the key, in
    /// whichever order they came, and alone it sets nothing.
    @Test func theAppIdGoesWithTheMasterKeyInEitherOrder() throws {
        for values in [
            [("app-id", "app-1"), ("master-key", "key-1")], [("master-key", "key-1"), ("app-id", "app-1")],
        ] {
            var options = DialectOptionSet()
            try options.apply(values, settings: Self.settings)
            let credentials = try #require(options[LeanCloudSessionOptions.self].credentials)
            #expect(credentials.appID == "app-1" && credentials.masterKey == "key-1")
        }
        var alone = DialectOptionSet()
        try alone.apply([("app-id", "app-1")], settings: Self.settings)
        #expect(alone[LeanCloudSessionOptions.self].credentials == nil)
    }

    @Test func aSecretAndItsFileExcludeEachOther() {
        var options = DialectOptionSet()
        #expect {
            try options.apply([("secret-file", "/dev/null"), ("secret", "s")], settings: Self.settings)
        } throws: { error in
            error as? IMWireError
                == IMWireError(
                    .dialectSettingsExclusive, "secret and secret-file exclude each other", field: "secret-file")
        }
    }

    @Test func aSecretFileIsReadAndAMissingOneSaysWhich() throws {
        let path = NSTemporaryDirectory() + "imwire-secret-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try TextFile.write("master-secret-1\n", to: path)
        var options = DialectOptionSet()
        try options.apply([("secret-file", path)], settings: Self.settings)
        #expect(options[JMessageSessionOptions.self].secret == "master-secret-1")
        #expect {
            try options.apply([("secret-file", path + ".missing")], settings: Self.settings)
        } throws: { error in
            (error as? IMWireError).map {
                $0.code == .dialectSettingFile && $0.field == "secret-file"
                    && $0.description.hasPrefix("secret-file: cannot read \(path).missing: ")
            } ?? false
        }
    }

    @Test func anUnknownNameIsRefused() {
        var options = DialectOptionSet()
        #expect(throws: IMWireError(.dialectSettingUnknown, "unknown setting 'nim-timout'", field: "nim-timout")) {
            try options.apply([("nim-timout", "3")], settings: Self.settings)
        }
    }
}

/// The same settings on `imwire`'s command line, before or after the capture, in both forms.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: builtIMWire)))
struct DialectSettingsCommandLineTests {
    static let capture = "\(repositoryRoot)/Fixtures/captures/jmessage-group-803005.jsonl"

    @Test func aSettingIsTakenWhereverItStands() throws {
        for arguments in [
            ["check", Self.capture, "--secret", "wrong"], ["check", "--secret", "wrong", Self.capture],
            ["check", "--secret=wrong", Self.capture],
        ] {
            let result = try MasterKeyFileTests.run(arguments)
            #expect(result.status == 1 && result.output.contains("JM.SIGNATURE-INVALID"), "\(arguments): \(result)")
        }
        let right = try MasterKeyFileTests.run(["check", "--secret", "master-secret-1", Self.capture])
        #expect(right.status == 0 && !right.output.contains("JM.SIGNATURE-INVALID"), "\(right)")
    }

    @Test func usageErrorsExit64WithTheCommandsUsage() throws {
        for arguments in [
            ["check", Self.capture, "--nim-timeout", "-1"], ["check", Self.capture, "--nim-timeout"],
            ["check", Self.capture, "--nim-timout", "3"],
            ["check", Self.capture, "--secret", "a", "--secret-file", "b"],
            ["decode", "--nim-timeout", "3", "--text", "x"],
            ["check", "--nim-timeout", "--jobs", "2", Self.capture],
        ] {
            let result = try MasterKeyFileTests.run(arguments)
            #expect(result.status == 64 && result.error.contains("imwire \(arguments[0])"), "\(arguments): \(result)")
        }
    }

    /// The library names settings; the command line names them as its flags, in the words it
    /// always used.
    @Test func usageErrorsNameTheFlags() throws {
        for (arguments, text) in [
            (["--nim-timeout", "-1"], "--nim-timeout -1: expected a number of seconds above 0"),
            (["--secret", "a", "--secret-file", "b"], "--secret and --secret-file exclude each other"),
            (
                ["--secret-file", "/no/such/secret"],
                "--secret-file: cannot read /no/such/secret: No such file or directory"
            ),
        ] {
            let result = try MasterKeyFileTests.run(["check", Self.capture] + arguments)
            #expect(result.error.contains(text), "\(arguments): \(result)")
        }
    }

    @Test func theHelpOfEachCommandThatChecksListsThem() throws {
        for command in ["check", "proxy", "serve"] {
            let help = try MasterKeyFileTests.run([command, "--help"]).output
            for setting in DialectSettingsTests.settings {
                #expect(help.contains("--\(setting.name) <\(setting.valueName)>"), "\(command)")
            }
        }
    }
}
