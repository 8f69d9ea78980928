/// Reads the parameters of `{"spring": {...}}`: either CASpringAnimation's `mass`,
/// `stiffness`, `damping`, `initialVelocity` (defaults 1, 100, 10, 0) or `response`,
/// `dampingRatio`, `initialVelocity` (both of the first two required), never a mix.
/// Every number must be finite and at most 1e9 in size; mass, stiffness, damping,
/// response and dampingRatio at least 1e-6; and the spring may stray at most 1e6 times
/// the change from its target (so a gravity it gives stays finite). Errors name the
/// file, the line and column and the field path.
enum SpringParameters {
    static let physicalKeys = ["mass", "stiffness", "damping", "initialVelocity"]
    static let responseKeys = ["response", "dampingRatio", "initialVelocity"]
    /// The largest value any parameter may take, so ω₀ and ζ stay finite.
    static let maxValue = 1e9
    /// The smallest positive parameter, so ω₀ and ζ stay finite and non-zero.
    static let minPositive = 1e-6
    /// The largest |1 − s| a spring may reach, in multiples of the change.
    static let maxDeviation = 1e6

    static func read(_ node: JSONNode, path: String, file: String) throws(InputError) -> SpringCurve {
        func fail(_ at: JSONNode, _ where: String, _ reason: String) -> InputError {
            InputError(file: file, location: at.location, path: `where`, reason: reason)
        }
        guard let members = node.objectMembers else {
            throw fail(node, path, "expected an object of spring parameters, got \(node.value.typeName)")
        }
        let keys = members.map(\.key)
        let responseForm = keys.contains("response") || keys.contains("dampingRatio")
        let valid = responseForm ? responseKeys : physicalKeys
        for member in members where !valid.contains(member.key) {
            let reason =
                responseForm && physicalKeys.contains(member.key)
                ? "\"\(member.key)\" cannot be mixed with response/dampingRatio; use mass, stiffness, damping or response, dampingRatio"
                : "unknown spring parameter \"\(member.key)\""
                    + (FieldReader.nearest(to: member.key, in: valid).map { " (did you mean \"\($0)\"?)" } ?? "")
                    + "; valid: " + valid.joined(separator: ", ")
            throw InputError(
                file: file, location: member.node.keyLocation ?? member.node.location,
                path: path + "." + member.key, reason: reason)
        }
        func number(_ key: String, default fallback: Double?, positive: Bool) throws(InputError) -> Double {
            guard let value = node[key] else {
                guard let fallback else {
                    throw fail(
                        node, path + "." + key, "missing; the response form needs both response and dampingRatio")
                }
                return fallback
            }
            guard case .number(let x) = value.value else {
                throw fail(value, path + "." + key, "expected a number, got \(value.value.typeName)")
            }
            guard x.isFinite else { throw fail(value, path + "." + key, "must be a finite number (got \(x))") }
            if positive && !(x > 0) {
                throw fail(value, path + "." + key, "must be > 0 (got \(NumberFormat.shortest(x)))")
            }
            if positive && x < minPositive {
                throw fail(
                    value, path + "." + key,
                    "must be at least \(NumberFormat.shortest(minPositive)) (got \(NumberFormat.shortest(x)))")
            }
            if abs(x) > maxValue {
                throw fail(
                    value, path + "." + key,
                    "must be at most \(NumberFormat.shortest(maxValue)) in size (got \(NumberFormat.shortest(x)))")
            }
            return x
        }
        let velocity = try number("initialVelocity", default: 0, positive: false)
        let spring: SpringCurve
        if responseForm {
            spring = SpringCurve(
                response: try number("response", default: nil, positive: true),
                dampingRatio: try number("dampingRatio", default: nil, positive: true),
                initialVelocity: velocity)
        } else {
            spring = SpringCurve(
                mass: try number("mass", default: 1, positive: true),
                stiffness: try number("stiffness", default: 100, positive: true),
                damping: try number("damping", default: 10, positive: true),
                initialVelocity: velocity)
        }
        let deviation = spring.largestDeviationBound
        guard deviation.isFinite, deviation <= maxDeviation else {
            throw fail(
                node, path,
                "this spring could stray up to \(NumberFormat.shortest(deviation)) times the change from its "
                    + "target (the limit is \(NumberFormat.shortest(maxDeviation))); lower initialVelocity or use a damping ratio further from 1"
            )
        }
        return spring
    }
}
