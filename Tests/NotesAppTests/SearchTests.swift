import TerminalUI
import Testing

@testable import NotesApp

@MainActor @Suite struct SearchTests {
    @Test func matchesAreHighlightedInTheList() throws {
        let fixture = try AppFixture(articles: 12)
        fixture.press(.character("/"))
        fixture.type("arti 1")
        fixture.press(.enter)
        let canvas = try #require(fixture.backend.lastCanvas)
        let row = 2  // first result
        let styles = (1...12).map {
            canvas.cell(at: Point(x: $0, y: row))?.style.underline ?? false
        }
        // "Article 1x": "Arti" and "1" are underlined, the rest of each word is not.
        #expect(
            styles == [
                true, true, true, true, false, false, false, false, true, false, false, false,
            ])
    }

    @Test(arguments: [
        "\"", "*", "NEAR(", "a -b", "(", ")", "'; DROP TABLE articles; --", "^:", "漢字", "😀",
        "\"\u{200D}x", "a\"\u{301} OR b",
    ])
    func hostileSearchTextIsSearchedAsText(text: String) throws {
        let fixture = try AppFixture(articles: 3)
        fixture.press(.character("/"))
        fixture.backend.enqueue(.paste(text))
        fixture.app.processPendingEvents()
        #expect(fixture.app.message == nil)
        #expect(fixture.screen.contains(" 1 Search: \(text)"))
        #expect(try fixture.titles() == ["Article 1", "Article 2", "Article 3"])
    }

    /// A pasted paragraph of a thousand words is a search like any other: the article with
    /// them all is listed, with no error (it was "Expression tree is too large").
    @Test func aPastedParagraphOfAThousandWordsIsSearched() throws {
        let fixture = try AppFixture(articles: 3)
        let words = (1...1000).map { "w\($0)" }
        try fixture.db.write {
            try $0.execute(
                "UPDATE articles SET body = ? WHERE title = 'Article 2'",
                [.text(words.joined(separator: " "))])
        }
        fixture.press(.character("/"))
        fixture.backend.enqueue(.paste(words.reversed().joined(separator: " ")))
        fixture.app.processPendingEvents()
        fixture.press(.enter)
        #expect(fixture.app.message == nil)
        // Pane 1's rows (the left half of the screen, below its header).
        let rows = fixture.screen.split(separator: "\n").dropFirst(2).prefix(7).map {
            $0.prefix { $0 != "│" }.trimmingCharacters(in: .whitespaces)
        }
        #expect(rows == ["Article 2                  Alice ★★☆☆☆", "", "", "", "", "", ""])
    }

    /// A pane counts its articles again only when articles come or go, or when it filters: an
    /// edit in another pane can make an article join its search.
    @Test func countsFollowEditsInOtherPanes() throws {
        let fixture = try AppFixture(articles: 3)
        fixture.press(.tab, .character("/"))
        fixture.type("essay")
        fixture.press(.enter, .backTab)
        #expect(fixture.screen.contains(" 1 All articles · 3"))
        #expect(fixture.screen.contains(" 2 Search: essay · 0"))

        // Pane 1 renames the selected article: pane 2's search finds it now.
        fixture.press(.enter, .backTab, .end)
        fixture.type(" essay")
        fixture.press(.escape)
        #expect(fixture.screen.contains(" 1 All articles · 3"), "\(fixture.screen)")
        #expect(fixture.screen.contains(" 2 Search: essay · 1"), "\(fixture.screen)")

        // A new article counts in both.
        fixture.press(.control("n"))
        fixture.type(" essay")
        fixture.press(.escape)
        #expect(fixture.screen.contains(" 1 All articles · 4"), "\(fixture.screen)")
        #expect(fixture.screen.contains(" 2 Search: essay · 2"), "\(fixture.screen)")
    }

    @Test func matchRangesFollowWordStarts() {
        let title = "Élan vital, elan again: ÉLANS"
        let found = ArticleListView.matches(of: "elan", in: title).map { String(title[$0]) }
        #expect(found == ["Élan", "elan", "ÉLAN"])
        #expect(ArticleListView.matches(of: "lan", in: title).isEmpty)
    }
}
