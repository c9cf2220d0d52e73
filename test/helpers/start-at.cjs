// Waits until the wall-clock time `startAt` (epoch ms), for processes told to start something
// together. It sleeps (Atomics.wait: no CPU) until 2 ms before, then spins: a timer alone can be late
// by milliseconds, and spinning all the way would take the CPU from the very processes it waits for.
const SPIN_MS = 2;

function waitUntil(startAt) {
  const sleepMs = startAt - Date.now() - SPIN_MS;
  if (sleepMs > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, sleepMs);
  while (Date.now() < startAt);
}

module.exports = { waitUntil };
