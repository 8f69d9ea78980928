import Foundation

/// `tiltbox diff A B --html FILE`: one self-contained page that plays two traces of the same
/// bodies over each other (B drawn over a pale A), starts at their first divergence, and
/// charts the largest position difference between them at each record, so a failing golden
/// is understood at a glance.
///
/// Records are paired by index (the shorter trace sets the count). At most `maxFrames` pairs
/// are kept: every `stride`-th, the first divergence and the last.
@_spi(Tools) public struct DiffPage: Sendable {
    /// The most record pairs a page holds.
    public static let maxFrames = 5000

    /// Trace A, as drawn (pale).
    public var a: RenderScene
    /// Trace B, drawn over A.
    public var b: RenderScene

    /// A page of `a` and `b`.
    /// - Throws: `InputError` when the two traces do not list the same bodies.
    public init(a: RenderScene, b: RenderScene, fileB: String) throws(InputError) {
        guard a.bodies == b.bodies else {
            throw InputError(
                file: fileB,
                reason:
                    "the traces list different bodies (\(a.bodies.count) and \(b.bodies.count)): a diff page draws the same bodies twice"
            )
        }
        self.a = a
        self.b = b
    }

    /// The number of record pairs.
    public var pairCount: Int { min(a.records.count, b.records.count) }

    /// The index of the first pair whose gravity or states differ bit for bit, or `nil` when
    /// every pair is identical.
    public var firstDivergence: Int? {
        for i in 0..<pairCount {
            let x = a.records[i], y = b.records[i]
            if x.step != y.step || !x.gravity.bitwiseEquals(y.gravity) { return i }
            if x.states.count != y.states.count { return i }
            for (u, v) in zip(x.states, y.states) where u.bitPattern != v.bitPattern { return i }
        }
        return nil
    }

    /// The largest distance between a body's position in A and in B, at pair `i`, over the
    /// bodies present in both then (a trace with events lists only the bodies present in
    /// each record: `RenderScene.record(at:)` lays it out over every body of the run).
    public func largestPositionDifference(at i: Int) -> Double {
        largestPositionDifference(a.record(at: i), b.record(at: i))
    }

    /// `largestPositionDifference(at:)` of two records laid out over every body.
    private func largestPositionDifference(_ x: TraceRecord, _ y: TraceRecord) -> Double {
        var largest = 0.0
        for body in a.bodies.indices where a.isPresent(in: x, body: body) && b.isPresent(in: y, body: body) {
            let p = a.position(in: x, body: body), q = b.position(in: y, body: body)
            let d = (p - q).length
            if !(d <= largest) { largest = d.isFinite ? d : Double.greatestFiniteMagnitude }
        }
        return largest
    }

    /// The pairs kept: every `stride`-th, the first divergence and the last, in order.
    public var keptIndices: [Int] {
        let count = pairCount
        guard count > 0 else { return [] }
        let stride = max(1, (count + Self.maxFrames - 1) / Self.maxFrames)
        var kept = Set(Swift.stride(from: 0, to: count, by: stride))
        kept.insert(count - 1)
        if let first = firstDivergence { kept.insert(first) }
        return kept.sorted()
    }

    /// The page.
    public func html() -> [UInt8] {
        var out: [UInt8] = []
        func raw(_ text: String) { out.append(contentsOf: text.utf8) }
        func number(_ value: Double, _ decimals: Int) { RenderNumber.append(value, decimals: decimals, to: &out) }
        let kept = keptIndices
        let divergence = firstDivergence
        let start = divergence.flatMap { kept.firstIndex(of: $0) } ?? 0
        raw(Self.head.replacingOccurrences(of: "{{TITLE}}", with: Markup.escape("\(a.title) vs \(b.title)")))
        raw("{\"titleA\":")
        Markup.appendScriptJSONString(a.title, to: &out)
        raw(",\"titleB\":")
        Markup.appendScriptJSONString(b.title, to: &out)
        raw(",\"bodies\":[")
        for (i, id) in a.bodies.enumerated() {
            if i > 0 { raw(",") }
            Markup.appendScriptJSONString(id, to: &out)
        }
        raw("],\"sizes\":[")
        for (i, size) in a.sizes.enumerated() {
            if i > 0 { raw(",") }
            number(size.x, 3)
            raw(",")
            number(size.y, 3)
        }
        raw("],\"segments\":[")
        for (i, s) in a.segments.enumerated() {
            if i > 0 { raw(",") }
            for (j, v) in [s.from.x, s.from.y, s.to.x, s.to.y, s.radius].enumerated() {
                if j > 0 { raw(",") }
                number(v, 3)
            }
        }
        raw("]")
        if !a.outline.isCratesOnly { HTMLPlayer().appendOutline(a.outline, to: &out) }
        raw(",\"origin\":[")
        number(a.origin.x, 3)
        raw(",")
        number(a.origin.y, 3)
        raw("],\"extent\":[")
        number(a.extent.x, 3)
        raw(",")
        number(a.extent.y, 3)
        raw("],\"divergence\":")
        raw(divergence.map { "\(a.records[$0].step)" } ?? "null")
        raw(",\"start\":\(start),\"step\":[")
        raw(kept.map { "\(a.records[$0].step)" }.joined(separator: ","))
        raw("],\"t\":[")
        raw(kept.map { NumberFormat.shortest(a.records[$0].t.isFinite ? a.records[$0].t : 0) }.joined(separator: ","))
        raw("],\"diff\":[")
        for (i, index) in kept.enumerated() {
            if i > 0 { raw(",") }
            let d = largestPositionDifference(at: index)
            raw(NumberFormat.shortest(d.isFinite ? d : Double.greatestFiniteMagnitude))
        }
        raw("]")
        for (name, scene) in [("a", a), ("b", b)] {
            raw(",\n\"\(name)\":[")
            for (f, index) in kept.enumerated() {
                raw(f > 0 ? ",\n[" : "[")
                // Laid out over every body of the run: a body not present then is three nulls.
                let record = scene.record(at: index)
                for body in scene.bodies.indices {
                    if body > 0 { raw(",") }
                    guard scene.isPresent(in: record, body: body) else {
                        raw("null,null,null")
                        continue
                    }
                    let p = scene.position(in: record, body: body)
                    number(p.x, 3)
                    raw(",")
                    number(p.y, 3)
                    raw(",")
                    number(HTMLPlayer.wrapped(scene.angle(in: record, body: body)), 5)
                }
                raw("]")
            }
            raw("]")
        }
        raw("}")
        raw(Self.tail)
        return out
    }

    static let head = #"""
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <title>{{TITLE}}</title>
        <style>
        body { font-family: DejaVu Sans, Helvetica, Arial, sans-serif; margin: 12px; background: #f6f4ef; color: #222; }
        #stage canvas { background: #fff; border: 1px solid #9a9a9a; display: block; }
        #controls { display: flex; gap: 8px; align-items: center; margin: 8px 0; max-width: 960px; }
        #slider { flex: 1 1 auto; }
        #chart { background: #fff; border: 1px solid #ccc; display: block; }
        .key { display: inline-block; width: 12px; height: 12px; vertical-align: middle; margin: 0 4px 0 12px; }
        </style>
        </head>
        <body>
        <h1 id="title" style="font-size:16px"></h1>
        <div id="legend"><span class="key" style="background:rgba(74,143,216,0.3)"></span><span id="name-a"></span>
        <span class="key" style="background:#e8604c"></span><span id="name-b"></span></div>
        <div id="stage"><canvas id="world" width="960" height="480"></canvas></div>
        <div id="controls">
        <button id="play" type="button">Play</button>
        <input id="slider" type="range" min="0" max="0" step="1" value="0" aria-label="record">
        <span id="clock"></span>
        </div>
        <canvas id="chart" width="960" height="140"></canvas>
        <pre id="test-output"></pre>
        <script type="application/json" id="diff-data">
        """#

    static let tail = #"""
        </script>
        <script>
        (function () {
          "use strict";
          var errors = [];
          window.addEventListener("error", function (e) { errors.push(String(e.message)); });
          var D = JSON.parse(document.getElementById("diff-data").textContent);
          var n = D.step.length, bodies = D.bodies.length;
          document.getElementById("title").textContent = "B: " + D.titleB + " over A: " + D.titleA +
            (D.divergence === null ? " (identical)" : " (first divergence at step " + D.divergence + ")");
          document.getElementById("name-a").textContent = "A " + D.titleA;
          document.getElementById("name-b").textContent = "B " + D.titleB;
          var world = document.getElementById("world"), ctx = world.getContext("2d");
          var scale = Math.min(world.width / D.extent[0], world.height / D.extent[1]);
          function X(x) { return (x - D.origin[0]) * scale; }
          function Y(y) { return world.height - (y - D.origin[1]) * scale; }
          var drawn = { a: [], b: [] };
          // Body-local shapes (y up), drawn in a frame already translated and rotated to the body.
          function drawShapes(shapes) {
            for (var j = 0; j < shapes.length; j++) {
              var sh = shapes[j], k = sh[0];
              ctx.beginPath();
              if (k === "c") {
                ctx.arc(sh[2] * scale, -sh[3] * scale, Math.max(1, sh[1] * scale), 0, 2 * Math.PI);
                ctx.fill(); ctx.stroke();
              } else if (k === "b") {
                var bw = sh[1] * scale, bh = sh[2] * scale;
                ctx.rect(-bw / 2, -bh / 2, bw, bh); ctx.fill(); ctx.stroke();
              } else if (k === "p") {
                for (var v = 2; v + 1 < sh.length; v += 2) {
                  if (v === 2) ctx.moveTo(sh[v] * scale, -sh[v + 1] * scale); else ctx.lineTo(sh[v] * scale, -sh[v + 1] * scale);
                }
                ctx.closePath(); ctx.fill(); ctx.stroke();
              } else if (k === "s") {
                ctx.save(); ctx.lineWidth = Math.max(1, 2 * sh[1] * scale); ctx.strokeStyle = ctx.fillStyle;
                ctx.moveTo(sh[2] * scale, -sh[3] * scale); ctx.lineTo(sh[4] * scale, -sh[5] * scale); ctx.stroke();
                ctx.restore();
              }
            }
          }
          function drawRun(name, frame, fill, stroke) {
            var s = D[name][frame], list = [];
            for (var i = 0; i < bodies; i++) {
              var x = s[3 * i], y = s[3 * i + 1], angle = s[3 * i + 2];
              if (x === null) continue; // not present in this record (spawned later or removed)
              var w = D.sizes[2 * i] * scale, h = D.sizes[2 * i + 1] * scale;
              ctx.save();
              ctx.translate(X(x), Y(y));
              ctx.rotate(-angle);
              ctx.fillStyle = fill; ctx.strokeStyle = stroke; ctx.lineWidth = 1;
              if (D.shapes) drawShapes(D.shapes[i]); else { ctx.fillRect(-w / 2, -h / 2, w, h); ctx.strokeRect(-w / 2, -h / 2, w, h); }
              ctx.restore();
              list.push({ id: D.bodies[i], x: x, y: y });
            }
            drawn[name] = list;
          }
          var chart = document.getElementById("chart"), cctx = chart.getContext("2d");
          var largest = 0;
          for (var k = 0; k < n; k++) if (D.diff[k] > largest) largest = D.diff[k];
          function drawChart(frame) {
            cctx.clearRect(0, 0, chart.width, chart.height);
            cctx.fillStyle = "#333"; cctx.font = "11px sans-serif";
            cctx.fillText("largest position difference per step (max " + largest.toPrecision(3) + " units)", 6, 12);
            cctx.strokeStyle = "#c0392b"; cctx.beginPath();
            for (var k = 0; k < n; k++) {
              var px = n > 1 ? k / (n - 1) * (chart.width - 1) : 0;
              var py = chart.height - 2 - (largest > 0 ? D.diff[k] / largest * (chart.height - 20) : 0);
              if (k === 0) cctx.moveTo(px, py); else cctx.lineTo(px, py);
            }
            cctx.stroke();
            var fx = n > 1 ? frame / (n - 1) * (chart.width - 1) : 0;
            cctx.strokeStyle = "#4a8fd8"; cctx.beginPath(); cctx.moveTo(fx, 16); cctx.lineTo(fx, chart.height); cctx.stroke();
          }
          var slider = document.getElementById("slider"), clock = document.getElementById("clock");
          slider.max = String(Math.max(0, n - 1));
          var state = { frame: 0, playing: false, ticks: 0 };
          function show(frame) {
            state.frame = Math.max(0, Math.min(n - 1, frame));
            slider.value = String(state.frame);
            ctx.clearRect(0, 0, world.width, world.height);
            ctx.strokeStyle = "#4a4a4a";
            for (var s = 0; s + 4 < D.segments.length; s += 5) {
              ctx.lineWidth = Math.max(1, 2 * D.segments[s + 4] * scale);
              ctx.beginPath(); ctx.moveTo(X(D.segments[s]), Y(D.segments[s + 1]));
              ctx.lineTo(X(D.segments[s + 2]), Y(D.segments[s + 3])); ctx.stroke();
            }
            if (n > 0) {
              drawRun("a", state.frame, "rgba(74,143,216,0.3)", "rgba(43,43,43,0.3)");
              drawRun("b", state.frame, "rgba(232,96,76,0.85)", "#2b2b2b");
              clock.textContent = "step " + D.step[state.frame] + ", t = " + D.t[state.frame].toFixed(3) +
                " s, largest difference " + D.diff[state.frame].toPrecision(3);
            }
            drawChart(state.frame);
          }
          slider.addEventListener("input", function () { show(Number(slider.value)); });
          document.getElementById("play").addEventListener("click", function () {
            state.playing = !state.playing;
            this.textContent = state.playing ? "Pause" : "Play";
            if (state.playing) requestAnimationFrame(tick);
          });
          function tick() {
            if (!state.playing) return;
            state.ticks += 1;
            show(state.frame + 1 < n ? state.frame + 1 : 0);
            requestAnimationFrame(tick);
          }
          show(D.start);
          if (location.hash === "#test") {
            var report = { errors: errors, frameIndex: state.frame, frameCount: n, sliderValue: Number(slider.value),
              step: D.step[state.frame], divergence: D.divergence, a: drawn.a, b: drawn.b,
              chartPoints: D.diff.length, largest: largest };
            var out = document.getElementById("test-output");
            out.textContent = btoa(unescape(encodeURIComponent(JSON.stringify(report))));
            out.setAttribute("data-ready", "1");
          }
        })();
        </script>
        </body>
        </html>

        """#
}
