/// A cell whose value cannot be read: the row is skipped and the column named.
struct CSVCellError: Error {
    /// The column's index in the record (0-based).
    var index: Int?
    var message: String
}
