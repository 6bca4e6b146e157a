import IMWireCore

/// Rules about the capture file itself.
package enum CaptureRules {
    package static let badLine = Rule(
        "CAPTURE.JSONL-BAD-LINE", .error, layer: .capture,
        summary: "A transcript line that is not a JSON object (e.g. truncated); the rest of the file is still read.",
        specRef: "Spec/capture-jsonl.md#jsonl-lines")
    package static let badField = Rule(
        "CAPTURE.JSONL-BAD-FIELD", .error, layer: .capture,
        summary: "A transcript line with a missing or invalid field (dir, payload, t, type…).",
        specRef: "Spec/capture-jsonl.md#jsonl-common-fields (and each type's fields)")
    package static let lineTooLong = Rule(
        "CAPTURE.LINE-TOO-LONG", .error, layer: .capture,
        summary: "A transcript line longer than Limits.maxLineLength; skipped without being buffered.",
        specRef: "Spec/capture-jsonl.md#jsonl-lines (maxLineLength), Spec/captures.md#limits")
    /// Judged by the transport layer, which reads every source's connection inputs.
    package static let timeBackwards = ConnectionInputRules.timeBackwards

    // MARK: packet captures (pcap, pcapng)

    package static let badFileHeader = Rule(
        "CAPTURE.BAD-FILE-HEADER", .error, layer: .capture,
        summary: "A pcap or pcapng header with an unsupported version or impossible values.",
        specRef: "Spec/captures.md#pcap-file-header, Spec/captures.md#pcapng-section-header")
    package static let truncatedFile = Rule(
        "CAPTURE.TRUNCATED-FILE", .error, layer: .capture,
        summary: "The file ends inside a record or block; what came before is still checked.",
        specRef: "Spec/captures.md#pcap-records, Spec/captures.md#pcapng-blocks")
    package static let recordTooLarge = Rule(
        "CAPTURE.RECORD-TOO-LARGE", .error, layer: .capture,
        summary:
            """
            A record or block longer than Limits.maxFrameSize (pcap: or than a snaplen \
            above 65,535); skipped by its length without being read into memory.
            """,
        specRef: """
            Spec/captures.md#pcap-records (snap length), \
            Spec/captures.md#pcapng-blocks, Spec/captures.md#limits (maxFrameSize)
            """)
    package static let packetTruncated = Rule(
        "CAPTURE.PACKET-TRUNCATED", .info, layer: .capture,
        summary: "A packet captured shorter than it was on the wire (snaplen); its missing bytes become a TCP gap.",
        specRef: "Spec/captures.md#pcap-records (captured length)")
    package static let blockLength = Rule(
        "CAPTURE.PCAPNG-BLOCK-LENGTH", .error, layer: .capture,
        summary:
            "A pcapng block whose total length is under 12, not a multiple of 4, or differs from its trailer copy.",
        specRef: "Spec/captures.md#pcapng-blocks (block total length)")
    package static let unknownBlock = Rule(
        "CAPTURE.PCAPNG-UNKNOWN-BLOCK", .info, layer: .capture,
        summary: "A pcapng block type IMWire does not read; skipped by its length.",
        specRef: "Spec/captures.md#pcapng-blocks (block types)")
    package static let noInterface = Rule(
        "CAPTURE.PCAPNG-NO-INTERFACE", .error, layer: .capture,
        summary: "A packet block naming an interface no Interface Description Block of its section defined.",
        specRef: "Spec/captures.md#pcapng-interfaces")
    package static let badOption = Rule(
        "CAPTURE.PCAPNG-BAD-OPTION", .warning, layer: .capture,
        summary: "A pcapng option whose length runs past its block or does not fit its code.",
        specRef: "Spec/captures.md#pcapng-options")
    package static let unsupportedLinkType = Rule(
        "CAPTURE.LINKTYPE-UNSUPPORTED", .warning, layer: .capture,
        summary: """
            Packets of a link type IMWire does not read (it reads NULL 0, \
            Ethernet 1, raw IP 101, SLL 113, SLL2 276, IPv4 228, IPv6 229).
            """,
        specRef: "Spec/captures.md#link-types")
    package static let malformedIP = Rule(
        "CAPTURE.IP-MALFORMED", .warning, layer: .capture,
        summary:
            "An IPv4/IPv6 header that is too short, of the wrong version, or announces more bytes than the packet has.",
        specRef: "Spec/captures.md#ip-headers, Spec/captures.md#link-types (a header cut short)")
    package static let ipFragment = Rule(
        "CAPTURE.IP-FRAGMENT", .warning, layer: .capture,
        summary: "An IP fragment; IMWire does not reassemble fragments, so its bytes become a TCP gap.",
        specRef: "Spec/captures.md#ip-fragments")
    package static let malformedTCP = Rule(
        "CAPTURE.TCP-MALFORMED", .warning, layer: .capture,
        summary: "A TCP header shorter than 20 bytes or with a data offset past the segment.",
        specRef: "Spec/captures.md#tcp-header")
    package static let tcpOverlapConflict = Rule(
        "CAPTURE.TCP-OVERLAP-CONFLICT", .error, layer: .capture,
        summary: """
            A retransmitted or overlapping TCP segment whose bytes \
            differ from those already seen; the first copy is kept.
            """,
        specRef: "Spec/captures.md#tcp-reassembly (overlaps)")
    package static let tcpGap = ConnectionInputRules.tcpGap
    package static let tcpAfterEnd = Rule(
        "CAPTURE.TCP-AFTER-END", .info, layer: .capture,
        summary:
            """
            TCP data of a connection that already ended (after its RST, or after both FINs): bytes \
            in flight or sent after the reset; counted here, not decoded, and no new connection.
            """,
        specRef: "Spec/captures.md#tcp-reassembly (after the end)")
    package static let tcpIdle = Rule(
        "CAPTURE.TCP-IDLE", .warning, layer: .capture,
        summary:
            """
            TCP data of a connection that had gone without a packet for longer than Limits.tcpIdleSeconds (an \
            hour; check --tcp-idle) and so ended there, as at the capture's end; counted here, not decoded.
            """,
        specRef: "Spec/captures.md#tcp-reassembly (idle connections)")

    // MARK: HAR

    package static let harNoMessages = Rule(
        "CAPTURE.HAR-NO-WEBSOCKET-MESSAGES", .warning, layer: .capture,
        summary: "A HAR entry upgraded to WebSocket without Chrome's _webSocketMessages (or a HAR with none at all).",
        specRef: "Spec/captures.md#har-websocket")
    package static let harBadMessage = Rule(
        "CAPTURE.HAR-BAD-MESSAGE", .error, layer: .capture,
        summary: "A _webSocketMessages item without a valid type, data, or base64 for a binary message.",
        specRef: "Spec/captures.md#har-websocket (message fields)")

    package static let all: [Rule] = [
        badLine, badField, lineTooLong, timeBackwards, badFileHeader, truncatedFile, recordTooLarge, packetTruncated,
        blockLength, unknownBlock, noInterface, badOption, unsupportedLinkType, malformedIP, ipFragment, malformedTCP,
        tcpOverlapConflict, tcpGap, tcpAfterEnd, tcpIdle, harNoMessages, harBadMessage,
    ]
}
