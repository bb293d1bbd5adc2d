import Foundation
import SQLiteDatabase
import TestSupport
import Testing

/// With the real program in tmux: a word of Chinese is found inside a run of
/// text that another program wrote.
extension NotesEndToEndTests {
    @Test func searchFindsChineseInsideARunOfText() throws {
        try makeNotebook(articles: 30)
        try DatabaseQueue(path: notebook).write { db in
            let titles = [
                5: "搬家到成都", 10: "明年搬家到成都", 20: "我们搬家到成都了", 25: "成功",
            ]
            for (number, title) in titles {
                try db.execute(
                    "UPDATE articles SET title = ? WHERE title = ?",
                    [.text(title), .text(String(format: "Art %03d", number))])
            }
        }
        let session = try TmuxSession(
            arguments: ["--db", notebook, "--panes", "1"], width: 80, height: 24, folder: folder)
        try session.waitFor("Art 030")
        try session.send("/")
        try session.sendLiteral("成都")
        try session.send("Enter")
        // The rows are drawn under the header: the list is waited for whole.
        let screen = try session.waitUntil("the three articles found") { screen in
            let listed = screen.split(separator: "\n").filter { $0.contains("成") }
            return screen.contains("Search: 成都 · 3")
                && listed.count == 4  // the header and three articles
                && ["我们搬家到成都了", "明年搬家到成都", "搬家到成都"].allSatisfy { title in
                    listed.contains { $0.contains(title) }
                }
        }
        #expect(!screen.contains("成功"))
        // One character finds it anywhere too.
        try session.send("/")
        try session.send("BSpace")
        try session.send("Enter")
        try session.waitFor("Search: 成 · 4")
        try session.send("C-q")
        try session.waitFor("EXIT=0")
    }
}
