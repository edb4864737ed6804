// A host-speed index (tuninglab/calibration.py): the same fixed CPU work, timed in the load
// generator's container (the database core, no CPU quota, in every stack alike). One virtual
// user runs ITERATIONS iterations of a fixed arithmetic loop; the summary reports each
// iteration's duration. Nothing here talks to the network.
import { Trend } from 'k6/metrics';

const SUMMARY_MARKER = '--- tuninglab summary ---';
const LOOP = Number(__ENV.LOOP || 4000000);
const WARM = Number(__ENV.WARM || 2); // the first iterations, while the engine compiles the loop
const work_ms = new Trend('work_ms');

export const options = {
  scenarios: { calibrate: { executor: 'per-vu-iterations', vus: 1,
                            iterations: Number(__ENV.ITERATIONS || 7), maxDuration: '60s' } },
};

export default function () {
  const start = Date.now();
  let x = 0;
  for (let i = 0; i < LOOP; i++) {
    x = (x + i * 31) % 1000003;
  }
  if (__ITER >= WARM) work_ms.add(Date.now() - start);
  if (x < 0) console.log(x); // keeps the loop from being optimised away
}

export function handleSummary(data) {
  return { stdout: `\n${SUMMARY_MARKER}\n${JSON.stringify({ work_ms: data.metrics.work_ms.values })}\n` };
}
