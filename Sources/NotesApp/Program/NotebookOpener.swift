import Foundation
import NoteStore
import SQLiteDatabase
import SQLiteUndo

/// Why a notebook cannot be used, in words for the person who typed the command.
public struct NotebookProblem: Error, CustomStringConvertible {
    public let description: String
}

/// Opens (or creates) a notebook file: folder, migrations, first-run welcome, undo engine.
public enum NotebookOpener {
    /// `$XDG_DATA_HOME/notes/notes.db`, or `~/.local/share/notes/notes.db`.
    public static func defaultPath(environment: [String: String]) -> String {
        let data =
            environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        return data + "/notes/notes.db"
    }

    /// Creates the default notebook's folder (private, 0700) when it is missing.
    public static func createFolder(of path: String) throws {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard !FileManager.default.fileExists(atPath: folder) else { return }
        do {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        } catch {
            throw NotebookProblem(
                description: "cannot create the folder \(folder): \(error.localizedDescription)")
        }
    }

    /// Opens the notebook at `path`, migrating it and seeding it on first use.
    ///
    /// A notebook in use is checked for damage in the background (see `checkIntact`): the
    /// returned queue holds back every commit that would change the file until the check has
    /// passed (`DatabaseQueue.pendingCheck`), and a caller that must not go on with a damaged
    /// notebook waits for it. Notebooks that opening changes (migrations to apply, a switch to
    /// WAL) are checked before that, here.
    /// - Parameters:
    ///   - seed: what a new, empty notebook is filled with (untracked by undo).
    ///   - undo: whether to install the undo engine.
    /// - Throws: `NotebookProblem` naming the file and what is wrong; the file is not changed
    ///   when it cannot be used. The background check fails with one too.
    public static func open(path: String, seed: Seed, undo: Bool) throws -> (
        DatabaseQueue, UndoEngine?
    ) {
        do {
            var found = Inspection.empty
            let database = try DatabaseQueue(path: path) { db in
                found = try inspect(db, path: path)
                if found == .checkNow { try checkIntact(db, path: path) }
            }
            if found == .checkInBackground {
                database.holdCommits(
                    until: BackgroundCheck(path: path) { db in
                        do { try checkIntact(db, path: path) } catch {
                            throw problem(error, path: path)
                        }
                    })
            }
            // Undo history recorded before bodies were stored as chunks names a table that is
            // now a view: it is cleared once, when the notebook moves to chunks.
            let historyPredatesChunks = try database.read { db in
                let applied = try Migrator.appliedMigrations(db)
                return !applied.isEmpty && !applied.contains(NoteStoreSchema.bodyChunksMigration)
            }
            try NoteStoreSchema.migrate(database)
            if found == .empty {
                try database.write { db in
                    switch seed {
                    case .welcome: try Notebook.seedWelcome(db)
                    case .demo: try Notebook.seedDemo(db)
                    }
                }
            }
            let engine =
                undo
                ? try UndoEngine(
                    for: database, tables: Article.self, ArticleChunk.self, Author.self) : nil
            if historyPredatesChunks, let engine {
                for stack in try engine.storedStackIDs() { try engine.deleteStack(id: stack) }
            }
            return (database, engine)
        } catch {
            throw problem(error, path: path)
        }
    }

    /// What a user is told when the notebook at `path` cannot be used because of `error`.
    private static func problem(_ error: any Error, path: String) -> NotebookProblem {
        switch error {
        case let problem as NotebookProblem: problem
        case let error as DatabaseOpenError: NotebookProblem(description: error.description)
        case let error as MigrationError: NotebookProblem(description: "\(path): \(error)")
        case SQLiteError.busy:
            NotebookProblem(description: DatabaseOpenError.locked(path: path).description)
        case SQLiteError.corrupt:
            NotebookProblem(description: DatabaseOpenError.corrupt(path: path).description)
        default: NotebookProblem(description: "cannot use \(path): \(error)")
        }
    }

    /// What opening found in the file, before changing it.
    private enum Inspection {
        /// A new notebook, to seed: nothing to check.
        case empty
        /// A notebook that opening changes (migrations to apply, or a switch to WAL, which
        /// rewrites the header): it is checked before that.
        case checkNow
        /// A notebook in WAL mode and up to date: it is checked beside the program's start.
        case checkInBackground
    }

    /// Refuses, before the file is changed in any way, a database that is not a notebook or was
    /// written by a newer version of notes; says when the check for damage must come first.
    private static func inspect(_ db: Database, path: String) throws -> Inspection {
        guard try db.fetchOne(Int.self, "SELECT count(*) FROM sqlite_schema") != 0 else {
            return .empty
        }
        let applied = try Migrator.appliedMigrations(db)
        guard !applied.isEmpty else {
            throw NotebookProblem(
                description:
                    "\(path) is an SQLite database but not a notebook; nothing was changed")
        }
        let known = NoteStoreSchema.migrator.migrationNames
        let unknown = Set(applied).subtracting(known)
        guard unknown.isEmpty else {
            let newer = MigrationError.databaseIsNewer(unknownMigrations: unknown.sorted())
            throw NotebookProblem(description: "\(path): \(newer)")
        }
        let journal = try db.fetchOne(String.self, "PRAGMA journal_mode")
        return applied.count < known.count || journal != "wal" ? .checkNow : .checkInBackground
    }

    /// Refuses a damaged notebook. A damaged page would otherwise only show when a pane reads
    /// it, or break a write. Reads the whole file: 100 ms or more for 100k articles.
    private static func checkIntact(_ db: Database, path: String) throws {
        // Values another program stored with check constraints off are not damage: the app
        // reads them safely.
        let problems = try db.fetchAll(String.self, "PRAGMA quick_check(100)").filter {
            $0 != "ok" && !$0.hasPrefix("CHECK constraint failed")
        }
        guard problems.isEmpty else {
            throw NotebookProblem(description: DatabaseOpenError.corrupt(path: path).description)
        }
    }

    /// What a new notebook starts with.
    public enum Seed: Sendable {
        case welcome
        case demo
    }
}
