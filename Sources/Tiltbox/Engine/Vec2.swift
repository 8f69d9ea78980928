/// A 2D vector in world units (y up, Chipmunk's convention).
///
/// The public API of Tiltbox speaks `Vec2`, never Chipmunk's `cpVect`.
public struct Vec2: Hashable, Sendable, CustomStringConvertible {
    /// Horizontal component, in world units.
    public var x: Double
    /// Vertical component, in world units; positive is up.
    public var y: Double

    /// Creates a vector from its two components.
    public init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }

    /// The zero vector, `(0, 0)`.
    public static let zero = Vec2(0, 0)

    /// Euclidean length.
    public var length: Double { (x * x + y * y).squareRoot() }

    /// True when both components are finite (neither NaN nor infinite).
    public var isFinite: Bool { x.isFinite && y.isFinite }

    /// Component-wise sum.
    public static func + (a: Vec2, b: Vec2) -> Vec2 { Vec2(a.x + b.x, a.y + b.y) }
    /// Component-wise difference.
    public static func - (a: Vec2, b: Vec2) -> Vec2 { Vec2(a.x - b.x, a.y - b.y) }
    /// The vector scaled by `s`.
    public static func * (a: Vec2, s: Double) -> Vec2 { Vec2(a.x * s, a.y * s) }

    /// Bitwise equality: `-0.0` differs from `0.0` and a NaN equals the same NaN.
    /// Used where "did the value change" must be exact, such as setting gravity.
    public func bitwiseEquals(_ other: Vec2) -> Bool {
        x.bitPattern == other.x.bitPattern && y.bitPattern == other.y.bitPattern
    }

    /// `(x, y)`, each component as Swift prints a `Double` (shortest round-trip).
    public var description: String { "(\(x), \(y))" }
}
