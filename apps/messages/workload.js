// The messages app's load (k6), in one of two shapes:
//   flow   (FILL 0, mix "send"): every request sends one message (its own transaction);
//   drain  (FILL > 0, mix "drain"): before the window the consumer is held, FILL messages are
//          sent, and the consumer is released; the window's requests only poll the ledger,
//          and the drain rate is the messages consumed a second, first to last.
// Before the window the script opens a new epoch of the app's ledger; after it, it waits until
// every message sent in the window was consumed (or DRAIN_S passed) and reports the ledger in
// the summary's "messages": sent, consumed, missing (sent, never consumed: lost), duplicated
// (consumed more than once), unconfirmed (consumed, never recorded as sent), the
// send-to-consumption latency (p50, p99), the consumer's peak concurrency and, in a drain, its
// rate. The engine fails a window that lost, duplicated or could not account for a message
// (load.py).
//   FILL     messages a drain starts from (app.toml parameters; 0: the flow shape)
//   DRAIN_S  how long the consumer may take to catch up after the window (default 60)
import http from 'k6/http';
import { sleep } from 'k6';
import { Gauge } from 'k6/metrics';
import { contract } from './tuninglab-contract.js';

const ledger = {};
for (const key of ['sent', 'consumed', 'missing', 'duplicated', 'unconfirmed', 'stray',
  'peak_in_work', 'consuming_s', 'e2e_p50_ms', 'e2e_p99_ms', 'drain_s']) {
  ledger[key] = new Gauge(`messages_${key}`);
}
const FILL = Number(__ENV.FILL || 0);
const DRAIN_S = Number(__ENV.DRAIN_S || 60);
if (!Number.isInteger(FILL) || FILL < 0) throw new Error('messages workload: FILL must be a whole number >= 0');

const lab = contract('messages', ['Send', 'Poll'], {
  summary: (data) => {
    const value = (key) => (data.metrics[`messages_${key}`]
      ? data.metrics[`messages_${key}`].values.value : null);
    const messages = { fill: FILL };
    for (const key of Object.keys(ledger)) messages[key] = value(key);
    if (FILL > 0 && messages.consuming_s > 0) {
      messages.drain_rate = messages.consumed / messages.consuming_s;
    }
    return { messages };
  },
});

export const options = { ...lab.options, setupTimeout: '120s', teardownTimeout: `${DRAIN_S + 30}s` };

function post(path) {
  const res = http.post(`${lab.baseUrl}${path}`, null, { timeout: '110s' });
  if (res.status !== 200) throw new Error(`messages workload: ${path} answered ${res.status}: ${res.body}`);
  return res;
}

export function setup() {
  if (FILL > 0) post('/hold');
  post('/epoch');
  if (FILL > 0) {
    post(`/fill?n=${FILL}`);
    post('/release');
  }
}

export default function () {
  const name = lab.next();
  if (name === 'Poll') {
    const res = http.get(`${lab.baseUrl}/stats`);
    lab.record(name, res, res.status === 200 && res.json('sent') >= 0);
    sleep(0.2);
    return;
  }
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
      // every message sent consumed, none in the consumer, and no request still sending (a
      // request k6 stopped waiting for at the window's end may have committed its message and
      // not yet recorded it: the consumer would count it before the ledger knew it was sent)
      if (stats.missing === 0 && stats.in_work === 0 && stats.in_send === 0) break;
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
