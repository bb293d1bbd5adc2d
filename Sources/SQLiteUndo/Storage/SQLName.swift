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

    /// This text as an SQL literal, byte for byte (a hex blob cast to text: NUL and quotes
    /// included).
    var sqlTextLiteral: String {
        let digits = Array("0123456789abcdef")
        let hex = utf8.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }
        return "CAST(x'\(String(hex))' AS TEXT)"
    }
}
