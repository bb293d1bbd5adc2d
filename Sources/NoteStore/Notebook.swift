/// The notebook's operations: the queries a list pane needs, the edits, and seeding.
///
/// Each takes the `Database` of a `read` or `write` closure, so the caller chooses the
/// transaction and the undo barrier:
///
/// ```swift
/// let page = try db.read { try Notebook.page($0, query, offset: 0, limit: 50) }
/// try undoable("Set Rating") { try db.write { try Notebook.setRating($0, ofArticle: id, to: 4) } }
/// ```
///
/// No SQL is ever built from user text: titles, bodies, names and searches are bound arguments.
public enum Notebook {}
