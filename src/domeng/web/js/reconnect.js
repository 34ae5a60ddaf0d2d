// How long to wait before trying a lost connection again: 1, 2, 4 … up to 15 seconds,
// each a little shorter or longer at random (jitter), so that many screens cut off at
// once by a restart of the service do not all come back in the same instant.

const FIRST_MS = 1000;
const MOST_MS = 15000;

/** The wait before attempt number `attempt` (0: the first retry), in ms. */
export function retryDelay(attempt, random = Math.random) {
  const base = Math.min(MOST_MS, FIRST_MS * 2 ** Math.max(0, attempt));
  return Math.min(MOST_MS, Math.round(base * (0.8 + 0.4 * random())));
}
