import Foundation
import SQLiteDatabase

/// The pane layout kept in the notebook's `settings` table, so that a restart brings back the
/// panes with their history, widths and focus, and the layout changes Alt-Z undoes (a closed
/// pane comes back with its history): `layout`, and `panes` (the open panes' stack ids).
///
/// Also which stacks each running notes holds (`lease.<pid>.<start>.<boot>`, `ProcessIdentity`):
/// a second notes on the same notebook gets other stacks, so each process undoes only its own
/// changes, and the first one's history is not changed under it. The second one leaves the saved
/// layout as it is. A notes releases its lease when it quits; a lease whose process is gone
/// (crashed, its id reused, a zombie, another boot) is dropped by the next notes that opens.
struct PaneLayoutStore {
    let database: DatabaseQueue
    static let key = "panes"
    static let layoutKey = "layout"
    static let leasePrefix = "lease."
    /// How many layout changes Alt-Z can undo.
    static let historyLimit = 100
    /// This process's lease; by id alone where `/proc` cannot name the process.
    private var leaseKey: String {
        ProcessIdentity.current?.leaseKey ?? Self.leasePrefix + String(getpid())
    }

    /// The open panes' stack ids, left to right, as saved.
    func load() throws -> [String] {
        try database.read { try Self.stackIDs(Self.key, $0) }
    }

    /// Every stack id the saved layout names, open or in its history.
    func savedStackIDs() throws -> Set<String> {
        try database.read { try Self.savedLayout($0)?.stackIDs ?? [] }
    }

    /// Saves the layout with its history, and leases every stack this process may show again:
    /// `open` panes, left to right, and `closed` ones Alt-Z brings back.
    func save(_ layout: SavedLayout, holding open: [String], closed: [String]) throws {
        let text = String(decoding: try JSONEncoder().encode(layout), as: UTF8.self)
        try database.write { db in
            try Self.store(layout.present.stackIDs, as: Self.key, db)
            try Self.store([text], as: Self.layoutKey, db)
            try Self.store(Self.leaseLines(open: open, closed: closed), as: leaseKey, db)
        }
    }

    /// A lease's lines: the open panes' stacks, left to right, then an empty line and the
    /// closed ones (`otherWindows` names a pane by its place).
    private static func leaseLines(open: [String], closed: [String]) -> [String] {
        closed.isEmpty ? open : open + [""] + closed
    }

    /// Gives up this process's lease (at quit): its stacks are free for the next notes.
    func release() throws {
        try database.write {
            try $0.execute("DELETE FROM settings WHERE key = ?", [.text(leaseKey)])
        }
    }

    /// Leases the `open` and `closed` panes' stacks without saving the layout (a notes whose
    /// panes are not the saved ones).
    func lease(_ open: [String], closed: [String]) throws {
        try database.write {
            try Self.store(Self.leaseLines(open: open, closed: closed), as: leaseKey, $0)
        }
    }

    /// Stacks that other running notes hold.
    func heldElsewhere() throws -> Set<String> {
        try database.write { try heldElsewhere($0, removingEnded: true) }
    }

    /// The layout `claim` would take now, read without writing anything: the panes shown while
    /// the notebook may not be written yet (`NotebookOpener` checks it in the background).
    func choose(count: Int?, history: Set<String>) throws -> Choice {
        try database.read { db in
            Self.choice(
                count: count, history: history, held: try heldElsewhere(db, removingEnded: false),
                saved: try Self.savedLayout(db))
        }
    }

    /// Chooses the layout and leases its stacks, in one transaction so that two notes starting
    /// together never take the same (see `choice`).
    /// - Parameters:
    ///   - count: how many panes to open; nil: as many as the saved layout has (2 without one).
    ///   - history: stack ids that have history in the file.
    func claim(count: Int?, history: Set<String>) throws -> Choice {
        try database.write { db in
            let choice = Self.choice(
                count: count, history: history, held: try heldElsewhere(db, removingEnded: true),
                saved: try Self.savedLayout(db))
            let open = choice.layout.present.stackIDs
            let closed = choice.layout.stackIDs.subtracting(open).sorted()
            try Self.store(Self.leaseLines(open: open, closed: closed), as: leaseKey, db)
            return choice
        }
    }

    /// A layout to open, and whether it is the saved one (this notes then keeps it saved).
    struct Choice {
        var layout: SavedLayout
        var isSavedLayout: Bool
    }

    /// The saved layout when no running notes holds any of its stacks, with `count` panes:
    /// the rightmost closed (each a layout change Alt-Z undoes) or new ones added. Otherwise
    /// (another notes holds some), the saved panes that are free, and new ones. New panes take
    /// stacks with history that nothing names and nobody holds first, then fresh ids.
    static func choice(count: Int?, history: Set<String>, held: Set<String>, saved: SavedLayout?)
        -> Choice
    {
        let count = count ?? saved.map { max(1, $0.present.stackIDs.count) } ?? 2
        let isSavedLayout = saved.map { $0.stackIDs.isDisjoint(with: held) } ?? true
        var layout =
            isSavedLayout
            ? saved ?? SavedLayout(past: [], present: PaneLayout(stackIDs: []), future: [])
            : SavedLayout(
                past: [],
                present: PaneLayout(
                    stackIDs: saved?.present.stackIDs.filter { !held.contains($0) } ?? []),
                future: [])
        while layout.present.stackIDs.count > count { layout.closeLastPane() }
        var taken = held.union(layout.stackIDs).union(saved?.stackIDs ?? [])
        var orphans = history.subtracting(taken).sorted { ($0.count, $0) < ($1.count, $1) }
        while layout.present.stackIDs.count < count {
            let id =
                orphans.isEmpty ? freshID(avoiding: taken.union(history)) : orphans.removeFirst()
            layout.present.stackIDs.append(id)
            layout.present.weights.append(PaneLayout.defaultWeight)
            taken.insert(id)
        }
        layout.present.focus = min(layout.present.focus, count - 1)
        return Choice(layout: layout, isSavedLayout: isSavedLayout)
    }

    /// The first `pane-N` not in `taken`.
    static func freshID(avoiding taken: Set<String>) -> String {
        var number = 1
        while taken.contains("pane-\(number)") { number += 1 }
        return "pane-\(number)"
    }

    /// Another running notes window, as this one names it in messages: its process id, and
    /// the pane (from 1, left to right) that shows a stack, or nil for a pane it closed.
    struct OtherWindow: Equatable {
        let process: Int32
        let pane: Int?
    }

    /// Every stack other running notes windows hold, with the window and its place there.
    func otherWindows() throws -> [String: OtherWindow] {
        try database.read { db in
            var windows: [String: OtherWindow] = [:]
            for (process, open, closed) in try otherLeases(db, removingEnded: false) {
                for (index, stack) in open.enumerated() {
                    windows[stack] = OtherWindow(process: process, pane: index + 1)
                }
                for stack in closed { windows[stack] = OtherWindow(process: process, pane: nil) }
            }
            return windows
        }
    }

    /// The stacks leased by other processes that are still running; with `removingEnded`, the
    /// leases of processes that are gone (quit or crashed) are removed.
    private func heldElsewhere(_ db: Database, removingEnded: Bool) throws -> Set<String> {
        Set(try otherLeases(db, removingEnded: removingEnded).flatMap { $0.open + $0.closed })
    }

    /// The leases of other processes that are still running: each one's process id, its open
    /// panes' stacks, left to right, and its closed ones (`leaseLines`).
    private func otherLeases(_ db: Database, removingEnded: Bool) throws
        -> [(process: Int32, open: [String], closed: [String])]
    {
        let leases = try db.fetchAll(
            Row.self, "SELECT key, value FROM settings WHERE key LIKE ?",
            [.text(Self.leasePrefix + "%")])
        var running: [(process: Int32, open: [String], closed: [String])] = []
        for lease in leases {
            let key: String = try lease.decode(at: 0)
            guard key != leaseKey else { continue }
            if let process = ProcessIdentity(leaseKey: key), process.isRunning {
                let value: String? = try lease.decode(at: 1)
                let lines = (value ?? "").split(separator: "\n", omittingEmptySubsequences: false)
                let open = lines.firstIndex(of: "") ?? lines.count
                running.append(
                    (
                        process.pid, lines[..<open].filter { !$0.isEmpty }.map(String.init),
                        lines[open...].filter { !$0.isEmpty }.map(String.init)
                    ))
            } else if removingEnded {
                try db.execute("DELETE FROM settings WHERE key = ?", [.text(key)])
            }
        }
        return running
    }

    /// The saved layout: `layout`, or for a notebook saved before it, the panes of `panes`.
    private static func savedLayout(_ db: Database) throws -> SavedLayout? {
        if let text = try value(of: layoutKey, db),
            let saved = try? JSONDecoder().decode(SavedLayout.self, from: Data(text.utf8)),
            saved.isValid
        {
            return saved
        }
        let ids = try stackIDs(key, db)
        return ids.isEmpty
            ? nil : SavedLayout(past: [], present: PaneLayout(stackIDs: ids), future: [])
    }

    private static func stackIDs(_ key: String, _ db: Database) throws -> [String] {
        try value(of: key, db).map { $0.split(separator: "\n").map(String.init) } ?? []
    }

    /// The setting `key`, or nil when it has none.
    static func value(of key: String, _ db: Database) throws -> String? {
        try db.fetchOne(String.self, "SELECT value FROM settings WHERE key = ?", [.text(key)])
    }

    private static func store(_ stackIDs: [String], as key: String, _ db: Database) throws {
        try store(stackIDs.joined(separator: "\n"), as: key, db)
    }

    /// Sets the setting `key` to `value`.
    static func store(_ value: String, as key: String, _ db: Database) throws {
        try db.execute(
            "INSERT INTO settings(key, value) VALUES (?, ?) "
                + "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            [.text(key), .text(value)])
    }
}
