import SQLiteDatabase

@testable import SQLiteUndo

/// The random writes of a run, each applied to the database and to the model (recorded in the
/// innermost barrier's record, or nowhere).
extension ModelRun {
    mutating func existingRowid() -> Int64? {
        let keys = model.tables["t", default: [:]].keys.sorted()
        return keys.isEmpty ? nil : keys[random.next(below: keys.count)]
    }

    /// A value for a column of `t`: a parent (or none), a fresh code (or none), words, or any
    /// value of the pool.
    mutating func value(for column: String) -> SQLiteValue {
        switch column {
        case "parentId":
            let parents = ModelSchema.parentIDs
            return random.next(below: 5) == 0
                ? .null : .integer(parents[random.next(below: parents.count)])
        case "code":
            guard random.next(below: 4) != 0 else { return .null }
            nextCode += 1
            return .text("k\(nextCode)")
        case "qty":
            return .integer(Int64(random.next(below: 5)))
        case "body":
            guard random.next(below: 8) != 0 else { return .null }
            let words = (0...random.next(below: 3)).map { _ in
                Self.words[random.next(below: Self.words.count)]
            }
            // A long body too, so that typing into it is kept packed (`PackedChange`).
            let start =
                features.contains(.longBodies) && random.next(below: 3) == 0 ? [Self.longText] : []
            return .text((start + words).joined(separator: " "))
        default:
            return Self.pool[random.next(below: Self.pool.count)]
        }
    }

    /// One random write.
    mutating func write(_ barrier: inout ReferenceModel.BarrierRecord?) throws -> String {
        // Few rows, so that stacks often touch the same ones; deletes take over when it grows.
        var choice = random.next(below: features.contains(.conflictClauses) ? 15 : 13)
        let count = model.tables["t", default: [:]].count
        if count > 24, choice < 3 { choice = 9 }
        if choice < 3 || count < 2 { return try insert(&barrier, reusing: choice == 0) }
        guard let rowid = existingRowid() else { return "skip" }
        if random.next(below: 10) == 0 { return try writeAndTakeBack(rowid, &barrier) }
        switch choice {
        case 3...5:
            let content = model.contentColumns
            var set: ReferenceModel.Values = [:]
            for column in content where random.next(below: 3) == 0 || set.isEmpty && column == "c" {
                set[column] = value(for: column)
            }
            if set.isEmpty { set["body"] = value(for: "body") }
            try updateItems([(rowid, rowid, set)], &barrier)
            return "update \(rowid) \(set.keys.sorted())"
        case 6:
            let target = nextRowid
            nextRowid += 1
            try updateItems([(rowid, target, [:])], &barrier)
            return "move \(rowid) to \(target)"
        case 7:
            let parents = ModelSchema.parentIDs
            let parent = parents[random.next(below: parents.count)]
            let locks = features.contains(.lockedParents) && random.next(below: 2) == 0
            let name: SQLiteValue = .text("\(locks ? "locked" : "parent") \(nextCode)")
            nextCode += 1
            try db.write {
                try $0.execute(
                    "UPDATE parents SET name = ? WHERE id = ?", [name, .integer(parent)])
            }
            if model.isLocked(parent, renamedTo: name) {
                return "rename parent \(parent) (skipped: locked)"
            }
            model.update("parents", parent, to: parent, set: ["name": name], in: &barrier)
            return "rename parent \(parent)\(locks ? " to a locked name" : "")"
        case 8, 9:
            try db.write { try $0.execute("DELETE FROM t WHERE id = ?", [.integer(rowid)]) }
            model.deleteItem(rowid, now: now, in: &barrier)
            deletedRowids.append(rowid)
            return "delete \(rowid)"
        case 10...11 where features.contains(.codes):
            return try rotateCodes(count: 2 + random.next(below: 2), &barrier)
        case 12 where features.contains(.keys):
            return try swapKeys(&barrier)
        case 13...14:
            return try conflictClauseWrite(&barrier)
        default:
            return "skip"
        }
    }

    /// A write and its reverse: a column of `rowid` set and set back, or a row inserted and
    /// deleted. In a barrier that writes nothing else, its writes cancel out (unless the
    /// application's triggers stamped a new time): it does not register.
    mutating func writeAndTakeBack(_ rowid: Int64, _ barrier: inout ReferenceModel.BarrierRecord?)
        throws -> String
    {
        let content = model.contentColumns
        guard random.next(below: 2) == 0, let old = model.row("t", rowid), !content.isEmpty else {
            let inserted = nextRowid
            let described = try insert(&barrier, reusing: false)
            try db.write { try $0.execute("DELETE FROM t WHERE id = ?", [.integer(inserted)]) }
            model.deleteItem(inserted, now: now, in: &barrier)
            return described + ", deleted"
        }
        let column = content[random.next(below: content.count)]
        try updateItems(
            [
                (rowid, rowid, [column: value(for: column)]),
                (rowid, rowid, [column: old[column] ?? .null]),
            ],
            &barrier)
        return "update \(rowid) [\(column)] and back"
    }

    mutating func insert(_ barrier: inout ReferenceModel.BarrierRecord?, reusing: Bool) throws
        -> String
    {
        var rowid = nextRowid
        if reusing, !deletedRowids.isEmpty {
            rowid = deletedRowids.remove(at: random.next(below: deletedRowids.count))
            if model.row("t", rowid) != nil { return "skip" }
        } else {
            nextRowid += 1
        }
        let (columns, values) = newItem()
        let sql =
            "INSERT INTO t(id, \(columns.joined(separator: ", ")), stamp) VALUES (?"
            + String(repeating: ", ?", count: columns.count) + ", (SELECT now FROM clock))"
        try db.write {
            try $0.execute(sql, [.integer(rowid)] + columns.map { values[$0] ?? .null })
        }
        model.insertItem(rowid, values, now: now, into: &barrier)
        return "insert \(rowid)"
    }

    /// Updates rows of `t` one statement each (moving a row when its new rowid differs), in one
    /// transaction or one each.
    mutating func updateItems(
        _ updates: [(rowid: Int64, newRowid: Int64, set: ReferenceModel.Values)],
        _ barrier: inout ReferenceModel.BarrierRecord?
    ) throws {
        let statements = updates.map { update in
            let columns = update.set.keys.sorted()
            let assignments = ["id = ?"] + columns.map { "\($0) = ?" }
            let arguments =
                [.integer(update.newRowid)] + columns.map { update.set[$0] ?? .null }
                + [.integer(update.rowid)]
            return ("UPDATE t SET \(assignments.joined(separator: ", ")) WHERE id = ?", arguments)
        }
        if random.next(below: 2) == 0 {
            try db.write { db in
                for (sql, arguments) in statements { try db.execute(sql, arguments) }
            }
        } else {
            for (sql, arguments) in statements { try db.write { try $0.execute(sql, arguments) } }
        }
        for update in updates {
            model.updateItem(
                update.rowid, to: update.newRowid, set: update.set, now: now, in: &barrier)
        }
    }

    /// Rotates the UNIQUE codes of two or three rows through a temporary code: each row takes
    /// the next one's code.
    mutating func rotateCodes(count: Int, _ barrier: inout ReferenceModel.BarrierRecord?) throws
        -> String
    {
        let coded = model.tables["t", default: [:]].filter {
            ($0.value.values["code"] ?? .null) != .null
        }.keys.sorted()
        guard coded.count >= count else { return "skip" }
        var rows: [Int64] = []
        while rows.count < count {
            let rowid = coded[random.next(below: coded.count)]
            if !rows.contains(rowid) { rows.append(rowid) }
        }
        let codes = rows.map { model.row("t", $0)?["code"] ?? .null }
        var updates: [(Int64, Int64, ReferenceModel.Values)] = [
            (rows[0], rows[0], ["code": ModelSchema.temporaryCode])
        ]
        for index in (1..<count).reversed() {
            updates.append((rows[index], rows[index], ["code": codes[(index + 1) % count]]))
        }
        updates.append((rows[0], rows[0], ["code": codes[1]]))
        try updateItems(updates, &barrier)
        return "rotate codes of \(rows)"
    }

    /// Swaps two rows' INTEGER PRIMARY KEYs through a temporary key.
    mutating func swapKeys(_ barrier: inout ReferenceModel.BarrierRecord?) throws -> String {
        guard let first = existingRowid(), let second = existingRowid(), first != second else {
            return "skip"
        }
        let temporary = ModelSchema.temporaryKey
        try updateItems(
            [(first, temporary, [:]), (second, first, [:]), (temporary, second, [:])], &barrier)
        return "swap keys \(first) and \(second)"
    }
}
