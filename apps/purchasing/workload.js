// The purchasing app's load (k6): every request is one work order (ECperf's scheduleWorkOrder)
// for one unit of a part drawn from the PARTS hottest of the inventory, whose purchase order
// the supplier takes SUPPLIER_DELAY_MS to accept; ROLLBACK_PERMILLE of them (drawn from each
// user's fixed stream, so both arms roll back the same requests) are rolled back after the
// send, as a later step that fails would roll them back.
// Before the window the script opens a new epoch of the app's ledger; after it, it waits until
// no request and no send is under way and every committed purchase order reached the supplier
// (or DRAIN_S passed), and reports the ledger in the summary's "app": work orders asked for,
// rolled back and committed, deliveries, orphans (deliveries without a committed purchase
// order) per 1,000 work orders, and the delay from a purchase order's row to its delivery. A
// committed purchase order the supplier never got, one it got twice, or a failed send fails
// the window ("problems"); orphans do not: they are what the designs are compared on.
//   PARTS              how many parts the work orders take from (app.toml parameters)
//   SUPPLIER_DELAY_MS  how long the supplier takes to accept a purchase order
//   ROLLBACK_PERMILLE  work orders per 1,000 rolled back after the send
//   DRAIN_S            how long the senders may take to catch up after the window (default 60)
import http from 'k6/http';
import { sleep } from 'k6';
import { Gauge } from 'k6/metrics';
import { contract } from './tuninglab-contract.js';

const FIGURES = ['requested', 'rolled_back', 'committed', 'deliveries', 'delivered', 'duplicated',
  'orphans', 'undelivered', 'delivery_lag_p50_ms', 'delivery_lag_p99_ms', 'send_failed',
  'drain_s'];
const figures = {};
for (const key of FIGURES) figures[key] = new Gauge(`purchasing_${key}`);

const whole = (name, fallback) => {
  const n = Number(__ENV[name] === undefined || __ENV[name] === '' ? fallback : __ENV[name]);
  if (!Number.isInteger(n) || n < 0) throw new Error(`purchasing workload: ${name} must be a whole number >= 0`);
  return n;
};
const PARTS = whole('PARTS', 8);
const DELAY_MS = whole('SUPPLIER_DELAY_MS', 100);
const ROLLBACK_PERMILLE = whole('ROLLBACK_PERMILLE', 50);
const DRAIN_S = whole('DRAIN_S', 60);
if (PARTS < 1 || PARTS > 1000) throw new Error('purchasing workload: PARTS must be 1 to 1000 (database/schema.sql)');

const lab = contract('purchasing', ['ScheduleWorkOrder'], {
  summary: (data) => {
    const value = (key) => (data.metrics[`purchasing_${key}`]
      ? data.metrics[`purchasing_${key}`].values.value : null);
    const app = { parts: PARTS, supplier_delay_ms: DELAY_MS, rollback_permille: ROLLBACK_PERMILLE };
    for (const key of FIGURES) app[key] = value(key);
    const problems = [];
    if (app.requested === null) {
      problems.push('the app\'s ledger was not read after the window');
      return { app, problems };
    }
    // the metrics the lab compares (stats.APP_REPORTED_METRICS): named as the engine names them
    app.orphans_per_ktx = app.requested > 0 ? (app.orphans * 1000) / app.requested : null;
    app.delivery_lag_p50 = app.delivery_lag_p50_ms;
    app.delivery_lag_p99 = app.delivery_lag_p99_ms;
    if (app.undelivered > 0) {
      problems.push(`${app.undelivered} of ${app.committed} committed purchase orders never reached the supplier (lost, or not sent ${app.drain_s} s after the window)`);
    }
    if (app.duplicated > 0) problems.push(`${app.duplicated} purchase order(s) delivered more than once`);
    if (app.send_failed > 0) problems.push(`${app.send_failed} send(s) to the supplier failed`);
    return { app, problems };
  },
});

export const options = { ...lab.options, setupTimeout: '60s', teardownTimeout: `${DRAIN_S + 30}s` };

export function setup() {
  const res = http.post(`${lab.baseUrl}/epoch`);
  if (res.status !== 200) throw new Error(`purchasing workload: /epoch answered ${res.status}: ${res.body}`);
}

export default function () {
  const name = lab.next();
  const part = 1 + Math.floor(lab.uniform() * PARTS);
  const rollback = lab.uniform() * 1000 < ROLLBACK_PERMILLE ? 1 : 0;
  const res = http.post(
    `${lab.baseUrl}/order?part=${part}&qty=1&delay_ms=${DELAY_MS}&rollback=${rollback}`, null,
    { timeout: '30s' });
  lab.record(name, res, res.status === 200 && res.json('id') > 0
    && res.json('rolled_back') === (rollback === 1));
  lab.pause();
}

export function teardown() {
  const began = Date.now();
  let stats = null;
  for (;;) {
    const res = http.get(`${lab.baseUrl}/stats`);
    if (res.status === 200) {
      stats = res.json();
      // a request k6 stopped waiting for at the window's end may still be sending: wait for
      // it, for every send under way and for every committed purchase order to be delivered
      if (stats.in_request === 0 && stats.in_send === 0 && stats.queued === 0
        && stats.undelivered === 0) break;
    }
    if (Date.now() - began > DRAIN_S * 1000) break;
    sleep(0.1);
  }
  if (stats === null) throw new Error('purchasing workload: /stats never answered');
  for (const key of FIGURES) {  // a figure without a value (no delivery: no delay) is left out
    if (key !== 'drain_s' && stats[key] !== null) figures[key].add(stats[key]);
  }
  figures.drain_s.add((Date.now() - began) / 1000);
}

export const handleSummary = lab.handleSummary;
