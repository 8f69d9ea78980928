/// How Chipmunk moves a body (`bodies[i].type`).
public enum BodyType: String, Sendable, Hashable, CaseIterable {
    /// Moved by forces and contacts (`cpBodyNew(0, 0)`, mass and moment from its shapes).
    case dynamic
    /// Moved only by its velocity or its `path`, unaffected by forces (`cpBodyNewKinematic`).
    case kinematic
    /// Never moves (`cpBodyNewStatic`).
    case `static`
}
