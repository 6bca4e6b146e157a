import IMWireCheck
import IMWireCore
import NIOCore
import NIOTLS

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The two channels of one proxied connection: the check is told once both have closed.
final class ProxiedPair {
    let live: LiveCheck
    let handle: Int
    private var inactive = 0
    /// The side whose peer reset the connection first (`.send`: the client's), if one did.
    private var resetBy: Direction?
    private let ended: () -> Void

    init(live: LiveCheck, handle: Int, ended: @escaping () -> Void) {
        self.live = live
        self.handle = handle
        self.ended = ended
    }

    /// A peer reset its side (`by`: the direction it sends in): the check records a reset.
    func reset(by direction: Direction) {
        resetBy = resetBy ?? direction
    }

    func sideClosed() {
        inactive += 1
        guard inactive == 2 else { return }
        if let resetBy { live.reset(handle, by: resetBy) } else { live.close(handle) }
        ended()
    }
}

/// One side of a proxied connection (both sides on one event loop): what it reads is written
/// to its partner's channel and copied to the check; it reads only while its partner's channel
/// is writable and the check keeps up; the end of its input half-closes the partner's output.
final class Glue: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// The connection, once both sides are joined.
    var pair: ProxiedPair?
    /// `.send` for the client's side (what it reads goes client → server).
    let direction: Direction
    let maxPending: Int
    var partner: Glue?
    private var context: ChannelHandlerContext?
    private var pendingRead = false
    private var closed = false
    /// What the client side read before it was joined (bounded by the socket's receive buffer:
    /// nothing is read until then but what NIO drains at an EOF), and whether its input ended.
    private var held: [ByteBuffer] = []
    private var heldInputClosed = false
    /// The upstream could not be reached: the client's output is closed, its input drained.
    private var refusing = false
    /// The other side closed: this side's output is closed, and what its peer still sends is
    /// checked, not forwarded, until its FIN.
    private var orphaned = false
    /// This side's output is closed (FIN sent, or being sent after what is queued).
    private var outputClosed = false
    /// Its peer's FIN was read.
    private var inputClosed = false
    /// Its peer reset the connection (ECONNRESET): the partner's peer is reset too, not sent a FIN.
    private var wasReset = false
    /// What this read burst forwarded, for the check once it is flushed.
    private var unchecked: [ByteBuffer] = []
    /// Told of an error before this side's TLS handshake completes (a handshake that failed),
    /// before the side closes. Later errors are not reported: a peer that ends without TLS's
    /// close_notify (`uncleanShutdown`) or resets is common, and the check sees the end anyway.
    var onError: ((Error) -> Void)?

    init(direction: Direction, maxPending: Int) {
        self.direction = direction
        self.maxPending = maxPending
    }

    /// Joins the client side to the server side: what it held is forwarded and checked.
    func join(pair: ProxiedPair, partner: Glue) {
        self.pair = pair
        self.partner = partner
        for buffer in held {
            pair.live.data(pair.handle, direction, Array(buffer.readableBytesView))
            partner.partnerWrite(buffer)
        }
        held = []
        partner.partnerFlush()
        if closed {
            // The client left before the upstream answered: both sides are closed now.
            partner.partnerClose()
            pair.sideClosed()
        } else if heldInputClosed {
            partner.partnerHalfClose()
        }
    }

    /// The upstream could not be reached: closes the client's output (FIN), then reads and drops
    /// its bytes until its FIN (at most 2 seconds) and closes.
    func refuse(_ client: Channel) {
        refusing = true
        held = []
        client.close(mode: .output, promise: nil)
        if heldInputClosed || closed {
            client.close(promise: nil)
            return
        }
        client.setOption(.autoRead, value: true).whenFailure { _ in client.close(promise: nil) }
        client.eventLoop.scheduleTask(in: .seconds(2)) { client.close(promise: nil) }
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        partner = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refusing else { return }
        let buffer = unwrapInboundIn(data)
        if orphaned { return unchecked.append(buffer) }
        guard pair != nil, let partner else { return held.append(buffer) }
        partner.partnerWrite(buffer)
        unchecked.append(buffer)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        partner?.partnerFlush()
        checkForwarded()
    }

    /// Forwarded first, checked after: the copy and the hand-over to the check's thread never
    /// delay the bytes on their way.
    private func checkForwarded() {
        guard !unchecked.isEmpty else { return }
        if let pair {
            for buffer in unchecked { pair.live.data(pair.handle, direction, Array(buffer.readableBytesView)) }
        }
        unchecked.removeAll(keepingCapacity: true)
    }

    func channelInactive(context: ChannelHandlerContext) {
        checkForwarded()
        if !closed {
            closed = true
            if wasReset { pair?.reset(by: direction) }
            pair?.sideClosed()
        }
        if wasReset { partner?.partnerReset() } else { partner?.partnerClose() }
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? TLSUserEvent, case .handshakeCompleted = event { onError = nil }
        if let event = event as? ChannelEvent, case .inputClosed = event {
            inputClosed = true
            checkForwarded()
            if refusing || orphaned {
                context.close(promise: nil)
            } else if let partner {
                partner.partnerHalfClose()
            } else {
                heldInputClosed = true
            }
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        // A reset, a failed write or TLS: close this side; the partner follows (reset too, after a reset).
        if let error = error as? IOError, error.errnoCode == ECONNRESET { wasReset = true }
        if let onError {
            self.onError = nil
            onError(error)
        }
        context.close(promise: nil)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { partner?.partnerBecameWritable() }
        context.fireChannelWritabilityChanged()
    }

    func read(context: ChannelHandlerContext) {
        guard !refusing else { return context.read() }  // dropped unread: nothing to wait for
        let (all, mine) = pair.map { $0.live.pendingBytes(of: $0.handle) } ?? (0, 0)
        // The check is behind when its backlog passes `maxPending`; then a connection with little
        // of its own waiting (a quiet client beside a flood) still reads, up to twice the bound:
        // one peer's volume does not stall the others.
        let checkKeepsUp = all < maxPending || (mine < maxPending / 64 && all < 2 * maxPending)
        // Orphaned, nothing is forwarded, but what is read is checked: the check's bound holds.
        if orphaned || partner?.partnerWritable ?? false, checkKeepsUp {
            context.read()
        } else {
            pendingRead = true
            if !checkKeepsUp {
                // The check is behind: look again shortly.
                let this = NIOLoopBound(self, eventLoop: context.eventLoop)
                context.eventLoop.scheduleTask(in: .milliseconds(5)) { this.value.retryRead() }
            }
        }
    }

    private func retryRead() {
        guard pendingRead, let context else { return }
        pendingRead = false
        read(context: context)
    }

    fileprivate func partnerWrite(_ buffer: ByteBuffer) {
        context?.write(wrapOutboundOut(buffer), promise: nil)
    }

    fileprivate func partnerFlush() {
        context?.flush()
    }

    /// Closes this side's output (FIN) after what is queued, or (`thenClose`) the whole channel.
    fileprivate func partnerHalfClose(thenClose: Bool = false) {
        guard let context else { return }
        if outputClosed {
            if thenClose { context.close(promise: nil) }
            return
        }
        outputClosed = true
        // After what is already queued: closing the output fails the writes still pending.
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(capacity: 0)), promise: written)
        written.futureResult.whenComplete { _ in
            if thenClose { return bound.value.close(promise: nil) }
            bound.value.close(mode: .output).whenFailure { _ in bound.value.close(promise: nil) }
        }
    }

    /// The other side's peer reset it: this side's peer is reset too (SO_LINGER 0, then close),
    /// as a reset reaches both ends of a connection without a proxy. What was queued is dropped.
    fileprivate func partnerReset() {
        guard let context, !closed else { return }
        let channel = context.channel
        let linger0 =
            (channel as? SocketOptionProvider)?.setSoLinger(linger(l_onoff: 1, l_linger: 0))
            ?? channel.eventLoop.makeSucceededVoidFuture()
        linger0.whenComplete { _ in channel.close(promise: nil) }
    }

    /// The other side closed: nothing this side reads can go anywhere now. Its
    /// output is closed after what is queued (FIN), and what its peer still sends is read and
    /// checked, not forwarded, until its FIN (at most 2 seconds): the check sees every byte each
    /// peer sent, as a recording of the wire does, rather than the kernel resetting them unread.
    fileprivate func partnerClose() {
        guard let context, !closed, !orphaned else { return }
        orphaned = true
        partnerHalfClose(thenClose: inputClosed)  // its peer done too: nothing left to read
        guard !inputClosed else { return }
        context.read()
        let channel = context.channel
        context.eventLoop.scheduleTask(in: .seconds(2)) { channel.close(promise: nil) }
    }

    private func partnerBecameWritable() {
        guard pendingRead, let context else { return }
        pendingRead = false
        read(context: context)
    }

    private var partnerWritable: Bool {
        context?.channel.isWritable ?? false
    }
}
