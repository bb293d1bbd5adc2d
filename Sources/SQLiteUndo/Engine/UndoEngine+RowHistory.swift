import Foundation
import SQLiteDatabase

/// A step of some stack that wrote one row (`UndoEngine.history(of:id:)`).
public struct UndoRowStep: Sendable, Hashable {
    /// The stack the step belongs to (`UndoEngine.stack(id:)`).
    public let stackID: String
    public let step: UndoStep
    /// Whether the step is on its stack's redo list (undone), not its undo list.
    public let isUndone: Bool
}

extension UndoEngine {
    /// The steps of every stack (their undo and redo lists) that wrote the row `id` of `table`,
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
            try db.fetchAll(
                Row.self,
                """
                SELECT id, list, name, coalescingKey, position, closedAt, inverted, step, stepAt,
                    stackId
                FROM \(UndoLogSchema.barriers)
                WHERE supersededBy IS NULL AND id IN (
                    SELECT barrier FROM \(UndoLogSchema.log)
                    WHERE tableId = ?1 AND (newRowid = ?2 OR oldRowid = ?2))
                """, [.integer(tableID), .integer(id)]
            ).map { row in
                let entry = StackEntry(
                    id: try row.decode(at: 0), name: try row.decode(at: 2),
                    coalescingKey: try row.decode(at: 3), position: try row.decode(at: 4),
                    closedAt: try row.decode(at: 5), inverted: try row.decode(at: 6),
                    step: try row.decode(at: 7), stepAt: try row.decode(at: 8))
                return UndoRowStep(
                    stackID: try row.decode(at: 9), step: UndoStep(entry),
                    isUndone: UndoLogSchema.List(rawValue: try row.decode(at: 1)) == .redo)
            }
        }
        return steps.filter { !running.contains($0.step.entry) }.sorted {
            ($0.step.date, $0.step.id) > ($1.step.date, $1.step.id)
        }
    }
}
