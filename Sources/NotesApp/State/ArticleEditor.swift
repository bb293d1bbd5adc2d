import NoteStore
import SQLiteDatabase
import SQLiteUndo
import TerminalUI

/// An open article being edited in a pane: a buffer for the title and one for the body, the
/// field with the cursor, and the current typing run (one undo step).
struct ArticleEditor {
    enum Field: String {
        case title
        case body
    }

    private(set) var article: Article
    var field = Field.body
    var title: EditorBuffer
    var body: EditorBuffer
    /// Find in the body (Ctrl-F): its prompt, or the matches marked after it closed.
    var find: ArticleFind?
    /// Where the cursor and the selection were before each cut, paste and forward delete of
    /// this editor, by the step's id (`UndoStep.id`, the same through undo and redo).
    var placesBeforeSteps: [Int64: PlaceBeforeStep] = [:]
    /// Where the coming undo's change puts the cursor and the selection back, with the field's
    /// length before that undo (`prepareForReplay`; nil: at the change's end).
    private var placeToRestore: (place: PlaceBeforeStep, lengthBeforeUndo: Int)?
    /// Whether the coming undo's change selects what came back: a cut or a paste this editor
    /// did not see (the article opened since), whose place is not known.
    private var selectsRestoredText = false
    /// Typing the notebook did not take (busy, disk full): it stays in the buffers, on the
    /// screen, and is written again at the next tick (`NotesApp.saveTyping`).
    var unsaved: UnsavedTyping?
    /// Where the stored body is cut into chunks, as the last write left it: the next write finds
    /// its chunk without reading the others (nil: read it then). Cleared when the body is read.
    var bodyLayout: BodyLayout?
    /// Counts typing runs; part of the coalescing key, so a new run starts a new undo step.
    private(set) var run = 0
    /// Whether the current run inserts (true) or deletes (false).
    private var runInserts: Bool?

    init(article: Article) {
        self.article = article
        title = EditorBuffer(text: article.title, cursorOffset: article.title.utf8.count)
        body = EditorBuffer(text: article.body)
    }

    var articleID: Int64 { article.id }

    /// The buffer with the cursor. Changed in place (`_modify`): a copy of a body of megabytes
    /// at every key would cost what the body costs.
    var buffer: EditorBuffer {
        get { field == .title ? title : body }
        _modify {
            if field == .title { yield &title } else { yield &body }
        }
    }

    /// The coalescing key of the current run: typing in one field merges until the run ends.
    var runKey: String { "article-\(article.id)-\(field.rawValue)-\(run)" }

    /// The field's text as last written or read: what an edit of it started from.
    func saved(_ field: Field) -> String {
        field == .title ? article.title : article.body
    }

    /// The fields whose text on the screen differs from the notebook's: typing not written yet.
    /// Compared byte for byte (as they are written), at memory speed: a body may be megabytes.
    var unsavedFields: [Field] {
        [Field.title, .body].filter { field in
            var (shown, stored) = (text(of: field), saved(field))
            return shown.withUTF8 { shown in
                stored.withUTF8 { stored in
                    shown.count != stored.count
                        || CommonPrefixAndSuffix.of(shown, stored).prefix != shown.count
                }
            }
        }
    }

    /// The text on the screen of `field`.
    func text(of field: Field) -> String {
        field == .title ? title.text : body.text
    }

    /// Notes that `text` was written to the field (maybe merged with someone else's change).
    mutating func noteSaved(_ text: String, in field: Field) {
        switch field {
        case .title: article.title = text
        case .body: article.body = text
        }
    }

    /// Notes that `text` was written to the field, and shows it (someone else's change merged in).
    mutating func noteWritten(_ text: String, in field: Field) {
        noteSaved(text, in: field)
        switch field {
        case .title: _ = title.replaceText(text)
        case .body: _ = body.replaceText(text)
        }
    }

    /// Drops the typing not written: the fields show the notebook's text again.
    mutating func dropTyping() {
        bodyLayout = nil
        _ = title.replaceText(article.title)
        _ = body.replaceText(article.body)
        unsaved = nil
    }

    /// Before an undo or a redo of `step`: the undo of a cut, a paste or a forward delete puts
    /// the cursor and the selection back as they were before it (a cut or a paste this editor
    /// did not see selects what comes back); any other replay puts the cursor at the change's
    /// end.
    mutating func prepareForReplay(undoing: Bool, of step: UndoStep?) {
        placeToRestore = nil
        selectsRestoredText = false
        guard undoing, let step else { return }
        if let place = placesBeforeSteps[step.id] {
            placeToRestore = (place, text(of: place.field).utf8.count)
        } else {
            selectsRestoredText = ["Cut", "Paste"].contains(step.name)
        }
    }

    /// Ends the typing run: the next edit is a new undo step (a cursor jump, leaving, undo).
    mutating func endRun() {
        run += 1
        runInserts = nil
    }

    /// Notes an edit; switching between inserting and deleting ends the run first.
    mutating func noteEdit(inserting: Bool) {
        if let runInserts, runInserts != inserting { endRun() }
        runInserts = inserting
    }

    /// Puts the cursor on the first place in the body where a word of the list's `search`
    /// occurs, the word's matches marked as a find marks them (F3 goes on, Esc unmarks). Looks
    /// for the search's first 20 words (a pasted paragraph is not scanned a thousand times),
    /// each no further than the first found so far.
    mutating func showFirstMatch(of search: String) {
        var first: (range: Range<Int>, word: String)?
        for word in search.split(whereSeparator: \.isWhitespace).prefix(20).map(String.init) {
            let limit = first?.range.lowerBound ?? body.layout.length
            if let match = wordStart(word, before: limit) { first = (match, word) }
        }
        guard let first else { return }
        field = .body
        body.moveCursor(toOffset: first.range.lowerBound)
        find = ArticleFind(text: first.word)
    }

    /// The first match of `word` in the body that starts before `limit` where the list's search
    /// finds it: at the start of a word, or, for a word not in ASCII (Chinese, Japanese), anywhere.
    private func wordStart(_ word: String, before limit: Int) -> Range<Int>? {
        let text = body.text
        let anywhere = !word.utf8.allSatisfy { $0 < 0x80 }
        var from = 0
        while from < limit,
            let match = TextFinder.matches(
                of: word, in: text, startingIn: from..<limit, first: true
            )
            .first
        {
            let before = body.layout.boundary(before: match.lowerBound)
                .flatMap(body.layout.character(at:))
            if anywhere || !(before?.isLetter ?? false || before?.isNumber ?? false) {
                return match
            }
            from = match.upperBound
        }
        return nil
    }

    mutating func switchField() {
        field = field == .title ? .body : .title
        endRun()
    }

    /// Takes the article as stored now (another pane's typing, an undo): texts are replaced
    /// keeping the cursor on the same text, or at the change (`cursorToChange`: after this
    /// pane's own undo or redo).
    ///
    /// Typing not written yet is kept: merged into the stored text when it can be
    /// (`TextSplice.merge`), or left on the screen over the text it was typed into, for the
    /// next write to merge or refuse.
    mutating func refresh(from stored: Article, cursorToChange: Bool = false) {
        let before = article
        article = stored
        bodyLayout = nil
        let titleChange = title.replaceText(keepingTyping(in: .title, readFrom: before))
        let bodyChange = body.replaceText(keepingTyping(in: .body, readFrom: before))
        if cursorToChange { moveCursor(toBodyChange: bodyChange, orTitleChange: titleChange) }
    }

    /// Takes the article as stored now when only its body's chunks changed as `change` says
    /// (`Notebook.bodyChange`), and no typing waits: the body is spliced, not read whole.
    /// `fields` is the article without its body (`Notebook.articleWithoutBody`).
    mutating func refresh(
        from fields: Article,
        bodyChange change: (replaced: Range<Int>, text: String, layout: BodyLayout),
        cursorToChange: Bool
    ) {
        var stored = fields
        stored.body = article.body
        let bytes = { (range: Range<Int>) in
            Array(
                stored.body.utf8[
                    UTF8Offsets.index(
                        range.lowerBound, in: stored.body)..<UTF8Offsets.index(
                            range.upperBound, in: stored.body)])
        }
        // The chunks' bytes that differ: the cursor goes to the end of the change, not of them.
        // Two texts may share the first bytes of different characters (two emoji), or a
        // character's first scalars: the bytes replaced are widened to whole characters of the
        // body as it was, which the editor replaces (around the change, the texts are equal).
        let new = Array(change.text.utf8)
        let same = CommonPrefixAndSuffix.of(bytes(change.replaced), new)
        let differing =
            (change.replaced.lowerBound + same.prefix)..<(change.replaced.upperBound - same.suffix)
        let replaced =
            UTF8Offsets.characterStart(
                atOrBefore: differing.lowerBound, in: stored.body)..<UTF8Offsets.characterEnd(
                atOrAfter: differing.upperBound, in: stored.body)
        let text = String(
            decoding: bytes(replaced.lowerBound..<differing.lowerBound)
                + new[same.prefix..<(new.count - same.suffix)]
                + bytes(differing.upperBound..<replaced.upperBound), as: UTF8.self)
        let start = UTF8Offsets.index(replaced.lowerBound, in: stored.body)
        let end = UTF8Offsets.index(replaced.upperBound, in: stored.body)
        stored.body.replaceSubrange(start..<end, with: text)
        article = stored
        bodyLayout = change.layout
        let titleChange = title.replaceText(stored.title)
        let bodyChange =
            replaced.isEmpty && text.isEmpty ? nil : body.replaceBytes(replaced, with: text)
        if cursorToChange { moveCursor(toBodyChange: bodyChange, orTitleChange: titleChange) }
    }

    /// Puts the cursor at the end of the change an undo or redo made, in the body, else the
    /// title.
    private mutating func moveCursor(
        toBodyChange bodyChange: Range<Int>?, orTitleChange titleChange: Range<Int>?
    ) {
        defer { (placeToRestore, selectsRestoredText) = (nil, false) }
        if let change = bodyChange {
            field = .body
            body.moveCursor(toOffset: change.upperBound)
            if let restoring = placeToRestore, restoring.place.field == .body {
                restoring.place.restore(
                    in: &body, after: change, lengthBeforeUndo: restoring.lengthBeforeUndo)
            } else if selectsRestoredText {
                body.select(change)
            }
        } else if let change = titleChange {
            field = .title
            title.moveCursor(toOffset: change.upperBound)
            if let restoring = placeToRestore, restoring.place.field == .title {
                restoring.place.restore(
                    in: &title, after: change, lengthBeforeUndo: restoring.lengthBeforeUndo)
            } else if selectsRestoredText {
                title.select(change)
            }
        }
    }

    /// The text `field` shows once `article` is the stored one: the stored text, or the typing not
    /// written yet merged into it. When the typing cannot be merged, the field keeps it and
    /// the text it was typed into (`before`) stays its base.
    private mutating func keepingTyping(in field: Field, readFrom before: Article) -> String {
        let typed = text(of: field)
        let base = field == .title ? before.title : before.body
        let stored = saved(field)
        guard typed != base else { return stored }
        if let merged = TextSplice.merge(base: base, mine: typed, theirs: stored) { return merged }
        noteSaved(base, in: field)
        return typed
    }
}

/// Typing waiting to be written: the undo step it will be (name and coalescing key), why the
/// last try failed, in words, and the key the user was told drops it when pressed again.
struct UnsavedTyping {
    var name: String
    var coalescingKey: String?
    var reason: String
    var dropAnnouncedFor: String?
}
