import SQLiteDatabase

/// The statements that keep a stack's history a tree: each entry names the step it was done on
/// (`parentStep`), and the undone steps a new action leaves are kept (list 2) instead of deleted.
/// The undo list is the path from the root to the current step, the redo list one way on from
/// it; every other step is kept, reached by `UndoStack.go(to:)`.
extension UndoLogSchema {
    /// Adds `parentStep`, read from the lists a file has: on the undo list, the step below;
    /// on the redo list, the step after it (the next redo's is the newest undo step). And
    /// `takesBack`: for a take-back (`UndoStack.revert`), the step it took back (NULL in files
    /// from before, whose take-backs are named only).
    static func addTree(_ db: Database) throws {
        let columns = try barrierColumns(db)
        if !columns.contains("takesBack") {
            try db.execute("ALTER TABLE \(barriers) ADD COLUMN takesBack INTEGER")
        }
        guard !columns.contains("parentStep") else { return }
        try db.execute(
            """
            ALTER TABLE \(barriers) ADD COLUMN parentStep INTEGER;
            UPDATE \(barriers) SET parentStep = placed.parent FROM (
                SELECT id, CASE list
                    WHEN 0 THEN lag(coalesce(step, id)) OVER lists
                    ELSE coalesce(lead(coalesce(step, id)) OVER lists,
                        (SELECT coalesce(step, id) FROM \(barriers) AS u
                         WHERE u.stackId = x.stackId AND u.list = 0 AND u.supersededBy IS NULL
                         ORDER BY position DESC LIMIT 1))
                    END AS parent
                FROM \(barriers) AS x WHERE supersededBy IS NULL
                WINDOW lists AS (PARTITION BY stackId, list ORDER BY position)
            ) AS placed
            WHERE placed.id = \(barriers).id;
            """)
    }

    /// Moves entries to the kept steps: the redo list a new action leaves, a branch.
    static func keep(_ ids: [Int64], _ db: Database) throws {
        guard !ids.isEmpty else { return }
        try db.execute(
            "UPDATE \(barriers) SET list = 2 WHERE id IN (SELECT value FROM json_each(?))",
            [.text(ids.jsonArray)])
    }

    /// Puts back on the redo list the entries `keep` took off it for an action whose block
    /// then threw.
    static func restoreRedo(_ ids: [Int64], _ db: Database) throws {
        guard !ids.isEmpty else { return }
        try db.execute(
            """
            UPDATE \(barriers) SET list = 1
            WHERE id IN (SELECT value FROM json_each(?)) AND list = 2
            """, [.text(ids.jsonArray)])
    }

    /// Gives the steps done on `step` (an entry of `stack` leaving history while they stay) the
    /// step it was done on, `parent`: a branch done on it forks where it did.
    static func repointChildren(
        of step: Int64, to parent: Int64?, stack stackID: String, _ db: Database
    ) throws {
        try db.execute(
            "UPDATE \(barriers) SET parentStep = ? WHERE stackId = ? AND parentStep = ?",
            [parent.map { .integer($0) } ?? .null, .text(stackID), .integer(step)])
    }

    /// Makes `path` (kept entries, the next redo last) the redo list, at its positions.
    static func makeRedo(_ path: [StackEntry], _ db: Database) throws {
        for entry in path {
            try db.execute(
                "UPDATE \(barriers) SET list = 1, position = ? WHERE id = ?",
                [.integer(entry.position), .integer(entry.id)])
        }
    }
}
