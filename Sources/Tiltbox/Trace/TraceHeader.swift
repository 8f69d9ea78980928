/// The first line of a trace: what was simulated and how the records are laid out.
///
/// Its keys are declared once, in `TraceHeader.keys` (TraceHeader+Keys.swift), which both
/// the writer and the reader walk. The required part is exactly docs/formats.md §3's
/// header, written with its keys in this order: `format`, `scenario`, `engine`, `spatialIndex`, `dt`, `every`, `fields`,
/// `bodies`. The optional keys after them (`world`, `segments`, `sizes`, `hz`,
/// `duration`, `tilt`, `masses`, and for scenes with bodies `types`, `shapes`, `joints`) let a later renderer draw a trace without its scenario, and
/// `space` records the space settings that ran; each is omitted when `nil`, and readers ignore
/// keys they do not know, so adding more stays compatible. The self-describing keys
/// (`tiltbox`, `source`, `platform`) come last.
public struct TraceHeader: Hashable, Sendable {
    /// The format tag every trace starts with.
    public static let currentFormat = "tiltbox-trace/1"

    /// A static segment of the world, for renderers (`{"from":[x,y],"to":[x,y],"radius":r}`).
    public struct Segment: Hashable, Sendable {
        /// One end, world coordinates.
        public var from: Vec2
        /// The other end, world coordinates.
        public var to: Vec2
        /// Half thickness in world units.
        public var radius: Double

        /// Creates a segment outline.
        public init(from: Vec2, to: Vec2, radius: Double) {
            self.from = from
            self.to = to
            self.radius = radius
        }
    }

    /// Always `tiltbox-trace/1` for traces this version writes.
    public var format: String
    /// The scenario's `name`.
    public var scenario: String
    /// The physics engine and version, such as `chipmunk 7.0.3`.
    public var engine: String
    /// The broad phase used (its results differ, each deterministic), such as `bbtree`.
    public var spatialIndex: String
    /// The fixed physics timestep in seconds.
    public var dt: Double
    /// Records are written at step 0, every `every`-th step and the last step.
    public var every: Int
    /// The names of each body's values in a record, in order.
    public var fields: [String]
    /// The body ids, in the order of each record's states.
    public var bodies: [String]
    /// What the records carry: states (the default, no `records` key) or hashes
    /// (`"records":"hashes"`, written right after `bodies`).
    public var records: TraceRecordForm = .states

    // MARK: Optional extension keys

    /// The world's size in world units (`"world":{"size":[w,h]}`).
    public var worldSize: Vec2?
    /// The static segments, walls included.
    public var segments: [Segment]?
    /// Each body's size `[w,h]`, in header body order.
    public var sizes: [Vec2]?
    /// The physics rate in steps per second.
    public var hz: Double?
    /// The scenario's duration in seconds.
    public var duration: Double?
    /// A description of the tilt input (such as its file name).
    public var tilt: String?
    /// Each body's mass, in header body order: with `sizes` (moment of inertia
    /// m·(w² + h²)/12, the box formula) it gives kinetic energy to renderers.
    public var masses: [Double]?
    /// The effective Chipmunk space settings of the run, read back from the space
    /// (`"space":{"iterations":10,"damping":1,"collisionSlop":0.10000000149011612,...}`;
    /// a sleep time threshold of infinity, sleeping off, is written as `null`).
    public var space: SpaceSettings?
    /// Each body's type, in header body order (see TraceHeader+Bodies.swift).
    public var types: [BodyType]?
    /// Each body's shapes in its own coordinates, in header body order.
    public var shapes: [[ShapeGeometry]]?
    /// The joints, in creation order.
    public var joints: [JointOutline]?

    // MARK: Self-describing keys (see TraceHeader+Provenance.swift)

    /// The Tiltbox version that wrote the trace.
    public var tiltbox: String?
    /// The scenario and gravity input the trace was recorded from, and the options applied.
    public var source: Source?
    /// The machine that computed it.
    public var platform: Platform?

    /// Creates a header. The required keys come first; every optional key left `nil` is left
    /// out of the line, and `types`, `shapes` and `joints` are set on the value afterwards.
    public init(
        format: String = TraceHeader.currentFormat,
        scenario: String,
        engine: String = "chipmunk 7.0.3",
        spatialIndex: String,
        dt: Double,
        every: Int,
        fields: [String] = BodyStateLayout.fieldNames,
        bodies: [String],
        worldSize: Vec2? = nil,
        segments: [Segment]? = nil,
        sizes: [Vec2]? = nil,
        hz: Double? = nil,
        duration: Double? = nil,
        tilt: String? = nil,
        masses: [Double]? = nil,
        space: SpaceSettings? = nil,
        tiltbox: String? = nil,
        source: Source? = nil,
        platform: Platform? = nil
    ) {
        self.format = format
        self.scenario = scenario
        self.engine = engine
        self.spatialIndex = spatialIndex
        self.dt = dt
        self.every = every
        self.fields = fields
        self.bodies = bodies
        self.worldSize = worldSize
        self.segments = segments
        self.sizes = sizes
        self.hz = hz
        self.duration = duration
        self.tilt = tilt
        self.masses = masses
        self.space = space
        self.tiltbox = tiltbox
        self.source = source
        self.platform = platform
    }

    /// How many doubles each record's `states` holds: one per field per body.
    public var valuesPerRecord: Int { fields.count * bodies.count }

    /// The header as one line of JSON, with its newline.
    public var jsonLine: String {
        var buffer = JSONLineBuffer()
        append(to: &buffer)
        return String(decoding: buffer.bytes, as: UTF8.self)
    }
}
