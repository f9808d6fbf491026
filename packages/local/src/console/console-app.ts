/** How often the page asks for the state (ms); the alarm periods are minutes, so 2 s is plenty. */
export const CONSOLE_POLL_MS = 2_000;

/**
 * The page's script: polls the state, draws each section with textContent (the state holds text from the tables,
 * never HTML), and keeps five minutes of PSP rates for the chart. Plain browser JavaScript in a string: no build.
 */
export const CONSOLE_APP = `(function () {
  var POLL_MS = ${CONSOLE_POLL_MS};
  var ROLES = ["primary", "standby"];
  var history = [];
  var chart;
  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }
  function table(id, head, rows) {
    var t = document.getElementById(id);
    t.replaceChildren();
    var tr = el("tr");
    head.forEach(function (h) { tr.appendChild(el("th", h)); });
    t.appendChild(tr);
    rows.forEach(function (r) {
      var row = el("tr");
      r.forEach(function (c) { row.appendChild(c instanceof Node ? wrap(c) : el("td", c)); });
      t.appendChild(row);
    });
  }
  function wrap(node) { var td = el("td"); td.appendChild(node); return td; }
  function running(s) { return ROLES.filter(function (r) { return s.per_region[r]; }); }
  function each(s, f) { return running(s).map(function (r) { return f(s.per_region[r], r); }); }
  function drawRegions(s) {
    var a = s.regions.authority;
    var box = document.getElementById("authority");
    box.replaceChildren(el("div", "active: " + (a.active || "unreadable"), "big"),
      el("div", "epoch " + a.epoch + (a.reason ? " · " + a.reason : "")));
    var warn = document.getElementById("warnings");
    warn.replaceChildren();
    s.warnings.forEach(function (w) { warn.appendChild(el("div", "⚠ " + w, "warning")); });
    if (s.warnings.length === 0) warn.appendChild(el("div", "The Regions agree with the authority.", "agree"));
    table("regions", ["Region", "up", "acts as", "reaches authority", "own copy"], ROLES.map(function (r) {
      var v = s.regions.regions[r];
      var c = v.control;
      return [r, el("span", v.up ? "up" : "DOWN", v.up ? "up" : "down"), v.acts_as,
        v.reaches_authority ? "yes" : "no", el("span", c ? c.active + " · epoch " + c.epoch : "none", "pill")];
    }));
    var rep = s.regions.replication;
    document.getElementById("replication").replaceChildren(
      el("div", "lag " + rep.lag_ms + " ms · pending " + rep.pending, "big"),
      el("div", !rep.running ? "not running (no standby)" : rep.paused ? "paused" : rep.idle ? "idle" : "shipping"));
  }
  function drawTables(s) {
    var states = {};
    each(s, function (f) { Object.keys(f.snapshot.payments).forEach(function (k) { states[k] = 1; }); });
    table("payments", ["state"].concat(running(s)), Object.keys(states).sort().map(function (k) {
      return [k].concat(each(s, function (f) { return f.snapshot.payments[k] || 0; }));
    }));
    table("backlog", ["Region", "unknown", "oldest"], each(s, function (f, r) {
      var o = f.snapshot.unknown.oldest_age_s;
      return [r, f.snapshot.unknown.count, o === null ? "none" : o + " s"];
    }));
    table("queues", ["Region", "DLQ depth", "events", "relay failures"], each(s, function (f, r) {
      var q = f.snapshot.queues;
      return [r, q.dlq === null ? "?" : q.dlq, q.events === null ? "?" : q.events, q.relay_failures];
    }));
    table("answers", ["Region", "by status", "budget refusals"], each(s, function (f, r) {
      var b = f.answers.by_status;
      var text = Object.keys(b).sort().map(function (k) { return k + ": " + b[k]; }).join("  ") || "none yet";
      return [r, text, f.answers.budget_refused];
    }));
    table("problems", ["Region", "anomalies", "notifications failed for good"], each(s, function (f, r) {
      return [r, f.snapshot.anomalies, f.snapshot.notifications_failed];
    }));
  }
  function drawPsp(s) {
    var p = s.psp;
    document.getElementById("psp").replaceChildren(
      el("div", "live " + p.calls_per_s.live + "/s · resolver " + p.calls_per_s.resolver + "/s · 429 " +
        p.rate_limited_per_s + "/s (last " + p.window_s + " s)", "big"),
      el("div", "since start: " + p.totals.requests + " calls, " + p.totals.rate_limited + " answered 429, " +
        p.totals.replies_dropped + " replies lost, " + p.totals.outage_refused + " refused in an outage"));
    history.push({ t: new Date(s.at).toLocaleTimeString(), p: p });
    if (history.length > 150) history.shift();
    if (!window.Chart) return;
    var series = function (f) { return history.map(function (h) { return f(h.p); }); };
    var data = {
      labels: history.map(function (h) { return h.t; }),
      datasets: [
        { label: "live/s", data: series(function (p) { return p.calls_per_s.live; }), borderColor: "#2f6fde" },
        { label: "resolver/s", data: series(function (p) { return p.calls_per_s.resolver; }), borderColor: "#8e44ad" },
        { label: "429/s", data: series(function (p) { return p.rate_limited_per_s; }), borderColor: "#b3261e" },
      ],
    };
    if (!chart) chart = new Chart(document.getElementById("psp-chart"), { type: "line", data: data,
      options: { animation: false, responsive: true, maintainAspectRatio: false, scales: { y: { beginAtZero: true } } } });
    else { chart.data = data; chart.update(); }
  }
  var ORDER = { ALARM: 0, BREACHING: 1, OK: 2, NOT_MEASURED: 3 };
  function drawAlarms(s) {
    var list = s.alarms.slice().sort(function (a, b) { return ORDER[a.state] - ORDER[b.state]; });
    table("alarms", ["state", "alarm", "Region", "now", "threshold", "meaning", "runbook"], list.map(function (a) {
      var label = a.state === "BREACHING" ? "BREACHING " + a.breaching_for_s + "/" + a.pages_after_s + " s" :
        a.state === "NOT_MEASURED" ? "not measured locally" : a.state;
      var cmp = /Greater/.test(a.comparison) ? ">" : "<";
      return [el("span", label, "pill state-" + a.state), a.id, a.region,
        a.value === null ? "–" : Math.round(a.value * 1000) / 1000, cmp + " " + a.threshold, a.meaning, a.runbook];
    }));
  }
  function refresh() {
    fetch("/_local/console/state").then(function (r) { return r.json(); }).then(function (s) {
      drawRegions(s); drawTables(s); drawPsp(s); drawAlarms(s);
      var at = document.getElementById("refreshed");
      at.textContent = "refreshed " + new Date(s.at).toLocaleTimeString() + " (every " + POLL_MS / 1000 + " s)";
      at.className = "";
      document.body.dataset.refreshes = String(Number(document.body.dataset.refreshes || 0) + 1);
    }).catch(function (e) {
      var at = document.getElementById("refreshed");
      at.textContent = "stale: " + e.message; at.className = "stale";
    }).finally(function () { setTimeout(refresh, POLL_MS); });
  }
  refresh();
})();`;
