// The work-order app's load (k6). The lab's summary contract (tuninglab-contract.js, copied
// beside this script) reads the lab's settings, draws each user's transactions from the
// recipe's mix, counts and times them and prints the summary; this script sends each
// transaction and checks its answer.
//   CHANGE_PERCENT  Review: the share of reviews that change the order (app.toml parameters)
//   HOT_ORDERS      ChangeOrder and ShipOrder: the orders they pick from
// Every draw comes from the user's own fixed stream, so the arms of a run see the same
// sequence of orders, parts and changes.
import http from 'k6/http';
import { contract } from './tuninglab-contract.js';

const lab = contract('workorders', ['Review', 'ListOrder', 'ChangeOrder', 'ShipOrder', 'NewWorkOrder']);
const ORDERS = 20000; // database/data.sql
const PARTS = 1000;
const LINES = 20;

function whole(name, fallback) {
  const value = __ENV[name] === undefined || __ENV[name] === '' ? fallback : Number(__ENV[name]);
  if (!Number.isInteger(value) || value < 0) {
    throw new Error(`workorders workload: ${name} must be a whole number >= 0`);
  }
  return value;
}
const CHANGE_PERCENT = whole('CHANGE_PERCENT', 10);
const HOT_ORDERS = Math.min(Math.max(whole('HOT_ORDERS', ORDERS), 1), ORDERS);

export const options = lab.options;

const post = (url) => http.post(url, null, { timeout: '30s' });

export default function () {
  const name = lab.next();
  let res;
  let good = false;
  if (name === 'Review') {
    const order = 1 + Math.floor(lab.uniform() * ORDERS);
    const change = lab.uniform() * 100 < CHANGE_PERCENT ? 1 : 0;
    res = http.get(`${lab.baseUrl}/orders/${order}?change=${change}`, { timeout: '30s' });
    good = res.status === 200 && res.json('order') === order;
  } else if (name === 'ListOrder') {
    const order = 1 + Math.floor(lab.uniform() * ORDERS);
    res = http.get(`${lab.baseUrl}/orders/${order}/lines`, { timeout: '30s' });
    good = res.status === 200 && res.json('count') === LINES;
  } else if (name === 'ChangeOrder' || name === 'ShipOrder') {
    const order = 1 + Math.floor(lab.uniform() * HOT_ORDERS);
    res = post(`${lab.baseUrl}/orders/${order}/${name === 'ShipOrder' ? 'ship' : 'change'}`);
    good = res.status === 200 && res.json('updated') === LINES;
  } else {
    const parts = new Set();
    while (parts.size < 3) parts.add(1 + Math.floor(lab.uniform() * PARTS));
    // sorted, so that two work orders sharing parts wait for each other, never deadlock
    const list = [...parts].sort((a, b) => a - b).join(',');
    res = post(`${lab.baseUrl}/work?parts=${list}`);
    good = res.status === 200 && res.json('workorder') > 0;
  }
  lab.record(name, res, good);
  lab.pause();
}

export const handleSummary = lab.handleSummary;
