import Dispatch
import IMWireCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A testee's two pipes seen from the runner: framed requests written to its stdin (`input`),
/// framed responses read from its stdout (`output`). Writes and reads wait with poll(2) up to
/// the case's deadline. Whoever starts the testee owns the descriptors.
package struct TesteePipes {
    /// The testee's stdin, written to (-1: none).
    package private(set) var input: Int32
    /// The testee's stdout, read from (-1: none).
    package private(set) var output: Int32
    private var reader = TesteeFrameReader()

    /// No testee.
    package init() {
        input = -1
        output = -1
    }

    /// The pipes of a testee just started, made non-blocking.
    package init(input: Int32, output: Int32) {
        self.input = input
        self.output = output
        _ = fcntl(input, F_SETFL, fcntl(input, F_GETFL) | O_NONBLOCK)
        _ = fcntl(output, F_SETFL, fcntl(output, F_GETFL) | O_NONBLOCK)
    }

    /// Milliseconds of a monotonic clock.
    package static func now() -> Int { Int(DispatchTime.now().uptimeNanoseconds / 1_000_000) }

    /// Writes everything before the deadline (milliseconds of `now()`; nil: no deadline).
    package static func writeAll(_ fd: Int32, _ bytes: [UInt8], deadline: Int?) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written > 0 {
                offset += written
                continue
            }
            guard written < 0, errno == EAGAIN || errno == EINTR else { return false }
            var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            let wait = deadline.map { max(0, $0 - now()) } ?? -1
            if wait == 0 { return false }
            _ = poll(&descriptor, 1, Int32(clamping: wait))
        }
        return true
    }

    /// Sends one request and waits for one response; `exitStatus` says how a testee that closed
    /// its stdout ended (` (status 3)`).
    package mutating func exchange(
        _ request: [UInt8], timeoutMilliseconds: Int, exitStatus: () -> String
    ) -> ExchangeResult {
        let deadline = Self.now() + timeoutMilliseconds
        guard Self.writeAll(input, TesteeProtocol.frame(request), deadline: deadline) else {
            return .failure(
                Self.now() >= deadline
                    ? "timed out after \(timeoutMilliseconds) ms writing the request" : "testee closed its stdin")
        }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            do {
                if let body = try reader.next() { return .body(body) }
            } catch {
                return .failure("garbage response: \(error)")
            }
            let count = read(output, &buffer, buffer.count)
            if count > 0 {
                reader.append(buffer[0..<count])
                continue
            }
            if count == 0 { return .failure("testee exited" + exitStatus()) }
            guard errno == EAGAIN || errno == EINTR else { return .failure("reading the testee: errno \(errno)") }
            let wait = deadline - Self.now()
            if wait <= 0 { return .failure("timed out after \(timeoutMilliseconds) ms") }
            var descriptor = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, Int32(clamping: wait))
        }
    }

    /// Closes both pipes.
    package mutating func close() {
        if input >= 0 { _ = closeDescriptor(input) }
        if output >= 0 { _ = closeDescriptor(output) }
        input = -1
        output = -1
    }
}

private func closeDescriptor(_ fd: Int32) -> Int32 { close(fd) }

extension IMWireTestee {
    /// `imwire conformance testee`: answers the framed requests read from `input` with framed
    /// responses written to `output`, until the input ends or the output closes.
    package static func serve(input: Int32, output: Int32) throws {
        var reader = TesteeFrameReader()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(input, &buffer, buffer.count)
            if count <= 0 { return }
            reader.append(buffer[0..<count])
            while let body = try reader.next() {
                let frame = TesteeProtocol.frame(IMWireTestee.answer(body))
                guard TesteePipes.writeAll(output, frame, deadline: nil) else { return }
            }
        }
    }
}
