import Foundation
import SQLiteDatabase

@testable import SQLiteUndo

/// The model test's schema, shaped like a real app's: a tracked table `t` of items with a stamp
/// trigger, a counter row and parents kept by triggers, a trigger that skips renaming a locked
/// parent, a UNIQUE column, and an untracked FTS5 index and clock.
enum ModelSchema {
    static let trackedTables = ["t", "counts", "parents"]
    static let parentIDs: [Int64] = [1, 2, 3]
    /// The columns of each tracked table, without the key (a migration changes `t`'s), with
    /// `t.qty` only for `conflictClauses` (so that the other parts draw what they drew before).
    static func columns(for features: Set<Feature>) -> [String: [String]] {
        [
            "t": ["parentId", "code", "body", "stamp", "a", "b", "c"]
                + (features.contains(.conflictClauses) ? ["qty"] : []),
            "counts": ["n"],
            "parents": ["name", "modifiedAt"],
        ]
    }
    /// The columns of `t` a migration may rename or drop, and ops write from the value pool.
    static let fixedColumns: Set<String> = ["parentId", "code", "body", "stamp", "qty"]

    /// The default of `t.qty`, a `NOT NULL` column: what an `OR REPLACE` writing NULL stores.
    static let defaultQuantity: SQLiteValue = 1

    /// A key no row has, to swap two rows' keys through.
    static let temporaryKey: Int64 = 1_000_000_000
    /// A code no row has, to swap codes through.
    static let temporaryCode: SQLiteValue = "~swap"

    /// Parts of the schema and operations a run can leave out (`UNDO_MODEL_WITHOUT=stamp,codes`),
    /// to reach the failures behind a known one.
    enum Feature: String, CaseIterable {
        /// The stamp trigger.
        case stamp
        /// The counter row's triggers.
        case counter
        /// The parents' `modifiedAt` triggers.
        case parent
        /// Rotations of UNIQUE codes.
        case codes
        /// Swaps of INTEGER PRIMARY KEYs.
        case keys
        /// Coalescing typing steps.
        case typing
        /// Writes outside any barrier, and with undo disabled.
        case untracked
        /// The check of conflicts' `kept` and `keptFrom`.
        case attribution
        /// Take-backs of past steps, and undos and redos to a step (`UndoStack.revert`,
        /// `undo(to:)`, `redo(to:)`). Without it, a seed draws what it drew before they existed.
        case history
        /// Bodies that start with 600 bytes, typed into at any word (kept as packed edits).
        case longBodies
        /// Writes whose conflict clause decides what happens (OR IGNORE, OR REPLACE, upserts),
        /// automatic rowids, and negative keys (`ModelRun+ConflictClauses`).
        case conflictClauses
        /// Parents keyed by `INTEGER PRIMARY KEY DESC` (no rowid alias) and the counter keyed by
        /// a text and an integer in a `WITHOUT ROWID` table: the engine names their rows through
        /// its key map, and the model by their ids (`ModelRun.byModelIDs`).
        case keyedTables
        /// A parent whose name starts with "locked" keeps it: an application trigger skips, with
        /// `RAISE(IGNORE)`, a rename from one locked name to another, forward or in a replay
        /// (which then keeps the row as it is, and says so).
        case lockedParents

        /// Every feature but those named in `UNDO_MODEL_WITHOUT` (comma-separated; unset or
        /// empty: every feature).
        static func enabled(without names: String?) -> Set<Feature> {
            let left = Set(
                (names ?? "").split(separator: ",").compactMap { Feature(rawValue: String($0)) })
            return Set(allCases).subtracting(left)
        }
    }

    /// The application triggers of each feature.
    static let triggers: [Feature: [String]] = [
        .counter: ["t_count_insert", "t_count_delete"],
        .parent: ["t_parent_insert", "t_parent_update", "t_parent_delete"],
        .lockedParents: ["parents_locked"],
        .stamp: ["t_stamp"],
    ]

    /// Creates the schema and its first rows in a new file, at the clock `now`, without the
    /// triggers of the features left out.
    static func create(_ db: Database, now: Int64, features: Set<Feature>) throws {
        try db.execute(
            """
            CREATE TABLE clock(now INTEGER NOT NULL);
            \(features.contains(.keyedTables) ? keyedTablesSQL : plainTablesSQL)
            CREATE TABLE t(id INTEGER PRIMARY KEY, parentId INTEGER REFERENCES parents(id),
                code TEXT UNIQUE, body TEXT, stamp INTEGER, a, b, c);
            CREATE TRIGGER t_count_insert AFTER INSERT ON t BEGIN
                UPDATE counts SET n = n + 1 WHERE id = 1;
            END;
            CREATE TRIGGER t_count_delete AFTER DELETE ON t BEGIN
                UPDATE counts SET n = n - 1 WHERE id = 1;
            END;
            CREATE TRIGGER t_parent_insert AFTER INSERT ON t BEGIN
                UPDATE parents SET modifiedAt = (SELECT now FROM clock) WHERE id = NEW.parentId;
            END;
            CREATE TRIGGER t_parent_update AFTER UPDATE ON t BEGIN
                UPDATE parents SET modifiedAt = (SELECT now FROM clock)
                    WHERE id IN (OLD.parentId, NEW.parentId);
            END;
            CREATE TRIGGER t_parent_delete AFTER DELETE ON t BEGIN
                UPDATE parents SET modifiedAt = (SELECT now FROM clock) WHERE id = OLD.parentId;
            END;
            CREATE TRIGGER parents_locked BEFORE UPDATE OF name ON parents
            WHEN OLD.name LIKE 'locked%' AND NEW.name LIKE 'locked%' BEGIN
                SELECT RAISE(IGNORE);
            END;
            CREATE VIRTUAL TABLE fts USING fts5(body, content = 't', content_rowid = 'id');
            CREATE TRIGGER t_fts_insert AFTER INSERT ON t BEGIN
                INSERT INTO fts(rowid, body) VALUES (NEW.id, NEW.body);
            END;
            CREATE TRIGGER t_fts_delete AFTER DELETE ON t BEGIN
                INSERT INTO fts(fts, rowid, body) VALUES ('delete', OLD.id, OLD.body);
            END;
            CREATE TRIGGER t_fts_update AFTER UPDATE ON t
            WHEN NEW.id IS NOT OLD.id OR NEW.body IS NOT OLD.body BEGIN
                INSERT INTO fts(fts, rowid, body) VALUES ('delete', OLD.id, OLD.body);
                INSERT INTO fts(rowid, body) VALUES (NEW.id, NEW.body);
            END;
            """)
        if features.contains(.conflictClauses) {
            try db.execute("ALTER TABLE t ADD COLUMN qty INTEGER NOT NULL DEFAULT 1")
        }
        try db.execute(createStampTriggerSQL(columns: columns(for: features)["t", default: []]))
        for (feature, names) in triggers where !features.contains(feature) {
            for name in names { try db.execute("DROP TRIGGER \(name)") }
        }
        try db.execute("INSERT INTO clock(now) VALUES (?)", [.integer(now)])
        try db.execute("INSERT INTO counts(id, n) VALUES (1, 0)")
        for id in parentIDs {
            try db.execute(
                "INSERT INTO parents(id, name, modifiedAt) VALUES (?, ?, ?)",
                [.integer(id), .text("parent \(id)"), .integer(now)])
        }
    }

    private static let plainTablesSQL = """
        CREATE TABLE parents(id INTEGER PRIMARY KEY, name TEXT, modifiedAt INTEGER);
        CREATE TABLE counts(id INTEGER PRIMARY KEY, n INTEGER NOT NULL);
        """

    private static let keyedTablesSQL = """
        CREATE TABLE parents(id INTEGER NOT NULL PRIMARY KEY DESC, name TEXT, modifiedAt INTEGER);
        CREATE TABLE counts(what TEXT NOT NULL DEFAULT 'items', id INTEGER NOT NULL,
            n INTEGER NOT NULL, PRIMARY KEY(what, id)) WITHOUT ROWID;
        """

    /// The model of what `create` leaves.
    static func initialModel(now: Int64, features: Set<Feature>) -> ReferenceModel {
        var model = ReferenceModel(columns: columns(for: features))
        model.features = features
        var none: ReferenceModel.BarrierRecord?
        model.insert("counts", 1, ["n": 0], into: &none)
        for id in parentIDs {
            model.insert(
                "parents", id, ["name": .text("parent \(id)"), "modifiedAt": .integer(now)],
                into: &none)
        }
        return model
    }

    /// The stamp trigger: an update that changes a content column (any but the stamp) sets the
    /// stamp to the clock. No `isReplaying()` guard: it fires during replays too.
    static func createStampTriggerSQL(columns: [String]) -> String {
        let changed = columns.filter { $0 != "stamp" }.map { "NEW.\($0) IS NOT OLD.\($0)" }
        return """
            CREATE TRIGGER t_stamp AFTER UPDATE ON t
            WHEN NEW.stamp IS OLD.stamp AND (\(changed.joined(separator: " OR "))) BEGIN
                UPDATE t SET stamp = (SELECT now FROM clock) WHERE id = NEW.id;
            END
            """
    }

    /// The date the engine reads for a clock value in milliseconds.
    static func date(_ now: Int64) -> Date { Date(timeIntervalSince1970: Double(now) / 1000) }
}
