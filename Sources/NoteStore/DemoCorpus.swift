import Foundation

/// The demo notebook's raw material (`Resources/demo-notebook.json`): per language, authors,
/// subjects, title templates and paragraphs, with `{subject}` placeholders.
struct DemoCorpus: Decodable {
    /// One language's material.
    struct Language: Decodable {
        let authors: [String]
        let subjects: [String]
        let titles: [String]
        let openings: [String]
        let middles: [String]
        let closings: [String]
    }

    let languages: [Language]

    static let placeholder = "{subject}"

    /// The corpus embedded in the module.
    /// - Throws: `NotebookError.damagedResource` when the file does not decode.
    static func embedded() throws -> DemoCorpus {
        try decodeResource(
            DemoCorpus.self, PackageResources.demo_notebook_json, name: "demo-notebook.json")
    }
}

/// Decodes an embedded JSON file, naming it in the error.
func decodeResource<T: Decodable>(_ type: T.Type, _ bytes: [UInt8], name: String) throws -> T {
    do {
        return try JSONDecoder().decode(T.self, from: Data(bytes))
    } catch {
        throw NotebookError.damagedResource(name: name, reason: "\(error)")
    }
}
