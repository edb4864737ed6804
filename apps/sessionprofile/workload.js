// The session profile's load (k6). Each virtual user is one visitor with one HTTP session: its
// first request stores a profile of PROFILE_CHARS characters, and every request counts a visit.
// The lab's summary contract (tuninglab-contract.js, copied beside this script) reads the lab's
// settings, draws the mix, counts, times and prints the summary; this script sends the visit,
// checks its answer and follows the session, as a balancer with sticky sessions would: the
// first request goes through the balancer (BASE_URL), which picks a node that creates the
// session, and every later one goes straight to the node the session id's route names (WildFly
// ends the id with ".<route>", the node's name on the stack's network). The summary counts the
// sessions the visitors opened and those whose id named a node, which the run reads back
// (changes/deployment.py). A visit fails when the count does not go on from the visitor's
// previous answer or the profile comes back at another length: a lost or stale session is a
// failed request, not a faster one.
import http from 'k6/http';
import { Counter } from 'k6/metrics';
import { contract } from './tuninglab-contract.js';

const count = (data, name) => (data.metrics[name] ? data.metrics[name].values.count : 0);
const lab = contract('sessionprofile', ['Visit'], {
  summary: (data) => ({ sessions: count(data, 'sessions_opened'),
    sessions_routed: count(data, 'sessions_routed') }),
});
// 20,000 characters: a session of about 20 KB, the middle of the 1-100 KB the guide's section
// 3.2 suggests trying, and large beside the count that changes.
const PROFILE_CHARS = 20000;
const sessionsOpened = new Counter('sessions_opened');
const sessionsRouted = new Counter('sessions_routed');

export const options = lab.options;

// Per visitor (k6 runs a copy of this module per user): its session id, where its requests go,
// and the count its session should hold.
let session = null;
let visits = 0;

function visit() {
  const path = `/profile.jsp?chars=${PROFILE_CHARS}`;
  if (session === null) {
    const res = http.get(`${lab.baseUrl}${path}`, { timeout: '30s' });
    const cookie = res.cookies.JSESSIONID;
    const id = cookie && cookie.length ? cookie[0].value : '';
    if (id) {
      const route = id.includes('.') ? id.slice(id.lastIndexOf('.') + 1) : '';
      const root = route ? lab.baseUrl.replace(/^(https?:\/\/)[^:/]+/, `$1${route}`) : lab.baseUrl;
      session = { id, root };
      sessionsOpened.add(1);
      if (route) sessionsRouted.add(1);
    }
    return res;
  }
  return http.get(`${session.root}${path}`,
    { timeout: '30s', cookies: { JSESSIONID: { value: session.id, replace: true } } });
}

export default function () {
  const name = lab.next();
  const res = visit();
  let good = false;
  if (res.status === 200) {
    const answer = res.json();
    good = answer.visits === visits + 1 && answer.profileChars === PROFILE_CHARS;
    visits = answer.visits; // after a lost session, go on from the new one's count
  }
  lab.record(name, res, good);
  lab.pause();
}

export const handleSummary = lab.handleSummary;
