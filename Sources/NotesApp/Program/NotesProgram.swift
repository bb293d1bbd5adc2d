import Foundation
import NoteStore
import TerminalUI

/// The `notes` command: parses the arguments, opens the notebook, runs the editor or the export,
/// and returns the exit code (documented in the usage text).
@MainActor
public enum NotesProgram {
    public static let version = "notes 0.1.0"

    public static func run(
        _ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Int32 {
        let invocation: Invocation
        do {
            invocation = try CommandLineOptions.parse(arguments)
        } catch {
            printError("notes: \(error)\n\(CommandLineOptions.usage)")
            return 2
        }
        switch invocation {
        case .help:
            print(CommandLineOptions.usage)
            return 0
        case .version:
            print(version)
            return 0
        case .export(let path, let format):
            return export(
                path: path ?? NotebookOpener.defaultPath(environment: environment), format: format)
        case .edit(let options):
            return edit(options, environment: environment)
        }
    }

    private static func export(path: String, format: ExportFormat) -> Int32 {
        guard FileManager.default.fileExists(atPath: path) else {
            printError("notes: \(path) does not exist")
            return 1
        }
        do {
            let (database, _) = try NotebookOpener.open(path: path, seed: .welcome, undo: false)
            // A damaged notebook is refused, not exported in part.
            try database.pendingCheck?.wait()
            let exported = try database.read { db in
                format == .json ? try NotebookExport.json(db) : try NotebookExport.markdown(db)
            }
            FileHandle.standardOutput.write(Data(exported.text.utf8))
            // What another program left unreadable is named, not exported in part.
            for row in exported.skipped {
                printError("notes: skipped \(row)")
            }
            return 0
        } catch {
            printError("notes: \(error)")
            return 1
        }
    }

    private static func edit(_ options: EditOptions, environment: [String: String]) -> Int32 {
        // The terminal is checked before the notebook is touched.
        let backend: CursesBackend
        do {
            backend = try CursesBackend(environment: environment)
        } catch {
            // The message already starts with the program's name.
            printError("\(error)")
            return 3
        }
        let path: String
        var throwaway: URL?
        if options.demo {
            let folder = FileManager.default.temporaryDirectory
                .appendingPathComponent("notes-demo-\(ProcessInfo.processInfo.processIdentifier)")
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            throwaway = folder
            path = folder.appendingPathComponent("demo.db").path
        } else {
            path = options.path ?? NotebookOpener.defaultPath(environment: environment)
        }
        defer { if let throwaway { try? FileManager.default.removeItem(at: throwaway) } }
        do {
            if options.path == nil { try NotebookOpener.createFolder(of: path) }
            let (database, engine) = try NotebookOpener.open(
                path: path, seed: options.demo ? .demo : .welcome, undo: options.undo)
            // Closed when the app ends (the undo engine would keep the queue alive until exit):
            // SQLite folds the WAL into the file and removes the -wal and -shm files, so a quit
            // leaves the notebook as one file, and a damaged one leaves the folder as it was.
            defer { database.close() }
            let app = try NotesApp(
                database: database, engine: engine, backend: backend,
                notebookName: options.demo ? "demo notebook (throwaway)" : path,
                paneCount: options.panes)
            app.progressTiming = progressTiming(environment, default: app.progressTiming)
            try app.run()
            return 0
        } catch {
            backend.shutdown()
            printError("notes: \(error)")
            return 1
        }
    }

    /// When long work starts showing its progress and how often it is drawn again, from
    /// `NOTES_PROGRESS_AFTER_MS` (0: at once) and `NOTES_PROGRESS_EVERY_MS` (0: at every look
    /// SQLite gives), in milliseconds; a value that is not a whole number of 0 or more keeps the
    /// default.
    static func progressTiming(
        _ environment: [String: String], default timing: (shownAfter: Duration, interval: Duration)
    ) -> (shownAfter: Duration, interval: Duration) {
        func milliseconds(_ name: String) -> Duration? {
            environment[name].flatMap(Int.init).flatMap { $0 >= 0 ? .milliseconds($0) : nil }
        }
        return (
            milliseconds("NOTES_PROGRESS_AFTER_MS") ?? timing.shownAfter,
            milliseconds("NOTES_PROGRESS_EVERY_MS") ?? timing.interval
        )
    }

    static func printError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
