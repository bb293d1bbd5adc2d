import SQLiteDatabase

/// Which panes are open, by undo-stack id, kept in the notebook's `settings` table so each pane
/// gets its history back after a restart.
struct PaneLayoutStore {
    let database: DatabaseQueue
    static let key = "panes"

    func load() throws -> [String] {
        let value = try database.read {
            try $0.fetchOne(
                String.self, "SELECT value FROM settings WHERE key = ?", [.text(Self.key)])
        }
        return value.map { $0.split(separator: "\n").map(String.init) } ?? []
    }

    func save(_ stackIDs: [String]) throws {
        try database.write {
            try $0.execute(
                "INSERT INTO settings(key, value) VALUES (?, ?) "
                    + "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                [.text(Self.key), .text(stackIDs.joined(separator: "\n"))])
        }
    }
}
