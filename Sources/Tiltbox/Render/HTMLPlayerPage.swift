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
#world { display: block; background: #fff; border: 1px solid #9a9a9a; cursor: crosshair; }
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

  // World canvas: fit the drawn area into 900 x 480 CSS pixels, y up.
  var scale = Math.min(900 / ex, 480 / ey);
  var cssW = Math.max(1, Math.round(ex * scale)), cssH = Math.max(1, Math.round(ey * scale));
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

  document.getElementById("title").textContent = D.title + " \u2014 " + nb + (nb === 1 ? " crate, " : " crates, ") +
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

  function draw() {
    var f = state.frame, s = D.s[f], k = scale * dpr, i;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.setTransform(k, 0, 0, -k, -k * ox, k * (oy + ey));
    ctx.lineCap = "round";
    ctx.strokeStyle = "#4a4a4a";
    for (i = 0; i + 4 < D.segments.length; i += 5) {
      ctx.lineWidth = Math.max(2 * D.segments[i + 4], 1 / scale);
      ctx.beginPath();
      ctx.moveTo(D.segments[i], D.segments[i + 1]);
      ctx.lineTo(D.segments[i + 2], D.segments[i + 3]);
      ctx.stroke();
    }
    ctx.lineJoin = "round";
    for (i = 0; i < nb; i++) {
      var w = D.sizes[2 * i], h = D.sizes[2 * i + 1];
      ctx.save();
      ctx.translate(s[3 * i], s[3 * i + 1]);
      ctx.rotate(s[3 * i + 2]);
      ctx.fillStyle = FILLS[i % FILLS.length];
      ctx.fillRect(-w / 2, -h / 2, w, h);
      ctx.strokeStyle = i === state.hover ? "#000000" : "#2b2b2b";
      ctx.lineWidth = (i === state.hover ? 3 : 1) / scale;
      ctx.strokeRect(-w / 2, -h / 2, w, h);
      ctx.restore();
    }
    state.drawnFrame = f;
    state.drawnStates = s;
    drawChart();
    slider.value = String(f);
    clock.textContent = "t = " + fmt(state.time, 3) + " s / " + fmt(tEnd, 2) + " s \u00b7 frame " + (f + 1) + "/" + frames;
  }

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
  });

  // MARK: hover: hit-test the rotated rectangles as drawn, topmost first
  function crateIndexAt(wx, wy) {
    var s = state.drawnStates;
    if (!s) return -1;
    for (var i = nb - 1; i >= 0; i--) {
      var dx = wx - s[3 * i], dy = wy - s[3 * i + 1], a = s[3 * i + 2];
      var c = Math.cos(a), sn = Math.sin(a);
      var lx = dx * c + dy * sn, ly = -dx * sn + dy * c;
      if (Math.abs(lx) <= D.sizes[2 * i] / 2 && Math.abs(ly) <= D.sizes[2 * i + 1] / 2) return i;
    }
    return -1;
  }
  canvas.addEventListener("mousemove", function (event) {
    var rect = canvas.getBoundingClientRect();
    var px = event.clientX - rect.left - canvas.clientLeft, py = event.clientY - rect.top - canvas.clientTop;
    var hit = crateIndexAt(ox + px / scale, oy + ey - py / scale);
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
    for (var i = 0; i < nb; i++) out.push({ id: D.bodies[i], x: s[3 * i], y: s[3 * i + 1], angle: s[3 * i + 2] });
    return out;
  }
  function nonBackgroundPixels() {
    var data = ctx.getImageData(0, 0, canvas.width, canvas.height).data, count = 0;
    for (var p = 0; p < data.length; p += 4) {
      if (Math.abs(data[p] - 255) + Math.abs(data[p + 1] - 255) + Math.abs(data[p + 2] - 255) > 24) count++;
    }
    return count;
  }
  T.seek = seek;
  T.drawnCrates = drawnCrates;
  T.nonBackgroundPixels = nonBackgroundPixels;
  T.crateAt = function (wx, wy) { var i = crateIndexAt(wx, wy); return i >= 0 ? D.bodies[i] : null; };
  T.play = function () { setPlaying(true); };
  T.pause = function () { setPlaying(false); };
  Object.defineProperty(T, "frameIndex", { get: function () { return state.frame; } });
  Object.defineProperty(T, "frameCount", { get: function () { return frames; } });
  Object.defineProperty(T, "time", { get: function () { return state.time; } });

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
