import Dispatch
import IMWireCapture
import IMWireCore
import IMWireIO

/// Checks TCP connections while they happen (`imwire proxy`): the bytes of each direction go,
/// as they cross, to the same transport layer and dialects as `imwire check` (a `Checker`) as
/// `ConnectionInput`s, numbered as the packets of the pcapng recording of them that it can write
/// alongside (IPv4/TCP synthesised as `imwire convert` does, between the real endpoints, with the
/// real times). So `imwire check` of that recording reports the same findings, at the same
/// packets, as the live run did.
///
/// Every method may be called from any thread: the work happens in order on one serial queue,
/// where the `onFinding` and `onMessage` callbacks are called too. `finish` waits for it.
public final class LiveCheck: @unchecked Sendable {
    /// Below the forwarding thread's priority, so that checking does not hold up forwarding:
    /// libdispatch on Linux runs QoS classes at nice values (background: 10; unspecified ran at
    /// 0, the event loop's own, and added 1.4-2.5 ms to the proxy's p99 latency). On a busy
    /// machine the check gets a smaller share of CPU, and forwarding is paced by its backlog.
    private let queue = DispatchQueue(label: "imwire.live-check", qos: .background)
    private let checker: Checker
    private let now: @Sendable () -> Int64
    private var recorder: Recorder?
    private var connections: [Int: Connection] = [:]
    /// Client–server pairs seen, so a pair used again is named `#2` as a capture's reader names it.
    private var pairs: [String: Int] = [:]
    private var packetNumber = 0
    private var firstTime: Int64?
    private var finished = false
    /// Handles are given out on the caller's thread.
    private let handleLock = DispatchSemaphore(value: 1)
    private var nextHandle = 0
    /// Stream bytes handed in and not yet checked (for the caller's backpressure).
    private let pendingLock = DispatchSemaphore(value: 1)
    private var pending = 0
    private var pendingByHandle: [Int: Int] = [:]

    private struct Connection {
        let id: String
        var tcp: TCPSynthesizer
    }

    /// `record`: a pcapng file to write the traffic to, mode 0600 (it holds every login's
    /// credentials as they crossed, decrypted with `--tls`). `now`: microseconds since the epoch.
    public init(options: CheckOptions, record: String? = nil, now: @escaping @Sendable () -> Int64) throws(IMWireError)
    {
        checker = Checker(options: options)
        self.now = now
        if let record {
            // `-` is standard output elsewhere; here that carries the findings as they are made.
            guard record != "-" else {
                throw IMWireError(
                    .checkRecord, "-: standard output carries the findings; name a file", summary: "cannot record")
            }
            do { recorder = Recorder(file: try OutputFile(path: record, ownerOnly: true)) } catch {
                throw IMWireError(.checkRecord, error.description, summary: "cannot record")
            }
        }
    }

    /// Called on the check's queue with every finding as it is made, and the time findings are
    /// reported relative to (the first event's).
    public func onFinding(_ body: @escaping @Sendable (Finding, _ firstTime: Int64?) -> Void) {
        queue.sync {
            checker.onFinding = { [unowned self] finding in body(finding, self.firstTime) }
        }
    }

    /// Called on the check's queue with every message as its dialect read it (`describes`: with
    /// its summary and canonical JSON, as `imwire show` prints it).
    public func onMessage(_ body: @escaping @Sendable (CheckedMessage) -> Void) {
        queue.sync { checker.onMessage = body }
    }

    /// Stream bytes handed in and not yet checked.
    public var pendingBytes: Int {
        pendingLock.wait()
        defer { pendingLock.signal() }
        return pending
    }

    /// Stream bytes handed in and not yet checked: all connections', and connection `handle`'s.
    public func pendingBytes(of handle: Int) -> (all: Int, connection: Int) {
        pendingLock.wait()
        defer { pendingLock.signal() }
        return (pending, pendingByHandle[handle] ?? 0)
    }

    /// A TCP connection from `client` to `server` (IPv4 address bytes and port; other
    /// addresses are recorded as 10.1.x.y → 10.2.x.y) opened; returns its handle.
    public func open(client: (address: [UInt8], port: UInt16), server: (address: [UInt8], port: UInt16)) -> Int {
        handleLock.wait()
        let handle = nextHandle
        nextHandle += 1
        handleLock.signal()
        queue.async { [self] in
            guard !finished else { return }
            let tcp =
                client.address.count == 4 && server.address.count == 4
                ? TCPSynthesizer(client: client, server: server)
                : TCPSynthesizer(index: handle + 1, serverPort: server.port)
            func name(_ endpoint: (address: [UInt8], port: UInt16)) -> String {
                endpoint.address.map(String.init).joined(separator: ".") + ":\(endpoint.port)"
            }
            let clientName = name(tcp.client)
            let serverName = name(tcp.server)
            let base = "\(clientName)-\(serverName)"
            let count = (pairs[base] ?? 0) + 1
            pairs[base] = count
            var connection = Connection(id: count == 1 ? base : "\(base)#\(count)", tcp: tcp)
            let time = now()
            let (syn, _) = emit(connection.tcp.open(), time: time)
            connections[handle] = connection
            consume(
                ConnectionInput(
                    connection: connection.id, time: time, packet: syn,
                    kind: .open(ConnectionInfo(client: clientName, server: serverName))))
        }
        return handle
    }

    /// Bytes that crossed connection `handle` in `direction` (`.send`: client to server).
    public func data(_ handle: Int, _ direction: Direction, _ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        pendingLock.wait()
        pending += bytes.count
        pendingByHandle[handle, default: 0] += bytes.count
        pendingLock.signal()
        queue.async { [self] in
            defer {
                pendingLock.wait()
                pending -= bytes.count
                let left = (pendingByHandle[handle] ?? bytes.count) - bytes.count
                pendingByHandle[handle] = left > 0 ? left : nil
                pendingLock.signal()
            }
            guard !finished, var connection = connections[handle] else { return }
            let time = now()
            // One stream input per segment of the recording, numbered as its packets are; the
            // packets themselves are made only when there is a recording to write them to.
            var start = 0
            repeat {
                let end = min(bytes.count, start + TCPSynthesizer.segmentSize)
                let piece = Array(bytes[start..<end])
                if recorder != nil {
                    emit(connection.tcp.data(piece, direction: direction).map { (direction, $0) }, time: time)
                } else {
                    packetNumber += 1
                }
                consume(
                    ConnectionInput(
                        connection: connection.id, time: time, packet: packetNumber, kind: .stream(direction, piece)))
                start = end
            } while start < bytes.count
            connections[handle] = connection
        }
    }

    /// Connection `handle` closed (both directions): FINs are recorded and its checking ends.
    public func close(_ handle: Int) {
        queue.async { [self] in
            guard !finished else { return }
            close(handle: handle)
        }
    }

    /// Connection `handle` was reset by the peer that sends in `direction` (`.send`: the
    /// client): a RST is recorded from that side and its checking ends.
    public func reset(_ handle: Int, by direction: Direction) {
        queue.async { [self] in
            guard !finished else { return }
            close(handle: handle, resetBy: direction)
        }
    }

    /// A finding about the proxy's traffic that no recorded connection carries (an upstream
    /// that refused): reported live and in the report's capture findings.
    public func problem(_ finding: Finding) {
        queue.async { [self] in
            guard !finished else { return }
            var located = finding
            located.location.time = located.location.time ?? now()
            // Times are shown from the first event: a problem before any connection is one.
            if firstTime == nil { firstTime = located.location.time }
            checker.consume(.problem(located))
        }
    }

    /// Closes the connections still open, ends the recording and returns the report. Later
    /// calls of the other methods do nothing.
    public func finish(source: String) throws(IMWireError) -> CheckReport {
        let (report, failure): (CheckReport, IMWireError?) = queue.sync {
            for handle in connections.keys.sorted() { close(handle: handle) }
            finished = true
            let report = checker.finish(source: source)
            var failure: IMWireError?
            if let recorder {
                do throws(IMWireError) { try recorder.close() } catch {
                    failure = IMWireError(.checkRecord, error.description, summary: "cannot record")
                }
            }
            recorder = nil
            return (report, failure)
        }
        if let failure { throw failure }
        return report
    }

    private func close(handle: Int, resetBy: Direction? = nil) {
        guard var connection = connections.removeValue(forKey: handle) else { return }
        let time = now()
        // The reader closes a flow at its second FIN, or at a RST.
        let (_, last) = emit(resetBy.map { [connection.tcp.reset(from: $0)] } ?? connection.tcp.close(), time: time)
        consume(
            ConnectionInput(connection: connection.id, time: time, packet: last, kind: .close(CloseInfo(isLast: true))))
    }

    private func consume(_ event: ConnectionInput) {
        if firstTime == nil { firstTime = event.time }
        checker.consume(.event(event))
    }

    /// Numbers (and records) packets; returns the first's number and the last's.
    @discardableResult
    private func emit(_ packets: [(Direction, [UInt8])], time: Int64) -> (first: Int, last: Int) {
        let first = packetNumber + 1
        for (direction, packet) in packets {
            packetNumber += 1
            recorder?.packet(packet, time: time, inbound: direction == .receive)
        }
        return (first, packetNumber)
    }
}

/// A pcapng file written as packets come: a section header and interface, then a packet block
/// per packet, flushed in pieces of at most 64 KiB.
private final class Recorder {
    private let file: OutputFile
    private var writer = PcapngWriter()

    init(file: OutputFile) {
        self.file = file
    }

    func packet(_ data: [UInt8], time: Int64, inbound: Bool) {
        writer.packet(data, linkType: TCPSynthesizer.linkType, time: time, inbound: inbound)
        if writer.bytes.count >= 64 << 10 { flush() }
    }

    private func flush() {
        file.write(writer.bytes)
        writer = PcapngWriter.continuation(linkTypes: [TCPSynthesizer.linkType])
    }

    func close() throws(IMWireError) {
        flush()
        try file.close()
    }
}
