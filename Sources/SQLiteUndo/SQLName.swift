extension String {
    /// This name as a quoted SQL identifier: `my "table"` becomes `"my ""table"""`.
    var quotedIdentifier: String { "\"" + replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
}
