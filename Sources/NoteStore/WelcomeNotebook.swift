/// The welcome notebook (`Resources/welcome-notebook.json`): articles explaining the keys, by one
/// author.
struct WelcomeNotebook: Decodable {
    /// One article of the welcome notebook.
    struct Entry: Decodable {
        let title: String
        let body: String
        let rating: Int
    }

    /// The author's name ("notes").
    let author: String
    /// The articles, the one to show first at the top.
    let articles: [Entry]

    /// The welcome notebook embedded in the module.
    /// - Throws: `NotebookError.damagedResource` when the file does not decode.
    static func embedded() throws -> WelcomeNotebook {
        try decodeResource(
            WelcomeNotebook.self, PackageResources.welcome_notebook_json,
            name: "welcome-notebook.json")
    }
}
