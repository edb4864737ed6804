// The summary contract of the lab's k6 driver, as a module an app's own script imports
// (the k6 driver copies it beside the script as tuninglab-contract.js):
//
//   import { contract } from './tuninglab-contract.js';
//   const lab = contract('shop', ['Browse', 'Order']);   // the app's transaction names
//   export const options = lab.options;
//   export default function () {
//     const name = lab.next();                // the mix's next transaction
//     const id = 1 + Math.floor(lab.uniform() * 1000);   // the user's own fixed stream
//     const res = http.get(...);              // the app's own request for it
//     lab.record(name, res, res.status === 200 && ...);  // answered, and answered right
//     lab.pause();                            // the closed model's think time
//   }
//   export const handleSummary = lab.handleSummary;
//
// It reads what the engine sets (drivers/k6.py, environment): BASE_URL, MIX, MODEL (closed:
// USERS and THINK_MS; open: RATE arrivals a second with at most MAX_USERS users; smoke: ROUNDS
// of every transaction in turn by one user), WARMUP_S and TRIAL_S; and prints the summary
// after the marker the engine looks for, in the shape of workloads/mix.js's (load.py reads it).
// Each virtual user draws its transactions from a fixed stream of its own, so both arms of a
// run see the same sequence.
import exec from 'k6/execution';
import { sleep } from 'k6';
import { Counter, Trend } from 'k6/metrics';

const SUMMARY_MARKER = '--- tuninglab summary ---';

// An app whose window has more to report than its requests (apps/messages: the messages sent
// and consumed) passes { summary: (data) => ({ key: value }) }: its keys join the summary. Two
// keys any app may use: "app", its own figures (stored with the window), and "problems", a
// list of what it found wrong (a failed back-end call), which fails the window (load.py).
export function contract(appName, transactions, hooks = {}) {
  const fail = (message) => { throw new Error(`${appName} workload: ${message}`); };
  const env = (name, fallback) => {
    const value = __ENV[name];
    if (value === undefined || value === '') {
      if (fallback === undefined) fail(`${name} is required`);
      return fallback;
    }
    return value;
  };
  const count = (name, fallback) => {
    const n = parseInt(env(name, fallback === undefined ? undefined : String(fallback)), 10);
    if (!(n >= 0)) fail(`${name} must be a whole number >= 0`);
    return n;
  };

  const baseUrl = env('BASE_URL');
  const mix = JSON.parse(env('MIX'));
  const model = env('MODEL');
  const warmupS = count('WARMUP_S', 0);
  const trialS = count('TRIAL_S', 0);
  const thinkMs = count('THINK_MS', 0);
  for (const name of Object.keys(mix)) {
    if (!transactions.includes(name)) {
      fail(`unknown transaction '${name}'; allowed: ${transactions.join(', ')}`);
    }
  }
  const weights = Object.entries(mix).filter(([, w]) => w > 0);
  const totalWeight = weights.reduce((sum, [, w]) => sum + w, 0);

  const latency = {};
  const ok = {};
  const failed = {};
  for (const name of transactions) {
    latency[name] = new Trend(`tx_${name}_ms`, true);
    ok[name] = new Counter(`tx_${name}_ok`);
    failed[name] = new Counter(`tx_${name}_fail`);
  }
  const allLatency = new Trend('tx_all_ms', true);
  const connectionsOpened = new Counter('connections_opened');
  const failReasons = {
    timeout: new Counter('fail_timeout'),
    status: new Counter('fail_status'),
    check: new Counter('fail_check'),
  };

  function scenarios() {
    const measureStart = `${warmupS}s`;
    let base;
    if (model === 'closed') {
      const vus = count('USERS');
      if (vus < 1) fail('USERS must be >= 1');
      base = { executor: 'constant-vus', vus, gracefulStop: '0s' };
    } else if (model === 'open') {
      const maxVUs = count('MAX_USERS', 200);
      base = { executor: 'constant-arrival-rate', rate: count('RATE'), timeUnit: '1s',
        preAllocatedVUs: maxVUs, maxVUs, gracefulStop: '0s' };
    } else if (model === 'smoke') {
      return { measure: { executor: 'shared-iterations', vus: 1,
        iterations: count('ROUNDS', 2) * weights.length, maxDuration: '300s' } };
    } else {
      fail(`MODEL must be closed, open or smoke, got '${model}'`);
    }
    const s = { measure: { ...base, duration: `${trialS}s`, startTime: measureStart } };
    if (warmupS > 0) s.warmup = { ...base, duration: `${warmupS}s` };
    return s;
  }

  let state = 0; // per virtual user; set at its first draw (the init context has no VU number)
  // The user's next number in [0, 1) from its own fixed stream (xorshift32): what the mix and
  // the script's own choices (which product, which customer) draw from, instead of
  // Math.random, so that both arms of a run send the same requests.
  function uniform() {
    if (state === 0) state = (2463534242 + 7919 * exec.vu.idInTest) >>> 0;
    state ^= state << 13; state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5; state >>>= 0;
    return state / 4294967296;
  }

  function next() {
    if (model === 'smoke') return weights[exec.scenario.iterationInTest % weights.length][0];
    let r = uniform() * totalWeight;
    for (const [name, weight] of weights) {
      if (r < weight) return name;
      r -= weight;
    }
    return weights[weights.length - 1][0];
  }

  // A request counts when it was answered in time, with a good status, and its answer passed
  // the app's own check (`good`); a failure is sorted by its reason.
  function record(name, res, good) {
    if (exec.scenario.name !== 'measure') return;
    if (res.timings.connecting > 0) connectionsOpened.add(1);
    if (good) {
      ok[name].add(1);
      latency[name].add(res.timings.duration);
      allLatency.add(res.timings.duration);
      return;
    }
    failed[name].add(1);
    if (res.error_code === 1050 || res.status === 0) failReasons.timeout.add(1);
    else if (res.status >= 400) failReasons.status.add(1);
    else failReasons.check.add(1);
  }

  function pause() {
    if (model === 'closed' && thinkMs > 0) sleep(thinkMs / 1000);
  }

  function handleSummary(data) {
    const metric = (name) => data.metrics[name];
    const out = {
      transactions: {},
      all: metric('tx_all_ms') ? metric('tx_all_ms').values : null,
      fail_reasons: {},
      dropped_iterations: 0,
      iterations: 0,
      trial_s: trialS,
      warmup_s: warmupS,
      model,
      mix,
      connections: metric('connections_opened') ? metric('connections_opened').values.count : 0,
      connections_expected: 0,
    };
    for (const name of transactions) {
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
    if (hooks.summary) Object.assign(out, hooks.summary(data));
    const dropped = metric('dropped_iterations{scenario:measure}');
    if (dropped) out.dropped_iterations = dropped.values.count;
    const iterations = metric('iterations{scenario:measure}');
    if (iterations) out.iterations = iterations.values.count;
    return { stdout: `\n${SUMMARY_MARKER}\n${JSON.stringify(out)}\n` };
  }

  const options = {
    scenarios: scenarios(),
    summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(50)', 'p(90)', 'p(99)', 'count'],
    thresholds: {
      'dropped_iterations{scenario:measure}': ['count>=0'],
      'iterations{scenario:measure}': ['count>=0'],
    },
  };

  return { baseUrl, mix, model, options, next, uniform, record, pause, handleSummary };
}
