internal import CChipmunk

/// The Chipmunk collision handlers of a world's collision rules (docs/formats.md §8, "Rules"),
/// and the queue of their calls.
///
/// One Chipmunk handler per key: `cpSpaceAddCollisionHandler` for each unordered pair of
/// collision types (Chipmunk keeps one handler per pair, whichever order the types are given
/// in), `cpSpaceAddWildcardHandler` for each type a rule pairs with `"*"`. A handler calls the
/// rules registered on it in file order. A handler only records: each call appends a
/// `CollisionCall` (rule, body a, body b in the rule's order) to a queue the world owns, and a
/// begin handler always returns true, so the collision proceeds exactly as without rules.
/// The actions run after the step, outside Chipmunk (the `Run` layer drains the queue).
///
/// Chipmunk 7.0.3's pair handler replaces the default one, which is what calls the wildcard
/// handlers; so a pair handler with rules calls the wildcard handlers itself after its own
/// rules (`cpArbiterCallWildcardBeginA`/`B`, `…SeparateA`/`B`), the shape Chipmunk collided
/// first first, as pymunk 7.3.1 orders them ("the most specific handler is called first").
/// Without a pair handler, Chipmunk's default handler calls them in that order itself.
///
/// Chipmunk makes its `begin` calls in the order of its broad phase's pair query, which is the
/// same on every run; but it makes its `separate` calls by walking its arbiter cache, a hash set
/// keyed by the two shapes' addresses (in `cpSpaceStep`, and in `cpSpaceRemoveShape`), so their
/// order changes with the heap's layout from run to run. So the queue is settled in batches (one
/// `cpSpaceStep`, one body's removal: `settle()`): the batch's `separate` calls are sorted by
/// their shapes' `ShapePairKey` (the order the shapes joined the world), the calls of one pair
/// keeping Chipmunk's order (rules in file order, then the wildcards), each in a place a
/// `separate` call of the batch took, so the `begin` calls stay exactly where Chipmunk made them.
///
/// The callbacks get their handler through Chipmunk's `userData` (an unretained pointer) and
/// never trap: a call without data does nothing. `detach()` clears every handler's data when
/// the world goes away, so no call Chipmunk could make while it is freed records anything.
final class CollisionRecorder {
    /// One Chipmunk handler and the rules it calls, in file order.
    final class Handler {
        /// The rule's index and the collision type of its body `a`.
        typealias Entry = (rule: Int, typeA: UInt)
        unowned(unsafe) let recorder: CollisionRecorder
        /// A pair handler (swaps its arbiter's shapes to each rule's order, calls the wildcards);
        /// else a wildcard handler.
        let isPair: Bool
        let pointer: UnsafeMutablePointer<cpCollisionHandler>
        var begin: [Entry] = []
        var separate: [Entry] = []

        init(recorder: CollisionRecorder, isPair: Bool, pointer: UnsafeMutablePointer<cpCollisionHandler>) {
            self.recorder = recorder
            self.isPair = isPair
            self.pointer = pointer
        }

        /// Appends one call per rule in `entries` for the arbiter's two shapes.
        func record(_ entries: [Entry], phase: CollisionPhase, _ arb: UnsafeMutablePointer<cpArbiter>) {
            var first: UnsafeMutablePointer<cpShape>?
            var second: UnsafeMutablePointer<cpShape>?
            cpArbiterGetShapes(arb, &first, &second)
            guard let first, let second else { return }
            let serialA = CollisionRecorder.serial(of: first), serialB = CollisionRecorder.serial(of: second)
            let pair = ShapePairKey(first, second)
            for entry in entries {
                // A pair handler's arbiter has the handler's first type first: a rule written in
                // the other order swaps back. A wildcard handler's arbiter has its type first.
                let swapped = isPair && cpShapeGetCollisionType(first) != cpCollisionType(entry.typeA)
                let call = CollisionCall(
                    rule: entry.rule, phase: phase, a: swapped ? serialB : serialA, b: swapped ? serialA : serialB)
                recorder.queue.append(QueuedCall(call: call, pair: pair, order: recorder.queue.count))
            }
        }
    }

    private struct HandlerKey: Hashable {
        var low: UInt
        var high: UInt?
    }

    /// One call in the queue, with what settles its place: its shapes' key, and its place in
    /// the queue when Chipmunk made it.
    struct QueuedCall {
        var call: CollisionCall
        var pair: ShapePairKey
        var order: Int
    }

    /// The calls not yet taken; `next` is the first not taken. Those before `settled` are in
    /// their final order; those from it on, in the order Chipmunk made them (`settle()`).
    fileprivate(set) var queue: ContiguousArray<QueuedCall> = []
    private var next = 0
    private var settled = 0
    /// The `separate` calls of the batch being settled (kept to reuse its storage).
    private var batch: [QueuedCall] = []
    /// Every handler, in the order first registered (held here; Chipmunk holds only pointers).
    private var handlers: [Handler] = []

    /// Registers `watches` on `space` in file order (the index of a watch is its rule's index).
    /// Every type must be a valid collision type number (not 0).
    init(watches: [CollisionWatch], space: Space) {
        queue.reserveCapacity(1024)
        var byKey: [HandlerKey: Handler] = [:]
        for (rule, watch) in watches.enumerated() {
            precondition(watch.typeA != 0 && watch.typeB != 0, "rules name collision types (validated by the loader)")
            let key: HandlerKey
            if let typeB = watch.typeB {
                key = HandlerKey(low: min(watch.typeA, typeB), high: max(watch.typeA, typeB))
            } else {
                key = HandlerKey(low: watch.typeA, high: nil)
            }
            let handler: Handler
            if let known = byKey[key] {
                handler = known
            } else {
                let pointer: UnsafeMutablePointer<cpCollisionHandler>?
                if let typeB = watch.typeB {
                    pointer = cpSpaceAddCollisionHandler(
                        space.pointer, cpCollisionType(watch.typeA), cpCollisionType(typeB))
                } else {
                    pointer = cpSpaceAddWildcardHandler(space.pointer, cpCollisionType(watch.typeA))
                }
                guard let pointer else { preconditionFailure("Chipmunk could not add a collision handler") }
                handler = Handler(recorder: self, isPair: watch.typeB != nil, pointer: pointer)
                pointer.pointee.userData = Unmanaged.passUnretained(handler).toOpaque()
                if handler.isPair {
                    // Both phases, so the wildcard handlers are always called in the same order.
                    pointer.pointee.beginFunc = pairBegin
                    pointer.pointee.separateFunc = pairSeparate
                }
                byKey[key] = handler
                handlers.append(handler)
            }
            switch watch.phase {
            case .begin:
                handler.begin.append((rule, watch.typeA))
                if !handler.isPair { handler.pointer.pointee.beginFunc = wildcardBegin }
            case .separate:
                handler.separate.append((rule, watch.typeA))
                if !handler.isPair { handler.pointer.pointee.separateFunc = wildcardSeparate }
            }
        }
    }

    /// The next call in the settled order, or `nil` when every call has been taken (the queue
    /// then starts again from the front of its buffer). Calls not yet settled are settled first,
    /// as one batch.
    func take() -> CollisionCall? {
        if settled < queue.count { settle() }
        guard next < queue.count else {
            queue.removeAll(keepingCapacity: true)
            next = 0
            settled = 0
            return nil
        }
        next += 1
        return queue[next - 1].call
    }

    /// Ends a batch of calls (one `cpSpaceStep`, one body's removal): sorts its `separate` calls
    /// by their shapes' `ShapePairKey`, then by the order Chipmunk made them, into the places the
    /// batch's `separate` calls took. Nothing to do (and no allocation) for fewer than two.
    func settle() {
        let start = settled
        settled = queue.count
        var separates = 0
        for i in start..<queue.count where queue[i].call.phase == .separate { separates += 1 }
        guard separates > 1 else { return }
        batch.removeAll(keepingCapacity: true)
        for i in start..<queue.count where queue[i].call.phase == .separate { batch.append(queue[i]) }
        batch.sort { ($0.pair, $0.order) < ($1.pair, $1.order) }
        var taken = 0
        for i in start..<queue.count where queue[i].call.phase == .separate {
            queue[i] = batch[taken]
            taken += 1
        }
    }

    /// Stops every handler from recording (their `userData` becomes null). Called when the
    /// world goes away, before its bodies are freed.
    func detach() {
        for handler in handlers { handler.pointer.pointee.userData = nil }
    }

    /// The serial number the world gave the shape's body (its `userData`; 0 for the space's
    /// static body).
    static func serial(of shape: UnsafeMutablePointer<cpShape>) -> Int {
        guard let body = cpShapeGetBody(shape) else { return 0 }
        return Int(bitPattern: cpBodyGetUserData(body))
    }

    fileprivate static func handler(_ data: cpDataPointer?) -> Handler? {
        guard let data else { return nil }
        return Unmanaged<Handler>.fromOpaque(data).takeUnretainedValue()
    }
}

// MARK: - The C callbacks

private func wildcardBegin(
    _ arb: UnsafeMutablePointer<cpArbiter>?, _ space: UnsafeMutablePointer<cpSpace>?, _ data: cpDataPointer?
) -> cpBool {
    if let arb, let handler = CollisionRecorder.handler(data) { handler.record(handler.begin, phase: .begin, arb) }
    return 1
}

private func wildcardSeparate(
    _ arb: UnsafeMutablePointer<cpArbiter>?, _ space: UnsafeMutablePointer<cpSpace>?, _ data: cpDataPointer?
) {
    if let arb, let handler = CollisionRecorder.handler(data) {
        handler.record(handler.separate, phase: .separate, arb)
    }
}

private func pairBegin(
    _ arb: UnsafeMutablePointer<cpArbiter>?, _ space: UnsafeMutablePointer<cpSpace>?, _ data: cpDataPointer?
) -> cpBool {
    guard let arb, let handler = CollisionRecorder.handler(data) else { return 1 }
    handler.record(handler.begin, phase: .begin, arb)
    // As Chipmunk's default begin does, then the wildcard handlers, the shape collided first first.
    if arb.pointee.swapped != 0 {
        _ = cpArbiterCallWildcardBeginB(arb, space)
        _ = cpArbiterCallWildcardBeginA(arb, space)
    } else {
        _ = cpArbiterCallWildcardBeginA(arb, space)
        _ = cpArbiterCallWildcardBeginB(arb, space)
    }
    return 1
}

private func pairSeparate(
    _ arb: UnsafeMutablePointer<cpArbiter>?, _ space: UnsafeMutablePointer<cpSpace>?, _ data: cpDataPointer?
) {
    guard let arb, let handler = CollisionRecorder.handler(data) else { return }
    handler.record(handler.separate, phase: .separate, arb)
    if arb.pointee.swapped != 0 {
        cpArbiterCallWildcardSeparateB(arb, space)
        cpArbiterCallWildcardSeparateA(arb, space)
    } else {
        cpArbiterCallWildcardSeparateA(arb, space)
        cpArbiterCallWildcardSeparateB(arb, space)
    }
}
