extension Sequence<Int64> {
    /// The values as a JSON array, to bind as one argument and read with `json_each`.
    var jsonArray: String { "[" + map(String.init).joined(separator: ",") + "]" }
}
