extension HTMLReport {
    /// The page's whole style sheet, inline: system fonts only, colours that repeat what words
    /// already say, and a print style (no backgrounds to waste ink, table headers repeated on
    /// each page, no row split across pages).
    static let style = """
        :root{--ink:#1d2330;--muted:#5b6475;--line:#d9dee7;--band:#f4f6fa;--accent:#2f6fdf;--good:#1f7a45;--good-bg:#e5f4ea;\
        --warn:#8a5a00;--warn-bg:#fdf1d8;--bad:#a11d2b;--bad-bg:#fbe3e5}
        *{box-sizing:border-box}
        body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;color:var(--ink);background:#fff}
        header,main,footer{max-width:1100px;margin:0 auto;padding:0 24px}
        header{padding-top:28px;padding-bottom:8px;border-bottom:1px solid var(--line)}
        h1{font-size:26px;margin:0 0 8px}
        h2{font-size:19px;margin:32px 0 10px;padding-bottom:4px;border-bottom:2px solid var(--accent)}
        code{font:13px/1.3 ui-monospace,"SF Mono",Menlo,Consolas,"DejaVu Sans Mono",monospace;word-break:break-all}
        .status{margin:0 0 12px}
        .badge{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12.5px;font-weight:600;border:1px solid currentColor;white-space:nowrap}
        .good{color:var(--good);background:var(--good-bg)}.warn{color:var(--warn);background:var(--warn-bg)}.bad{color:var(--bad);background:var(--bad-bg)}
        .badge.kind-birthday{color:#8b2f8f;background:#f6e6f7}.badge.kind-subscription{color:#1d6a8a;background:#e1f1f8}.badge.ro{color:var(--muted);background:var(--band)}
        .badge.kind-local,.badge.kind-calDAV,.badge.kind-exchange{color:var(--muted);background:#fff}
        dl.run{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;margin:0 0 16px}
        dl.run dt{color:var(--muted)}dl.run dd{margin:0}
        dl.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(150px,1fr));gap:10px;margin:0}
        dl.cards div{border:1px solid var(--line);border-radius:8px;padding:10px 14px;background:var(--band)}
        dl.cards dt{color:var(--muted);font-size:13px}dl.cards dd{margin:2px 0 0;font-size:24px;font-weight:650;font-variant-numeric:tabular-nums}
        .note,.more,figcaption{color:var(--muted);font-size:13px}
        table{border-collapse:collapse;width:100%;margin:12px 0 18px;font-size:14px}
        caption{text-align:left;font-weight:600;padding:4px 0 6px}
        th,td{border-bottom:1px solid var(--line);padding:5px 8px;text-align:left;vertical-align:top}
        thead th{background:var(--band);border-bottom:2px solid var(--line);font-size:13px;color:var(--muted)}
        tbody th{font-weight:600}
        tr[data-loss] th code{word-break:normal;white-space:nowrap}
        table.numbers td,td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
        table.numbers td.text{text-align:left}
        tfoot th,tfoot td{font-weight:650;border-top:2px solid var(--line)}
        td.warn,td.bad{font-weight:650}
        figure{margin:8px 0}
        svg.timeline{width:100%;height:auto;display:block;font:12px system-ui,sans-serif}
        svg .band{fill:#fff}svg .row:nth-of-type(even) .band{fill:var(--band)}
        svg .label{fill:var(--ink)}svg .count{fill:var(--muted)}
        svg .base{stroke:var(--line)}svg .axis line{stroke:#c5ccd8;stroke-dasharray:2 3}svg .axis text{fill:var(--muted)}svg .axis .month{font-size:10px}
        svg .m{fill:var(--accent)}svg .m:hover{fill:#173f8a}
        svg .row[data-cal=other] .m{fill:#8a94a6}
        .timeline-text{font-size:13.5px;color:var(--ink);padding-left:20px}
        .list{font-size:13.5px}
        footer{margin-top:36px;padding-top:10px;padding-bottom:28px;border-top:1px solid var(--line)}
        @media print{
        body{font-size:11pt}header,main,footer{max-width:none;padding:0}
        h2{break-after:avoid}tr,figure,dl.cards div{break-inside:avoid}thead{display:table-header-group}
        dl.cards div,thead th{background:none}svg .band{fill:none}svg .m{fill:#333}
        .badge{background:none!important}
        @page{margin:1.6cm}
        }
        """
}
