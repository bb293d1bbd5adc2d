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

    @Test func matchRangesFollowWordStarts() {
        let title = "Élan vital, elan again: ÉLANS"
        let found = ArticleListView.matches(of: "elan", in: title).map { String(title[$0]) }
        #expect(found == ["Élan", "elan", "ÉLAN"])
        #expect(ArticleListView.matches(of: "lan", in: title).isEmpty)
    }
}
