import SQLiteDatabase

/// The application's triggers on a table that may skip a row with `RAISE(IGNORE)`: a statement
/// then writes fewer rows than it names, and says nothing. The row-by-row replay writes one row
/// per statement and sees a row it could not write; a set-wide statement could not tell which,
/// so the set-wide replays leave a part to it when a trigger may skip one of the part's rows.
///
/// Read from each trigger's `CREATE TRIGGER` text, for every table, and read again whenever the
/// main or the temp schema changed (an application may add a trigger at any time): the event
/// (`INSERT`, `DELETE`, `UPDATE [OF columns]`) is read from its head; a trigger whose head
/// cannot be read counts for every statement, which only makes the replay slower.
struct SkippingTriggers {
    /// What fires a trigger: a statement of `kind` (nil: any, the head was not understood),
    /// and for an update, one setting one of `columns` (nil: any column).
    private struct Event {
        var kind: UndoLogSchema.Kind?
        var columns: Set<String>?
    }

    /// Each table's events, by its name lowercased.
    private let events: [String: [Event]]

    /// The triggers whose text names `RAISE` and `IGNORE` (a trigger that merely names both
    /// counts too), read from the schema again only once it changed.
    init(_ db: Database) throws {
        events = try db.memoized("sqliteundo.skippingTriggers", includingTemp: true) {
            try Self.events(db)
        }
    }

    private static func events(_ db: Database) throws -> [String: [Event]] {
        let triggers = try db.fetchAll(
            Row.self,
            """
            SELECT tbl_name, sql FROM main.sqlite_schema
            WHERE type = 'trigger' AND sql LIKE '%RAISE%IGNORE%'
            UNION ALL
            SELECT tbl_name, sql FROM temp.sqlite_schema
            WHERE type = 'trigger' AND sql LIKE '%RAISE%IGNORE%'
            """)
        var events: [String: [Event]] = [:]
        for trigger in triggers {
            let table: String = try trigger.decode(at: 0)
            events[table.lowercased(), default: []].append(
                Self.event(of: try trigger.decode(at: 1)))
        }
        return events
    }

    /// Whether a trigger on `table` may skip a row of a statement that `kind`s rows (an
    /// update: setting `columns`).
    func maySkip(
        onTable table: String, _ kind: UndoLogSchema.Kind, setting columns: [String] = []
    ) -> Bool {
        let set = Set(columns.map { $0.lowercased() })
        return events[table.lowercased(), default: []].contains { event in
            guard let eventKind = event.kind else { return true }
            guard eventKind == kind else { return false }
            guard kind == .update, let watched = event.columns else { return true }
            return !watched.isDisjoint(with: set)
        }
    }

    /// The event in a trigger's head: `CREATE [TEMP] TRIGGER [IF NOT EXISTS] [schema.]name
    /// [BEFORE | AFTER | INSTEAD OF] {DELETE | INSERT | UPDATE [OF column, ...]} ON`.
    private static func event(of sql: String) -> Event {
        var tokens = SQLTokens(sql)
        func next() -> String? { tokens.next() }
        let any = Event(kind: nil, columns: nil)
        guard next()?.uppercased() == "CREATE" else { return any }
        var word = next()?.uppercased()
        if word == "TEMP" || word == "TEMPORARY" { word = next()?.uppercased() }
        guard word == "TRIGGER" else { return any }
        var name = next()
        if name?.uppercased() == "IF" {
            guard next()?.uppercased() == "NOT", next()?.uppercased() == "EXISTS" else {
                return any
            }
            name = next()
        }
        guard name != nil else { return any }
        word = next()?.uppercased()
        if word == "." {
            _ = next()
            word = next()?.uppercased()
        }
        if word == "BEFORE" || word == "AFTER" {
            word = next()?.uppercased()
        } else if word == "INSTEAD" {
            guard next()?.uppercased() == "OF" else { return any }
            word = next()?.uppercased()
        }
        switch word {
        case "INSERT": return Event(kind: .insert, columns: nil)
        case "DELETE": return Event(kind: .delete, columns: nil)
        case "UPDATE":
            var token = next()
            guard token?.uppercased() == "OF" else {
                return Event(kind: .update, columns: nil)
            }
            var columns: Set<String> = []
            while let column = next() {
                columns.insert(column.lowercased())
                token = next()
                if token != "," { break }
            }
            return token?.uppercased() == "ON" ? Event(kind: .update, columns: columns) : any
        default:
            return any
        }
    }
}

/// The tokens of SQL text, as far as a trigger's head needs: words, identifiers in quotes
/// (returned without them), and single characters of punctuation; spaces and comments skipped.
private struct SQLTokens {
    private let characters: [Character]
    private var index = 0

    init(_ sql: String) { characters = Array(sql) }

    mutating func next() -> String? {
        skipSpaceAndComments()
        guard index < characters.count else { return nil }
        let first = characters[index]
        let closing: Character? =
            switch first {
            case "\"", "'", "`": first
            case "[": "]"
            default: nil
            }
        if let closing { return quoted(until: closing) }
        guard first.isLetter || first == "_" else {
            index += 1
            return String(first)
        }
        let start = index
        while index < characters.count,
            characters[index].isLetter || characters[index].isNumber
                || characters[index] == "_" || characters[index] == "$"
        {
            index += 1
        }
        return String(characters[start..<index])
    }

    /// An identifier in quotes, from the opening one; a doubled closing quote is one character.
    private mutating func quoted(until closing: Character) -> String {
        index += 1
        var text = ""
        while index < characters.count {
            let character = characters[index]
            index += 1
            if character == closing {
                guard closing != "]", index < characters.count, characters[index] == closing
                else { return text }
                index += 1
            }
            text.append(character)
        }
        return text
    }

    private mutating func skipSpaceAndComments() {
        while index < characters.count {
            if characters[index].isWhitespace {
                index += 1
            } else if starts(with: "--") {
                while index < characters.count, characters[index] != "\n" { index += 1 }
            } else if starts(with: "/*") {
                index += 2
                while index < characters.count, !starts(with: "*/") { index += 1 }
                index = min(index + 2, characters.count)
            } else {
                return
            }
        }
    }

    private func starts(with text: String) -> Bool {
        let prefix = Array(text)
        return index + prefix.count <= characters.count
            && Array(characters[index..<index + prefix.count]) == prefix
    }
}
