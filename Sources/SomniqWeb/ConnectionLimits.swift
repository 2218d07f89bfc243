import HTTPTypes
import HummingbirdCore
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// The limits on the web server's connections, shared by its event loops: which ones are
/// kept when clients open too many (`Admission`: per peer, and in all), the deadline for a
/// connection's first request head, the deadline for each request's body, and the largest
/// body. A slow client (slowloris: a header line every few seconds, never the end; or a
/// whole head, then its body a byte at a time) is closed at the deadline, or sooner by a
/// connection that needs its place: until a request is whole it holds nothing that a whole
/// request needs, token or not.
final class ConnectionLimits: Sendable {
    let headSeconds: Int64
    let bodySeconds: Int64
    let bodyLimit: Int
    /// A new connection that has sent nothing is not closed for another this long: a
    /// client sends its request as it connects, and it arrives within a round trip.
    static let firstChance: TimeAmount = .seconds(1)
    private let state: NIOLockedValueBox<State>

    private struct State {
        var admission: Admission<UInt64>
        var channels: [UInt64: any Channel] = [:]
        var lastID: UInt64 = 0
    }

    init(perPeer: Int, total: Int, headSeconds: Int64, bodySeconds: Int64, bodyLimit: Int) {
        self.headSeconds = headSeconds
        self.bodySeconds = bodySeconds
        self.bodyLimit = bodyLimit
        state = NIOLockedValueBox(State(admission: Admission(perPeer: perPeer, total: total)))
    }

    /// Takes in `channel`; its id.
    fileprivate func open(_ channel: any Channel) -> UInt64 {
        let peer = Self.peer(channel.remoteAddress)
        let (id, closing) = state.withLockedValue { s in
            s.lastID += 1
            s.channels[s.lastID] = channel
            return (s.lastID, Self.take(s.admission.open(s.lastID, peer: peer), from: &s))
        }
        Self.close(closing)
        return id
    }

    fileprivate func hadItsChance(_ id: UInt64) {
        Self.close(state.withLockedValue { Self.take($0.admission.hadItsChance(id), from: &$0) })
    }

    fileprivate func answering(_ id: UInt64) { state.withLockedValue { $0.admission.answering(id) } }

    fileprivate func answered(_ id: UInt64) {
        Self.close(state.withLockedValue { Self.take($0.admission.answered(id), from: &$0) })
    }

    fileprivate func closed(_ id: UInt64) {
        state.withLockedValue { s in
            s.admission.closed(id)
            s.channels[id] = nil
        }
    }

    private static func take(_ ids: [UInt64], from s: inout State) -> [any Channel] {
        ids.compactMap { s.channels.removeValue(forKey: $0) }
    }

    /// Outside the lock, and on the channel's event loop's next turn: closing runs its
    /// handlers (this one's among them), and SwiftNIO asserts that a channel still open
    /// when it fired the event being handled (an end of input read with the first bytes,
    /// say) is open when that event is done.
    private static func close(_ channels: [any Channel]) {
        for channel in channels { channel.eventLoop.execute { channel.close(promise: nil) } }
    }

    /// A peer, as the limits count them: an IPv4 address, or an IPv6 address's /64, which
    /// one host (or one home network) may pick any address of; an IPv4 address in IPv6's
    /// clothes (::ffff:a.b.c.d, on a dual-stack socket) is the IPv4 address.
    static func peer(_ address: SocketAddress?) -> String {
        guard case let .v6(v6)? = address else { return address?.ipAddress ?? "local" }
        let bytes = withUnsafeBytes(of: v6.address.sin6_addr) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            return bytes[12...].map { String($0) }.joined(separator: ".")
        }
        let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
        return groups.joined(separator: ":") + "::/64"
    }

    /// One connection's handler, after the HTTP parser: it tells the limits when the
    /// connection opens, has been read, is being answered (a whole request, head and body,
    /// has been read and waits for its reply), waits again and closes. It closes the
    /// connection when its first request's head is not whole by the head's deadline, answers
    /// 408 and closes when a request's body is not whole by the body's deadline, 400 when
    /// the client ends its side in a body, and 413 at a head announcing a larger body than
    /// `bodyLimit`, before reading any of it. Between requests, Hummingbird's idle timeout
    /// closes it.
    final class Handler: ChannelDuplexHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPRequestPart
        typealias InboundOut = HTTPRequestPart
        typealias OutboundIn = HTTPResponsePart
        typealias OutboundOut = HTTPResponsePart

        private let limits: ConnectionLimits
        private var id: UInt64?
        /// Requests whose head has been read, requests read whole (their end too), and
        /// replies written to them; pipelined ones are read ahead. The connection is being
        /// answered while a whole request waits for its reply (`wholes > replies`); a route
        /// may reply before the body is read (401, say), and then it is not.
        private var heads = 0, wholes = 0, replies = 0
        private var readOnce = false
        /// The first request head's deadline, then that of the body of the request being read.
        private var deadline: Scheduled<Void>?
        private var chance: Scheduled<Void>?
        /// This handler has answered (400, 408, 413) and closes: nothing more is read or written.
        private var ending = false

        init(_ limits: ConnectionLimits) { self.limits = limits }

        func handlerAdded(context: ChannelHandlerContext) {
            if context.channel.isActive { start(context) }
        }

        func channelActive(context: ChannelHandlerContext) {
            start(context)
            context.fireChannelActive()
        }

        private func start(_ context: ChannelHandlerContext) {
            guard id == nil else { return }
            let id = limits.open(context.channel)
            self.id = id
            let loop = context.eventLoop.assumeIsolated()
            deadline = loop.scheduleTask(in: .seconds(limits.headSeconds)) { context.close(promise: nil) }
            chance = loop.scheduleTask(in: ConnectionLimits.firstChance) { [limits] in limits.hadItsChance(id) }
        }

        func channelReadComplete(context: ChannelHandlerContext) {
            // What came with the connection is read: a whole request has made it answering.
            if !readOnce, let id {
                readOnce = true
                chance?.cancel()
                chance = nil
                limits.hadItsChance(id)
            }
            context.fireChannelReadComplete()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard !ending else { return }
            switch unwrapInboundIn(data) {
            case let .head(head):
                deadline?.cancel()
                // A length that is no number SwiftNIO's parser refuses before; one past Int is large.
                if let length = head.headerFields[.contentLength], (Int(length) ?? .max) > limits.bodyLimit {
                    end(context, 413, "the body is larger than \(limits.bodyLimit / 1024) KB, the most a form of this page holds")
                    return
                }
                heads += 1
                deadline = context.eventLoop.assumeIsolated().scheduleTask(in: .seconds(limits.bodySeconds)) { self.bodyTimedOut(context) }
            case .body:
                break
            case .end:
                deadline?.cancel()
                deadline = nil
                wholes += 1
                if wholes == replies + 1, let id { limits.answering(id) }
            }
            context.fireChannelRead(data)
        }

        private func bodyTimedOut(_ context: ChannelHandlerContext) {
            deadline = nil
            guard replies < heads else {
                // Answered already (a refusal before the body): what is left of it is not awaited.
                context.close(promise: nil)
                return
            }
            end(context, 408, "the request's body did not arrive whole within \(limits.bodySeconds) s of its head")
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            // The client ended its side in a body (SwiftNIO's parser: an end of input in a
            // message): the route reading it must not take what came for the whole.
            if !ending, error is HTTPParserError, heads > wholes, replies < heads {
                end(context, 400, "the request's body ended before the length its head gave")
                return
            }
            context.fireErrorCaught(error)
        }

        /// Answers `status` with `text` in place of the routes, and closes: a route reading the
        /// request's body fails (it must not take a part of it for the whole), and its reply
        /// is not written.
        private func end(_ context: ChannelHandlerContext, _ status: Int, _ text: String) {
            ending = true
            deadline?.cancel()
            deadline = nil
            let body = ByteBuffer(string: text + "\n")
            var fields = HTTPFields()
            fields[.contentType] = "text/plain; charset=utf-8"
            fields[.contentLength] = "\(body.readableBytes)"
            fields[.connection] = "close"
            fields[.cacheControl] = "no-store"
            fields[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
            context.write(wrapOutboundOut(.head(HTTPResponse(status: .init(code: status), headerFields: fields))), promise: nil)
            context.write(wrapOutboundOut(.body(body)), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
            context.fireErrorCaught(RequestCutShort(status: status))
        }

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            guard !ending else {
                promise?.fail(ChannelError.ioOnClosedChannel)
                return
            }
            // A reply to no request (Hummingbird's 400 for what does not parse) counts for none.
            guard case .end = unwrapOutboundIn(data), replies < heads, let id else {
                context.write(data, promise: promise)
                return
            }
            replies += 1
            guard wholes == replies else {
                // Still answering a request read ahead, or answered before its body was read.
                context.write(data, promise: promise)
                return
            }
            // It waits again once its reply is written: closed for another before, it would
            // lose the reply. A request read ahead meanwhile keeps it answering.
            let written = context.eventLoop.makePromise(of: Void.self)
            written.futureResult.assumeIsolated().whenComplete { _ in
                if self.wholes <= self.replies, self.id == id { self.limits.answered(id) }
            }
            if let promise { written.futureResult.cascade(to: promise) }
            context.write(data, promise: written)
        }

        func channelInactive(context: ChannelHandlerContext) {
            stop()
            context.fireChannelInactive()
        }

        func handlerRemoved(context: ChannelHandlerContext) { stop() }

        private func stop() {
            deadline?.cancel()
            chance?.cancel()
            (deadline, chance) = (nil, nil)
            if let id { limits.closed(id) }
            id = nil
        }
    }

    /// What a route reading a request's body hears when this handler has answered it.
    struct RequestCutShort: Error {
        var status: Int
    }
}

/// HTTP/1.1 as Hummingbird serves it (`HTTP1Channel`), each connection under `limits`.
struct LimitedHTTP1Channel: HTTPChannelHandler {
    typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>
    let responder: HTTPChannelHandler.Responder
    let limits: ConnectionLimits
    let idleTimeout: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        // Made for each connection: the handler is that connection's.
        let http = HTTP1Channel(responder: responder,
                                configuration: .init(additionalChannelHandlers: [ConnectionLimits.Handler(limits)], idleTimeout: idleTimeout))
        return http.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: value, logger: logger)
    }
}
