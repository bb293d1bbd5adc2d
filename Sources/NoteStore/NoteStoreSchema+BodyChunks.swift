import SQLiteDatabase

extension NoteStoreSchema {
    /// The table of articles without their bodies.
    static let articleRows = "article_rows"
    /// The table of the bodies' chunks (`BodyChunks`).
    static let articleChunks = "article_chunks"
    /// The view of the documents the search indexes hold: each title (id: minus the article's)
    /// and each chunk of a body (id: the chunk's).
    static let documents = "article_documents"

    /// SQL for the article of a search document whose id is `document`.
    static func article(ofDocument document: String) -> String {
        "(CASE WHEN \(document) < 0 THEN -\(document) "
            + "ELSE (SELECT articleId FROM \(articleChunks) WHERE id = \(document)) END)"
    }

    /// Stores each body as chunks of about a kilobyte (`article_chunks`), so that a keystroke
    /// writes, indexes and keeps in undo history a chunk, not the whole body: typing into a body
    /// of a megabyte costs what typing into a short one costs.
    ///
    /// The rest of the article stays in its row (`articles` renamed `article_rows`, with its
    /// indexes and count triggers). `articles` becomes a view of whole articles, body joined
    /// from its chunks, so the `sqlite3` command line and exports still see each article whole;
    /// INSTEAD OF triggers let them INSERT, UPDATE and DELETE through it. A body written there
    /// whose change lies inside one chunk rewrites that chunk alone (found in plain SQL by the
    /// bytes before and after each chunk), so the other chunks' rows, and the undo history of
    /// edits in them, stay; any other change goes whole into the article's first chunk, and the
    /// app cuts it again at its next edit. A chunk's change stamps its
    /// article's `updatedAt`. The search indexes hold one document per title and per chunk;
    /// a search finds the articles that have every word in some document of theirs.
    static func storeBodiesInChunks(_ db: Database) throws {
        try db.execute(
            """
            DROP TRIGGER articles_updatedAt;
            DROP TRIGGER articles_fts_insert;
            DROP TRIGGER articles_fts_delete;
            DROP TRIGGER articles_fts_update;
            DROP TRIGGER \(substringSearchTable)_insert;
            DROP TRIGGER \(substringSearchTable)_delete;
            DROP TRIGGER \(substringSearchTable)_update;
            DROP VIEW articles_unspaced;
            DROP TABLE \(substringTerms);
            DROP TABLE \(substringSearchTable);
            DROP TABLE \(searchTable);
            ALTER TABLE articles RENAME TO \(articleRows);
            CREATE TABLE \(articleChunks) (
                id INTEGER PRIMARY KEY,
                articleId INTEGER NOT NULL
                    REFERENCES \(articleRows)(id) ON DELETE CASCADE ON UPDATE CASCADE,
                position INTEGER NOT NULL,
                text TEXT NOT NULL
            );
            CREATE INDEX article_chunks_articleId_position ON \(articleChunks)(articleId, position);
            """)
        let bodies = try db.fetchCursor(
            "SELECT id, CAST(body AS BLOB) FROM \(articleRows) WHERE body IS NOT ''")
        while let row = try bodies.next() {
            guard case .blob(let bytes) = row[1] else { continue }
            try Notebook.insertChunks(db, ofArticle: try row.decode(at: 0), bytes)
        }
        try db.execute("ALTER TABLE \(articleRows) DROP COLUMN body")
        try createArticlesView(db)
        try createChunkStamps(db)
        try createDocumentIndexes(db)
    }

    /// The `articles` view, and its INSTEAD OF triggers.
    private static func createArticlesView(_ db: Database) throws {
        let firstPosition = BodyChunks.positionStep
        let firstChunk = """
            (SELECT id FROM \(articleChunks) WHERE articleId = OLD.id ORDER BY position, id LIMIT 1)
            """
        let bodyNow = "(SELECT body FROM articles WHERE id = OLD.id)"
        let (oldBytes, newBytes) = ("CAST(OLD.body AS BLOB)", "CAST(NEW.body AS BLOB)")
        // How much longer the new body is: where the old body's bytes after a chunk start in it.
        let shift = "(length(\(newBytes)) - length(\(oldBytes)))"
        try db.execute(
            """
            CREATE VIEW articles AS
                SELECT r.id AS id, r.authorId AS authorId, r.title AS title,
                    coalesce((
                        SELECT group_concat(c.text, '') FROM (
                            SELECT text FROM \(articleChunks) WHERE articleId = r.id
                            ORDER BY position, id
                        ) AS c
                    ), '') AS body,
                    r.rating AS rating, r.createdAt AS createdAt, r.updatedAt AS updatedAt
                FROM \(articleRows) AS r;
            CREATE TRIGGER articles_insert INSTEAD OF INSERT ON articles BEGIN
                DELETE FROM \(articleChunks) WHERE NEW.id IS NOT NULL AND articleId = NEW.id;
                INSERT INTO \(articleRows)(id, authorId, title, rating, createdAt, updatedAt)
                    VALUES (NEW.id, NEW.authorId, NEW.title, coalesce(NEW.rating, 0),
                        coalesce(NEW.createdAt, \(now)), coalesce(NEW.updatedAt, \(now)));
                INSERT INTO \(articleChunks)(articleId, position, text)
                    SELECT last_insert_rowid(), \(firstPosition), NEW.body
                    WHERE coalesce(NEW.body, '') IS NOT '';
                -- The chunk stamped the clock's time over the date given.
                UPDATE \(articleRows) SET updatedAt = NEW.updatedAt
                WHERE coalesce(NEW.body, '') IS NOT '' AND NEW.updatedAt IS NOT NULL
                    AND id = (SELECT articleId FROM \(articleChunks) WHERE id = last_insert_rowid());
            END;
            CREATE TRIGGER articles_update INSTEAD OF UPDATE ON articles BEGIN
                -- A change inside one chunk rewrites that chunk alone.
                UPDATE \(articleChunks)
                SET text = CAST(substr(\(newBytes), k.s + 1, \(shift) + k.e - k.s) AS TEXT)
                FROM (
                    SELECT id, s, e FROM (
                        SELECT id,
                            sum(length(CAST(text AS BLOB))) OVER chunks
                                - length(CAST(text AS BLOB)) AS s,
                            sum(length(CAST(text AS BLOB))) OVER chunks AS e
                        FROM \(articleChunks) WHERE articleId = OLD.id
                        WINDOW chunks AS (ORDER BY position, id)
                    )
                    WHERE \(shift) + e >= s
                        AND substr(\(newBytes), 1, s) = substr(\(oldBytes), 1, s)
                        AND substr(\(newBytes), \(shift) + e + 1) = substr(\(oldBytes), e + 1)
                    ORDER BY s LIMIT 1
                ) AS k
                WHERE \(articleChunks).id = k.id
                    AND NEW.body IS NOT OLD.body AND coalesce(NEW.body, '') IS NOT '';
                -- Otherwise the whole body goes into the first chunk.
                UPDATE \(articleChunks) SET text = NEW.body
                WHERE \(bodyNow) IS NOT NEW.body AND coalesce(NEW.body, '') IS NOT ''
                    AND id = \(firstChunk);
                DELETE FROM \(articleChunks)
                WHERE \(bodyNow) IS NOT NEW.body AND articleId = OLD.id
                    AND (coalesce(NEW.body, '') IS '' OR id IS NOT \(firstChunk));
                INSERT INTO \(articleChunks)(articleId, position, text)
                    SELECT OLD.id, \(firstPosition), NEW.body
                    WHERE \(bodyNow) IS NOT NEW.body AND coalesce(NEW.body, '') IS NOT ''
                        AND NOT EXISTS (SELECT 1 FROM \(articleChunks) WHERE articleId = OLD.id);
                UPDATE \(articleRows) SET id = NEW.id, authorId = NEW.authorId, title = NEW.title,
                    rating = NEW.rating, createdAt = NEW.createdAt,
                    updatedAt = CASE WHEN NEW.updatedAt IS OLD.updatedAt
                        THEN updatedAt ELSE NEW.updatedAt END
                WHERE id = OLD.id;
                UPDATE \(articleChunks) SET articleId = NEW.id
                    WHERE articleId = OLD.id AND NEW.id IS NOT OLD.id;
            END;
            CREATE TRIGGER articles_delete INSTEAD OF DELETE ON articles BEGIN
                DELETE FROM \(articleChunks) WHERE articleId = OLD.id;
                DELETE FROM \(articleRows) WHERE id = OLD.id;
            END;
            """)
    }

    /// `updatedAt` follows the article's own columns (as before) and its chunks' text.
    private static func createChunkStamps(_ db: Database) throws {
        let stamp = { (article: String) in
            "UPDATE \(articleRows) SET updatedAt = \(now) WHERE id = \(article);"
        }
        try db.execute(
            """
            CREATE TRIGGER articles_updatedAt AFTER UPDATE ON \(articleRows)
            WHEN NEW.updatedAt IS OLD.updatedAt
                AND (NEW.title IS NOT OLD.title OR NEW.rating IS NOT OLD.rating
                    OR NEW.authorId IS NOT OLD.authorId OR NEW.id IS NOT OLD.id)
            BEGIN
                UPDATE \(articleRows) SET updatedAt = \(now) WHERE id = NEW.id;
            END;
            CREATE TRIGGER article_chunks_updatedAt_insert AFTER INSERT ON \(articleChunks) BEGIN
                \(stamp("NEW.articleId"))
            END;
            CREATE TRIGGER article_chunks_updatedAt_update AFTER UPDATE ON \(articleChunks)
            WHEN NEW.text IS NOT OLD.text BEGIN
                \(stamp("NEW.articleId"))
            END;
            CREATE TRIGGER article_chunks_updatedAt_delete AFTER DELETE ON \(articleChunks) BEGIN
                \(stamp("OLD.articleId"))
            END;
            """)
    }

    /// The word index and the substring index over the documents (`documents`): their
    /// content views, the triggers that keep them (as `makeSearchFollowReplace` and
    /// `createSubstringSearch` describe), and their first fill.
    private static func createDocumentIndexes(_ db: Database) throws {
        let unspacedView = "article_documents_unspaced"
        try db.execute(
            """
            CREATE VIEW \(documents) AS
                SELECT -id AS id, title AS text FROM \(articleRows)
                UNION ALL SELECT id, text FROM \(articleChunks);
            CREATE VIEW \(unspacedView) AS
                SELECT id, text || char(10, 10) AS text FROM \(documents)
                WHERE \(UnspacedScripts.sqlTest("text"));
            CREATE VIRTUAL TABLE \(searchTable) USING fts5(
                text, content = '\(documents)', content_rowid = 'id',
                tokenize = "unicode61 remove_diacritics 2 categories 'L* N* Co Mc Mn So'"
            );
            CREATE VIRTUAL TABLE \(substringSearchTable) USING fts5(
                text, content = '\(unspacedView)', content_rowid = 'id', tokenize = 'trigram'
            );
            CREATE VIRTUAL TABLE \(substringTerms) USING fts5vocab(\(substringSearchTable), instance);
            """)
        let sources = [
            (trigger: "articles", table: articleRows, id: "-%.id", text: "%.title"),
            (trigger: "article_chunks", table: articleChunks, id: "%.id", text: "%.text"),
        ]
        for source in sources {
            let id = { (row: String) in source.id.replacing("%", with: row) }
            let text = { (row: String) in source.text.replacing("%", with: row) }
            var insert: [String] = []
            var delete: [String] = []
            for index in [searchTable, substringSearchTable] {
                let isSubstring = index == substringSearchTable
                let indexed = { (row: String) in
                    isSubstring ? "\(text(row)) || char(10, 10)" : text(row)
                }
                let kept = { (row: String) in
                    isSubstring ? " AND \(UnspacedScripts.sqlTest(text(row)))" : ""
                }
                let stillIndexed = "EXISTS (SELECT 1 FROM \(index)_docsize WHERE id = \(id("NEW")))"
                insert.append(
                    """
                    INSERT INTO \(index)(\(index)) SELECT 'rebuild' WHERE \(stillIndexed);
                    INSERT INTO \(index)(rowid, text) SELECT \(id("NEW")), \(indexed("NEW"))
                        WHERE NOT \(stillIndexed)\(kept("NEW"));
                    """)
                delete.append(
                    """
                    INSERT INTO \(index)(\(index), rowid, text)
                        SELECT 'delete', \(id("OLD")), \(indexed("OLD")) WHERE 1\(kept("OLD"));
                    """)
            }
            let changed = "NEW.id IS NOT OLD.id OR \(text("NEW")) IS NOT \(text("OLD"))"
            try db.execute(
                """
                CREATE TRIGGER \(source.trigger)_search_insert AFTER INSERT ON \(source.table) BEGIN
                    \(insert.joined(separator: "\n"))
                END;
                CREATE TRIGGER \(source.trigger)_search_delete AFTER DELETE ON \(source.table) BEGIN
                    \(delete.joined(separator: "\n"))
                END;
                CREATE TRIGGER \(source.trigger)_search_update AFTER UPDATE ON \(source.table)
                WHEN \(changed) BEGIN
                    \(delete.joined(separator: "\n"))
                    \(insert.joined(separator: "\n"))
                END;
                """)
        }
        try db.execute(
            """
            INSERT INTO \(searchTable)(\(searchTable)) VALUES ('rebuild');
            INSERT INTO \(substringSearchTable)(\(substringSearchTable)) VALUES ('rebuild');
            """)
    }
}
