/**
 * The web console's page and script, shipped as strings in the package (no CDN, no build step, no network at
 * run time). The script listens to `/console/events` (server-sent events, a snapshot a second), draws every
 * part with textContent (no markup from data), the equity with lightweight-charts (served at
 * `/console/charts.js`), and sends the operator commands after a confirmation. With bot.strategies (the snapshot
 * has `strategies`) a table shows each strategy with its own state control; without, that table stays hidden.
 */

/** The page: markup and styles; the script and the charts library are separate files (the CSP runs no inline script). */
export const CONSOLE_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>tradebot console</title>
<style>
  body { font: 14px/1.4 system-ui, sans-serif; margin: 0; background: #0f1419; color: #e6e6e6; }
  header { display: flex; gap: 16px; align-items: baseline; padding: 10px 16px; background: #1a2029; flex-wrap: wrap; }
  header h1 { font-size: 18px; margin: 0; }
  main { display: grid; grid-template-columns: repeat(auto-fit, minmax(360px, 1fr)); gap: 12px; padding: 12px; }
  section { background: #1a2029; border-radius: 6px; padding: 10px 12px; }
  section h2 { font-size: 14px; margin: 0 0 8px; color: #9fb3c8; text-transform: uppercase; letter-spacing: .04em; }
  table { width: 100%; border-collapse: collapse; font-variant-numeric: tabular-nums; }
  th, td { text-align: right; padding: 2px 6px; border-bottom: 1px solid #263040; }
  th:first-child, td:first-child { text-align: left; }
  .state-active { color: #4caf50; } .state-reducing { color: #ffb300; } .state-halted { color: #ef5350; }
  .own { color: #4fc3f7; font-weight: 600; }
  .bad { color: #ef5350; } .good { color: #4caf50; } .muted { color: #8895a7; }
  .figures { display: grid; grid-template-columns: repeat(5, 1fr); gap: 6px; }
  .figures div { background: #222a35; padding: 6px; border-radius: 4px; }
  .figures b { display: block; font-size: 16px; }
  #equity-chart { height: 180px; }
  .books { display: grid; grid-template-columns: repeat(auto-fit, minmax(240px, 1fr)); gap: 10px; }
  button, select, input { font: inherit; padding: 4px 8px; }
  .controls { display: flex; gap: 8px; flex-wrap: wrap; align-items: center; }
  #strategies td { vertical-align: middle; }
  #strategies-section th:nth-child(-n+4), #strategies td:nth-child(-n+4) { text-align: left; }
</style>
</head>
<body>
<header>
  <h1>tradebot</h1>
  <span>strategy <b id="strategy">…</b></span>
  <span>symbols <b id="symbols">…</b></span>
  <span>state <b id="state">…</b> <span id="state-reason" class="muted"></span></span>
  <span id="connection" class="muted">connecting…</span>
</header>
<main>
  <section id="strategies-section" style="grid-column: 1 / -1" hidden>
    <h2>Strategies</h2>
    <table>
      <thead><tr><th>id</th><th>strategy</th><th>symbols</th><th>state</th><th>orders</th><th>fills</th><th>refusals</th>
        <th>net PnL</th><th>positions</th><th>set its state</th></tr></thead>
      <tbody id="strategies"></tbody>
    </table>
  </section>
  <section>
    <h2>PnL</h2>
    <div class="figures">
      <div>realized<b id="pnl-realized">–</b></div>
      <div>unrealized<b id="pnl-unrealized">–</b></div>
      <div>fees<b id="pnl-fees">–</b></div>
      <div>net<b id="pnl-net">–</b></div>
      <div>equity<b id="pnl-equity">–</b></div>
    </div>
    <div id="equity-chart"></div>
  </section>
  <section>
    <h2>Controls</h2>
    <div class="controls">
      <select id="state-select" aria-label="trading state">
        <option value="active">active</option>
        <option value="reducing">reducing</option>
        <option value="halted">halted</option>
      </select>
      <input id="state-reason-input" placeholder="reason (optional)" maxlength="200">
      <button id="set-state">Set trading state</button>
      <button id="cancel-all">Cancel all orders</button>
    </div>
    <p id="command-result" class="muted"></p>
    <h2>Activity</h2>
    <table><tbody>
      <tr><td>orders sent</td><td id="count-orders">–</td></tr>
      <tr><td>fills</td><td id="count-fills">–</td></tr>
      <tr><td>refusals</td><td id="count-refusals">–</td></tr>
      <tr><td>messages / s (limit)</td><td id="message-rate">–</td></tr>
      <tr><td>market data</td><td id="stream-market">–</td></tr>
      <tr><td>order stream</td><td id="stream-orders">–</td></tr>
    </tbody></table>
  </section>
  <section>
    <h2>Positions</h2>
    <table>
      <thead><tr><th>symbol</th><th>account</th><th>qty</th><th>avg px</th></tr></thead>
      <tbody id="positions"></tbody>
    </table>
  </section>
  <section>
    <h2>Open orders</h2>
    <table>
      <thead><tr><th>symbol</th><th>side</th><th>price</th><th>leaves</th><th>state</th></tr></thead>
      <tbody id="open-orders"></tbody>
    </table>
  </section>
  <section>
    <h2>Last fills</h2>
    <table><thead><tr><th>time</th><th>symbol</th><th>side</th><th>qty</th><th>price</th></tr></thead><tbody id="fills"></tbody></table>
  </section>
  <section>
    <h2>Refusals</h2>
    <table><thead><tr><th>code</th><th>count</th></tr></thead><tbody id="refusal-codes"></tbody></table>
    <table><thead><tr><th>time</th><th>code</th><th>message</th></tr></thead><tbody id="refusal-messages"></tbody></table>
  </section>
  <section style="grid-column: 1 / -1">
    <h2>Books (own orders marked)</h2>
    <div class="books" id="books"></div>
  </section>
</main>
<script src="/console/charts.js"></script>
<script src="/console/app.js"></script>
</body>
</html>
`;

/** The page's script (plain ES5-style JavaScript that any current browser runs as is). */
export const CONSOLE_APP_SCRIPT = `'use strict';
(function () {
  var byId = function (id) { return document.getElementById(id); };
  var setText = function (id, value) { byId(id).textContent = value; };
  var time = function (ms) { return new Date(ms).toLocaleTimeString(); };
  var row = function (cells, classes) {
    var tr = document.createElement('tr');
    cells.forEach(function (cell, i) {
      var td = document.createElement('td');
      td.textContent = cell;
      if (classes && classes[i]) td.className = classes[i];
      tr.appendChild(td);
    });
    return tr;
  };
  var fill = function (id, rows, empty) {
    var body = byId(id);
    body.replaceChildren.apply(body, rows.length ? rows : [row([empty], ['muted'])]);
  };
  var signed = function (value) { return value.charAt(0) === '-' ? 'bad' : value === '0' ? '' : 'good'; };
  var stream = function (s) {
    var age = s.lastMessageAgeMs === null ? 'no message yet' : 'last message ' + (s.lastMessageAgeMs / 1000).toFixed(1) + ' s ago';
    return (s.connected ? 'connected' : 'DOWN') + ', ' + age + ', reconnects ' + s.reconnects;
  };

  var chart = null, series = null;
  if (window.LightweightCharts) {
    chart = LightweightCharts.createChart(byId('equity-chart'), {
      autoSize: true,
      layout: { background: { color: '#1a2029' }, textColor: '#c8d1dc' },
      grid: { vertLines: { color: '#263040' }, horzLines: { color: '#263040' } },
      timeScale: { timeVisible: true, secondsVisible: true },
    });
    series = chart.addSeries(LightweightCharts.LineSeries, { color: '#4fc3f7', lineWidth: 2, title: 'net PnL' });
  }

  // one row per strategy, made once (its select and reason input keep what the operator typed), updated each second
  var strategyRows = {};
  var strategyRow = function (id) {
    var tr = document.createElement('tr');
    tr.dataset.strategy = id;
    var cells = {};
    ['id', 'strategy', 'symbols', 'state', 'orders', 'fills', 'refusals', 'pnl', 'positions'].forEach(function (name) {
      var td = document.createElement('td');
      td.className = 's-' + name;
      tr.appendChild(td);
      cells[name] = td;
    });
    var controls = document.createElement('td');
    var select = document.createElement('select');
    select.className = 's-select';
    select.setAttribute('aria-label', 'trading state of ' + id);
    ['active', 'reducing', 'halted'].forEach(function (state) {
      var option = document.createElement('option');
      option.value = state;
      option.textContent = state;
      select.appendChild(option);
    });
    var reason = document.createElement('input');
    reason.className = 's-reason';
    reason.placeholder = 'reason (optional)';
    reason.maxLength = 200;
    var button = document.createElement('button');
    button.className = 's-set';
    button.textContent = 'Set';
    button.addEventListener('click', function () {
      var state = select.value;
      if (!window.confirm('Set the trading state of strategy ' + id + ' to ' + state + '?')) return;
      var body = reason.value === '' ? { state: state } : { state: state, reason: reason.value };
      post('/console/api/trading-state?strategy=' + encodeURIComponent(id), body);
    });
    controls.appendChild(select);
    controls.appendChild(reason);
    controls.appendChild(button);
    tr.appendChild(controls);
    return { tr: tr, cells: cells };
  };
  var renderStrategies = function (list) {
    var section = byId('strategies-section');
    if (!list) { section.hidden = true; return; }
    section.hidden = false;
    var body = byId('strategies');
    body.replaceChildren.apply(body, list.map(function (p) {
      var entry = strategyRows[p.id] || (strategyRows[p.id] = strategyRow(p.id));
      var c = entry.cells;
      c.id.textContent = p.id;
      c.strategy.textContent = p.strategy;
      c.symbols.textContent = p.symbols.join(', ');
      c.state.textContent = p.tradingState.state + ' (' + p.tradingState.cause + ') ' + p.tradingState.reason;
      c.state.className = 's-state state-' + p.tradingState.state;
      c.orders.textContent = String(p.orders);
      c.fills.textContent = String(p.fills);
      var codes = Object.keys(p.refusalsByCode).map(function (code) { return code + ' ' + p.refusalsByCode[code]; });
      c.refusals.textContent = String(p.refusals) + (codes.length ? ' (' + codes.join(', ') + ')' : '');
      c.pnl.textContent = p.pnl;
      c.pnl.className = 's-pnl ' + signed(p.pnl);
      var held = Object.keys(p.positions).map(function (symbol) { return symbol + ' ' + p.positions[symbol]; });
      c.positions.textContent = held.length ? held.join(', ') : 'flat';
      return entry.tr;
    }));
  };

  var render = function (s) {
    setText('strategy', s.strategy);
    setText('symbols', s.symbols.join(', '));
    var state = byId('state');
    state.textContent = s.tradingState.state + ' (' + s.tradingState.cause + ')';
    state.className = 'state-' + s.tradingState.state;
    setText('state-reason', s.tradingState.reason);
    ['realized', 'unrealized', 'fees', 'net', 'equity'].forEach(function (k) { setText('pnl-' + k, s.pnl[k]); });
    byId('pnl-net').className = signed(s.pnl.net);
    setText('count-orders', String(s.counters.orders));
    setText('count-fills', String(s.counters.fills));
    setText('count-refusals', String(s.counters.refusals));
    setText('message-rate', s.messages.perSecond + ' (' + s.messages.limit + ')');
    setText('stream-market', stream(s.streams.market));
    setText('stream-orders', stream(s.streams.orders));
    fill('positions', s.positions.map(function (p) {
      return row([p.symbol, p.account, p.qty, p.avgPx], ['', 'muted', signed(p.qty), '']);
    }), 'flat');
    fill('open-orders', s.openOrders.map(function (o) {
      return row([o.symbol, o.side, o.price === null ? '–' : o.price, o.leavesQty, o.state]);
    }), 'none');
    fill('fills', s.fills.slice(0, 20).map(function (f) { return row([time(f.time), f.symbol, f.side, f.qty, f.price]); }), 'none yet');
    fill('refusal-codes', Object.keys(s.refusals.byCode).map(function (c) { return row([c, String(s.refusals.byCode[c])]); }), 'none');
    fill('refusal-messages', s.refusals.latest.slice(0, 10).map(function (r) { return row([time(r.time), r.code, r.message]); }), 'none');
    var books = byId('books');
    books.replaceChildren.apply(books, s.books.map(function (b) {
      var box = document.createElement('div');
      var title = document.createElement('h2');
      title.textContent = b.symbol + (b.stale ? ' (stale)' : '') + (b.lastTrade === null ? '' : ' · last ' + b.lastTrade);
      var table = document.createElement('table');
      var head = row(['bid qty (own)', 'bid', 'offer', 'offer qty (own)']);
      var body = document.createElement('tbody');
      body.appendChild(head);
      for (var i = 0; i < Math.max(b.bids.length, b.offers.length); i++) {
        var bid = b.bids[i], offer = b.offers[i];
        var ownQty = function (l) { return l ? l.qty + (l.own !== '0' ? ' (' + l.own + ')' : '') : ''; };
        var bidClass = bid && bid.own !== '0' ? 'own' : '';
        var offerClass = offer && offer.own !== '0' ? 'own' : '';
        body.appendChild(row([ownQty(bid), bid ? bid.price : '', offer ? offer.price : '', ownQty(offer)],
          [bidClass, bidClass, offerClass, offerClass]));
      }
      table.appendChild(body);
      box.appendChild(title);
      box.appendChild(table);
      return box;
    }));
    if (series) {
      var last = -1, points = [];
      s.equity.forEach(function (p) {
        var t = Math.floor(p.time / 1000);
        if (t > last) { points.push({ time: t, value: Number(p.net) }); last = t; }
      });
      series.setData(points);
    }
    renderStrategies(s.strategies);
    document.body.dataset.updated = String(s.time);
  };

  var connect = function () {
    var source = new EventSource('/console/events');
    source.onopen = function () { setText('connection', 'live'); };
    source.onmessage = function (message) { render(JSON.parse(message.data)); };
    source.onerror = function () { setText('connection', 'reconnecting…'); };
  };

  var post = function (path, body) {
    var init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), credentials: 'same-origin' };
    return fetch(path, init)
      .then(function (r) { return r.json().then(function (json) { return { ok: r.ok, json: json }; }); })
      .then(function (answer) {
        setText('command-result', answer.ok ? 'done: ' + JSON.stringify(answer.json) : 'refused: ' + answer.json.error.message);
      })
      .catch(function (error) { setText('command-result', 'failed: ' + error); });
  };
  byId('set-state').addEventListener('click', function () {
    var state = byId('state-select').value;
    var reason = byId('state-reason-input').value;
    if (!window.confirm('Set the trading state to ' + state + '?')) return;
    post('/console/api/trading-state', reason === '' ? { state: state } : { state: state, reason: reason });
  });
  byId('cancel-all').addEventListener('click', function () {
    if (!window.confirm('Cancel every open order?')) return;
    post('/console/api/cancel-all', {});
  });
  connect();
})();
`;
