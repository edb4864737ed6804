// The shop's load (k6). The lab's summary contract (tuninglab-contract.js, copied beside this
// script) reads the lab's settings, draws each user's transactions from the recipe's mix,
// counts and times them and prints the summary; this script only sends each transaction and
// checks its answer. To drive your own app, keep the import and the three exports and write
// one branch per transaction of yours.
import http from 'k6/http';
import { contract } from './tuninglab-contract.js';

const lab = contract('shop', ['Browse', 'Order']);
const PRODUCTS = 10000; // database/data.sql

export const options = lab.options;

export default function () {
  const name = lab.next();
  const product = 1 + Math.floor(lab.uniform() * PRODUCTS);
  let res;
  let good = false;
  if (name === 'Browse') {
    res = http.get(`${lab.baseUrl}/products/${product}`, { timeout: '30s' });
    good = res.status === 200 && res.json('id') === product && res.json('similar.#') === 10;
  } else {
    res = http.post(`${lab.baseUrl}/orders?product=${product}&quantity=1`, null, { timeout: '30s' });
    good = res.status === 200 && res.json('order') > 0;
  }
  lab.record(name, res, good);
  lab.pause();
}

export const handleSummary = lab.handleSummary;
