extension FieldReader {
    /// The `curve` of a keyframe, tilt or pose: a name (`"easeInEaseOut"`, `"hold"`,
    /// `"bounceEaseOut"`, `"easeOutBounce"`), `{"cubicBezier": [x1, y1, x2, y2]}` or
    /// `{"spring": {...}}` (the keys of `SpringParameters`). The one reader of this
    /// vocabulary, so tilt keyframes and kinematic paths accept exactly the same curves.
    func timingCurve(_ node: JSONNode, _ path: String) throws(InputError) -> TimingCurve {
        if let springNode = node["spring"] {
            return .spring(try SpringParameters.read(springNode, path: path + ".spring", file: file))
        }
        do {
            return try TimingCurve(jsonValue: node.plainValue)
        } catch {
            throw self.error(at: node, path, error.description)
        }
    }
}
