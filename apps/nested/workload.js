// The nested app's load (k6). The lab's summary contract (tuninglab-contract.js, copied beside
// this script) reads the lab's settings, draws each user's transactions from the recipe's mix,
// counts and times them and prints the summary; this script sends each request and checks its
// answer. Every draw comes from the user's own fixed stream, so the arms of a run post to the
// same accounts.
import http from 'k6/http';
import { contract } from './tuninglab-contract.js';

const lab = contract('nested', ['Post']);
const ACCOUNTS = 10000; // database/schema.sql

export const options = lab.options;

export default function () {
  const name = lab.next();
  const account = 1 + Math.floor(lab.uniform() * ACCOUNTS);
  const res = http.get(`${lab.baseUrl}/post?account=${account}`, { timeout: '30s' });
  lab.record(name, res, res.status === 200 && res.json('posted') === account);
  lab.pause();
}

export const handleSummary = lab.handleSummary;
