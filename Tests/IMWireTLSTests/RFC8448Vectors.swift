import IMWireCore

/// RFC 8448 §3 "Simple 1-RTT Handshake" (TLS_AES_128_GCM_SHA256): secrets, keys and records, copied from the RFC.
enum RFC8448 {
    static func bytes(_ hex: String) -> [UInt8] { (try? Hex.decode(hex)) ?? [] }

    static let clientRandom = bytes("cb34ecb1e78163ba1c38c6dacb196a6dffa21a8d9912ec18a2ef6283024dece7")
    static let clientHandshakeSecret = bytes("b3eddb126e067f35a780b3abf45e2d8f3b1a950738f52e9600746a0e27a55a21")
    static let serverHandshakeSecret = bytes("b67b7d690cc16c4e75e54213cb2d37b4e9c912bcded9105d42befd59d391ad38")
    static let clientApplicationSecret = bytes("9e40646ce79a7f9dc05af8889bce6552875afa0b06df0087f792ebb7c17504a5")
    static let serverApplicationSecret = bytes("a11af9f05531f856ad47116b45a950328204b4f44bfb6b3a4b4f1f3fcb631643")

    static let serverHandshakeKey = bytes("3fce516009c21727d0f2e4e86ee403bc")
    static let serverHandshakeIV = bytes("5d313eb2671276ee13000b30")
    static let clientHandshakeKey = bytes("dbfaa693d1762c5b666af5d950258d01")
    static let clientHandshakeIV = bytes("5bd3c71b836e0b76bb73265f")
    static let serverApplicationKey = bytes("9f02283b6c9c07efc26bb9f2ac92e356")
    static let serverApplicationIV = bytes("cf782b88dd83549aadf1e984")
    static let clientApplicationKey = bytes("17422dda596ed5d9acd890e3c63f5051")
    static let clientApplicationIV = bytes("5b78923dee08579033e523d9")

    /// The key log a client would write for this handshake.
    static let keyLog = """
        # RFC 8448 section 3
        CLIENT_HANDSHAKE_TRAFFIC_SECRET \(Hex.encode(clientRandom)) \(Hex.encode(clientHandshakeSecret))
        SERVER_HANDSHAKE_TRAFFIC_SECRET \(Hex.encode(clientRandom)) \(Hex.encode(serverHandshakeSecret))
        CLIENT_TRAFFIC_SECRET_0 \(Hex.encode(clientRandom)) \(Hex.encode(clientApplicationSecret))
        SERVER_TRAFFIC_SECRET_0 \(Hex.encode(clientRandom)) \(Hex.encode(serverApplicationSecret))
        """

    static let clientHelloRecord = bytes(
        "16030100c4010000c00303cb34ecb1e78163ba1c38c6dacb196a6dffa21a8d9912ec18a2ef6283024dece70000061301130313020100"
            + "00910000000b0009000006736572766572ff01000100000a00140012001d00170018001901000101010201030104002300000033"
            + "00260024001d002099381de560e4bd43d23d8e435a7dbafeb3c06e51c13cae4d5413691e529aaf2c002b0003020304000d002000"
            + "1e040305030603020308040805080604010501060102010402050206020202002d00020101001c00024001")
    static let serverHelloRecord = bytes(
        "160303005a020000560303a6af06a4121860dc5e6e60249cd34c95930c8ac5cb1434dac155772ed3e2692800130100002e003300"
            + "24001d0020c9828876112095fe66762bdbf7c672e156d6cc253b833df1dd69b1b04e751f0f002b00020304")
    /// EncryptedExtensions, Certificate, CertificateVerify, Finished under the server handshake key.
    static let serverFlightRecord = bytes(
        """
        17 03 03 02 a2 d1 ff 33 4a 56 f5 bf f6 59 4a 07 cc 87 b5 80 23 3f 50 0f
        45 e4 89 e7 f3 3a f3 5e df 78 69 fc f4 0a a4 0a a2 b8 ea 73 f8 48 a7 ca
        07 61 2e f9 f9 45 cb 96 0b 40 68 90 51 23 ea 78 b1 11 b4 29 ba 91 91 cd
        05 d2 a3 89 28 0f 52 61 34 aa dc 7f c7 8c 4b 72 9d f8 28 b5 ec f7 b1 3b
        d9 ae fb 0e 57 f2 71 58 5b 8e a9 bb 35 5c 7c 79 02 07 16 cf b9 b1 18 3e
        f3 ab 20 e3 7d 57 a6 b9 d7 47 76 09 ae e6 e1 22 a4 cf 51 42 73 25 25 0c
        7d 0e 50 92 89 44 4c 9b 3a 64 8f 1d 71 03 5d 2e d6 5b 0e 3c dd 0c ba e8
        bf 2d 0b 22 78 12 cb b3 60 98 72 55 cc 74 41 10 c4 53 ba a4 fc d6 10 92
        8d 80 98 10 e4 b7 ed 1a 8f d9 91 f0 6a a6 24 82 04 79 7e 36 a6 a7 3b 70
        a2 55 9c 09 ea d6 86 94 5b a2 46 ab 66 e5 ed d8 04 4b 4c 6d e3 fc f2 a8
        94 41 ac 66 27 2f d8 fb 33 0e f8 19 05 79 b3 68 45 96 c9 60 bd 59 6e ea
        52 0a 56 a8 d6 50 f5 63 aa d2 74 09 96 0d ca 63 d3 e6 88 61 1e a5 e2 2f
        44 15 cf 95 38 d5 1a 20 0c 27 03 42 72 96 8a 26 4e d6 54 0c 84 83 8d 89
        f7 2c 24 46 1a ad 6d 26 f5 9e ca ba 9a cb bb 31 7b 66 d9 02 f4 f2 92 a3
        6a c1 b6 39 c6 37 ce 34 31 17 b6 59 62 22 45 31 7b 49 ee da 0c 62 58 f1
        00 d7 d9 61 ff b1 38 64 7e 92 ea 33 0f ae ea 6d fa 31 c7 a8 4d c3 bd 7e
        1b 7a 6c 71 78 af 36 87 90 18 e3 f2 52 10 7f 24 3d 24 3d c7 33 9d 56 84
        c8 b0 37 8b f3 02 44 da 8c 87 c8 43 f5 e5 6e b4 c5 e8 28 0a 2b 48 05 2c
        f9 3b 16 49 9a 66 db 7c ca 71 e4 59 94 26 f7 d4 61 e6 6f 99 88 2b d8 9f
        c5 08 00 be cc a6 2d 6c 74 11 6d bd 29 72 fd a1 fa 80 f8 5d f8 81 ed be
        5a 37 66 89 36 b3 35 58 3b 59 91 86 dc 5c 69 18 a3 96 fa 48 a1 81 d6 b6
        fa 4f 9d 62 d5 13 af bb 99 2f 2b 99 2f 67 f8 af e6 7f 76 91 3f a3 88 cb
        56 30 c8 ca 01 e0 c6 5d 11 c6 6a 1e 2a c4 c8 59 77 b7 c7 a6 99 9b bf 10
        dc 35 ae 69 f5 51 56 14 63 6c 0b 9b 68 c1 9e d2 e3 1c 0b 3b 66 76 30 38
        eb ba 42 f3 b3 8e dc 03 99 f3 a9 f2 3f aa 63 97 8c 31 7f c9 fa 66 a7 3f
        60 f0 50 4d e9 3b 5b 84 5e 27 55 92 c1 23 35 ee 34 0b bc 4f dd d5 02 78
        40 16 e4 b3 be 7e f0 4d da 49 f4 b4 40 a3 0c b5 d2 af 93 98 28 fd 4a e3
        79 4e 44 f9 4d f5 a6 31 ed e4 2c 17 19 bf da bf 02 53 fe 51 75 be 89 8e
        75 0e dc 53 37 0d 2b
        """)
    /// The flight's plaintext messages.
    static let encryptedExtensions = bytes(
        "080000240022000a00140012001d00170018001901000101010201030104001c0002400100000000")
    static let certificate = bytes(
        "0b0001b9000001b50001b0308201ac30820115a003020102020102300d06092a864886f70d01010b0500300e310c300a060355040313"
            + "03727361301e170d3136303733303031323335395a170d3236303733303031323335395a300e310c300a06035504031303727361"
            + "30819f300d06092a864886f70d010101050003818d0030818902818100b4bb498f8279303d980836399b36c6988c0c68de55e1bd"
            + "b826d3901a2461eafd2de49a91d015abbc9a95137ace6c1af19eaa6af98c7ced43120998e187a80ee0ccb0524b1b018c3e0b6326"
            + "4d449a6d38e22a5fda430846748030530ef0461c8ca9d9efbfae8ea6d1d03e2bd193eff0ab9a8002c47428a6d35a8d88d79f7f1e"
            + "3f0203010001a31a301830090603551d1304023000300b0603551d0f0404030205a0300d06092a864886f70d01010b0500038181"
            + "0085aad2a0e5b9276b908c65f73a7267170618a54c5f8a7b337d2df7a594365417f2eae8f8a58c8f8172f9319cf36b7fd6c55b80"
            + "f21a03015156726096fd335e5e67f2dbf102702e608ccae6bec1fc63a42a99be5c3eb7107c3c54e9b9eb2bd5203b1c3b84e0a8b2"
            + "f759409ba3eac9d91d402dcc0cc8f8961229ac9187b42b4de10000")
    static let certificateVerify = bytes(
        "0f000084080400805a747c5d88fa9bd2e55ab085a61015b7211f824cd484145ab3ff52f1fda8477b0b7abc90db78e2d33a5c141a07"
            + "8653fa6bef780c5ea248eeaaa785c4f394cab6d30bbe8d4859ee511f602957b15411ac027671459e46445c9ea58c181e818e95b8"
            + "c3fb0bf3278409d3be152a3da5043e063dda65cdf5aea20d53dfacd42f74f3")
    static let serverFinished = bytes("140000209b9b141d906337fbd2cbdce71df4deda4ab42c309572cb7fffee5454b78f0718")
    static let clientFinished = bytes("14000020a8ec436d677634ae525ac1fcebe11a039ec17694fac6e98527b642f2edd5ce61")

    static let clientFinishedRecord = bytes(
        "1703030035 75ec4dc238cce60b298044a71e219c56cc77b0517fe9b93c7a4bfc44d87f38f80338ac98fc46deb384bd1cae"
            + "acab6867d726c40546")
    static let newSessionTicketRecord = bytes(
        """
        17 03 03 00 de 3a 6b 8f 90 41 4a 97 d6 95 9c 34 87 68 0d e5 13 4a 2b 24
        0e 6c ff ac 11 6e 95 d4 1d 6a f8 f6 b5 80 dc f3 d1 1d 63 c7 58 db 28 9a
        01 59 40 25 2f 55 71 3e 06 1d c1 3e 07 88 91 a3 8e fb cf 57 53 ad 8e f1
        70 ad 3c 73 53 d1 6d 9d a7 73 b9 ca 7f 2b 9f a1 b6 c0 d4 a3 d0 3f 75 e0
        9c 30 ba 1e 62 97 2a c4 6f 75 f7 b9 81 be 63 43 9b 29 99 ce 13 06 46 15
        13 98 91 d5 e4 c5 b4 06 f1 6e 3f c1 81 a7 7c a4 75 84 00 25 db 2f 0a 77
        f8 1b 5a b0 5b 94 c0 13 46 75 5f 69 23 2c 86 51 9d 86 cb ee ac 87 aa c3
        47 d1 43 f9 60 5d 64 f6 50 db 4d 02 3e 70 e9 52 ca 49 fe 51 37 12 1c 74
        bc 26 97 68 7e 24 87 46 d6 df 35 30 05 f3 bc e1 86 96 12 9c 81 53 55 6b
        3b 6c 67 79 b3 7b f1 59 85 68 4f
        """)
    /// Application data: 50 bytes 00 01 … 31 each way.
    static let clientApplicationRecord = bytes(
        """
        17 03 03 00 43 a2 3f 70 54 b6 2c 94 d0 af fa fe 82 28 ba 55 cb ef ac ea
        42 f9 14 aa 66 bc ab 3f 2b 98 19 a8 a5 b4 6b 39 5b d5 4a 9a 20 44 1e 2b
        62 97 4e 1f 5a 62 92 a2 97 70 14 bd 1e 3d ea e6 3a ee bb 21 69 49 15 e4
        """)
    static let serverApplicationRecord = bytes(
        """
        17 03 03 00 43 2e 93 7e 11 ef 4a c7 40 e5 38 ad 36 00 5f c4 a4 69 32 fc
        32 25 d0 5f 82 aa 1b 36 e3 0e fa f9 7d 90 e6 df fc 60 2d cb 50 1a 59 a8
        fc c4 9c 4b f2 e5 f0 a2 1c 00 47 c2 ab f3 32 54 0d d0 32 e1 67 c2 95 5d
        """)
    static let applicationPayload: [UInt8] = Array(0..<50)
    /// close_notify alerts, encrypted.
    static let clientAlertRecord = bytes("17 03 03 00 13 c9 87 27 60 65 56 66 b7 4d 7f f1 15 3e fd 6d b6 d0 b0 e3")
    static let serverAlertRecord = bytes("17 03 03 00 13 b5 8f d6 71 66 eb f5 99 d2 47 20 cf be 7e fa 7a 88 64 a9")

    static var clientStream: [UInt8] {
        clientHelloRecord + clientFinishedRecord + clientApplicationRecord + clientAlertRecord
    }
    static var serverStream: [UInt8] {
        serverHelloRecord + serverFlightRecord + newSessionTicketRecord + serverApplicationRecord + serverAlertRecord
    }
}
