import SQLiteDatabase
import Testing

@testable import SQLiteUndo

/// Which statements of a replay an application's trigger may skip with `RAISE(IGNORE)`, read
/// from the trigger's head: the set-wide replays leave only those to the row-by-row one.
@Suite struct SkippingTriggersTests {
    func triggers(_ sql: String) throws -> SkippingTriggers {
        let db = try DatabaseQueue()
        return try db.write { db in
            try db.execute(
                """
                CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT, locked INTEGER, note TEXT);
                CREATE TABLE other(id INTEGER PRIMARY KEY);
                \(sql)
                """)
            return try SkippingTriggers(db)
        }
    }

    @Test func anUpdateTriggerSkipsUpdatesOnly() throws {
        let skipping = try triggers(
            """
            CREATE TRIGGER keepLocked BEFORE UPDATE ON items WHEN OLD.locked
            BEGIN SELECT RAISE(IGNORE); END;
            """)
        #expect(skipping.maySkip(onTable: "ITEMS", .update, setting: ["note"]))
        #expect(!skipping.maySkip(onTable: "ITEMS", .insert))
        #expect(!skipping.maySkip(onTable: "ITEMS", .delete))
    }

    @Test func anUpdateOfColumnsSkipsOnlyUpdatesSettingOneOfThem() throws {
        let skipping = try triggers(
            """
            CREATE TRIGGER "a trigger ON update" BEFORE UPDATE OF "Name", [locked] ON items
            WHEN OLD.locked BEGIN SELECT RAISE(IGNORE); END;
            """)
        #expect(skipping.maySkip(onTable: "ITEMS", .update, setting: ["name"]))
        #expect(skipping.maySkip(onTable: "ITEMS", .update, setting: ["note", "locked"]))
        #expect(!skipping.maySkip(onTable: "ITEMS", .update, setting: ["note"]))
        #expect(!skipping.maySkip(onTable: "ITEMS", .delete))
    }

    @Test func aHeadWithCommentsQuotesAndASchemaIsRead() throws {
        let skipping = try triggers(
            """
            CREATE TRIGGER IF NOT EXISTS main."keep -- ""rows""\u{22} /* before */ DELETE
            ON items WHEN OLD.locked BEGIN SELECT RAISE(IGNORE); END;
            CREATE TEMP TRIGGER `insert guard` AFTER INSERT ON main.items
            WHEN NEW.locked BEGIN SELECT RAISE(IGNORE); END;
            """)
        #expect(skipping.maySkip(onTable: "ITEMS", .delete))
        #expect(skipping.maySkip(onTable: "ITEMS", .insert))
        #expect(!skipping.maySkip(onTable: "ITEMS", .update, setting: ["name", "locked", "note"]))
    }

    @Test func triggersThatCannotSkipOrAreOnAnotherTableDoNotCount() throws {
        let skipping = try triggers(
            """
            CREATE TRIGGER stamp AFTER UPDATE ON items BEGIN
                UPDATE items SET note = 'stamped' WHERE id = NEW.id;
            END;
            CREATE TRIGGER elsewhere BEFORE INSERT ON other BEGIN SELECT RAISE(IGNORE); END;
            CREATE TRIGGER refuse BEFORE DELETE ON items BEGIN SELECT RAISE(ABORT, 'no'); END;
            """)
        #expect(!skipping.maySkip(onTable: "ITEMS", .update, setting: ["name", "locked", "note"]))
        #expect(!skipping.maySkip(onTable: "ITEMS", .insert))
        #expect(!skipping.maySkip(onTable: "ITEMS", .delete))
    }
    /// The triggers are read once per schema: a trigger added or dropped later, in the main
    /// schema or the connection's temp one (which leaves the main schema's version as it is),
    /// is seen by the next replay.
    @Test func aTriggerAddedOrDroppedLaterIsSeen() throws {
        let db = try DatabaseQueue()
        try db.write { db in
            try db.execute("CREATE TABLE items(id INTEGER PRIMARY KEY, locked INTEGER)")
            #expect(try !SkippingTriggers(db).maySkip(onTable: "items", .insert))
            try db.execute(
                """
                CREATE TEMP TRIGGER guard BEFORE INSERT ON main.items WHEN NEW.locked
                BEGIN SELECT RAISE(IGNORE); END;
                """)
            #expect(try SkippingTriggers(db).maySkip(onTable: "items", .insert))
            #expect(try !SkippingTriggers(db).maySkip(onTable: "items", .delete))
            try db.execute(
                """
                CREATE TRIGGER keep BEFORE DELETE ON items WHEN OLD.locked
                BEGIN SELECT RAISE(IGNORE); END;
                DROP TRIGGER temp.guard;
                """)
            #expect(try !SkippingTriggers(db).maySkip(onTable: "items", .insert))
            #expect(try SkippingTriggers(db).maySkip(onTable: "items", .delete))
        }
    }
}
