// A small HTTP load generator on undici: an open-loop run at a fixed rate
// (latency measured from the intended send time, so a stalled server cannot
// hide its queueing) and a closed-loop saturated run.
import { Pool } from 'undici';

function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function summary(latencies, completed, errors, seconds) {
  const sorted = Float64Array.from(latencies).sort();
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), rps: completed / seconds, completed, errors };
}

async function one(pool, path) {
  const { statusCode, body } = await pool.request({ path, method: 'GET' });
  await body.dump();
  return statusCode;
}

/** Sends `rate` requests per second for `seconds`. */
export async function fixedRate(origin, path, { rate, seconds, connections = 64 }) {
  const pool = new Pool(origin, { connections, pipelining: 1 });
  const latencies = [];
  let completed = 0;
  let errors = 0;
  const inflight = new Set();
  const start = performance.now();
  const total = Math.round(rate * seconds);
  let sent = 0;
  await new Promise((resolve) => {
    const tick = () => {
      const now = performance.now();
      // Request i is due at start + i / rate: by `now`, every one up to floor(elapsed · rate) (the first at once,
      // not one interval late, which added 1/rate to every latency: 20 ms at 50 req/s).
      const due = Math.min(total, Math.floor(((now - start) / 1000) * rate) + 1);
      for (; sent < due; sent += 1) {
        const intended = start + (sent / rate) * 1000;
        const p = one(pool, path)
          .then((status) => {
            if (status >= 400) errors += 1;
            else {
              completed += 1;
              latencies.push(performance.now() - intended);
            }
          })
          .catch(() => {
            errors += 1;
          })
          .finally(() => inflight.delete(p));
        inflight.add(p);
      }
      if (sent >= total) resolve();
      else setTimeout(tick, 1);
    };
    tick();
  });
  await Promise.all(inflight);
  const elapsed = (performance.now() - start) / 1000;
  await pool.close();
  return summary(latencies, completed, errors, elapsed);
}

/** `connections` clients each sending back-to-back for `seconds`. */
export async function saturate(origin, path, { seconds, connections = 64 }) {
  const pool = new Pool(origin, { connections, pipelining: 1 });
  const latencies = [];
  let completed = 0;
  let errors = 0;
  const end = performance.now() + seconds * 1000;
  const worker = async () => {
    while (performance.now() < end) {
      const t = performance.now();
      try {
        const status = await one(pool, path);
        if (status >= 400) errors += 1;
        else {
          completed += 1;
          latencies.push(performance.now() - t);
        }
      } catch {
        errors += 1;
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, worker));
  const elapsed = (performance.now() - started) / 1000;
  await pool.close();
  return summary(latencies, completed, errors, elapsed);
}
