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
    /// - Parameters:
    ///   - seed: what a new, empty notebook is filled with (untracked by undo).
    ///   - undo: whether to install the undo engine.
    /// - Throws: `NotebookProblem` naming the file and what is wrong; the file is not changed
    ///   when it cannot be used.
    public static func open(path: String, seed: Seed, undo: Bool) throws -> (
        DatabaseQueue, UndoEngine?
    ) {
        do {
            var isNew = false
            let database = try DatabaseQueue(path: path) { db in
                isNew = try checkIsNotebook(db, path: path)
            }
            try NoteStoreSchema.migrate(database)
            if isNew {
                try database.write { db in
                    switch seed {
                    case .welcome: try Notebook.seedWelcome(db)
                    case .demo: try Notebook.seedDemo(db)
                    }
                }
            }
            let engine =
                undo ? try UndoEngine(for: database, tables: Article.self, Author.self) : nil
            return (database, engine)
        } catch let problem as NotebookProblem {
            throw problem
        } catch let error as DatabaseOpenError {
            throw NotebookProblem(description: error.description)
        } catch let error as MigrationError {
            throw NotebookProblem(description: "\(path): \(error)")
        } catch SQLiteError.busy {
            throw NotebookProblem(description: DatabaseOpenError.locked(path: path).description)
        } catch SQLiteError.corrupt {
            throw NotebookProblem(description: DatabaseOpenError.corrupt(path: path).description)
        } catch {
            throw NotebookProblem(description: "cannot use \(path): \(error)")
        }
    }

    /// Refuses, before the file is changed in any way, a database that is not a notebook, was
    /// written by a newer version of notes, or is damaged.
    /// - Returns: Whether the database is empty (a new notebook, to seed).
    private static func checkIsNotebook(_ db: Database, path: String) throws -> Bool {
        guard try db.fetchOne(Int.self, "SELECT count(*) FROM sqlite_schema") != 0 else {
            return true
        }
        let applied = try Migrator.appliedMigrations(db)
        guard !applied.isEmpty else {
            throw NotebookProblem(
                description:
                    "\(path) is an SQLite database but not a notebook; nothing was changed")
        }
        let unknown = Set(applied).subtracting(NoteStoreSchema.migrator.migrationNames)
        guard unknown.isEmpty else {
            let newer = MigrationError.databaseIsNewer(unknownMigrations: unknown.sorted())
            throw NotebookProblem(description: "\(path): \(newer)")
        }
        // A damaged page would otherwise only show when a pane reads it. Values another program
        // stored with check constraints off are not damage: the app reads them safely.
        let problems = try db.fetchAll(String.self, "PRAGMA quick_check(100)").filter {
            $0 != "ok" && !$0.hasPrefix("CHECK constraint failed")
        }
        guard problems.isEmpty else {
            throw NotebookProblem(description: DatabaseOpenError.corrupt(path: path).description)
        }
        return false
    }

    /// What a new notebook starts with.
    public enum Seed: Sendable {
        case welcome
        case demo
    }
}
