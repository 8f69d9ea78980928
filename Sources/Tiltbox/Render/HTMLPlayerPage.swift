/// The fixed parts of the HTML player page: everything before the embedded data
/// (`head`, with a `{{TITLE}}` placeholder) and everything after it (`tail`).
///
/// Plain ES5-style JavaScript, no libraries, so the page opens in any browser without
/// a network. `HTMLPlayer` documents the `window.tiltbox` hooks.
enum HTMLPlayerPage {
    static let head = #"""
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>{{TITLE}} · tiltbox</title>
        <script>
        window.tiltbox = { errors: [] };
        window.onerror = function (message, source, line, column) {
          window.tiltbox.errors.push(String(message) + (line ? " (line " + line + ":" + column + ")" : ""));
        };
        window.addEventListener("unhandledrejection", function (event) {
          window.tiltbox.errors.push("unhandled rejection: " + String(event.reason));
        });
        </script>
        <style>
        body { margin: 12px; background: #f6f4ef; color: #222; font: 13px/1.4 system-ui, "DejaVu Sans", Helvetica, Arial, sans-serif; }
        h1 { font-size: 15px; margin: 0 0 8px; font-weight: 600; }
        #stage { position: relative; display: inline-block; }
        #world { display: block; background: #fff; border: 1px solid #9a9a9a; cursor: crosshair; touch-action: none; }
        #world.dragging { cursor: grabbing; }
        #zoom { font-variant-numeric: tabular-nums; min-width: 44px; text-align: right; }
        #tip { position: absolute; pointer-events: none; background: rgba(20, 20, 20, 0.85); color: #fff; padding: 1px 6px;
               border-radius: 3px; font-size: 12px; white-space: pre; display: none; }
        #controls { display: flex; align-items: center; gap: 8px; margin: 8px 0; max-width: 920px; }
        #controls button { font: inherit; padding: 2px 10px; border: 1px solid #888; background: #fff; border-radius: 3px; cursor: pointer; }
        #controls button.active { background: #333; color: #fff; border-color: #333; }
        #play { min-width: 64px; }
        #slider { flex: 1 1 auto; min-width: 120px; }
        #clock { font-variant-numeric: tabular-nums; white-space: nowrap; }
        #chart { display: block; background: #fff; border: 1px solid #9a9a9a; }
        #legend { margin-top: 4px; }
        #legend span { margin-right: 16px; white-space: nowrap; }
        #legend i { display: inline-block; width: 14px; height: 3px; margin-right: 5px; vertical-align: middle; }
        #test-output { display: none; }
        </style>
        </head>
        <body>
        <h1 id="title"></h1>
        <div id="stage"><canvas id="world"></canvas><div id="tip"></div></div>
        <div id="controls">
        <button id="play" type="button" title="Play or pause (space)">Play</button>
        <input id="slider" type="range" min="0" max="0" step="1" value="0" aria-label="time">
        <span id="clock"></span>
        <button type="button" class="speed" data-speed="0.25">¼×</button>
        <button type="button" class="speed active" data-speed="1">1×</button>
        <button type="button" class="speed" data-speed="4">4×</button>
        <button id="zoom-out" type="button" title="Zoom out (−)">−</button>
        <span id="zoom">100%</span>
        <button id="zoom-in" type="button" title="Zoom in (+); the mouse wheel zooms about the pointer, dragging pans">+</button>
        <button id="zoom-fit" type="button" title="Show the whole world (0)">fit</button>
        </div>
        <canvas id="chart"></canvas>
        <div id="legend"></div>
        <pre id="test-output"></pre>
        <script type="application/json" id="trace-data">
        """#

    static let tail = #"""

        </script>
        <script>
        (function () {
          "use strict";
          var T = window.tiltbox;
          var D = JSON.parse(document.getElementById("trace-data").textContent);
          var FILLS = ["#e8604c", "#4caf6a", "#e8c13c", "#4a8fd8", "#a66cc4", "#3cb8b0"];
          var frames = D.t.length, nb = D.bodies.length;
          var ox = D.origin[0], oy = D.origin[1], ex = D.extent[0], ey = D.extent[1];
          var t0 = D.t[0], tEnd = D.t[frames - 1];

          // World canvas: fit the drawn area into 900 x 480 CSS pixels, y up; a canvas at
          // least 360 x 240 (a tall or thin world is centred in it), so there is room to zoom.
          var scale = Math.min(900 / ex, 480 / ey);
          var fitW = Math.max(1, Math.round(ex * scale)), fitH = Math.max(1, Math.round(ey * scale));
          var cssW = Math.max(fitW, 360), cssH = Math.max(fitH, 240);
          var offX = cssW > fitW ? (cssW - ex * scale) / 2 : 0, offY = cssH > fitH ? (cssH - ey * scale) / 2 : 0;
          // The view: screen = zoom * fitted + pan (CSS pixels); zoom 1 and no pan is "fit".
          var view = { zoom: 1, panX: 0, panY: 0 };
          var TYPES = D.types || null, JOINTS = D.joints || [], JOINT_FRAMES = D.jointFrames || null;
          var SHAPES = D.shapes || D.sizes.reduce(function (list, v, i) {
            if (i % 2 === 0) list.push([["b", D.sizes[i], D.sizes[i + 1], 0]]);
            return list;
          }, []);
          var dpr = window.devicePixelRatio || 1;
          var canvas = document.getElementById("world");
          canvas.style.width = cssW + "px";
          canvas.style.height = cssH + "px";
          canvas.width = Math.round(cssW * dpr);
          canvas.height = Math.round(cssH * dpr);
          var ctx = canvas.getContext("2d");

          var chart = document.getElementById("chart");
          var chartW = Math.max(cssW, 640), chartH = 140;
          chart.style.width = chartW + "px";
          chart.style.height = chartH + "px";
          chart.width = Math.round(chartW * dpr);
          chart.height = Math.round(chartH * dpr);
          var cctx = chart.getContext("2d");
          document.getElementById("controls").style.maxWidth = chartW + "px";

          var playButton = document.getElementById("play");
          var slider = document.getElementById("slider");
          var clock = document.getElementById("clock");
          var tip = document.getElementById("tip");
          slider.max = String(frames - 1);

          var state = { frame: 0, time: t0, playing: false, speed: 1, last: null, raf: 0, hover: -1,
                        drawnFrame: -1, drawnStates: null, ticks: 0 };

          var noun = D.shapes ? [" body, ", " bodies, "] : [" crate, ", " crates, "];
          document.getElementById("title").textContent = D.title + " \u2014 " + nb + (nb === 1 ? noun[0] : noun[1]) +
            fmt(tEnd - t0, 2) + " s" + (D.stride > 1 ? " (every " + D.stride + "th of " + D.records + " records shown)" : "");

          function fmt(v, digits) { return Number(v).toFixed(digits); }

          // The last frame whose time is at or before `time`.
          function frameAt(time) {
            var lo = 0, hi = frames - 1;
            if (time >= D.t[hi]) return hi;
            while (lo < hi) {
              var mid = (lo + hi + 1) >> 1;
              if (D.t[mid] <= time + 1e-9) lo = mid; else hi = mid - 1;
            }
            return lo;
          }

          // World units per CSS pixel at the current zoom (for line widths).
          function unit() { return 1 / (scale * view.zoom); }

          // A convex polygon (flat x, y list, either winding) grown by r: each corner an arc.
          function roundedPath(v, r) {
            var n = v.length / 2, area = 0, i, pts = [];
            for (i = 0; i < n; i++) area += v[2 * i] * v[(2 * i + 3) % (2 * n)] - v[(2 * i + 2) % (2 * n)] * v[2 * i + 1];
            for (i = 0; i < n; i++) { var j = area < 0 ? n - 1 - i : i; pts.push([v[2 * j], v[2 * j + 1]]); }
            var normals = pts.map(function (p, k) {
              var q = pts[(k + 1) % n], dx = q[0] - p[0], dy = q[1] - p[1], l = Math.sqrt(dx * dx + dy * dy);
              return l > 0 ? [dy / l, -dx / l] : [0, -1];
            });
            ctx.beginPath();
            for (i = 0; i < n; i++) {
              var a = normals[(i + n - 1) % n], b = normals[i];
              ctx.arc(pts[i][0], pts[i][1], r, Math.atan2(a[1], a[0]), Math.atan2(b[1], b[0]), false);
            }
            ctx.closePath();
          }

          function polygonPath(v) {
            ctx.beginPath();
            ctx.moveTo(v[0], v[1]);
            for (var k = 2; k + 1 < v.length; k += 2) ctx.lineTo(v[k], v[k + 1]);
            ctx.closePath();
          }

          // Body i's shapes, in its own coordinates (the context is already placed and turned).
          function drawBody(i) {
            var type = TYPES ? TYPES[i] : "dynamic", u = unit(), list = SHAPES[i], hover = i === state.hover;
            var fill = type === "kinematic" ? "#d5dbe3" : type === "static" ? "#9a9a9a" : FILLS[i % FILLS.length];
            ctx.fillStyle = fill;
            ctx.strokeStyle = hover ? "#000000" : type === "kinematic" ? "#3a4a5c" : "#2b2b2b";
            ctx.lineWidth = (hover ? 3 : 1) * u;
            ctx.setLineDash(type === "kinematic" ? [4 * u, 2 * u] : []);
            for (var j = 0; j < list.length; j++) {
              var sh = list[j];
              if (sh[0] === "b" && !(sh[3] > 0)) {
                ctx.fillRect(-sh[1] / 2, -sh[2] / 2, sh[1], sh[2]);
                ctx.strokeRect(-sh[1] / 2, -sh[2] / 2, sh[1], sh[2]);
              } else if (sh[0] === "b" || sh[0] === "p") {
                var v = sh[0] === "b" ? [-sh[1] / 2, -sh[2] / 2, sh[1] / 2, -sh[2] / 2, sh[1] / 2, sh[2] / 2, -sh[1] / 2, sh[2] / 2]
                                      : sh.slice(2);
                var r = sh[0] === "b" ? sh[3] : sh[1];
                if (r > 0) roundedPath(v, r); else polygonPath(v);
                ctx.fill();
                ctx.stroke();
              } else if (sh[0] === "c") {
                ctx.beginPath();
                ctx.arc(sh[2], sh[3], sh[1], 0, 2 * Math.PI, false);
                ctx.fill();
                ctx.stroke();
                ctx.beginPath();
                ctx.moveTo(sh[2], sh[3]);
                ctx.lineTo(sh[2] + sh[1], sh[3]);
                ctx.stroke();
              } else if (sh[0] === "s") {
                ctx.save();
                ctx.setLineDash([]);
                ctx.lineCap = "round";
                ctx.strokeStyle = type === "kinematic" ? "#8a9bb0" : fill;
                ctx.lineWidth = Math.max(2 * sh[1], 1.5 * u);
                ctx.beginPath();
                ctx.moveTo(sh[2], sh[3]);
                ctx.lineTo(sh[4], sh[5]);
                ctx.stroke();
                ctx.restore();
              }
            }
            ctx.setLineDash([]);
          }

          // A body's local point in the world, in frame state s.
          function toWorldOf(s, body, px, py) {
            if (body < 0) return [px, py];
            var a = s[3 * body + 2], c = Math.cos(a), sn = Math.sin(a);
            return [s[3 * body] + px * c - py * sn, s[3 * body + 1] + px * sn + py * c];
          }

          function drawJoints(s) {
            var u = unit();
            ctx.strokeStyle = "#7b3fbf";
            ctx.fillStyle = "#7b3fbf";
            for (var j = 0; j < JOINTS.length; j++) {
              // A joint of a timeline is drawn from its addition to its removal (or its body's).
              if (JOINT_FRAMES && (state.frame < JOINT_FRAMES[j][0] || state.frame > JOINT_FRAMES[j][1])) continue;
              var J = JOINTS[j], a = J[1], b = J[2], pa, pb = toWorldOf(s, b, J[5], J[6]);
              if (J.length >= 11) {
                var g0 = toWorldOf(s, a, J[7], J[8]), g1 = toWorldOf(s, a, J[9], J[10]);
                var dx = g1[0] - g0[0], dy = g1[1] - g0[1], l2 = dx * dx + dy * dy;
                var t = l2 > 0 ? Math.min(1, Math.max(0, ((pb[0] - g0[0]) * dx + (pb[1] - g0[1]) * dy) / l2)) : 0;
                pa = [g0[0] + dx * t, g0[1] + dy * t];
                ctx.lineWidth = u;
                ctx.setLineDash([2 * u, 2 * u]);
                ctx.beginPath(); ctx.moveTo(g0[0], g0[1]); ctx.lineTo(g1[0], g1[1]); ctx.stroke();
                ctx.setLineDash([]);
              } else {
                pa = toWorldOf(s, a, J[3], J[4]);
              }
              ctx.lineWidth = 1.5 * u;
              ctx.beginPath(); ctx.moveTo(pa[0], pa[1]); ctx.lineTo(pb[0], pb[1]); ctx.stroke();
              ctx.beginPath(); ctx.arc(pa[0], pa[1], 2 * u, 0, 2 * Math.PI); ctx.fill();
              ctx.beginPath(); ctx.arc(pb[0], pb[1], 2 * u, 0, 2 * Math.PI); ctx.fill();
            }
          }

          function draw() {
            var f = state.frame, s = D.s[f], k = scale * dpr * view.zoom, i;
            ctx.setTransform(1, 0, 0, 1, 0, 0);
            ctx.fillStyle = "#ffffff";
            ctx.fillRect(0, 0, canvas.width, canvas.height);
            ctx.setTransform(k, 0, 0, -k, dpr * (view.zoom * (offX - scale * ox) + view.panX),
                             dpr * (view.zoom * (offY + scale * (oy + ey)) + view.panY));
            if (offX || offY || view.zoom !== 1 || view.panX || view.panY) {
              // The world's edge, once it no longer fills the canvas.
              ctx.strokeStyle = "#c8c8c8";
              ctx.lineWidth = unit();
              ctx.strokeRect(ox, oy, ex, ey);
            }
            ctx.lineCap = "round";
            ctx.strokeStyle = "#4a4a4a";
            for (i = 0; i + 4 < D.segments.length; i += 5) {
              ctx.lineWidth = Math.max(2 * D.segments[i + 4], unit());
              ctx.beginPath();
              ctx.moveTo(D.segments[i], D.segments[i + 1]);
              ctx.lineTo(D.segments[i + 2], D.segments[i + 3]);
              ctx.stroke();
            }
            ctx.lineJoin = "round";
            for (i = 0; i < nb; i++) {
              if (s[3 * i] === null) continue; // not spawned yet, or removed
              ctx.save();
              ctx.translate(s[3 * i], s[3 * i + 1]);
              ctx.rotate(s[3 * i + 2]);
              drawBody(i);
              ctx.restore();
            }
            drawJoints(s);
            state.drawnFrame = f;
            state.drawnStates = s;
            drawChart();
            slider.value = String(f);
            clock.textContent = "t = " + fmt(state.time, 3) + " s / " + fmt(tEnd, 2) + " s \u00b7 frame " + (f + 1) + "/" + frames;
            zoomLabel.textContent = Math.round(view.zoom * 100) + "%";
          }

          // MARK: zoom and pan (CSS pixels of the canvas; the world point under (px, py) stays put)
          var zoomLabel = document.getElementById("zoom"), lastZoom = null;
          function worldToScreen(x, y) {
            return [view.zoom * (offX + scale * (x - ox)) + view.panX, view.zoom * (offY + scale * (oy + ey - y)) + view.panY];
          }
          function screenToWorld(px, py) {
            var bx = (px - view.panX) / view.zoom, by = (py - view.panY) / view.zoom;
            return [ox + (bx - offX) / scale, oy + ey - (by - offY) / scale];
          }
          function zoomBy(factor, px, py) {
            if (px === undefined) { px = cssW / 2; py = cssH / 2; }
            var z = Math.min(5000, Math.max(0.05, view.zoom * factor)), f = z / view.zoom, before = screenToWorld(px, py);
            view.panX = px - f * (px - view.panX);
            view.panY = py - f * (py - view.panY);
            view.zoom = z;
            lastZoom = { at: [px, py], before: before, after: screenToWorld(px, py) };
            draw();
          }
          function resetView() { view.zoom = 1; view.panX = 0; view.panY = 0; draw(); }
          function canvasPoint(event) {
            var rect = canvas.getBoundingClientRect();
            return [event.clientX - rect.left - canvas.clientLeft, event.clientY - rect.top - canvas.clientTop];
          }
          canvas.addEventListener("wheel", function (event) {
            event.preventDefault();
            var p = canvasPoint(event), dy = event.deltaY * (event.deltaMode === 1 ? 16 : event.deltaMode === 2 ? 400 : 1);
            zoomBy(Math.exp(-dy * 0.0015), p[0], p[1]);
          }, { passive: false });
          var drag = null;
          canvas.addEventListener("mousedown", function (event) {
            if (event.button !== 0) return;
            event.preventDefault();
            drag = canvasPoint(event);
            canvas.classList.add("dragging");
          });
          window.addEventListener("mousemove", function (event) {
            if (!drag) return;
            var p = canvasPoint(event);
            view.panX += p[0] - drag[0];
            view.panY += p[1] - drag[1];
            drag = p;
            draw();
          });
          window.addEventListener("mouseup", function () { drag = null; canvas.classList.remove("dragging"); });
          document.getElementById("zoom-in").addEventListener("click", function () { zoomBy(1.25); });
          document.getElementById("zoom-out").addEventListener("click", function () { zoomBy(1 / 1.25); });
          document.getElementById("zoom-fit").addEventListener("click", resetView);

          // MARK: chart (gravity x, y on the left axis; kinetic energy on the right)
          var pad = { left: 48, right: 64, top: 10, bottom: 20 };
          var chartBase = document.createElement("canvas");
          chartBase.width = chart.width;
          chartBase.height = chart.height;
          function chartX(t) { return pad.left + (tEnd > t0 ? (t - t0) / (tEnd - t0) : 0) * (chartW - pad.left - pad.right); }
          (function drawChartBase() {
            var c = chartBase.getContext("2d"), i;
            c.setTransform(dpr, 0, 0, dpr, 0, 0);
            c.fillStyle = "#ffffff";
            c.fillRect(0, 0, chartW, chartH);
            var plotH = chartH - pad.top - pad.bottom;
            var gmax = 1;
            for (i = 0; i < D.g.length; i++) gmax = Math.max(gmax, Math.abs(D.g[i]));
            var glabel = gmax;
            gmax *= 1.1;  // keep the lines off the edges
            var kmax = 0;
            if (D.ke) for (i = 0; i < D.ke.length; i++) kmax = Math.max(kmax, D.ke[i]);
            if (!(kmax > 0)) kmax = 1;
            var klabel = kmax;
            kmax *= 1.05;
            function gy(v) { return pad.top + plotH / 2 - v / gmax * plotH / 2; }
            function ky(v) { return pad.top + plotH - v / kmax * plotH; }
            c.strokeStyle = "#dddddd";
            c.lineWidth = 1;
            c.beginPath();
            c.moveTo(pad.left, gy(0)); c.lineTo(chartW - pad.right, gy(0));
            c.moveTo(pad.left, pad.top); c.lineTo(pad.left, pad.top + plotH);
            c.moveTo(chartW - pad.right, pad.top); c.lineTo(chartW - pad.right, pad.top + plotH);
            c.stroke();
            c.fillStyle = "#555555";
            c.font = "11px system-ui, 'DejaVu Sans', sans-serif";
            c.textAlign = "right";
            c.fillText(String(Math.round(glabel)), pad.left - 4, gy(glabel) + 4);
            c.fillText("0", pad.left - 4, gy(0) + 4);
            c.fillText(String(-Math.round(glabel)), pad.left - 4, gy(-glabel) + 4);
            c.textAlign = "left";
            if (D.ke) {
              c.fillText(klabel.toPrecision(3).replace("e+", "e"), chartW - pad.right + 4, ky(klabel) + 4);
              c.fillText("0", chartW - pad.right + 4, pad.top + plotH);
            }
            c.textAlign = "center";
            c.fillText(fmt(t0, 1) + " s", pad.left, chartH - 5);
            c.fillText(fmt(tEnd, 1) + " s", chartW - pad.right, chartH - 5);
            function line(colour, value) {
              c.strokeStyle = colour;
              c.lineWidth = 1.5;
              c.beginPath();
              for (var f = 0; f < frames; f++) {
                var x = chartX(D.t[f]), y = value(f);
                if (f === 0) c.moveTo(x, y); else c.lineTo(x, y);
              }
              c.stroke();
            }
            line("#4a8fd8", function (f) { return gy(D.g[2 * f]); });
            line("#4caf6a", function (f) { return gy(D.g[2 * f + 1]); });
            if (D.ke) line("#e8604c", function (f) { return ky(D.ke[f]); });
          })();
          var legend = '<span><i style="background:#4a8fd8"></i>gravity x</span><span><i style="background:#4caf6a"></i>gravity y (left axis, units/s\u00b2)</span>';
          document.getElementById("legend").innerHTML = legend;
          if (D.ke) {
            var entry = document.createElement("span");
            entry.innerHTML = '<i style="background:#e8604c"></i>';
            entry.appendChild(document.createTextNode(D.energy + " (right axis)"));
            document.getElementById("legend").appendChild(entry);
          }

          function drawChart() {
            cctx.setTransform(1, 0, 0, 1, 0, 0);
            cctx.drawImage(chartBase, 0, 0);
            cctx.setTransform(dpr, 0, 0, dpr, 0, 0);
            var x = chartX(D.t[state.frame]);
            cctx.strokeStyle = "#222222";
            cctx.lineWidth = 1;
            cctx.beginPath();
            cctx.moveTo(x, pad.top);
            cctx.lineTo(x, chartH - pad.bottom);
            cctx.stroke();
          }

          // MARK: playback at real speed, scaled by the chosen speed
          function tick(now) {
            state.raf = 0;
            if (!state.playing) return;
            if (state.last !== null) state.time += (now - state.last) / 1000 * state.speed;
            state.last = now;
            if (state.time >= tEnd) { state.time = tEnd; setPlaying(false); }
            state.frame = frameAt(state.time);
            state.ticks++;
            draw();
            if (state.playing && !state.raf) state.raf = requestAnimationFrame(tick);
          }

          function setPlaying(on) {
            if (on && state.time >= tEnd) state.time = t0;
            state.playing = on;
            state.last = null;
            playButton.textContent = on ? "Pause" : "Play";
            if (on && !state.raf) state.raf = requestAnimationFrame(tick);
          }

          function seek(t) {
            var time = Number(t);
            if (!(time === time)) time = t0;
            state.time = Math.min(Math.max(time, t0), tEnd);
            state.frame = frameAt(state.time);
            state.last = null;
            draw();
            return state.frame;
          }

          playButton.addEventListener("click", function () { setPlaying(!state.playing); });
          slider.addEventListener("input", function () { seek(D.t[Number(slider.value)]); });
          Array.prototype.forEach.call(document.querySelectorAll("button.speed"), function (button) {
            button.addEventListener("click", function () {
              state.speed = Number(button.getAttribute("data-speed"));
              Array.prototype.forEach.call(document.querySelectorAll("button.speed"), function (b) {
                b.classList.toggle("active", b === button);
              });
            });
          });
          document.addEventListener("keydown", function (event) {
            if (event.target === slider && event.key !== " ") return;
            if (event.key === " ") { event.preventDefault(); setPlaying(!state.playing); }
            else if (event.key === "ArrowRight" && !state.playing) seek(D.t[Math.min(frames - 1, state.frame + 1)]);
            else if (event.key === "ArrowLeft" && !state.playing) seek(D.t[Math.max(0, state.frame - 1)]);
            else if (event.key === "+" || event.key === "=") zoomBy(1.25);
            else if (event.key === "-" || event.key === "_" || event.key === "−") zoomBy(1 / 1.25);
            else if (event.key === "0") resetView();
          });

          // MARK: hover: hit-test the shapes as drawn, topmost first
          function insideShape(sh, lx, ly) {
            var r, v, k, dx, dy;
            if (sh[0] === "c") { dx = lx - sh[2]; dy = ly - sh[3]; return dx * dx + dy * dy <= sh[1] * sh[1]; }
            if (sh[0] === "b") return Math.abs(lx) <= sh[1] / 2 + sh[3] && Math.abs(ly) <= sh[2] / 2 + sh[3];
            if (sh[0] === "s") return distanceToSegment(lx, ly, sh[2], sh[3], sh[4], sh[5]) <= Math.max(sh[1], 2 * unit());
            r = sh[1]; v = sh.slice(2);
            var n = v.length / 2, sign = 0, inside = true;
            for (k = 0; k < n; k++) {
              var x0 = v[2 * k], y0 = v[2 * k + 1], x1 = v[(2 * k + 2) % v.length], y1 = v[(2 * k + 3) % v.length];
              var cross = (x1 - x0) * (ly - y0) - (y1 - y0) * (lx - x0);
              if (cross !== 0) { if (sign === 0) sign = cross > 0 ? 1 : -1; else if ((cross > 0 ? 1 : -1) !== sign) inside = false; }
              if (r > 0 && distanceToSegment(lx, ly, x0, y0, x1, y1) <= r) return true;
            }
            return inside;
          }
          function distanceToSegment(px, py, x0, y0, x1, y1) {
            var dx = x1 - x0, dy = y1 - y0, l2 = dx * dx + dy * dy;
            var t = l2 > 0 ? Math.min(1, Math.max(0, ((px - x0) * dx + (py - y0) * dy) / l2)) : 0;
            var ex2 = px - x0 - t * dx, ey2 = py - y0 - t * dy;
            return Math.sqrt(ex2 * ex2 + ey2 * ey2);
          }
          function crateIndexAt(wx, wy) {
            var s = state.drawnStates;
            if (!s) return -1;
            for (var i = nb - 1; i >= 0; i--) {
              if (s[3 * i] === null) continue; // not present in this frame
              var dx = wx - s[3 * i], dy = wy - s[3 * i + 1], a = s[3 * i + 2];
              var c = Math.cos(a), sn = Math.sin(a);
              var lx = dx * c + dy * sn, ly = -dx * sn + dy * c;
              for (var j = 0; j < SHAPES[i].length; j++) if (insideShape(SHAPES[i][j], lx, ly)) return i;
            }
            return -1;
          }
          canvas.addEventListener("mousemove", function (event) {
            var rect = canvas.getBoundingClientRect();
            var px = event.clientX - rect.left - canvas.clientLeft, py = event.clientY - rect.top - canvas.clientTop;
            var w = screenToWorld(px, py), hit = drag ? -1 : crateIndexAt(w[0], w[1]);
            if (hit >= 0) {
              tip.textContent = D.bodies[hit];
              tip.style.left = (px + 14) + "px";
              tip.style.top = (py + 10) + "px";
              tip.style.display = "block";
            } else {
              tip.style.display = "none";
            }
            if (hit !== state.hover) { state.hover = hit; if (!state.playing) draw(); }
          });
          canvas.addEventListener("mouseleave", function () {
            tip.style.display = "none";
            if (state.hover !== -1) { state.hover = -1; if (!state.playing) draw(); }
          });

          // MARK: hooks for tests and scripting
          function drawnCrates() {
            var s = state.drawnStates, out = [];
            if (!s) return out;
            for (var i = 0; i < nb; i++) {
              if (s[3 * i] !== null) out.push({ id: D.bodies[i], x: s[3 * i], y: s[3 * i + 1], angle: s[3 * i + 2] });
            }
            return out;
          }
          function nonBackgroundPixels() {
            var data = ctx.getImageData(0, 0, canvas.width, canvas.height).data, count = 0;
            for (var p = 0; p < data.length; p += 4) {
              if (Math.abs(data[p] - 255) + Math.abs(data[p + 1] - 255) + Math.abs(data[p + 2] - 255) > 24) count++;
            }
            return count;
          }
          // The canvas colour [r, g, b] at a world point (null outside the canvas).
          function pixelAt(wx, wy) {
            var p = worldToScreen(wx, wy), x = Math.floor(p[0] * dpr), y = Math.floor(p[1] * dpr);
            if (!(x >= 0 && y >= 0 && x < canvas.width && y < canvas.height)) return null;
            var d = ctx.getImageData(x, y, 1, 1).data;
            return [d[0], d[1], d[2]];
          }
          function viewReport() { return { zoom: view.zoom, panX: view.panX, panY: view.panY, scale: scale * view.zoom }; }
          T.seek = seek;
          T.view = viewReport;
          T.zoomBy = zoomBy;
          T.resetView = resetView;
          T.worldToScreen = worldToScreen;
          T.pixelAt = pixelAt;
          T.drawnCrates = drawnCrates;
          T.nonBackgroundPixels = nonBackgroundPixels;
          T.crateAt = function (wx, wy) { var i = crateIndexAt(wx, wy); return i >= 0 ? D.bodies[i] : null; };
          T.play = function () { setPlaying(true); };
          T.pause = function () { setPlaying(false); };
          Object.defineProperty(T, "frameIndex", { get: function () { return state.frame; } });
          Object.defineProperty(T, "frameCount", { get: function () { return frames; } });
          Object.defineProperty(T, "time", { get: function () { return state.time; } });

          // For the browser test: the view after a "+" key, a wheel turn at a quarter of the
          // canvas (and the world point under it before and after), a drag by (30, 20) and
          // a "0" key, each sent as the browser would send them.
          function zoomExercise() {
            var out = { fit: viewReport() }, rect = canvas.getBoundingClientRect();
            function key(k) { document.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true })); }
            function mouse(target, kind, x, y) {
              target.dispatchEvent(new MouseEvent(kind, { clientX: rect.left + canvas.clientLeft + x, clientY: rect.top + canvas.clientTop + y,
                                                          button: 0, bubbles: true }));
            }
            key("+");
            out.plus = viewReport();
            key("0");
            out.reset = viewReport();
            var px = Math.round(cssW / 4), py = Math.round(cssH / 4);
            canvas.dispatchEvent(new WheelEvent("wheel", { deltaY: -300, deltaMode: 0, clientX: rect.left + canvas.clientLeft + px,
                                                           clientY: rect.top + canvas.clientTop + py, bubbles: true, cancelable: true }));
            out.wheel = viewReport();
            // Where the wheel handler saw the pointer, and the world point under it before and after.
            out.wheelPoint = lastZoom ? lastZoom.at : [];
            out.worldBefore = lastZoom ? lastZoom.before : [];
            out.worldAfter = lastZoom ? lastZoom.after : [];
            mouse(canvas, "mousedown", px, py);
            mouse(window, "mousemove", px + 30, py + 20);
            mouse(window, "mouseup", px + 30, py + 20);
            out.drag = viewReport();
            key("-");
            out.minus = viewReport();
            key("0");
            out.end = viewReport();
            return out;
          }

          seek(t0);
          if (location.hash === "#test") {
            // Play a moment (until at least one animation frame has been drawn, or 3 s have
            // passed), then seek to the end and report for the browser test.
            setPlaying(true);
            var waited = 0;
            var finish = function () {
              waited += 100;
              if ((waited < 300 || state.ticks === 0) && waited < 3000) { setTimeout(finish, 100); return; }
              setPlaying(false);
              seek(tEnd);
              var rect = canvas.getBoundingClientRect();
              var report = {
                errors: T.errors.slice(), frameIndex: state.frame, frameCount: frames, time: state.time, lastTime: tEnd,
                ticks: state.ticks, crates: drawnCrates(), nonBackground: nonBackgroundPixels(),
                canvasPixels: canvas.width * canvas.height, devicePixelRatio: dpr,
                canvas: { left: rect.left + canvas.clientLeft, top: rect.top + canvas.clientTop, width: cssW, height: cssH },
                hoverCentre: nb > 0 ? T.crateAt(drawnCrates()[nb - 1].x, drawnCrates()[nb - 1].y) : null
              };
              var probe = /[?&]probe=([^&#]*)/.exec(location.search), points = [];
              if (probe) points = decodeURIComponent(probe[1]).split(",").map(Number);
              report.probes = [];
              report.probeHits = [];
              for (var p = 0; p + 1 < points.length; p += 2) {
                report.probes.push(pixelAt(points[p], points[p + 1]));
                report.probeHits.push(T.crateAt(points[p], points[p + 1]));
              }
              report.zoom = zoomExercise();
              var out = document.getElementById("test-output");
              out.textContent = btoa(unescape(encodeURIComponent(JSON.stringify(report))));
              out.setAttribute("data-ready", "1");
            };
            setTimeout(finish, 100);
          } else if (location.hash !== "#paused") {
            setPlaying(true);
          }
        })();
        </script>
        </body>
        </html>

        """#
}
