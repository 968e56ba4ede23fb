/**
 * The report page's own script (plain browser JavaScript, kept as text because it runs in the page, not in
 * Node). It reads the inlined `#report-data` JSON, draws every chart with the inlined lightweight-charts
 * bundle (`window.LightweightCharts`), keeps the time axes of all charts in step with the one being
 * scrolled or zoomed, and sets `window.__reportReady = true` once the charts exist (the browser test waits
 * for it; `window.__reportCharts` holds the chart objects). A failure is shown on the page and logged, and sets `window.__reportError`.
 * The text is the exact script the page gets: where one of its lines would pass the source's 140-character
 * limit, the string is cut there into String.raw pieces joined with + (no newline added).
 */
export const CLIENT_SCRIPT =
  String.raw`
(function () {
  'use strict';
  var GREEN = '#15803d';
  var RED = '#dc2626';
  var PALETTE = ['#2563eb', '#d97706', '#7c3aed', '#0891b2', '#db2777', '#65a30d', '#475569', '#b45309'];
  var FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';

  function fail(error) {
    var message = error && error.message ? error.message : String(error);
    window.__reportError = message;
    var box = document.getElementById('report-error');
    if (box) {
      box.textContent = 'The charts could not be drawn: ' + message;
      box.hidden = false;
    }
    console.error(error);
  }

  var PURPLE = '#7c3aed';
  var GREY = '#64748b';

  /** A settlement (purple) or an expiry without one (grey): a labelled circle in the bar. */
  function eventMarker(m) {
    return { time: m.time, position: 'inBar', color: m.event === 'settlement' ? PURPLE : GREY, shape: 'circle', text: m.text, size: 1 };
  }

  function priceFormat(precision) {
    var nf = new Intl.NumberFormat('en-US', { minimumFractionDigits: precision, maximumFractionDigits: precision });
    return { type: 'custom', minMove: Math.pow(10, -precision), formatter: function (v) { return nf.format(v); } };
  }

  try {
    var LC = window.LightweightCharts;
    if (!LC) throw new Error('the inlined lightweight-charts bundle did not load');
    var data = JSON.parse(document.getElementById('report-data').textContent);
    var charts = [];
    var leader = null;
    var syncing = false;

    function makeChart(id) {
      var el = document.getElementById(id);
      if (!el) return null;
      var chart = LC.createChart(el, {
        autoSize: true,
        layout: { background: { type: 'solid', color: '#ffffff' }, textColor: '#334155', fontSize: 11, fontFamily: FONT },
        grid: { vertLines: { color: '#f1f5f9' }, horzLines: { color: '#eef2f7' } },
        rightPriceScale: { borderColor: '#e2e8f0', scaleMargins: { top: 0.12, bottom: 0.12 } },
        timeScale: { borderColor: '#e2e8f0', timeVisible: true, secondsVisible: data.secondsVisible, rightOffset: 2 },
        crosshair: { mode: LC.CrosshairMode.Normal },
      });
      // Only the chart the reader is handling drives the others, so followers never echo back.
      var claim = function () { leader = chart; };
      // Capture phase: the chart's own canvases stop some of these events from bubbling.
      ['pointerenter', 'pointerdown', 'wheel', 'touchstart'].forEach(function (type) {
        el.addEventListener(type, claim, { passive: true, capture: true });
      });
      chart.timeScale().subscribeVisibleTimeRangeChange(function (range) {
        if (leader !== chart || syncing || !range) return;
        syncing = true;
        try {
          charts.forEach(function (other) {
            if (other === chart) return;
            try { other.timeScale().setVisibleRange(range); } catch (e) { /* a chart with no data in range */ }
          });
        } finally {
          syncing = false;
        }
      });
      charts.push(chart);
      return chart;
    }

    var equityChart = makeChart('chart-equity');
    if (equityChart) {
      var first = data.equity.points[0];
      var equity = equityChart.addSeries(LC.BaselineSeries, {
        baseValue: { type: 'price', price: first ? first.value : 0 },
        topLineColor: GREEN, topFillColor1: 'rgba(21,128,61,0.28)', topFillColor2: 'rgba(21,128,61,0.04)',
        bottomLineColor: RED, bottomFillColor1: 'rgba(220,38,38,0.04)', bottomFillColor2: 'rgba(220,38,38,0.28)',
        lineWidth: 2, priceFormat: priceFormat(data.equity.precision), title: 'equity',
      });
      equity.setData(data.equity.points);
      if (data.equityMarkers.length > 0) LC.createSeriesMarkers(equity, data.equityMarkers.map(eventMarker));
    }

    var drawdownChart = makeChart('chart-drawdown');
    if (drawdownChart) {
      var drawdown = drawdownChart.addSeries(LC.BaselineSeries, {
        baseValue: { type: 'price', price: 0 },
        topLineColor: RED, topFillColor1: 'rgba(0,0,0,0)', topFillColor2: 'rgba(0,0,0,0)',
        bottomLineColor: RED, bottomFillColor1: 'rgba(220,38,38,0.08)', bottomFillColor2: 'rgba(220,38,38,0.38)',
        lineWidth: 1, priceFormat: priceFormat(data.drawdown.precision), title: 'drawdown',
      });
      drawdown.setData(data.drawdown.points);
    }

    var positionChart = makeChart('chart-position');
    if (positionChart) {
      var legend = document.getElementById('legend-position');
      data.positions.forEach(function (p, i) {
        var color = PALETTE[i % PALETTE.length];
        var series = positionChart.addSeries(LC.LineSeries, {
          color: color, lineWidth: 2, lineType: LC.LineType.WithSteps, priceFormat: priceFormat(p.precision),
          lastValueVisible: true, priceLineVisible: false,
        });
        series.setData(p.points);
        if (i === 0) series.createPriceLine({ price: 0, color: '#94a3b8', lineWidth: 1, ` +
  String.raw`lineStyle: LC.LineStyle.Dashed, axisLabelVisible: false });
        if (legend) {
          var item = document.createElement('span');
          item.className = 'legend-item';
          var swatch = document.createElement('i');
          swatch.style.background = color;
          item.appendChild(swatch);
          item.appendChild(document.createTextNode(p.symbol));
          legend.appendChild(item);
        }
      });
    }

    data.prices.forEach(function (p, i) {
      var chart = makeChart('chart-price-' + i);
      if (!chart) return;
      var series = chart.addSeries(LC.LineSeries, {
        color: '#334155', lineWidth: 2, lineType: LC.LineType.WithSteps, priceFormat: priceFormat(p.precision),
        priceLineVisible: false,
      });
      series.setData(p.points);
      LC.createSeriesMarkers(series, p.markers.map(function (m) {
        if (m.event) return eventMarker(m);
        var buy = m.side === 'BUY';
        // A grouped marker grows slowly with its fill count (1 fill: size 1, 16 fills: size 2).
        var size = Math.min(2, 1 + Math.log2(Math.max(1, m.count)) / 4);
        return { time: m.time, position: buy ? 'belowBar' : 'aboveBar', color: buy ? GREEN : RED, ` +
  String.raw`shape: buy ? 'arrowUp' : 'arrowDown', text: m.text, size: size };
      }));
    });

    charts.forEach(function (chart) { chart.timeScale().fitContent(); });
    window.__reportCharts = charts;
    window.__reportReady = true;
  } catch (error) {
    fail(error);
  }
})();
`;
