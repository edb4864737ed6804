// The listings app's load (k6). The lab's summary contract (tuninglab-contract.js, copied
// beside this script) reads the lab's settings, draws each user's transactions from the
// recipe's mix, counts and times them and prints the summary; this script sends each request
// and checks its answer.
//   ROWS  List: the products a page lists (app.toml parameters)
// Every draw comes from the user's own fixed stream, so the arms of a run list the same pages.
import http from 'k6/http';
import { contract } from './tuninglab-contract.js';

const lab = contract('listings', ['List']);
const CATEGORIES = 50; // database/data.sql

function whole(name, fallback) {
  const value = __ENV[name] === undefined || __ENV[name] === '' ? fallback : Number(__ENV[name]);
  if (!Number.isInteger(value) || value < 1 || value > 2000) {
    throw new Error(`listings workload: ${name} must be a whole number from 1 to 2000`);
  }
  return value;
}
const ROWS = whole('ROWS', 1000);

export const options = lab.options;

export default function () {
  const name = lab.next();
  const category = Math.floor(lab.uniform() * CATEGORIES);
  const res = http.get(`${lab.baseUrl}/products?category=${category}&rows=${ROWS}`,
                       { timeout: '30s' });
  lab.record(name, res, res.status === 200 && res.json('count') === ROWS);
  lab.pause();
}

export const handleSummary = lab.handleSummary;
