import Foundation
import SQLiteDatabase

/// Which panes are open, by undo-stack id, kept in the notebook's `settings` table so each pane
/// gets its history back after a restart.
///
/// Also which stacks each running notes holds (`lease.<process id>`): a second notes on the same
/// notebook gets other stacks, so each process undoes only its own changes, and the first one's
/// history is not changed under it.
struct PaneLayoutStore {
    let database: DatabaseQueue
    static let key = "panes"
    static let leasePrefix = "lease."
    private var leaseKey: String { Self.leasePrefix + String(getpid()) }

    func load() throws -> [String] {
        try database.read { try Self.stackIDs(Self.key, $0) }
    }

    /// Saves the open panes, and leases `held`: every stack this process may show again (open
    /// panes, and closed ones Alt-Z brings back).
    func save(_ stackIDs: [String], holding held: [String]) throws {
        try database.write { db in
            try Self.store(stackIDs, as: Self.key, db)
            try Self.store(held, as: leaseKey, db)
        }
    }

    /// Stacks that other running notes hold.
    func heldElsewhere() throws -> Set<String> {
        try database.write { try heldElsewhere($0, removingEnded: true) }
    }

    /// The stacks `claim` would take now, read without writing anything: the panes shown while
    /// the notebook may not be written yet (`NotebookOpener` checks it in the background).
    func choose(count: Int, history: Set<String>) throws -> [String] {
        try database.read { db in
            Self.choice(
                count: count, history: history,
                held: try heldElsewhere(db, removingEnded: false),
                saved: try Self.stackIDs(Self.key, db)
            ).ids
        }
    }

    /// Chooses and leases the stacks of `count` panes, in one transaction so that two notes
    /// starting together never take the same: the saved panes that no running notes holds, then
    /// fresh ids.
    /// - Parameter history: stack ids that have history in the file (a fresh id avoids them).
    /// - Returns: The ids, and whether they are the saved layout's (when another notes holds some
    ///   of those, this one leaves the saved layout as it is).
    func claim(count: Int, history: Set<String>) throws -> (ids: [String], isSavedLayout: Bool) {
        try database.write { db in
            let choice = Self.choice(
                count: count, history: history,
                held: try heldElsewhere(db, removingEnded: true),
                saved: try Self.stackIDs(Self.key, db))
            try Self.store(choice.ids, as: leaseKey, db)
            return choice
        }
    }

    private static func choice(count: Int, history: Set<String>, held: Set<String>, saved: [String])
        -> (ids: [String], isSavedLayout: Bool)
    {
        var ids = Array(saved.filter { !held.contains($0) }.prefix(count))
        let isSavedLayout = ids == Array(saved.prefix(count))
        var taken = held.union(saved).union(history)
        while ids.count < count {
            let id = freshID(avoiding: taken.union(ids))
            ids.append(id)
            taken.insert(id)
        }
        return (ids, isSavedLayout)
    }

    /// The first `pane-N` not in `taken`.
    static func freshID(avoiding taken: Set<String>) -> String {
        var number = 1
        while taken.contains("pane-\(number)") { number += 1 }
        return "pane-\(number)"
    }

    /// The stacks leased by other processes that are still running; with `removingEnded`, the
    /// leases of processes that are gone (quit or crashed) are removed.
    private func heldElsewhere(_ db: Database, removingEnded: Bool) throws -> Set<String> {
        let leases = try db.fetchAll(
            Row.self, "SELECT key, value FROM settings WHERE key LIKE ?",
            [.text(Self.leasePrefix + "%")])
        var held: Set<String> = []
        for lease in leases {
            let key: String = try lease.decode(at: 0)
            guard key != leaseKey else { continue }
            if let pid = Int32(key.dropFirst(Self.leasePrefix.count)), pid > 0,
                kill(pid, 0) == 0 || errno == EPERM
            {
                let value: String? = try lease.decode(at: 1)
                held.formUnion(value.map { $0.split(separator: "\n").map(String.init) } ?? [])
            } else if removingEnded {
                try db.execute("DELETE FROM settings WHERE key = ?", [.text(key)])
            }
        }
        return held
    }

    private static func stackIDs(_ key: String, _ db: Database) throws -> [String] {
        let value = try db.fetchOne(
            String.self, "SELECT value FROM settings WHERE key = ?", [.text(key)])
        return value.map { $0.split(separator: "\n").map(String.init) } ?? []
    }

    private static func store(_ stackIDs: [String], as key: String, _ db: Database) throws {
        try db.execute(
            "INSERT INTO settings(key, value) VALUES (?, ?) "
                + "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            [.text(key), .text(stackIDs.joined(separator: "\n"))])
    }
}
