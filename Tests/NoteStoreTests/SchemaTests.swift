import NoteStore
import SQLiteDatabase
import TestSupport
import Testing

@Suite struct SchemaTests {
    let db: DatabaseQueue

    init() throws {
        db = try makeNotebook()
    }

    static let migrationNames = [
        "notestore-1-tables", "notestore-2-indexes", "notestore-3-updatedAt-trigger",
        "notestore-4-full-text-search", "notestore-5-settings", "notestore-6-article-count",
        "notestore-7-search-follows-replace", "notestore-8-substring-search",
        "notestore-9-body-chunks",
    ]

    /// `PRAGMA table_info` rows as `name type notnull default pk`.
    static func columns(_ db: Database, _ table: String) throws -> [String] {
        try db.fetchAll(
            String.self,
            """
            SELECT name || ' ' || type || ' ' || "notnull" || ' ' || ifnull(dflt_value, 'NULL')
                || ' ' || pk
            FROM pragma_table_info(?)
            """, [.text(table)])
    }

    static func schemaObjects(_ db: Database) throws -> [String] {
        try db.fetchAll(
            String.self,
            """
            SELECT type || ' ' || name FROM sqlite_schema
            WHERE name NOT GLOB 'sqlite_autoindex_*'
                AND name NOT IN (SELECT name FROM pragma_table_list WHERE type = 'shadow')
            ORDER BY type, name
            """)
    }

    @Test func freshDatabaseHasTheDesignedTables() throws {
        try db.read { db throws in
            #expect(
                try Self.columns(db, "authors") == [
                    "id INTEGER 0 NULL 1", "name TEXT 1 NULL 0",
                ])
            let now = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
            #expect(
                try Self.columns(db, "article_rows") == [
                    "id INTEGER 0 NULL 1", "authorId INTEGER 0 NULL 0", "title TEXT 1 NULL 0",
                    "rating INTEGER 1 0 0",
                    "createdAt TEXT 1 \(now) 0", "updatedAt TEXT 1 \(now) 0",
                ])
            #expect(
                try Self.columns(db, "article_chunks") == [
                    "id INTEGER 0 NULL 1", "articleId INTEGER 1 NULL 0",
                    "position INTEGER 1 NULL 0",
                    "text TEXT 1 NULL 0",
                ])
            // The view `sqlite3` users and exports read whole articles from.
            #expect(
                try Self.columns(db, "articles") == [
                    "id INTEGER 0 NULL 0", "authorId INTEGER 0 NULL 0", "title TEXT 0 NULL 0",
                    "body  0 NULL 0", "rating INTEGER 0 NULL 0",
                    "createdAt TEXT 0 NULL 0", "updatedAt TEXT 0 NULL 0",
                ])
            let foreignKeys = """
                SELECT "table" || ' ' || "from" || ' ' || "to" || ' ' || on_update || ' ' || on_delete
                FROM pragma_foreign_key_list(?)
                """
            #expect(
                try db.fetchAll(String.self, foreignKeys, ["article_rows"])
                    == ["authors authorId id NO ACTION CASCADE"])
            #expect(
                try db.fetchAll(String.self, foreignKeys, ["article_chunks"])
                    == ["article_rows articleId id CASCADE CASCADE"])
            #expect(
                try Self.schemaObjects(db) == [
                    "index article_chunks_articleId_position",
                    "index articles_authorId_title", "index articles_authorId_updatedAt",
                    "index articles_title", "index articles_updatedAt", "index authors_name",
                    "table article_chunks", "table article_rows",
                    "table articles_count", "table articles_fts",
                    "table articles_substrings", "table articles_substrings_terms",
                    "table authors", "table settings", "table sqlitedatabase_migrations",
                    "trigger article_chunks_search_delete", "trigger article_chunks_search_insert",
                    "trigger article_chunks_search_update",
                    "trigger article_chunks_updatedAt_delete",
                    "trigger article_chunks_updatedAt_insert",
                    "trigger article_chunks_updatedAt_update",
                    "trigger articles_count_delete", "trigger articles_count_insert",
                    "trigger articles_delete", "trigger articles_insert",
                    "trigger articles_search_delete", "trigger articles_search_insert",
                    "trigger articles_search_update", "trigger articles_update",
                    "trigger articles_updatedAt", "view article_documents",
                    "view article_documents_unspaced", "view articles",
                ])
            #expect(try Migrator.appliedMigrations(db) == Self.migrationNames)
            #expect(NoteStoreSchema.migrator.migrationNames == Self.migrationNames)
        }
    }

    @Test func ratingOutsideZeroToFiveIsRefusedByTheSchema() throws {
        #expect(throws: SQLiteError.self) {
            try db.write { try $0.execute("INSERT INTO articles(title, rating) VALUES ('x', 6)") }
        }
        #expect(throws: SQLiteError.self) {
            try db.write { try $0.execute("INSERT INTO articles(title, rating) VALUES ('x', -1)") }
        }
        #expect(try db.read { try Notebook.count($0, ArticleQuery()) } == 0)
    }

    @Test func migratingAnAlreadyMigratedFileKeepsItsData() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("notes.db")
        let id = try {
            let file = try DatabaseQueue(path: path)
            try NoteStoreSchema.migrate(file)
            return try file.write { db throws in
                let author = try Notebook.insertAuthor(db, name: "Ada")
                return try Notebook.insertArticle(
                    db, title: "Kept", body: "across reopening", authorId: author)
            }
        }()

        let reopened = try DatabaseQueue(path: path)
        let before = try reopened.read { try Notebook.article($0, id: id) }
        try NoteStoreSchema.migrate(reopened)
        try NoteStoreSchema.migrate(reopened)
        try reopened.read { db throws in
            #expect(try Migrator.appliedMigrations(db) == Self.migrationNames)
            #expect(try Notebook.article(db, id: id) == before)
            #expect(before?.title == "Kept")
            #expect(try Self.schemaObjects(db).count == 33)
            let search = ArticleQuery(search: "reopen")
            #expect(try Notebook.page(db, search, offset: 0, limit: 10).map(\.id) == [id])
        }
    }

    @Test func newerFileIsRefusedAndLeftAlone() throws {
        try db.write { db throws in
            try db.execute(
                "INSERT INTO sqlitedatabase_migrations(name) VALUES ('notestore-99-future')")
        }
        #expect(
            throws: MigrationError.databaseIsNewer(unknownMigrations: ["notestore-99-future"])
        ) { try NoteStoreSchema.migrate(db) }
    }
}
