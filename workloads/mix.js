// The transaction mix of the orderentry benchmark application, for k6.
//
// Environment (set by the tuninglab library; every value is required unless a default is shown):
//   BASE_URL     e.g. http://app:8080/orderentry/api
//   MIX          JSON object of relative weights, e.g. {"NewOrder":45,"OrderStatus":15}
//   MODEL        closed | open | smoke (one user runs every transaction of MIX in turn, ROUNDS
//                times: a correctness check before measuring, not a load)
//   USERS        closed model: virtual users
//   THINK_MS     closed model: think time between transactions (default 0)
//   RATE         open model: arrivals per second
//   MAX_USERS    open model: pre-allocated virtual users
//   WARMUP_S     warm-up seconds (load runs, nothing recorded)
//   TRIAL_S      measured seconds
//   LINES        lines per NewOrder and per Quote (default 5)
//   NOTE_CHARS   characters of each Quote line's note: the payload size (default 100)
//   BULK_ROWS    rows per BulkLoad transaction (default 10000)
//   SCALE        data-set scale factor of the database image (default 1)
//   STREAM       this run's index among the k6 runs that drive nodes side by side (default 0)
//   STREAMS      how many such runs there are (default 1)
//   REQUESTS_PER_CONNECTION  requests a virtual user sends over one HTTP connection; the last
//                asks the server to close it (Connection: close); 0: no limit (default 0).
//                The summary counts the connections opened and those the requests asked for.
//   (the JSON summary goes to stdout, on one line after the marker line SUMMARY_MARKER: reading
//   it back costs no second `docker exec`)
//
// Only the "measure" scenario records the tx_* metrics, so warm-up traffic never reaches a result.
import http from 'k6/http';
import exec from 'k6/execution';
import { sleep } from 'k6';
import { Counter, Trend } from 'k6/metrics';

const SUMMARY_MARKER = '--- tuninglab summary ---';
const TRANSACTIONS = ['Ping', 'NewOrder', 'OrderStatus', 'CustomerStatus', 'ChangeOrder',
  'ItemBrowse', 'ScheduleWorkOrder', 'BulkLoad', 'Quote'];

function required(name) {
  const value = __ENV[name];
  if (value === undefined || value === '') {
    throw new Error(`workload: environment variable ${name} is required`);
  }
  return value;
}

function positiveInt(name, fallback) {
  const raw = __ENV[name] === undefined || __ENV[name] === '' ? fallback : __ENV[name];
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    throw new Error(`workload: ${name} must be a non-negative integer, got '${raw}'`);
  }
  return value;
}

function parseMix(text) {
  let mix;
  try {
    mix = JSON.parse(text);
  } catch (e) {
    throw new Error(`workload: MIX is not JSON: ${text}`);
  }
  const names = Object.keys(mix);
  if (names.length === 0) throw new Error('workload: MIX names no transaction');
  for (const name of names) {
    if (!TRANSACTIONS.includes(name)) {
      throw new Error(`workload: unknown transaction '${name}'; allowed: ${TRANSACTIONS.join(', ')}`);
    }
    if (!(mix[name] > 0)) throw new Error(`workload: weight of ${name} must be > 0`);
  }
  return mix;
}

const BASE_URL = required('BASE_URL');
const MIX = parseMix(required('MIX'));
const MODEL = required('MODEL');
const WARMUP_S = positiveInt('WARMUP_S');
const TRIAL_S = positiveInt('TRIAL_S');
const LINES = positiveInt('LINES', 5);
const BULK_ROWS = positiveInt('BULK_ROWS', 10000);
const NOTE_CHARS = positiveInt('NOTE_CHARS', 100);
const SCALE = positiveInt('SCALE', 1);
const THINK_MS = positiveInt('THINK_MS', 0);
const STREAM = positiveInt('STREAM', 0);
const STREAMS = positiveInt('STREAMS', 1);
// Requests a virtual user sends over one connection before it asks the server to close it
// (guide 2.1.1, maxKeepAliveRequests, moved to the client: Undertow has no such cap); 0: none.
const REQUESTS_PER_CONNECTION = positiveInt('REQUESTS_PER_CONNECTION', 0);
if (STREAM >= STREAMS) throw new Error('workload: STREAM must be < STREAMS');
if (SCALE < 1) throw new Error('workload: SCALE must be >= 1');
if (TRIAL_S < 1) throw new Error('workload: TRIAL_S must be >= 1');

const CUSTOMERS = 10000 * SCALE;
const ITEMS = 2000 * SCALE;
const ASSEMBLIES = 200 * SCALE;
const ORDERS = 20000 * SCALE;
const CATEGORIES = 20;

// Per-transaction metrics, created up front (k6 needs metrics at init time).
const latency = {};
const ok = {};
const failed = {};
for (const name of TRANSACTIONS) {
  latency[name] = new Trend(`tx_${name}_ms`, true);
  ok[name] = new Counter(`tx_${name}_ok`);
  failed[name] = new Counter(`tx_${name}_fail`);
}
const allLatency = new Trend('tx_all_ms', true);
const connectionsOpened = new Counter('connections_opened');
const connectionsExpected = new Counter('connections_expected');
const failReasons = {
  timeout: new Counter('fail_timeout'),
  status: new Counter('fail_status'),
  check: new Counter('fail_check'),
};

function scenarios() {
  const measureStart = `${WARMUP_S}s`;
  if (MODEL === 'closed') {
    const vus = positiveInt('USERS');
    if (vus < 1) throw new Error('workload: USERS must be >= 1');
    const base = { executor: 'constant-vus', vus, gracefulStop: '0s' };
    const s = { measure: { ...base, duration: `${TRIAL_S}s`, startTime: measureStart } };
    if (WARMUP_S > 0) s.warmup = { ...base, duration: `${WARMUP_S}s` };
    return s;
  }
  if (MODEL === 'open') {
    const rate = positiveInt('RATE');
    const maxVUs = positiveInt('MAX_USERS', 200);
    const base = {
      executor: 'constant-arrival-rate', rate, timeUnit: '1s',
      preAllocatedVUs: maxVUs, maxVUs, gracefulStop: '0s',
    };
    const s = { measure: { ...base, duration: `${TRIAL_S}s`, startTime: measureStart } };
    if (WARMUP_S > 0) s.warmup = { ...base, duration: `${WARMUP_S}s` };
    return s;
  }
  if (MODEL === 'smoke') {
    const rounds = positiveInt('ROUNDS', 2);
    return { measure: { executor: 'shared-iterations', vus: 1,
      iterations: rounds * Object.keys(MIX).length, maxDuration: '300s' } };
  }
  throw new Error(`workload: MODEL must be closed, open or smoke, got '${MODEL}'`);
}

export const options = {
  scenarios: scenarios(),
  summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(50)', 'p(90)', 'p(99)', 'count'],
  // A threshold on a tagged sub-metric makes k6 report it separately in the summary.
  thresholds: {
    'dropped_iterations{scenario:measure}': ['count>=0'],
    'iterations{scenario:measure}': ['count>=0'],
  },
  discardResponseBodies: false,
  noConnectionReuse: false,
};

// Deterministic per-VU pseudo-random numbers (xorshift32), so a run's request sequence
// depends only on the VU number and iteration, not on Math.random. Two streams: which
// transaction comes next (the same in every run, so arms measured side by side do the same
// work), and which rows it touches (salted with STREAM, so runs side by side touch different
// customers and items).
function xorshift(state) {
  state ^= state << 13; state >>>= 0;
  state ^= state >>> 17;
  state ^= state << 5; return state >>> 0;
}
let mixState = 0;
let dataState = 0;
function rand() {
  if (mixState === 0) mixState = (exec.vu.idInTest * 2654435761) >>> 0 || 1;
  mixState = xorshift(mixState);
  return mixState / 4294967296;
}
function dataRand() {
  if (dataState === 0) dataState = ((exec.vu.idInTest + 7919 * STREAM) * 2246822519) >>> 0 || 1;
  dataState = xorshift(dataState);
  return dataState / 4294967296;
}
function between(lo, hi) { return lo + Math.floor(dataRand() * (hi - lo + 1)); }

// An existing order that no other virtual user, of this run or of a run side by side, ever
// changes: ids are dealt out by slot (this VU's place among all of them), so two ChangeOrders
// never race for one row's optimistic lock. (A conflict would be a failed request, and a
// failed request invalidates a trial.)
const VU_SLOTS = 4000;
function ownExistingOrder() {
  const slots = VU_SLOTS * STREAMS;
  const slot = STREAM * VU_SLOTS + ((exec.vu.idInTest - 1) % VU_SLOTS);
  const k = Math.floor(dataRand() * Math.max(1, Math.floor((ORDERS - 1 - slot) / slots) + 1));
  return Math.min(ORDERS, 1 + slot + k * slots);
}

const weights = Object.entries(MIX);
const totalWeight = weights.reduce((sum, [, w]) => sum + w, 0);
function pickTransaction() {
  let r = rand() * totalWeight;
  for (const [name, w] of weights) {
    if ((r -= w) < 0) return name;
  }
  return weights[weights.length - 1][0];
}

const JSON_HEADERS = { headers: { 'Content-Type': 'application/json' }, timeout: '30s' };
const CLOSING_HEADERS = { headers: { 'Content-Type': 'application/json', Connection: 'close' },
  timeout: '30s' };
let myOrders = []; // orders this VU created: OrderStatus and ChangeOrder must find them
let requestsOnConnection = 0;
let opensConnection = false; // this VU's request in flight should need a new connection
// The request parameters of this VU's next request: the last one a connection may carry asks
// the server to close it, and the next request opens a new one. A completed request that
// should have opened a connection is counted beside those that did (timings.connecting), so
// the engine can compare what the client asked for with what happened: a server that ignored
// the close would let the connection be reused.
function params() {
  opensConnection = requestsOnConnection === 0;
  requestsOnConnection += 1;
  if (REQUESTS_PER_CONNECTION > 0 && requestsOnConnection >= REQUESTS_PER_CONNECTION) {
    requestsOnConnection = 0;
    return CLOSING_HEADERS;
  }
  return JSON_HEADERS;
}

function body(res) {
  try { return res.json(); } catch (e) { return null; }
}

// Each transaction returns [response, checkPassed].
const run = {
  Ping() {
    const res = http.get(`${BASE_URL}/ping`, params());
    const b = body(res);
    return [res, res.status === 200 && b !== null && b.status === 'ok'];
  },
  NewOrder() {
    const lines = [];
    for (let i = 0; i < LINES; i++) lines.push({ itemId: between(1, ITEMS), quantity: between(1, 5) });
    const res = http.post(`${BASE_URL}/orders`,
      JSON.stringify({ customerId: between(1, CUSTOMERS), lines }), params());
    const b = body(res);
    const good = res.status === 201 && b !== null && b.orderId > 0 && b.lines === LINES;
    if (good) {
      myOrders.push(b.orderId);
      if (myOrders.length > 50) myOrders.shift();
    }
    return [res, good];
  },
  OrderStatus() {
    const own = myOrders.length > 0 && dataRand() < 0.5;
    const id = own ? myOrders[between(0, myOrders.length - 1)] : between(1, ORDERS);
    const res = http.get(`${BASE_URL}/orders/${id}`, params());
    const b = body(res);
    return [res, res.status === 200 && b !== null && b.orderId === id];
  },
  CustomerStatus() {
    const id = between(1, CUSTOMERS);
    const res = http.get(`${BASE_URL}/customers/${id}/orders?page=0&size=20`, params());
    const b = body(res);
    return [res, res.status === 200 && b !== null && b.customerId === id];
  },
  ChangeOrder() {
    const own = myOrders.length > 0;
    const id = own ? myOrders[between(0, myOrders.length - 1)] : ownExistingOrder();
    const res = http.put(`${BASE_URL}/orders/${id}`,
      JSON.stringify({ lineNo: 1, quantity: between(1, 9) }), params());
    const b = body(res);
    return [res, res.status === 200 && b !== null && b.orderId === id && b.version > 0];
  },
  ItemBrowse() {
    const category = between(1, CATEGORIES);
    const res = http.get(`${BASE_URL}/items?category=${category}&page=${between(0, 4)}&size=20`, params());
    const b = body(res);
    return [res, res.status === 200 && b !== null && b.category === category];
  },
  ScheduleWorkOrder() {
    const res = http.post(`${BASE_URL}/workorders`,
      JSON.stringify({ itemId: between(1, ASSEMBLIES), quantity: between(1, 10) }), params());
    const b = body(res);
    return [res, res.status === 201 && b !== null && b.workOrderId > 0];
  },
  BulkLoad() {
    const res = http.post(`${BASE_URL}/bulk/movements?rows=${BULK_ROWS}`, null,
      { ...params(), timeout: '300s' });
    const b = body(res);
    return [res, res.status === 200 && b !== null && b.rows === BULK_ROWS];
  },
  Quote() {
    const customerId = between(1, CUSTOMERS);
    const res = http.get(`${BASE_URL}/quotes?customerId=${customerId}&lines=${LINES}&noteChars=${NOTE_CHARS}`,
      params());
    const b = body(res);
    return [res, res.status === 200 && b !== null && b.customerId === customerId && b.lines === LINES
      && b.noteChars === LINES * NOTE_CHARS && b.total > 0];
  },
};

export default function () {
  const name = MODEL === 'smoke'
    ? weights[exec.scenario.iterationInTest % weights.length][0]
    : pickTransaction();
  const [res, good] = run[name]();
  if (exec.scenario.name === 'measure') {
    if (res.timings.connecting > 0) connectionsOpened.add(1);
    if (opensConnection) connectionsExpected.add(1);
    if (good) {
      ok[name].add(1);
      latency[name].add(res.timings.duration);
      allLatency.add(res.timings.duration);
    } else {
      failed[name].add(1);
      if (res.error_code === 1050 || res.status === 0) failReasons.timeout.add(1);
      else if (res.status >= 400) failReasons.status.add(1);
      else failReasons.check.add(1);
    }
  }
  if (MODEL === 'closed' && THINK_MS > 0) sleep(THINK_MS / 1000);
}

export function handleSummary(data) {
  const out = {
    transactions: {},
    all: data.metrics.tx_all_ms ? data.metrics.tx_all_ms.values : null,
    fail_reasons: {},
    dropped_iterations: 0,
    iterations: 0,
    trial_s: TRIAL_S,
    warmup_s: WARMUP_S,
    model: MODEL,
    mix: MIX,
  };
  for (const name of TRANSACTIONS) {
    const count = data.metrics[`tx_${name}_ok`];
    const fail = data.metrics[`tx_${name}_fail`];
    const lat = data.metrics[`tx_${name}_ms`];
    if (!count && !fail) continue;
    out.transactions[name] = {
      count: count ? count.values.count : 0,
      failed: fail ? fail.values.count : 0,
      latency_ms: lat ? lat.values : null,
    };
  }
  for (const reason of Object.keys(failReasons)) {
    const m = data.metrics[`fail_${reason}`];
    out.fail_reasons[reason] = m ? m.values.count : 0;
  }
  const dropped = data.metrics['dropped_iterations{scenario:measure}'];
  if (dropped) out.dropped_iterations = dropped.values.count;
  const opened = data.metrics.connections_opened;
  out.connections = opened ? opened.values.count : 0;
  const expected = data.metrics.connections_expected;
  out.connections_expected = expected ? expected.values.count : 0;
  const iterations = data.metrics['iterations{scenario:measure}'];
  if (iterations) out.iterations = iterations.values.count;
  return { stdout: `\n${SUMMARY_MARKER}\n${JSON.stringify(out)}\n` };
}
