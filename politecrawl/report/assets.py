"""The HTML report's inline style sheet and script (no network, no external fonts).

The script makes every ``table[data-sortable]`` sortable by clicking a column header (numbers
numerically, text case-insensitively, empty cells last; a second click reverses) and marks each
table ``data-sortable="ready"`` once wired, so a test can tell that it ran without errors. It
also marks each table's frame ``data-scrolls="true"`` when the table is wider than the screen
(redone when the window is resized), and the style then shows that it scrolls: a shadow at the
edge and a "scroll" cue. On a phone the findings come first, the summary cards are compact and
long URLs wrap at their slashes. Problems read as problems: a broken count is red and heavy, a
count worth a look red-outlined, a zero muted; sections with nothing found fold. The pictures
(``pictures``) take their colours from here by class. The page's Content-Security-Policy
admits exactly these two texts, by hash.
"""

from __future__ import annotations

STYLE = """
:root {
  color-scheme: light dark;
  --fg: #1d2129; --muted: #5f6b7a; --bg: #ffffff; --panel: #f5f7fa; --line: #dde3ea;
  --accent: #2456c7; --bad: #b42318; --good: #1f7a3d; --stripe: #fafbfc;
  --warn: #9a5b00; --changed: #7a3fb0; --robots: #1f7a3d;
}
@media (prefers-color-scheme: dark) {
  :root {
    --fg: #e6e9ef; --muted: #9aa5b4; --bg: #14171c; --panel: #1c2027; --line: #2c323c;
    --accent: #7aa2ff; --bad: #ff7b72; --good: #56d364; --stripe: #181b21;
    --warn: #e3b341; --changed: #c297ff; --robots: #56d364;
  }
}
* { box-sizing: border-box; }
body {
  margin: 0; padding: 2rem clamp(1rem, 3vw, 3rem); background: var(--bg); color: var(--fg);
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial,
    sans-serif;
}
h1 { font-size: 1.6rem; margin: 0 0 .25rem; }
h2 { font-size: 1.2rem; margin: 2.5rem 0 .75rem; display: flex; gap: .6rem; align-items: center; }
.meta { color: var(--muted); margin: 0 0 1.5rem; }
.count {
  font-size: .85rem; font-weight: 600; padding: .05rem .55rem; border-radius: 999px;
  background: var(--panel); border: 1px solid var(--line); color: var(--muted);
}
.count.nonzero { color: var(--bad); border-color: var(--bad); }
.count.bad { color: var(--bg); background: var(--bad); font-weight: 750; }
.count.good { color: var(--good); border-color: var(--good); }
.count.new { color: var(--accent); border-color: var(--accent); }
.count.changed { color: var(--changed); border-color: var(--changed); }
.verdict { font-size: 1.3rem; font-weight: 700; margin: 0 0 .3rem; }
.verdict.bad { color: var(--bad); }
.verdict.good { color: var(--good); }
.pass { margin: 0 0 .5rem; color: var(--muted); }
.pass.incomplete { color: var(--warn); font-weight: 600; }
.card .value.bad { color: var(--bad); font-weight: 800; }
.card .value.warn { color: var(--warn); }
.card .value.zero { color: var(--muted); font-weight: 400; }
.card:has(.value.bad) { border-color: var(--bad); box-shadow: inset 4px 0 0 var(--bad); }
.card:has(.value.warn) { border-color: var(--warn); }
details.nothing, section.nothing { color: var(--muted); margin: .75rem 0 0; }
details.nothing > summary, section.nothing summary { cursor: pointer; }
section.nothing summary { font-size: 1rem; }
details.nothing .card { opacity: .75; }
details.nothing .summary { margin-top: .5rem; }
details.more summary { color: var(--accent); cursor: pointer; font-size: .85rem; }
.meta .database { font-size: .8rem; overflow-wrap: anywhere; }
figure.activity { margin: 0; }
.activity .host { display: flex; flex-wrap: wrap; gap: 0 .5rem; align-items: baseline;
  margin: .6rem 0 .15rem; font-size: .85rem; overflow-wrap: anywhere; }
.activity .host .name { font-weight: 600; }
.activity .host .note { margin: 0; }
.activity svg.strip, .activity svg.axis { display: block; width: 100%; overflow: visible; }
.activity .lane { fill: var(--panel); }
.activity .tick { stroke: var(--line); stroke-width: 1; }
.activity .ok { fill: var(--accent); stroke: var(--accent); stroke-width: .6; }
.activity .fail { fill: var(--bad); stroke: var(--bad); stroke-width: 1; }
.activity line.robots { stroke: var(--robots); stroke-width: 1.5; stroke-dasharray: 2 2; }
.activity circle.robots { fill: var(--robots); }
.activity .axis { fill: var(--muted); font-size: 11px; }
.activity .legend { display: flex; flex-wrap: wrap; gap: .25rem 1rem; margin: 0;
  font-size: .8rem; color: var(--muted); }
.activity .legend .key { display: inline-flex; gap: .3rem; align-items: center; }
.activity figcaption { color: var(--muted); font-size: .8rem; margin-top: .35rem; }
.changes { display: flex; flex-wrap: wrap; gap: 1rem 2rem; align-items: flex-start; }
.changes table.counts { width: auto; }
.changes table.counts th { font-weight: 400; text-align: left; }
.changes table.counts tr:last-child th { border-bottom: 0; }
.changes .chart { flex: 1 1 16rem; min-width: 0; }
svg.bars { display: block; width: 100%; }
svg.bars .label { fill: var(--fg); font-size: 12px; }
svg.bars .bar { fill: var(--muted); }
svg.bars .bar.bad { fill: var(--bad); }
svg.bars .bar.warn { fill: var(--warn); }
svg.bars .bar.good { fill: var(--good); }
svg.bars .bar.new { fill: var(--accent); }
svg.bars .bar.changed { fill: var(--changed); }
.summary {
  display: grid; gap: .75rem; grid-template-columns: repeat(auto-fill, minmax(11rem, 1fr));
}
.card {
  display: block; padding: .75rem 1rem; border: 1px solid var(--line); border-radius: .6rem;
  background: var(--panel); color: inherit; text-decoration: none;
}
a.card:hover { border-color: var(--accent); }
.card .value {
  display: block; font-size: 1.5rem; font-weight: 650; font-variant-numeric: tabular-nums;
}
.card .label { color: var(--muted); font-size: .85rem; }
.summary.measures { grid-template-columns: repeat(auto-fill, minmax(8rem, 1fr)); gap: .5rem; }
.summary.measures .card { padding: .35rem .7rem; }
.summary.measures .card .value { font-size: 1.05rem; }
.summary-group { margin: 1.25rem 0 .5rem; font-size: .8rem; text-transform: uppercase;
  letter-spacing: .06em; color: var(--muted); }
.wrap { overflow-x: auto; border: 1px solid var(--line); border-radius: .6rem; }
table { border-collapse: collapse; width: 100%; font-size: .9rem; }
th, td { text-align: left; vertical-align: top; padding: .45rem .75rem;
  border-bottom: 1px solid var(--line); }
tbody tr:nth-child(even) { background: var(--stripe); }
tbody tr:last-child td { border-bottom: 0; }
thead th { position: sticky; top: 0; background: var(--panel); white-space: nowrap; }
th button {
  all: unset; cursor: pointer; font-weight: 650; display: inline-flex; gap: .3rem;
}
th button:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
th button::after { content: "\\2195"; color: var(--muted); font-weight: 400; }
th[aria-sort="ascending"] button::after { content: "\\2191"; color: var(--accent); }
th[aria-sort="descending"] button::after { content: "\\2193"; color: var(--accent); }
td .line { white-space: pre-wrap; overflow-wrap: break-word; }
td:first-child { min-width: 12rem; }
td a { color: var(--accent); text-decoration: none; overflow-wrap: break-word; }
.nowrap { white-space: nowrap; }
.wrap[data-scrolls="true"] {
  background: linear-gradient(to left, var(--line), transparent 1.25rem) right / 1.25rem 100%
    no-repeat local, linear-gradient(to left, rgba(0, 0, 0, .18), transparent) right / .75rem
    100% no-repeat scroll;
}
.wrap[data-scrolls="true"]::before {
  content: "scroll \\2192"; position: sticky; left: 0; display: block; padding: .2rem .75rem;
  font-size: .75rem; color: var(--muted); background: var(--panel);
}
@media (max-width: 40rem) {
  body { padding: 1rem .75rem; font-size: 14px; }
  h1 { font-size: 1.25rem; overflow-wrap: anywhere; }
  h2 { margin-top: 1.75rem; }
  .summary { grid-template-columns: repeat(3, minmax(0, 1fr)); gap: .4rem; }
  .card { padding: .35rem .5rem; border-radius: .4rem; }
  .card .value { font-size: 1.05rem; }
  .card .label { font-size: .7rem; line-height: 1.2; display: block; }
  th, td { padding: .35rem .5rem; }
  td:first-child { min-width: 10rem; }
  /* The report's tables (not the audit's, whose cells carry no column name): each row a
     card, each cell under its column's name, so that no column is ever off screen. */
  .wrap table.stack, .stack tbody, .stack tr, .stack td { display: block; width: 100%; }
  .stack thead tr { display: flex; flex-wrap: wrap; gap: .2rem .9rem; padding: .35rem .5rem;
    background: var(--panel); border-bottom: 1px solid var(--line); }
  .stack thead th { position: static; padding: 0; border: 0; background: none; }
  .stack tbody tr { padding: .4rem .6rem; border-bottom: 1px solid var(--line); }
  .stack tbody tr:last-child { border-bottom: 0; }
  .stack td { display: grid; grid-template-columns: 6.5rem minmax(0, 1fr); column-gap: .5rem;
    border: 0; padding: .05rem 0; min-width: 0; }
  .stack td > * { grid-column: 2; }
  .stack td::before { content: attr(data-label); grid-column: 1; color: var(--muted);
    font-size: .75rem; padding-top: .1rem; }
  .stack td:first-child { display: block; font-weight: 600; }
  .stack td:first-child::before { display: none; }
  .summary.measures { grid-template-columns: repeat(4, minmax(0, 1fr)); }
}
td a:hover { text-decoration: underline; }
.note { color: var(--muted); font-size: .8rem; margin-left: .35rem; }
.empty { color: var(--good); margin: 0; padding: .75rem 1rem; border: 1px dashed var(--line);
  border-radius: .6rem; }
footer { margin-top: 3rem; color: var(--muted); font-size: .8rem; }
"""

SCRIPT = """
(function () {
  "use strict";
  function sortKey(cell) {
    var key = cell.getAttribute("data-sort");
    return (key === null ? cell.textContent : key).trim();
  }
  function isNumber(text) {
    return text !== "" && isFinite(Number(text));
  }
  function sortBy(table, header, index) {
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var ascending = header.getAttribute("aria-sort") !== "ascending";
    var keys = rows.map(function (row) { return sortKey(row.cells[index]); });
    var numeric = keys.every(function (key) { return key === "" || isNumber(key); });
    var order = rows.map(function (row, at) { return at; });
    order.sort(function (a, b) {
      var x = keys[a], y = keys[b];
      if (x === "" || y === "") { return x === y ? a - b : (x === "" ? 1 : -1); }
      var result = numeric ? Number(x) - Number(y)
        : x.localeCompare(y, undefined, { sensitivity: "base", numeric: true });
      return (ascending ? result : -result) || a - b;
    });
    Array.prototype.forEach.call(header.parentNode.cells, function (cell) {
      cell.setAttribute("aria-sort", "none");
    });
    header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    order.forEach(function (at) { body.appendChild(rows[at]); });
  }
  var tables = document.querySelectorAll("table[data-sortable]");
  Array.prototype.forEach.call(tables, function (table) {
    var headers = table.tHead.rows[0].cells;
    Array.prototype.forEach.call(headers, function (header, index) {
      var button = header.querySelector("button");
      button.addEventListener("click", function () { sortBy(table, header, index); });
    });
    table.setAttribute("data-sortable", "ready");
  });
  function markScrolling() {
    Array.prototype.forEach.call(document.querySelectorAll(".wrap"), function (wrap) {
      var over = wrap.scrollWidth - wrap.clientWidth;
      wrap.setAttribute("data-overflow", String(over));
      wrap.setAttribute("data-scrolls", over > 1 ? "true" : "false");
    });
  }
  markScrolling();
  window.addEventListener("resize", markScrolling);
})();
"""
