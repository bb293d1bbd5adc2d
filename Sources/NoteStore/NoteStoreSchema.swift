import SQLiteDatabase

/// The notebook's schema: tables, indexes, the `updatedAt` trigger and the full-text index, as
/// named migrations recorded in the file.
///
/// Every trigger uses plain SQL only, so the file stays usable from the `sqlite3` command line
/// (which has none of our SQL functions): SELECT, INSERT, UPDATE and DELETE all work there, keep
/// `updatedAt` and keep the search index.
public enum NoteStoreSchema {
    /// SQL for the current time as ISO-8601 UTC text with milliseconds: `2024-05-01T09:30:00.123Z`.
    static let now = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"

    /// The full-text index table (FTS5, external content: it stores no copy of the text). Since
    /// `storeBodiesInChunks`, it indexes titles and chunks of bodies (`documents`).
    static let searchTable = "articles_fts"

    /// The substring index (FTS5 trigrams) of the articles with text of an unspaced script, and
    /// the table of its terms (`fts5vocab`, one row per trigram in an article).
    static let substringSearchTable = "articles_substrings"
    static let substringTerms = "articles_substrings_terms"

    /// The one-row table that holds the number of articles.
    static let countTable = "articles_count"

    /// The migration that stores bodies as chunks (`storeBodiesInChunks`): undo history
    /// recorded before it names the old `articles` table.
    public static let bodyChunksMigration = "notestore-9-body-chunks"

    /// The notebook's migrations, in order. Names are recorded in the file and never change.
    public static var migrator: Migrator {
        var migrator = Migrator()
        migrator.registerMigration("notestore-1-tables", createTables)
        migrator.registerMigration("notestore-2-indexes", createIndexes)
        migrator.registerMigration("notestore-3-updatedAt-trigger", createUpdatedAtTrigger)
        migrator.registerMigration("notestore-4-full-text-search", createSearchIndex)
        migrator.registerMigration("notestore-5-settings", createSettings)
        migrator.registerMigration("notestore-6-article-count", createArticleCount)
        migrator.registerMigration("notestore-7-search-follows-replace", makeSearchFollowReplace)
        migrator.registerMigration("notestore-8-substring-search", createSubstringSearch)
        migrator.registerMigration(bodyChunksMigration, storeBodiesInChunks)
        return migrator
    }

    /// Applies the migrations the file has not seen yet, in one transaction.
    /// - Throws: `MigrationError.databaseIsNewer` for a file written by a newer version, or
    ///   `SQLiteError`; nothing is changed then.
    public static func migrate(_ writer: some DatabaseWriter) throws {
        try migrator.migrate(writer)
    }

    /// Small key/value settings of the program using the notebook (the notes app keeps its open
    /// panes there, so each pane finds its undo history again).
    private static func createSettings(_ db: Database) throws {
        try db.execute("CREATE TABLE settings (key TEXT PRIMARY KEY NOT NULL, value)")
    }

    private static func createTables(_ db: Database) throws {
        try db.execute(
            """
            CREATE TABLE authors (
                id INTEGER PRIMARY KEY,
                name TEXT NOT NULL
            );
            CREATE TABLE articles (
                id INTEGER PRIMARY KEY,
                authorId INTEGER REFERENCES authors(id) ON DELETE CASCADE,
                title TEXT NOT NULL,
                body TEXT NOT NULL DEFAULT '',
                rating INTEGER NOT NULL DEFAULT 0 CHECK (rating BETWEEN 0 AND 5),
                createdAt TEXT NOT NULL DEFAULT (\(now)),
                updatedAt TEXT NOT NULL DEFAULT (\(now))
            );
            """)
    }

    /// Indexes for the list pane's orders and filters, so counting, paging and positions never
    /// scan the table. An index ends with the rowid, so `(updatedAt)` orders by
    /// `(updatedAt, id)`: the total order the pane uses.
    private static func createIndexes(_ db: Database) throws {
        try db.execute(
            """
            CREATE INDEX articles_updatedAt ON articles(updatedAt);
            CREATE INDEX articles_title ON articles(title COLLATE NOCASE);
            CREATE INDEX articles_authorId_updatedAt ON articles(authorId, updatedAt);
            CREATE INDEX articles_authorId_title ON articles(authorId, title COLLATE NOCASE);
            CREATE INDEX authors_name ON authors(name COLLATE NOCASE);
            """)
    }

    /// Bumps `updatedAt` after an edit that did not write `updatedAt` itself.
    ///
    /// Why this condition and not `WHEN NOT sqliteundo_isReplaying()`: a trigger that calls a
    /// function the connection lacks fails every UPDATE, and the `sqlite3` command line (or any
    /// connection without the undo engine) lacks it. The condition says the same thing in plain
    /// SQL. An undo or redo replay restores every column its barrier changed, and the barrier
    /// changed `updatedAt` too (this trigger did it), so the replay writes `updatedAt` to a
    /// different value and the trigger leaves it alone: undo restores `updatedAt` exactly. An
    /// ordinary edit does not touch `updatedAt`, so it gets the current time.
    ///
    /// The trigger also waits for a visible column to change, so an UPDATE that changes nothing
    /// (setting a rating to the value it has) stays a no-op, and its own UPDATE of `updatedAt`
    /// cannot fire it again.
    private static func createUpdatedAtTrigger(_ db: Database) throws {
        try db.execute(
            """
            CREATE TRIGGER articles_updatedAt AFTER UPDATE ON articles
            WHEN NEW.updatedAt IS OLD.updatedAt
                AND (NEW.title IS NOT OLD.title OR NEW.body IS NOT OLD.body
                    OR NEW.rating IS NOT OLD.rating OR NEW.authorId IS NOT OLD.authorId
                    OR NEW.id IS NOT OLD.id)
            BEGIN
                UPDATE articles SET updatedAt = \(now) WHERE id = NEW.id;
            END;
            """)
    }

    /// The FTS5 index over title and body, kept by triggers on every write (undo and redo
    /// replays included, as they are ordinary writes), and filled with the rows already there.
    ///
    /// The tokenizer folds case and accents (`remove_diacritics 2`: "cafe" finds "Café") and
    /// also indexes combining marks and symbols (`Mn Mc So`), so emoji are searchable.
    private static func createSearchIndex(_ db: Database) throws {
        try db.execute(
            """
            CREATE VIRTUAL TABLE \(searchTable) USING fts5(
                title, body, content = 'articles', content_rowid = 'id',
                tokenize = "unicode61 remove_diacritics 2 categories 'L* N* Co Mc Mn So'"
            );
            CREATE TRIGGER articles_fts_insert AFTER INSERT ON articles BEGIN
                INSERT INTO \(searchTable)(rowid, title, body) VALUES (NEW.id, NEW.title, NEW.body);
            END;
            CREATE TRIGGER articles_fts_delete AFTER DELETE ON articles BEGIN
                INSERT INTO \(searchTable)(\(searchTable), rowid, title, body)
                    VALUES ('delete', OLD.id, OLD.title, OLD.body);
            END;
            CREATE TRIGGER articles_fts_update AFTER UPDATE ON articles
            WHEN NEW.id IS NOT OLD.id OR NEW.title IS NOT OLD.title OR NEW.body IS NOT OLD.body
            BEGIN
                INSERT INTO \(searchTable)(\(searchTable), rowid, title, body)
                    VALUES ('delete', OLD.id, OLD.title, OLD.body);
                INSERT INTO \(searchTable)(rowid, title, body) VALUES (NEW.id, NEW.title, NEW.body);
            END;
            INSERT INTO \(searchTable)(\(searchTable)) VALUES ('rebuild');
            """)
    }

    /// The number of articles, kept by triggers, so that a list of every article knows its length
    /// without counting them: counting reads a whole index, milliseconds for 100k articles, on
    /// every start and after every new or deleted article.
    ///
    /// Like the search index, it follows INSERT and DELETE from any connection (undo and redo
    /// replays and ON DELETE CASCADE included). A row that `REPLACE` deletes to make room fires no
    /// delete trigger (unless recursive triggers are on), so `Notebook.recountArticles` puts the
    /// number right again.
    private static func createArticleCount(_ db: Database) throws {
        try db.execute(
            """
            CREATE TABLE \(countTable) (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                articles INTEGER NOT NULL
            );
            INSERT INTO \(countTable)(id, articles) SELECT 1, count(*) FROM articles;
            CREATE TRIGGER articles_count_insert AFTER INSERT ON articles BEGIN
                UPDATE \(countTable) SET articles = articles + 1 WHERE id = 1;
            END;
            CREATE TRIGGER articles_count_delete AFTER DELETE ON articles BEGIN
                UPDATE \(countTable) SET articles = articles - 1 WHERE id = 1;
            END;
            """)
    }

    /// Makes the search index follow `REPLACE`, which deletes the row in the way without a delete
    /// trigger (unless recursive triggers are on, and another program's connection may not have
    /// them): the words of that row stay in the index under its id, and the article that takes
    /// the id would be indexed over them (a search for the old words finds the new article, and
    /// FTS5's integrity check fails). The old words cannot be taken out one by one (an external
    /// content index needs the old values to delete them), so when the id a row is inserted (or
    /// moved) to is still indexed, the index is rebuilt from the table: rare, and always right.
    /// An index that a `REPLACE` already left wrong is rebuilt now.
    private static func makeSearchFollowReplace(_ db: Database) throws {
        let stillIndexed = "EXISTS (SELECT 1 FROM \(searchTable)_docsize WHERE id = NEW.id)"
        let indexNew = """
            INSERT INTO \(searchTable)(\(searchTable)) SELECT 'rebuild' WHERE \(stillIndexed);
            INSERT INTO \(searchTable)(rowid, title, body)
                SELECT NEW.id, NEW.title, NEW.body WHERE NOT \(stillIndexed);
            """
        try db.execute(
            """
            DROP TRIGGER articles_fts_insert;
            CREATE TRIGGER articles_fts_insert AFTER INSERT ON articles BEGIN
                \(indexNew)
            END;
            DROP TRIGGER articles_fts_update;
            CREATE TRIGGER articles_fts_update AFTER UPDATE ON articles
            WHEN NEW.id IS NOT OLD.id OR NEW.title IS NOT OLD.title OR NEW.body IS NOT OLD.body
            BEGIN
                INSERT INTO \(searchTable)(\(searchTable), rowid, title, body)
                    VALUES ('delete', OLD.id, OLD.title, OLD.body);
                \(indexNew)
            END;
            INSERT INTO \(searchTable)(\(searchTable)) VALUES ('rebuild');
            """)
    }

    /// The substring index, so a search finds a word of Chinese, Japanese or Thai anywhere in a
    /// run of text (the word index finds it only at the start of a run: 成都 in 搬家到成都).
    ///
    /// FTS5's trigram tokenizer indexes every three code points, so a search of three or more
    /// matches anywhere; a shorter one finds the trigrams that start with it in the index's
    /// terms. Two newlines follow each indexed text so that every character starts a trigram,
    /// including the last two. Trigrams of all text would make the file several times larger
    /// and every keystroke slower, so the index holds only the articles that have text of an
    /// unspaced script (`UnspacedScripts`, tested by GLOB in plain SQL). Its content is a view
    /// of those articles, which `rebuild` reads; the triggers write what the view shows, and
    /// follow `REPLACE` as the word index does (`makeSearchFollowReplace`).
    private static func createSubstringSearch(_ db: Database) throws {
        let index = substringSearchTable
        let view = "articles_unspaced"
        let unspaced = { (row: String) in
            "(\(UnspacedScripts.sqlTest("\(row).title")) OR \(UnspacedScripts.sqlTest("\(row).body")))"
        }
        let stillIndexed = "EXISTS (SELECT 1 FROM \(index)_docsize WHERE id = NEW.id)"
        let indexNew = """
            INSERT INTO \(index)(\(index)) SELECT 'rebuild' WHERE \(stillIndexed);
            INSERT INTO \(index)(rowid, title, body)
                SELECT NEW.id, NEW.title || char(10, 10), NEW.body || char(10, 10)
                WHERE \(unspaced("NEW")) AND NOT \(stillIndexed);
            """
        let deleteOld = """
            INSERT INTO \(index)(\(index), rowid, title, body)
                SELECT 'delete', OLD.id, OLD.title || char(10, 10), OLD.body || char(10, 10)
                WHERE \(unspaced("OLD"));
            """
        try db.execute(
            """
            CREATE VIEW \(view) AS
                SELECT id, title || char(10, 10) AS title, body || char(10, 10) AS body
                FROM articles WHERE \(unspaced("articles"));
            CREATE VIRTUAL TABLE \(index) USING fts5(
                title, body, content = '\(view)', content_rowid = 'id', tokenize = 'trigram'
            );
            CREATE VIRTUAL TABLE \(substringTerms) USING fts5vocab(\(index), instance);
            CREATE TRIGGER \(index)_insert AFTER INSERT ON articles BEGIN
                \(indexNew)
            END;
            CREATE TRIGGER \(index)_delete AFTER DELETE ON articles BEGIN
                \(deleteOld)
            END;
            CREATE TRIGGER \(index)_update AFTER UPDATE ON articles
            WHEN NEW.id IS NOT OLD.id OR NEW.title IS NOT OLD.title OR NEW.body IS NOT OLD.body
            BEGIN
                \(deleteOld)
                \(indexNew)
            END;
            INSERT INTO \(index)(\(index)) VALUES ('rebuild');
            """)
    }
}
