import Foundation
import SQLiteDatabase

/// A step of some stack that wrote one row (`UndoEngine.history(of:id:)`).
public struct UndoRowStep: Sendable, Hashable {
    /// The stack the step belongs to (`UndoEngine.stack(id:)`).
    public let stackID: String
    public let step: UndoStep
    /// Whether the step is undone: on its stack's redo list, or on a branch.
    public let isUndone: Bool
    /// Whether the step is on a branch (undone before a new action; `UndoStack.go(to:)` reaches
    /// it).
    public let isOnBranch: Bool
}

extension UndoEngine {
    /// The steps of every stack (their lists and branches) that wrote the row `id` of `table`,
    /// newest first (by `UndoStep.date`): who did what to one row. Steps whose block still runs
    /// are not listed.
    /// - Throws: `SQLiteError`.
    public func history(of table: any Table.Type, id: Int64) throws -> [UndoRowStep] {
        guard
            let tableID = trackedTables.withLock({
                $0.values.first {
                    $0.name.caseInsensitiveCompare(table.tableName) == .orderedSame
                }?.id
            })
        else { return [] }
        let running = Set(stacks.withLock { Array($0.values) }.flatMap { $0.runningEntryIDs() })
        let steps = try database.read { db in
            try UndoLogSchema.entries(touching: tableID, rowid: id, db).map {
                UndoRowStep(
                    stackID: $0.stackID, step: UndoStep($0.entry), isUndone: $0.list != .undo,
                    isOnBranch: $0.list == .kept)
            }
        }
        return steps.filter { !running.contains($0.step.entry) }.sorted {
            ($0.step.date, $0.step.id) > ($1.step.date, $1.step.id)
        }
    }
}
