/// A gravity track that eases between keyframes (`tiltbox-tilt/1`).
///
/// Between keyframes k and k+1 the value is `gₖ + (gₖ₊₁ − gₖ)·curveₖ₊₁(u)` with
/// `u = (t − tₖ)/(tₖ₊₁ − tₖ)`: the curve of a keyframe shapes the segment ending at it.
/// A spring curve takes `t − tₖ` in seconds instead of `u`, and the segment ends on the
/// keyframe's value at `tₖ₊₁` whatever the spring has reached.
/// Before the first keyframe and after the last the end values hold. Two keyframes
/// at the same time make a jump; from that time on the later one applies.
public struct KeyframeGravityTrack: GravityTrack {
    /// The keyframes, non-empty and sorted by time (equal times allowed: a jump).
    public let keyframes: [Keyframe]

    /// - Precondition: `keyframes` is non-empty and sorted by time, with finite values
    ///   (the keyframe file loader checks this and reports errors with their index).
    public init(keyframes: [Keyframe]) {
        precondition(!keyframes.isEmpty, "a keyframe track needs at least one keyframe")
        precondition(
            zip(keyframes, keyframes.dropFirst()).allSatisfy { $0.t <= $1.t },
            "keyframes must be sorted by time")
        self.keyframes = keyframes
    }

    /// The eased value at `t` seconds, world units/s²: the end values hold outside the
    /// keyframes' time range, and a NaN time gives the first keyframe's value.
    public func gravity(at t: Double) -> Vec2 {
        if t.isNaN { return keyframes[0].gravity }
        var low = 0, high = keyframes.count
        while low < high {
            let mid = (low + high) / 2
            if keyframes[mid].t <= t { low = mid + 1 } else { high = mid }
        }
        if low == 0 { return keyframes[0].gravity }
        if low == keyframes.count { return keyframes[low - 1].gravity }
        let start = keyframes[low - 1], end = keyframes[low]
        let u = (t - start.t) / (end.t - start.t) // end.t > t ≥ start.t
        return start.gravity + (end.gravity - start.gravity) * end.curve.value(progress: u, seconds: t - start.t)
    }
}

extension KeyframeGravityTrack {
    /// A spring segment cut off before it settles.
    public struct ShortSpring: Sendable, Equatable {
        /// The index of the keyframe whose curve is the spring (the segment ends there).
        public var keyframe: Int
        /// The segment's length in seconds.
        public var segmentSeconds: Double
        /// When |1 − s| stays under 0.001 (`SpringCurve.settlingTime()`).
        public var settlingSeconds: Double
    }

    /// Every spring segment shorter than its spring's settling time: the value jumps to
    /// the keyframe at the segment's end instead of arriving there.
    public var shortSprings: [ShortSpring] {
        var found: [ShortSpring] = []
        for i in keyframes.indices.dropFirst() {
            guard case .spring(let spring) = keyframes[i].curve else { continue }
            let length = keyframes[i].t - keyframes[i - 1].t
            let settling = spring.settlingTime()
            if length < settling {
                found.append(ShortSpring(keyframe: i, segmentSeconds: length, settlingSeconds: settling))
            }
        }
        return found
    }
}
