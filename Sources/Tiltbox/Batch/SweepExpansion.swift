/// The points of a sweep: the cartesian product of its value lists, in key order as
/// written, the last key varying fastest (like nested loops written in that order).
@_spi(Tools) public enum SweepExpansion {
    /// Every combination, each as (key, value) pairs in key order. `[]` gives one empty point.
    public static func points<Value>(_ axes: [(path: String, values: [Value])]) -> [[(path: String, json: Value)]] {
        var points: [[(path: String, json: Value)]] = [[]]
        for axis in axes {
            var next: [[(path: String, json: Value)]] = []
            next.reserveCapacity(points.count * axis.values.count)
            for point in points {
                for value in axis.values { next.append(point + [(axis.path, value)]) }
            }
            points = next
        }
        return points
    }
}
