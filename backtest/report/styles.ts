/** The report page's stylesheet: system fonts only (nothing to download), a grid of key-figure cards, stacked charts. */
export const REPORT_CSS = `
*{box-sizing:border-box}
body{margin:0;background:#f8fafc;color:#0f172a;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
main{max-width:1180px;margin:0 auto;padding:24px 20px 40px}
header h1{margin:0;font-size:22px;font-weight:650}
header h1 .strategy{color:#2563eb}
header .period{margin:4px 0 0;color:#64748b}
.figures{display:grid;grid-template-columns:repeat(auto-fill,minmax(165px,1fr));gap:10px;margin:18px 0 8px}
.card{background:#fff;border:1px solid #e2e8f0;border-radius:8px;padding:10px 12px}
.card .label{font-size:11px;text-transform:uppercase;letter-spacing:.04em;color:#64748b}
.card .value{font-size:19px;font-weight:650;font-variant-numeric:tabular-nums;margin-top:2px;word-break:break-all}
.card .details{margin-top:4px;font-size:11.5px;color:#475569;font-variant-numeric:tabular-nums}
.card .details div{white-space:normal;overflow-wrap:anywhere}
.positive .value{color:#15803d}
.negative .value{color:#dc2626}
.error{background:#fef2f2;border:1px solid #fecaca;color:#991b1b;border-radius:8px;padding:10px 12px;margin:12px 0}
.panel{background:#fff;border:1px solid #e2e8f0;border-radius:8px;padding:12px 14px 10px;margin-top:14px}
.panel h2{margin:0;font-size:15px;font-weight:650}
.panel .caption{margin:2px 0 8px;color:#64748b;font-size:12.5px}
.chart{width:100%;position:relative}
.empty{color:#94a3b8;font-style:italic;margin:8px 0}
.legend{display:flex;flex-wrap:wrap;gap:14px;margin:0 0 6px;font-size:12.5px;color:#334155}
.legend-item i{display:inline-block;width:14px;height:3px;border-radius:2px;margin-right:6px;vertical-align:middle}
.price-grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(520px,1fr));gap:0 14px}
dl.details{display:grid;grid-template-columns:max-content 1fr;gap:6px 16px;margin:8px 0 0}
dl.details dt{color:#64748b}
dl.details dd{margin:0;white-space:pre-wrap;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}
footer{margin-top:18px;color:#94a3b8;font-size:12px}
.axis-title{font-size:11.5px;color:#64748b}
.axis-title.y{text-align:right;margin:0 2px 2px}
.axis-title.x{text-align:center;margin-top:2px}
.table-scroll{max-height:420px;overflow:auto}
table.data{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums;font-size:12.5px}
table.data th,table.data td{padding:4px 10px;border-bottom:1px solid #eef2f7;text-align:left;white-space:nowrap}
table.data td.num{text-align:right}
table.data thead th{position:sticky;top:0;background:#f1f5f9;cursor:pointer;user-select:none}
table.data tfoot td{font-weight:650;border-top:2px solid #e2e8f0}
table.data th.sorted::after{content:" ▾"}
table.data th.sorted.asc::after{content:" ▴"}
p.note{margin:0 0 6px;color:#92400e;font-size:12.5px}
`;
