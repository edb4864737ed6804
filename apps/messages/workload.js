// The messages app's load (k6): every request sends one message (its own transaction), and
// the window ends only once the consumer has caught up. Before the window the script opens a
// new epoch of the app's ledger; after it, it waits until every message sent in the window
// was consumed (or DRAIN_S passed) and reports the ledger in the summary's "messages": sent,
// consumed, missing (sent, never consumed: lost), duplicated (consumed more than once), the
// send-to-consumption latency (p50, p99) and the consumer's peak concurrency. The engine
// fails a window that lost or duplicated a message (load.py).
//   DRAIN_S  how long the consumer may take to catch up after the window (default 60)
import http from 'k6/http';
import { sleep } from 'k6';
import { Gauge } from 'k6/metrics';
import { contract } from './tuninglab-contract.js';

const ledger = {};
for (const key of ['sent', 'consumed', 'missing', 'duplicated', 'stray', 'peak_in_work',
  'consuming_s', 'e2e_p50_ms', 'e2e_p99_ms', 'drain_s']) {
  ledger[key] = new Gauge(`messages_${key}`);
}

const lab = contract('messages', ['Send'], {
  summary: (data) => {
    const value = (key) => (data.metrics[`messages_${key}`]
      ? data.metrics[`messages_${key}`].values.value : null);
    const messages = {};
    for (const key of Object.keys(ledger)) messages[key] = value(key);
    return { messages };
  },
});
const DRAIN_S = Number(__ENV.DRAIN_S || 60);

export const options = { ...lab.options, teardownTimeout: `${DRAIN_S + 30}s` };

export function setup() {
  const res = http.post(`${lab.baseUrl}/epoch`);
  if (res.status !== 200) throw new Error(`messages workload: /epoch answered ${res.status}`);
}

export default function () {
  const name = lab.next();
  const res = http.post(`${lab.baseUrl}/send`, null, { timeout: '30s' });
  lab.record(name, res, res.status === 200 && res.json('id') > 0);
  lab.pause();
}

export function teardown() {
  const began = Date.now();
  let stats = null;
  for (;;) {
    const res = http.get(`${lab.baseUrl}/stats`);
    if (res.status === 200) {
      stats = res.json();
      if (stats.consumed + stats.duplicated >= stats.sent && stats.in_work === 0) break;
    }
    if (Date.now() - began > DRAIN_S * 1000) break;
    sleep(0.1);
  }
  if (stats === null) throw new Error('messages workload: /stats never answered');
  for (const key of Object.keys(ledger)) {
    if (key !== 'drain_s') ledger[key].add(stats[key]);
  }
  ledger.drain_s.add((Date.now() - began) / 1000);
}

export const handleSummary = lab.handleSummary;
