import Synchronization

/// The task-local scope of undo: which barrier claims the writes of the current task, whether a
/// replay is running, and which stack a barrier that changes something registers with.
///
/// Task locals follow structured concurrency (child tasks, `async let`, task groups) and are not
/// inherited by `Task.detached`, which is exactly the ownership rule of barriers.
enum UndoContext {
    /// The innermost open barrier of this task, or nil outside any barrier.
    @TaskLocal static var barrier: Barrier?
    /// True while an undo or redo replays a barrier.
    @TaskLocal static var isReplaying = false
    /// The stack set by `withUndoStack`, or nil for each engine's default stack.
    @TaskLocal static var stack: UndoStack?
    /// True inside `withUndoDisabled`: a barrier opened there records nothing.
    @TaskLocal static var isDisabled = false

    /// Counts every entry into and exit from a scope of `barrier`, in any task: while it and the
    /// transaction stay the same, the barrier of the writes on a connection stays the same (a
    /// write's block runs synchronously on one task), so the capture function keeps its answer.
    static let barrierScopeEdges = Atomic<UInt64>(0)

    /// Runs `operation` with `barrier` as the barrier of its writes.
    static func withBarrier<R>(_ barrier: Barrier?, operation: () throws -> R) rethrows -> R {
        barrierScopeEdges.add(1, ordering: .relaxed)
        defer { barrierScopeEdges.add(1, ordering: .relaxed) }
        return try $barrier.withValue(barrier, operation: operation)
    }

    /// Async form of `withBarrier(_:operation:)`.
    static func withBarrier<R>(
        _ barrier: Barrier?, isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> R
    ) async rethrows -> R {
        barrierScopeEdges.add(1, ordering: .relaxed)
        defer { barrierScopeEdges.add(1, ordering: .relaxed) }
        return try await $barrier.withValue(barrier, operation: operation, isolation: isolation)
    }
}

/// Runs `operation` with `stack` as the stack that barriers changing something inside it
/// register with.
public func withUndoStack<R>(_ stack: UndoStack, operation: () throws -> R) rethrows -> R {
    try UndoContext.$stack.withValue(stack, operation: operation)
}

/// Async form of `withUndoStack(_:operation:)`: the scope follows child tasks.
public func withUndoStack<R>(
    _ stack: UndoStack, isolation: isolated (any Actor)? = #isolation,
    operation: () async throws -> R
) async rethrows -> R {
    try await UndoContext.$stack.withValue(stack, operation: operation, isolation: isolation)
}

/// Runs `operation` with undo recording off: its writes are applied but recorded nowhere, even
/// inside a barrier, and an `undoable` block inside it records and registers nothing.
public func withUndoDisabled<R>(_ operation: () throws -> R) rethrows -> R {
    try UndoContext.$isDisabled.withValue(true) {
        try UndoContext.withBarrier(nil, operation: operation)
    }
}

/// Async form of `withUndoDisabled(_:)`.
public func withUndoDisabled<R>(
    isolation: isolated (any Actor)? = #isolation, _ operation: () async throws -> R
) async rethrows -> R {
    try await UndoContext.$isDisabled.withValue(
        true,
        operation: {
            try await UndoContext.withBarrier(nil, isolation: isolation, operation: operation)
        }, isolation: isolation)
}
