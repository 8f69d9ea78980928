extension FieldReader {
    /// The `curve` of a keyframe, tilt or pose: a name (`"easeInEaseOut"`, `"hold"`,
    /// `"bounceEaseOut"`, `"easeOutBounce"`), `{"cubicBezier": [x1, y1, x2, y2]}` or
    /// `{"spring": {...}}` (the keys of `SpringParameters`). The one reader of this
    /// vocabulary, so tilt keyframes and kinematic paths accept exactly the same curves.
    func timingCurve(_ node: JSONNode, _ path: String) throws(InputError) -> TimingCurve {
        if let springNode = node["spring"] {
            // A curve is one of its forms, alone, as `cubicBezier` is: a key beside `spring`
            // (a typo, or a second form) would otherwise be ignored without a word.
            if case .object(let members) = node.value, let other = members.first(where: { $0.key != "spring" }) {
                throw self.error(
                    at: other.node, FieldReader.member(path, other.key),
                    "unexpected key beside \"spring\": a spring curve is {\"spring\": {...}} alone")
            }
            return .spring(try SpringParameters.read(springNode, path: path + ".spring", file: file))
        }
        do {
            return try TimingCurve(jsonValue: node.plainValue)
        } catch {
            throw self.error(at: node, path, error.description)
        }
    }
}
