import SQLiteDatabase
import Testing

@Suite struct FunctionTests {
    @Test func swiftClosureIsCallableFromSQL() throws {
        let db = try DatabaseQueue()
        let result = try db.write { db -> String? in
            try db.createFunction("shout", argumentCount: 1, deterministic: true) { arguments in
                guard case .text(let text) = arguments[0] else { return .null }
                return .text(text.uppercased() + "!")
            }
            return try db.fetchOne(String.self, "SELECT shout(?)", ["hey\tyou"])
        }
        #expect(result == "HEY\tYOU!")
    }

    @Test func functionsReceiveAndReturnEveryValueExactly() throws {
        let db = try DatabaseQueue()
        let values: [SQLiteValue] = [
            .integer(Int64.min), .real(-0.0), .text("a\0b"), .blob([0, 255]), .null,
        ]
        let back = try db.write { db -> [SQLiteValue] in
            try db.createFunction("identity", argumentCount: 1) { $0[0] }
            return try values.map { value in
                try db.fetchOne(Row.self, "SELECT identity(?)", [value])?[0] ?? .text("missing")
            }
        }
        #expect(back == values)
    }

    @Test func anIntegerFunctionReturnsItsNumberOrNull() throws {
        let db = try DatabaseQueue()
        let answers = try db.write { db -> [Row] in
            var next: Int64? = Int64.min
            try db.createFunction(
                "counter",
                returningInteger: {
                    defer { next = next.map { _ in nil } ?? 7 }
                    return next
                })
            return try db.fetchAll(
                Row.self, "SELECT counter(), counter() UNION ALL SELECT counter(), 1")
        }
        #expect(
            answers.map { [$0[0], $0[1]] } == [
                [.integer(Int64.min), .null], [.integer(7), .integer(1)],
            ])
    }

    @Test func anIntegerFunctionRefusesArguments() throws {
        let db = try DatabaseQueue()
        #expect(throws: SQLiteError.self) {
            try db.write { db in
                try db.createFunction("seven", returningInteger: { 7 })
                _ = try db.fetchOne(Int.self, "SELECT seven(1)")
            }
        }
    }

    struct Refused: Error, CustomStringConvertible {
        var description: String { "refused by Swift" }
    }

    @Test func thrownErrorBecomesSQLError() throws {
        let db = try DatabaseQueue()
        do {
            try db.write { db in
                try db.createFunction("refuse", argumentCount: 0) { _ in throw Refused() }
                _ = try db.fetchOne(Int.self, "SELECT refuse()")
            }
            Issue.record("expected an error")
        } catch let error as SQLiteError {
            #expect(error.message == "refused by Swift")
        }
    }

    final class Witness: Sendable {}

    @Test func closuresAreReleasedWithTheConnection() throws {
        weak var weakWitness: Witness?
        do {
            let db = try DatabaseQueue()
            let witness = Witness()
            weakWitness = witness
            try db.write { db in
                try db.createFunction("f", argumentCount: 0) { _ in
                    _ = witness
                    return .integer(1)
                }
            }
            #expect(weakWitness != nil)
        }
        #expect(weakWitness == nil)
    }

    @Test func replacingAFunctionReleasesTheOldClosure() throws {
        let db = try DatabaseQueue()
        weak var weakWitness: Witness?
        try db.write { db in
            let witness = Witness()
            weakWitness = witness
            try db.createFunction("f", argumentCount: 0) { _ in
                _ = witness
                return .integer(1)
            }
        }
        #expect(weakWitness != nil)
        let value = try db.write { db -> Int? in
            try db.createFunction("f", argumentCount: 0) { _ in .integer(2) }
            return try db.fetchOne(Int.self, "SELECT f()")
        }
        #expect(value == 2)
        #expect(weakWitness == nil)
    }
}
