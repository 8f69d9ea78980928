/// Which CSV format a header is, and where its time, x and y columns are; each format
/// recognises its own header (`TiltFormat.csvLayout`).
///
/// Recognised headers (cells compared without case, quotes or surrounding spaces):
/// - Tiltbox CSV: exactly `t,x,y` or `t,x,y,z`, readings in g.
/// - phyphox "Acceleration with g": `Time (s)` plus `Acceleration x (m/s^2)` and
///   `Acceleration y (m/s^2)` (more columns allowed). Its "Linear Acceleration"
///   export is refused: it has no gravity in it.
/// - Sensor Logger: `seconds_elapsed`, `x` and `y` found by name (the export writes
///   `time,seconds_elapsed,z,y,x`). `Accelerometer.csv` is refused: no gravity in it.
struct TiltCSVLayout {
    var format: TiltFormat
    var time: Int
    var x: Int
    var y: Int
    /// The header's cells, for naming columns in messages.
    var names: [String]

    /// The layout of the first format (`TiltFormat.csvLayout`) whose header `header` is.
    static func recognise(_ header: DelimitedText.Line, file: String, fileName: String) throws(InputError)
        -> TiltCSVLayout
    {
        let cells = header.cells.map { $0.lowercased().replacingOccurrences(of: "²", with: "^2") }
        for format in TiltFormat.allCases {
            if let layout = try format.csvLayout(header, cells: cells, file: file, fileName: fileName) { return layout }
        }
        // The line is not echoed: a file that is not a tilt file at all (a secret, an
        // environment) must not end up on standard error or in a batch report.
        throw InputError(
            file: file, line: header.number,
            reason: "the first line is not the header of a known tilt format (expected \(expectation))")
    }

    /// `t,x,y or t,x,y,z, a phyphox "Acceleration with g" export, or a Sensor Logger Gravity.csv`.
    static var expectation: String {
        let each = TiltFormat.allCases.compactMap(\.headerExpectation)
        return each.count < 2 ? each.joined() : each.dropLast().joined(separator: ", ") + ", or " + each[each.count - 1]
    }

    /// The samples of `table`, each axis converted to g in the CoreMotion convention by
    /// `toG`. Rows with an empty or NaN cell in a used column are skipped. Each reading is
    /// checked as the run will use it, turned by `orientation` and scaled by `g`
    /// (`GravityBound`), and blamed on its cell's line and column.
    ///
    /// - Throws: a located `InputError` for a short row, a non-numeric or infinite cell,
    ///   a reading beyond the gravity bound, a time earlier than the row before, or when
    ///   no row is left.
    func samples(
        from table: DelimitedText, file: String, orientation: Orientation, g: Double,
        toG: (Double) -> Double
    ) throws(InputError) -> [TiltSample] {
        let decimalComma = table.delimiter != ","
        let needed = max(time, x, y)
        var samples: [TiltSample] = []
        try table.forEachRow { (row: DelimitedText.Line) throws(InputError) in
            func fail(_ reason: String, column: Int? = nil) -> InputError {
                InputError(file: file, line: row.number, column: column.map { row.columns[$0] }, reason: reason)
            }
            guard row.cells.count > needed else {
                let missing = [time, x, y].first { $0 >= row.cells.count } ?? needed
                throw fail("missing column '\(name(missing))' (row has \(row.cells.count) cells)")
            }
            // nil: an empty or NaN cell, which skips the row.
            func value(_ column: Int) throws(InputError) -> Double? {
                var cell = row.cells[column]
                if cell.isEmpty { return nil }
                if decimalComma, cell.utf8.contains(UInt8(ascii: ",")) {
                    cell = String(cell.map { $0 == "," ? "." : $0 })
                }
                guard let value = Double(cell) else {
                    throw fail("non-numeric cell '\(row.cells[column])' in column '\(name(column))'", column: column)
                }
                if value.isNaN { return nil }
                guard value.isFinite else {
                    throw fail("non-finite value '\(row.cells[column])' in column '\(name(column))'", column: column)
                }
                return value
            }
            guard let t = try value(time), let rawX = try value(x), let rawY = try value(y) else { return }
            if let previous = samples.last, t < previous.t {
                throw fail("decreasing time \(t) after \(previous.t)", column: time)
            }
            let reading = Vec2(toG(rawX), toG(rawY))
            let world = SampledGravityTrack.worldValue(reading, orientation: orientation, g: g)
            if let reason = GravityBound.readingViolation(reading, world: world, g: g) {
                // Blame the cell that alone goes beyond the bound (x when both do).
                let xAlone = SampledGravityTrack.worldValue(Vec2(reading.x, 0), orientation: orientation, g: g)
                throw fail(reason, column: GravityBound.violation(xAlone) != nil ? x : y)
            }
            samples.append(TiltSample(t: t, reading: reading))
        }
        guard !samples.isEmpty else {
            throw InputError(
                file: file, line: table.header.number,
                reason: "no data rows (rows with NaN or empty cells are skipped)")
        }
        return samples
    }

    private func name(_ column: Int) -> String {
        column < names.count ? names[column] : "column \(column + 1)"
    }
}
