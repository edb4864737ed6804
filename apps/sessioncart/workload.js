// The session cart's load (k6): every virtual user is one shopper with one HTTP session (k6
// keeps a cookie jar per virtual user), adding items to the cart and looking at it. It speaks
// the same contract as workloads/mix.js, so the engine reads its numbers the same way:
//   BASE_URL  the app's root, e.g. http://balancer:8080/sessioncart
//   MIX       JSON weights of the transactions AddItem and ViewCart
//   MODEL     closed (USERS, THINK_MS) or smoke (ROUNDS of every transaction, one user)
//   WARMUP_S, TRIAL_S  seconds of unrecorded and of measured load
// and it prints the summary after the marker the engine looks for (containers.SUMMARY_MARKER).
//
// Session affinity, as a balancer with sticky sessions gives it (mod_cluster, mod_jk, HAProxy
// with a route cookie): a shopper's first request goes to BASE_URL (the cluster's balancer
// picks a node, which creates the session), and every later one goes straight to the node
// that the session id's route names (WildFly ends the id with ".<route>", the node's name on
// the stack's network). A deployment whose distributable-web.xml says <no-affinity/> gives ids
// without a route: every request of its shoppers then goes through the balancer, which hands
// it to the next node in its rotation. The summary counts the sessions the shoppers opened and
// those whose id named a node, which the run reads back (changes/deployment.py).
//
// A request fails when it times out, is answered with an error status, or its count does not
// go on from the shopper's previous answer: a session that a node could not find (or found
// stale) shows up as a failed request, not as a faster one.
import http from 'k6/http';
import exec from 'k6/execution';
import { sleep } from 'k6';
import { Counter, Trend } from 'k6/metrics';

const SUMMARY_MARKER = '--- tuninglab summary ---';
const TRANSACTIONS = ['AddItem', 'ViewCart'];
const ITEM_CHARS = 1024; // the cart keeps its last 10 items: a session of about 10 KB

function env(name, fallback) {
  const value = __ENV[name];
  if (value === undefined || value === '') {
    if (fallback === undefined) throw new Error(`sessioncart workload: ${name} is required`);
    return fallback;
  }
  return value;
}

function count(name, fallback) {
  const n = parseInt(env(name, fallback === undefined ? undefined : String(fallback)), 10);
  if (!(n >= 0)) throw new Error(`sessioncart workload: ${name} must be a whole number >= 0`);
  return n;
}

const BASE_URL = env('BASE_URL');
const MIX = JSON.parse(env('MIX'));
const MODEL = env('MODEL');
const WARMUP_S = count('WARMUP_S', 0);
const TRIAL_S = count('TRIAL_S', 0);
const THINK_MS = count('THINK_MS', 0);
for (const name of Object.keys(MIX)) {
  if (!TRANSACTIONS.includes(name)) {
    throw new Error(`sessioncart workload: unknown transaction '${name}'; allowed: ${TRANSACTIONS}`);
  }
}
const WEIGHTS = Object.entries(MIX).filter(([, w]) => w > 0);
const TOTAL_WEIGHT = WEIGHTS.reduce((sum, [, w]) => sum + w, 0);

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
const sessionsOpened = new Counter('sessions_opened');
const sessionsRouted = new Counter('sessions_routed');
const failReasons = {
  timeout: new Counter('fail_timeout'),
  status: new Counter('fail_status'),
  check: new Counter('fail_check'),
};

function scenarios() {
  if (MODEL === 'closed') {
    const vus = count('USERS');
    if (vus < 1) throw new Error('sessioncart workload: USERS must be >= 1');
    const base = { executor: 'constant-vus', vus, gracefulStop: '0s' };
    const s = { measure: { ...base, duration: `${TRIAL_S}s`, startTime: `${WARMUP_S}s` } };
    if (WARMUP_S > 0) s.warmup = { ...base, duration: `${WARMUP_S}s` };
    return s;
  }
  if (MODEL === 'smoke') {
    return { measure: { executor: 'shared-iterations', vus: 1,
      iterations: count('ROUNDS', 2) * WEIGHTS.length, maxDuration: '300s' } };
  }
  throw new Error(`sessioncart workload: MODEL must be closed or smoke, got '${MODEL}'`);
}

export const options = {
  scenarios: scenarios(),
  summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(50)', 'p(90)', 'p(99)', 'count'],
  thresholds: {
    'dropped_iterations{scenario:measure}': ['count>=0'],
    'iterations{scenario:measure}': ['count>=0'],
  },
};

// Per virtual user (each has its own JS runtime): the count its session should hold, and a
// deterministic stream of transactions, so arms see the same sequence.
let expected = 0;
// the shopper's session id, and where its later requests go: the node its route names, or
// the balancer (BASE_URL) when the id names none
let session = null;
let scenario = ''; // the scenario of the user's last request (see cart)
let state = 0; // set at the first iteration: the init context has no VU number

function pick() {
  if (state === 0) state = (2463534242 + 7919 * exec.vu.idInTest) >>> 0;
  state ^= state << 13; state >>>= 0;
  state ^= state >>> 17;
  state ^= state << 5; state >>>= 0;
  let r = (state / 4294967296) * TOTAL_WEIGHT;
  for (const [name, weight] of WEIGHTS) {
    if (r < weight) return name;
    r -= weight;
  }
  return WEIGHTS[WEIGHTS.length - 1][0];
}

function request(query) {
  if (session === null) {
    const res = http.get(`${BASE_URL}/cart.jsp?${query}`, { timeout: '30s' });
    const cookie = res.cookies.JSESSIONID;
    const id = cookie && cookie.length ? cookie[0].value : '';
    if (!id) return res; // no session: the next request tries again (and fails its check)
    const route = id.includes('.') ? id.slice(id.lastIndexOf('.') + 1) : '';
    session = { id, root: route ? BASE_URL.replace(/^(https?:\/\/)[^:/]+/, `$1${route}`) : BASE_URL };
    sessionsOpened.add(1);
    if (route) sessionsRouted.add(1);
    return res;
  }
  return http.get(`${session.root}/cart.jsp?${query}`,
    { timeout: '30s', cookies: { JSESSIONID: { value: session.id, replace: true } } });
}

function cart(op) {
  const res = request(op === 'add' ? `op=add&bytes=${ITEM_CHARS}` : 'op=view');
  let body = null;
  try { body = res.status === 200 ? res.json() : null; } catch (e) { body = null; }
  const want = op === 'add' ? expected + 1 : expected;
  // A user's first request in a scenario may find its session one item ahead: the scenario
  // before (the warm-up) stopped it mid-request, after the server counted the item.
  const first = scenario !== exec.scenario.name;
  scenario = exec.scenario.name;
  const good = body !== null && (first ? body.count >= want : body.count === want)
    && body.cartChars === Math.min(body.count, 10) * ITEM_CHARS;
  if (body !== null) expected = body.count; // go on from what the session holds
  return [res, good];
}

export default function () {
  const name = MODEL === 'smoke'
    ? WEIGHTS[exec.scenario.iterationInTest % WEIGHTS.length][0]
    : pick();
  const [res, good] = cart(name === 'AddItem' ? 'add' : 'view');
  if (exec.scenario.name === 'measure') {
    if (res.timings.connecting > 0) connectionsOpened.add(1);
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
  const metric = (name) => data.metrics[name];
  const out = {
    transactions: {},
    all: metric('tx_all_ms') ? metric('tx_all_ms').values : null,
    fail_reasons: {},
    dropped_iterations: 0,
    iterations: 0,
    trial_s: TRIAL_S,
    warmup_s: WARMUP_S,
    model: MODEL,
    mix: MIX,
    connections: metric('connections_opened') ? metric('connections_opened').values.count : 0,
    connections_expected: 0,
    sessions: metric('sessions_opened') ? metric('sessions_opened').values.count : 0,
    sessions_routed: metric('sessions_routed') ? metric('sessions_routed').values.count : 0,
  };
  for (const name of TRANSACTIONS) {
    const good = metric(`tx_${name}_ok`);
    const bad = metric(`tx_${name}_fail`);
    if (!good && !bad) continue;
    out.transactions[name] = {
      count: good ? good.values.count : 0,
      failed: bad ? bad.values.count : 0,
      latency_ms: metric(`tx_${name}_ms`) ? metric(`tx_${name}_ms`).values : null,
    };
  }
  for (const reason of Object.keys(failReasons)) {
    out.fail_reasons[reason] = metric(`fail_${reason}`) ? metric(`fail_${reason}`).values.count : 0;
  }
  const dropped = metric('dropped_iterations{scenario:measure}');
  if (dropped) out.dropped_iterations = dropped.values.count;
  const iterations = metric('iterations{scenario:measure}');
  if (iterations) out.iterations = iterations.values.count;
  return { stdout: `\n${SUMMARY_MARKER}\n${JSON.stringify(out)}\n` };
}
