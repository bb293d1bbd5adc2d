import Foundation
import Testing

extension TmuxSession {
    /// Starts the `sqlite3` shell on `path`: another program, typing SQL as a person would.
    public static func sqlite3Shell(_ path: String, folder: TemporaryFolder) throws -> TmuxSession {
        try TmuxSession(
            program: ["/usr/bin/sqlite3", path], width: 120, height: 20, folder: folder)
    }

    /// Runs SQL on `path` in the sqlite3 shell, as another program writes (foreign keys off,
    /// its default), and expects it to succeed.
    public static func sqlite3(_ path: String, _ sql: String) throws {
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        shell.arguments = [path, sql]
        try shell.run()
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 0)
    }
}
