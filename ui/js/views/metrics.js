// Live charts from /metrics: request rate, latency percentiles, storage and
// embedder errors, the embed queue. Read every few seconds (every=SECONDS
// in the link changes it), drawn with uPlot.
import uPlot from '../../vendor/uplot/uPlot.esm.js';
import {call, explain} from '../api.js';
import {h} from '../dom.js';
import {parse, total, buckets, quantile} from '../prometheus.js';

const KEEP = 120;  // points per chart

const CHARTS = [
  {id: 'requests', title: 'Requests per second', series: ['all', '5xx']},
  {id: 'latency', title: 'Latency (ms)', series: ['p50', 'p95', 'p99']},
  {id: 'errors', title: 'Errors per second', series: ['storage', 'embedder', 'embed failures']},
  {id: 'queue', title: 'Embed queue', series: ['memories waiting']},
];
const COLORS = ['#2563eb', '#dc2626', '#16a34a', '#9333ea'];

// One chart's points from the reading before and the one now, dt seconds apart.
function points(before, now, dt) {
  const rate = (name, keep) => Math.max(0, (total(now, name, keep) - total(before, name, keep)) / dt);
  const latency = [0.5, 0.95, 0.99].map(q => {
    const value = quantile(q, buckets(before, 'mnemo_http_request_duration_seconds'),
      buckets(now, 'mnemo_http_request_duration_seconds'));
    return value === null ? null : value * 1000;
  });
  return {
    requests: [rate('mnemo_http_requests_total'), rate('mnemo_http_requests_total', l => /^5/.test(l.status))],
    latency,
    errors: [rate('mnemo_storage_errors_total'), rate('mnemo_embedder_errors_total'),
      rate('mnemo_memory_embed_failures_total')],
    queue: [total(now, 'mnemo_memory_embed_queue')],
  };
}

function makeChart(spec, holder) {
  const data = [[], ...spec.series.map(() => [])];
  const width = 560;  // the grid's column (console.css .charts); drawn before the view is on screen
  const plot = new uPlot({
    width, height: 200, title: spec.title,
    series: [{}, ...spec.series.map((label, i) => ({label, stroke: COLORS[i], width: 2, spanGaps: true}))],
    axes: [{}, {size: 60}],
    scales: {x: {time: true}},
  }, data, holder);
  return {plot, data};
}

export async function metrics({query: q}) {
  const every = Math.max(1, Number(q.every) || 3);
  const status = h('p', {class: 'note', role: 'status'}, `Reading /metrics every ${every} s.`);
  const grid = h('div', {class: 'charts'});
  const holders = CHARTS.map(spec => {
    const holder = h('div', {class: 'chart', id: `chart-${spec.id}`});
    grid.append(holder);
    return holder;
  });
  const section = h('section', {}, h('h2', {}, 'Live metrics'), status, grid);
  let charts = null;
  let before = null;
  let beforeAt = 0;
  async function read() {
    let text;
    try {
      text = await call('/metrics', {text: true});
    } catch (error) {
      status.textContent = explain(error);
      status.className = 'error';
      return;
    }
    const now = parse(text);
    const at = Date.now() / 1000;
    if (!charts) charts = CHARTS.map((spec, i) => makeChart(spec, holders[i]));
    if (before) {
      const values = points(before, now, Math.max(at - beforeAt, 0.001));
      CHARTS.forEach((spec, i) => {
        const {plot, data} = charts[i];
        data[0].push(at);
        values[spec.id].forEach((v, j) => data[j + 1].push(v));
        if (data[0].length > KEEP) data.forEach(column => column.shift());
        plot.setData(data);
      });
      status.textContent = `Read ${new Date().toLocaleTimeString()}; every ${every} s.`;
      section.dataset.readings = String(Number(section.dataset.readings || 0) + 1);
    }
    before = now;
    beforeAt = at;
  }
  await read();
  const timer = setInterval(read, every * 1000);
  section.stop = () => clearInterval(timer);
  return section;
}
