// The units app's load (k6). The lab's summary contract (tuninglab-contract.js, copied beside
// this script) reads the lab's settings, draws each user's transactions from the recipe's mix,
// counts and times them and prints the summary; this script sends each request and checks its
// answer.
//   ROWS  BulkLoad: movements inserted in one transaction (app.toml parameters)
import http from 'k6/http';
import { contract } from './tuninglab-contract.js';

const lab = contract('units', ['BulkLoad']);

function whole(name, fallback) {
  const value = __ENV[name] === undefined || __ENV[name] === '' ? fallback : Number(__ENV[name]);
  if (!Number.isInteger(value) || value < 1 || value > 100000) {
    throw new Error(`units workload: ${name} must be a whole number from 1 to 100000`);
  }
  return value;
}
const ROWS = whole('ROWS', 2000);

export const options = lab.options;

export default function () {
  const name = lab.next();
  const res = http.post(`${lab.baseUrl}/bulk?rows=${ROWS}`, null, { timeout: '60s' });
  lab.record(name, res, res.status === 200 && res.json('rows') === ROWS);
  lab.pause();
}

export const handleSummary = lab.handleSummary;
