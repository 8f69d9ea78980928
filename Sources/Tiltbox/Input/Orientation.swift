/// How the device is held: maps the device-frame reading to world axes (docs/formats.md §2).
public enum Orientation: String, Sendable, CaseIterable {
    case portrait, portraitUpsideDown, landscapeLeft, landscapeRight
}
