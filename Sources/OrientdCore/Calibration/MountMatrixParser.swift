extension MountMatrix {
    /// Why a mount matrix could not be read.
    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// Reads the syntax shared by systemd's hwdb `ACCEL_MOUNT_MATRIX`, the kernel's
    /// sysfs `mount_matrix` and orientd's recording header: three rows separated by `;`,
    /// three numbers per row separated by `,`, spaces anywhere. A trailing newline or
    /// NUL (as some drivers leave) is ignored.
    ///
    /// It does not judge the matrix: see `findings` for what is odd about one.
    public init(parsing text: some StringProtocol) throws(ParseError) {
        var trimmed = Substring(text)
        while let last = trimmed.last, last == "\0" || last.isWhitespace { trimmed.removeLast() }
        while let first = trimmed.first, first.isWhitespace { trimmed.removeFirst() }
        guard !trimmed.isEmpty else {
            throw ParseError(message: "empty mount matrix; expected 3 rows like '1, 0, 0; 0, 1, 0; 0, 0, 1'")
        }
        let rowTexts = trimmed.split(separator: ";", omittingEmptySubsequences: false)
        guard rowTexts.count == 3 else {
            throw ParseError(
                message: "mount matrix '\(trimmed)' has \(rowTexts.count) row(s); expected 3 rows separated by ';'")
        }
        var rows: [Vector3] = []
        for (index, rowText) in rowTexts.enumerated() {
            let cells = rowText.split(separator: ",", omittingEmptySubsequences: false)
            guard cells.count == 3 else {
                throw ParseError(
                    message: "row \(index + 1) of mount matrix '\(trimmed)' has \(cells.count) number(s); expected 3 separated by ','")
            }
            var values: [Double] = []
            for cell in cells {
                let token = cell.trimmingBlanks
                guard let value = Double(token) else {
                    throw ParseError(message: "row \(index + 1) of mount matrix '\(trimmed)': '\(token)' is not a number")
                }
                guard value.isFinite else {
                    throw ParseError(message: "row \(index + 1) of mount matrix '\(trimmed)': '\(token)' is not finite")
                }
                values.append(value)
            }
            rows.append(Vector3(values[0], values[1], values[2]))
        }
        self.init(rows[0], rows[1], rows[2])
    }
}
