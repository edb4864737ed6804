// The paging app's load (k6), on the lab's summary contract (tuninglab-contract.js, copied
// beside this script). Every virtual user browses: it searches a category picked from its own
// fixed stream (page 1, transaction Search), pages forward to page PAGES and back to page 1
// (transaction Page each), then searches again. With PAGES = 5 that is 1 search and 8 pages,
// the mix's weights (app.toml); the mix names the transactions, the browse sets their order.
//   PAGE_ROWS  the rows of a page       PAGES  how far a user pages before turning back
// A request fails when it times out, is answered with an error status (the stateful design
// answers 409 for a page of a search its session does not hold), or brings another page or
// another number of rows than asked for.
import http from 'k6/http';
import { contract } from './tuninglab-contract.js';

const lab = contract('paging', ['Search', 'Page']);
const CATEGORIES = 50; // database/data.sql

function whole(name, fallback, most) {
  const value = __ENV[name] === undefined || __ENV[name] === '' ? fallback : Number(__ENV[name]);
  if (!Number.isInteger(value) || value < 1 || value > most) {
    throw new Error(`paging workload: ${name} must be a whole number from 1 to ${most}`);
  }
  return value;
}
const PAGE_ROWS = whole('PAGE_ROWS', 20, 100);
const PAGES = whole('PAGES', 5, 5);
// The pages of one browse in order: 1, 2, ..., PAGES, PAGES - 1, ..., 1.
const BROWSE = [];
for (let p = 1; p <= PAGES; p++) BROWSE.push(p);
for (let p = PAGES - 1; p >= 1; p--) BROWSE.push(p);

// k6 empties a user's cookie jar at every iteration unless told not to; a browse spans nine
// iterations, and the stateful design's search lives in the session its cookie names.
export const options = { ...lab.options, noCookiesReset: true };

let step = 0; // per virtual user: where it is in its browse
let category = 0;
// Session affinity, as a balancer with sticky sessions gives it (sessioncart's script does the
// same): a browse's search goes to the app's root (on a cluster, the balancer picks a node,
// which opens the session), and its pages go straight to the node the session id's route names
// (WildFly ends the id with ".<route>", the node's name on the stack's network), with the
// session's cookie sent along (k6 keeps cookies per host). An id without a route (one node,
// no balancer) leaves every request on the app's root.
let root = lab.baseUrl;
let session = '';

function follow(res) {
  const cookie = res.cookies.JSESSIONID;
  const id = cookie && cookie.length ? cookie[0].value : '';
  if (!id) return; // the session the user already has
  session = id;
  const route = id.includes('.') ? id.slice(id.lastIndexOf('.') + 1) : '';
  root = route ? lab.baseUrl.replace(/^(https?:\/\/)[^:/]+/, `$1${route}`) : lab.baseUrl;
}

function pageParams() {
  const params = { timeout: '30s' };
  if (session) params.cookies = { JSESSIONID: { value: session, replace: true } };
  return params;
}

export default function () {
  const page = BROWSE[step];
  let res;
  if (step === 0) {
    category = Math.floor(lab.uniform() * CATEGORIES);
    res = http.get(`${lab.baseUrl}/search?category=${category}&rows=${PAGE_ROWS}`,
                   { timeout: '30s' });
    follow(res);
  } else {
    res = http.get(`${root}/page?category=${category}&number=${page}&rows=${PAGE_ROWS}`,
                   pageParams());
  }
  const good = res.status === 200 && res.json('count') === PAGE_ROWS && res.json('page') === page
    && res.json('category') === category;
  lab.record(step === 0 ? 'Search' : 'Page', res, good);
  step = (step + 1) % BROWSE.length;
  lab.pause();
}

export const handleSummary = lab.handleSummary;
