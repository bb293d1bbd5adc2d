extension String {
    /// This name as a quoted SQL identifier: `my "table"` becomes `"my ""table"""`. Built
    /// without Foundation's search (an undo quotes a few hundred names).
    var quotedIdentifier: String {
        var quoted = "\""
        for character in self {
            quoted.append(character)
            if character == "\"" { quoted.append(character) }
        }
        quoted.append("\"")
        return quoted
    }
}
