import Foundation
import Synchronization

/// One user action being recorded: the writes made inside one `undoable` block.
final class Barrier: Sendable {
    let id: Int64
    let name: String
    let coalescingKey: String?
    private let engines = Mutex<[ObjectIdentifier: UndoEngine]>([:])

    init(name: String, coalescingKey: String? = nil) {
        self.id = BarrierID.next()
        self.name = name
        self.coalescingKey = coalescingKey
        BarrierID.open(id)
    }

    deinit { BarrierID.close(id) }

    /// The engine that captured last, as a bit pattern: a repeat capture (every row of a bulk
    /// statement) skips the lock.
    private let lastEngine = Atomic<UInt>(0)

    /// Called by an engine's capture function: this barrier wrote to that engine's database.
    func didCapture(for engine: UndoEngine) {
        let key = ObjectIdentifier(engine)
        let bits = UInt(bitPattern: key)
        guard lastEngine.exchange(bits, ordering: .relaxed) != bits else { return }
        engines.withLock { engines in
            if engines[key] == nil { engines[key] = engine }
        }
    }

    /// The engines whose tables this barrier wrote.
    var capturingEngines: [UndoEngine] { engines.withLock { Array($0.values) } }
}

/// Barrier ids: unique across the processes sharing a file, `pid << 32 | counter`, so a process
/// that opens the file can tell the unfinished barriers of a dead process from live ones.
enum BarrierID {
    private static let counter = Atomic<Int64>(0)
    private static let live = Mutex<Set<Int64>>([])
    static let processID = Int64(getpid())

    static func next() -> Int64 {
        processID << 32 | counter.add(1, ordering: .relaxed).newValue
    }

    /// Makes sure later ids are above every id this pid already used in a file.
    static func advance(pastUsed id: Int64) {
        guard id >> 32 == processID else { return }
        let used = id & 0xFFFF_FFFF
        var current = counter.load(ordering: .relaxed)
        while current < used {
            let (exchanged, original) = counter.compareExchange(
                expected: current, desired: used, ordering: .relaxed)
            if exchanged { break }
            current = original
        }
    }

    static func open(_ id: Int64) { _ = live.withLock { $0.insert(id) } }
    static func close(_ id: Int64) { _ = live.withLock { $0.remove(id) } }

    /// Whether the barrier's block may still be running: in this process and open, or in
    /// another process that is alive.
    static func mayBeRunning(_ id: Int64) -> Bool {
        let owner = id >> 32
        if owner == processID { return live.withLock { $0.contains(id) } }
        guard owner > 0, owner <= Int64(Int32.max) else { return false }
        return kill(pid_t(owner), 0) == 0 || errno == EPERM
    }
}

/// Records the writes of `body` as one undoable action named `name`.
///
/// The barrier registers, when `body` returns, with the stack current then (`withUndoStack`), or
/// the engine's default stack. Nested barriers: a write belongs to the innermost. A barrier that
/// wrote nothing is not registered; if `body` throws, nothing is recorded and the error is
/// rethrown.
/// - Parameters:
///   - name: the action's name, shown as "Undo <name>".
///   - coalescing: a key; a barrier with the same name and key right after the previous one (see
///     `UndoStack.mergeInterval`) merges into it and undoes with it as one step.
@discardableResult
public func undoable<R>(
    _ name: String, coalescing: String? = nil, _ body: () throws -> R
) throws -> R {
    let barrier = Barrier(name: name, coalescingKey: coalescing)
    let result: R
    do {
        result = try UndoContext.$barrier.withValue(barrier, operation: body)
    } catch {
        try? discard(barrier)
        throw error
    }
    try register(barrier)
    return result
}

/// Async form of `undoable(_:coalescing:_:)`: child tasks' writes belong to the barrier,
/// a `Task.detached`'s do not.
@discardableResult
public func undoable<R>(
    _ name: String, coalescing: String? = nil, isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> R
) async throws -> R {
    let barrier = Barrier(name: name, coalescingKey: coalescing)
    let result: R
    do {
        result = try await UndoContext.$barrier.withValue(
            barrier, operation: body, isolation: isolation)
    } catch {
        try? discard(barrier)
        throw error
    }
    try register(barrier)
    return result
}

private func register(_ barrier: Barrier) throws {
    for engine in barrier.capturingEngines {
        let scoped = UndoContext.stack.flatMap { $0.engine === engine ? $0 : nil }
        try (scoped ?? engine.defaultStack).register(barrier)
    }
}

private func discard(_ barrier: Barrier) throws {
    for engine in barrier.capturingEngines { try engine.discardLog(of: barrier.id) }
}
