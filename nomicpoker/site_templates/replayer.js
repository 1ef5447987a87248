/* nomicpoker replayer: a hand as it happened at the table, step by step.
 *
 * Static and self-contained: the frames are the page's own JSON (#replay-data, computed by
 * nomicpoker from the hand's public record), nothing is fetched, no library, no inline code
 * (the page's Content-Security-Policy allows scripts from the site's own files only). Names
 * are always set as text (textContent), never as markup. Without JavaScript the page shows
 * the same frames as a list (#frames); this script draws the table above it and highlights
 * the list item of the current step. Keys (while the table is in sight): Right/Left arrows
 * step, Home/End jump.
 */
(function () {
  "use strict";
  var data, frames, root, cur = 0;
  var el = function (tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    return e;
  };
  var cardEl = function (c) {
    var e = el("span", "card" + (c.red ? " red" : ""), c.text);
    e.title = c.code;
    return e;
  };
  var back = function () { return el("span", "card back", "\u00a0"); };

  function seatBox(s, f, i, n, rx) {
    var box = el("div", "seat");
    box.setAttribute("data-name", s.name);
    if (s.folded) { box.className += " folded"; }
    if (s.all_in) { box.className += " all-in"; }
    if (f.to_act === s.name) { box.className += " to-act"; }
    // around an ellipse, the first seat at the bottom, clockwise
    var a = Math.PI / 2 + (2 * Math.PI * i) / n;
    box.style.left = (50 + rx * Math.cos(a)).toFixed(2) + "%";
    box.style.top = (50 + 38 * Math.sin(a)).toFixed(2) + "%";
    var head = el("div", "who");
    head.appendChild(el("bdi", "name", s.name));
    if (data.button === s.name) { head.appendChild(el("span", "dealer-btn", "D")); }
    box.appendChild(head);
    var st = el("div", "stack");
    st.appendChild(el("span", "amount", s.stack));
    box.appendChild(st);
    var cards = el("div", "hole");
    if (s.cards.length) {
      s.cards.forEach(function (c) { cards.appendChild(cardEl(c)); });
      if (s.how === "recomputed") { cards.appendChild(el("span", "how", "recomputed")); }
      else if (s.how === "face up") { cards.appendChild(el("span", "how", "face up")); }
    } else if (!s.folded && f.kind !== "end") { cards.appendChild(back()); cards.appendChild(back()); }
    box.appendChild(cards);
    var status = s.folded ? "folded" : (s.all_in ? "all in" : (f.to_act === s.name ? "Turn: to act" : ""));
    box.appendChild(el("div", "status", status));
    if (s.bet) { box.appendChild(el("div", "bet", "bet " + s.bet)); }
    return box;
  }

  function chances(eq) {
    var wrap = el("div", "chances");
    wrap.appendChild(el("div", "chances-head", "Exact chances over all " + eq.boards.toLocaleString("en") + " ways the board can fall"));
    eq.pots.forEach(function (pot) {
      var t = el("table", "list chances-table");
      if (eq.pots.length > 1) { t.appendChild(el("caption", "", pot.label + " " + pot.amount)); }
      pot.players.forEach(function (q) {
        var tr = el("tr");
        var who = el("td"); who.appendChild(el("bdi", "name", q.player)); tr.appendChild(who);
        tr.appendChild(el("td", "n", q.win + (q.tie ? " + ties " + q.tie : "")));
        var barCell = el("td", "barcell"), bar = el("span", "bar");
        bar.style.width = Math.max(0, Math.min(100, q.bar)) + "%";
        barCell.appendChild(bar); tr.appendChild(barCell);
        t.appendChild(tr);
      });
      wrap.appendChild(t);
    });
    return wrap;
  }

  function show(i) {
    cur = Math.max(0, Math.min(frames.length - 1, i));
    var f = frames[cur];
    root.setAttribute("data-frame", String(cur));
    var felt = root.querySelector(".felt");
    felt.textContent = "";
    var mid = el("div", "middle");
    var board = el("div", "board");
    f.board.forEach(function (c) { board.appendChild(cardEl(c)); });
    for (var k = f.board.length; k < 5; k++) { board.appendChild(el("span", "card slot", "\u00a0")); }
    mid.appendChild(board);
    mid.appendChild(el("div", "pot", "Pot " + f.pot));
    felt.appendChild(mid);
    var rx = felt.clientWidth < 500 ? 31 : 41;  // a phone: the seats come in from the sides
    f.seats.forEach(function (s, j) { felt.appendChild(seatBox(s, f, j, f.seats.length, rx)); });
    var info = root.querySelector(".step-info");
    info.textContent = "";
    var line = el("p", "step-line");
    line.appendChild(el("span", "street s-" + f.street, f.street));
    line.appendChild(document.createTextNode(" "));
    if (f.player) { line.appendChild(el("bdi", "name", f.player)); line.appendChild(document.createTextNode(" ")); }
    line.appendChild(document.createTextNode(f.words));
    info.appendChild(line);
    if (f.anchor) {
      var said = el("p", "dealer-said");
      var a = el("a", "", "comment " + f.comment);
      a.href = "#" + f.anchor;
      said.appendChild(a);
      said.appendChild(document.createTextNode(" \u2014 Dealer: " + f.dealer));
      info.appendChild(said);
    }
    if (f.equity) { info.appendChild(chances(f.equity)); }
    root.querySelector(".counter").textContent = "Step " + cur + " of " + (frames.length - 1);
    var items = document.querySelectorAll("#frames > li");
    for (var m = 0; m < items.length; m++) { items[m].classList.toggle("current", m === cur); }
  }

  function button(label, title, go) {
    var b = el("button", "", label);
    b.type = "button";
    b.title = title;
    b.setAttribute("aria-label", title);
    b.addEventListener("click", function () { show(go()); });
    return b;
  }

  function init() {
    var src = document.getElementById("replay-data");
    root = document.getElementById("replayer");
    if (!src || !root) { return; }
    try { data = JSON.parse(src.textContent); } catch (e) { return; }
    frames = data.frames || [];
    if (!frames.length) { return; }
    var bar = el("div", "controls");
    bar.appendChild(button("\u25c0\u25c0", "first step (Home)", function () { return 0; }));
    bar.appendChild(button("\u25c0", "previous step (Left arrow)", function () { return cur - 1; }));
    bar.appendChild(button("\u25b6", "next step (Right arrow)", function () { return cur + 1; }));
    bar.appendChild(button("\u25b6\u25b6", "last step (End)", function () { return frames.length - 1; }));
    bar.appendChild(el("span", "counter"));
    bar.appendChild(el("span", "keys", "keys: \u2190 \u2192 Home End"));
    root.appendChild(bar);
    root.appendChild(el("div", "felt"));
    var info = el("div", "step-info");
    info.setAttribute("aria-live", "polite");  // a screen reader hears each step
    root.appendChild(info);
    root.hidden = false;
    document.addEventListener("keydown", function (e) {
      var t = e.target && e.target.tagName;
      if (e.altKey || e.ctrlKey || e.metaKey || t === "INPUT" || t === "TEXTAREA" || t === "SELECT") { return; }
      var box = root.getBoundingClientRect();  // the keys scroll the page as usual when the table is out of sight
      if (box.bottom < 0 || box.top > window.innerHeight) { return; }
      var to = {ArrowRight: cur + 1, ArrowLeft: cur - 1, Home: 0, End: frames.length - 1}[e.key];
      if (to === undefined) { return; }
      e.preventDefault();
      show(to);
    });
    var items = document.querySelectorAll("#frames > li");
    for (var m = 0; m < items.length; m++) {
      (function (k) { items[k].addEventListener("click", function (ev) {
        if (ev.target.tagName === "A" && ev.target.getAttribute("href") !== "#f-" + k) { return; }
        show(k);
      }); })(m);
    }
    var h = /^#f-(\d+)$/.exec(location.hash);
    show(h ? parseInt(h[1], 10) : 0);
    if (h) { root.scrollIntoView(); }
  }

  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", init); } else { init(); }
}());
