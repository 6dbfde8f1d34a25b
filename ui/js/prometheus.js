// prometheus.js -- reading /metrics (Prometheus text format 0.0.4) into
// samples, and the numbers the live charts plot from two readings.

// [{name, labels: {k: v}, value}] of every sample line.
export function parse(text) {
  const samples = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)/.exec(line);
    if (!match) continue;
    const labels = {};
    for (const pair of (match[3] || '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[pair[1]] = pair[2];
    }
    samples.push({name: match[1], labels, value: Number(match[4])});
  }
  return samples;
}

// The sum of every sample of name whose labels pass keep.
export function total(samples, name, keep = () => true) {
  return samples.filter(s => s.name === name && keep(s.labels)).reduce((sum, s) => sum + s.value, 0);
}

// Cumulative bucket counts of a histogram summed over its other labels, by le.
export function buckets(samples, name) {
  const byLe = new Map();
  for (const s of samples) {
    if (s.name !== `${name}_bucket`) continue;
    const le = s.labels.le === '+Inf' ? Infinity : Number(s.labels.le);
    byLe.set(le, (byLe.get(le) || 0) + s.value);
  }
  return [...byLe.entries()].sort((a, b) => a[0] - b[0]);
}

// The q quantile (0..1) of the observations between two readings of a
// histogram's buckets, interpolated within its bucket as Prometheus does;
// null without observations.
export function quantile(q, before, after) {
  const earlier = new Map(before);
  const counts = after.map(([le, count]) => [le, count - (earlier.get(le) || 0)]);
  const all = counts.length ? counts[counts.length - 1][1] : 0;
  if (all <= 0) return null;
  const rank = q * all;
  let lower = 0;
  let below = 0;
  for (const [le, count] of counts) {
    if (count >= rank) {
      if (le === Infinity) return lower;
      return lower + (le - lower) * ((rank - below) / Math.max(count - below, 1e-9));
    }
    lower = le;
    below = count;
  }
  return lower;
}
