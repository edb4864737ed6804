// The notify app's load (k6): each virtual user is one user with one HTTP session for the whole
// window (its cookies kept between iterations), asking for its page and pausing THINK_MS (the
// post's users paused 5 s). Before the window the script ends every session the app holds and
// zeroes its figures, so a window starts from none; every user then opens its session at once
// (each session's poller starts with it) and its later requests are spread over one pause.
// After the window it reads the app's figures (GET /notify/stats) into the summary's "app": the
// sessions, the back-end calls and their failures, the pages whose news was more than an
// interval late, the JVM's platform threads (now and at the most); then it ends the sessions,
// so that no poller runs between windows. A failed back-end call is a failure of the system
// under test, as a failed request is: it fails the window ("problems").
import http from 'k6/http';
import exec from 'k6/execution';
import { sleep } from 'k6';
import { Gauge } from 'k6/metrics';
import { contract } from './tuninglab-contract.js';

const FIGURES = ['seconds', 'sessions', 'pollers_alive', 'backend_calls', 'backend_failed',
  'users_fetched', 'pages', 'pages_stale', 'jvm_threads', 'jvm_threads_peak', 'heap_used_bytes'];
const figures = {};
for (const key of FIGURES) figures[key] = new Gauge(`notify_${key}`);
const USERS_IN_DATABASE = 5000;  // database/schema.sql

const lab = contract('notify', ['Page'], {
  summary: (data) => {
    const app = {};
    for (const key of FIGURES) {
      const metric = data.metrics[`notify_${key}`];
      app[key] = metric ? metric.values.value : null;
    }
    const problems = [];
    if (app.backend_calls === null) problems.push('the app\'s figures were not read after the window');
    else if (app.backend_failed > 0) {
      problems.push(`${app.backend_failed} of ${app.backend_calls} back-end calls failed`);
    }
    return { app, problems };
  },
});

// one session a user for the whole window: k6 would otherwise drop its cookies every iteration
export const options = { ...lab.options, noCookiesReset: true };

function reset() {
  const res = http.post(`${lab.baseUrl}/reset`);
  if (res.status !== 200) throw new Error(`notify workload: /reset answered ${res.status}: ${res.body}`);
}

export function setup() {
  reset();
}

let started = false;

export default function () {
  const name = lab.next();
  const user = ((exec.vu.idInTest - 1) % USERS_IN_DATABASE) + 1;
  const res = http.get(`${lab.baseUrl}/page?user=${user}`);
  lab.record(name, res, res.status === 200 && res.json('user') === user);
  if (!started && __ENV.MODEL === 'closed') {  // after its first page, each user's pause
    started = true;                             // starts at a point of its own
    sleep((lab.uniform() * Number(__ENV.THINK_MS || 0)) / 1000);
    return;
  }
  lab.pause();
}

export function teardown() {
  const res = http.get(`${lab.baseUrl}/stats`);
  if (res.status !== 200) throw new Error(`notify workload: /stats answered ${res.status}: ${res.body}`);
  const stats = res.json();
  for (const key of FIGURES) figures[key].add(stats[key]);
  reset();
}

export const handleSummary = lab.handleSummary;
