// The table's sounds, made in the page with the Web Audio API (no file is shipped): a
// tile laid, a PASS, STONES received, your turn, a CEKI or POLLO, a CAMAT elected.
// A browser lets a page sound only after the person touched it; until then (a spectator
// who never clicked) nothing is heard.

let ctx = null;
let resting = 0; // the timer that lets the audio engine rest once the last sound is over

/** Seconds after a sound starts when it is surely over (the longest, CAMAT's, ~1.1 s). */
const HEARD_WITHIN = 1.5;

function context() {
  if (!ctx) {
    // before the page was touched a browser refuses (and warns); nothing is heard then
    if (navigator.userActivation && !navigator.userActivation.hasBeenActive) return null;
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    ctx = new Ctx();
  }
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  return ctx;
}

/** A tone: `freq` Hz (gliding to `to`), starting `at` seconds from now, `len` seconds long. */
function tone(ac, { freq, to = freq, at = 0, len = 0.12, type = "sine", gain = 0.2 }) {
  const t0 = ac.currentTime + at;
  const osc = ac.createOscillator();
  const amp = ac.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, t0);
  if (to !== freq) osc.frequency.exponentialRampToValueAtTime(to, t0 + len);
  amp.gain.setValueAtTime(0.0001, t0);
  amp.gain.exponentialRampToValueAtTime(gain, t0 + 0.008);
  amp.gain.exponentialRampToValueAtTime(0.0001, t0 + len);
  osc.connect(amp).connect(ac.destination);
  osc.start(t0);
  osc.stop(t0 + len + 0.02);
}

/** A short knock of noise through a band-pass: a tile put down on wood. */
function knock(ac, { at = 0, freq = 1800, len = 0.07, gain = 0.5 }) {
  const t0 = ac.currentTime + at;
  const n = Math.ceil(ac.sampleRate * len);
  const buf = ac.createBuffer(1, n, ac.sampleRate);
  const data = buf.getChannelData(0);
  for (let i = 0; i < n; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / n) ** 3;
  const src = ac.createBufferSource();
  src.buffer = buf;
  const band = ac.createBiquadFilter();
  band.type = "bandpass";
  band.frequency.value = freq;
  band.Q.value = 1.4;
  const amp = ac.createGain();
  amp.gain.value = gain;
  src.connect(band).connect(amp).connect(ac.destination);
  src.start(t0);
}

const SOUNDS = {
  tile(ac) {
    knock(ac, { freq: 1500 });
    tone(ac, { freq: 420, to: 300, len: 0.06, type: "triangle", gain: 0.12 });
  },
  pass(ac) {
    tone(ac, { freq: 330, len: 0.13, type: "triangle", gain: 0.14 });
    tone(ac, { freq: 247, at: 0.14, len: 0.18, type: "triangle", gain: 0.14 });
  },
  stones(ac) {
    for (let i = 0; i < 3; i++) knock(ac, { at: i * 0.06, freq: 3200 + i * 400, len: 0.04, gain: 0.35 });
  },
  turn(ac) {
    tone(ac, { freq: 660, len: 0.14, gain: 0.12 });
    tone(ac, { freq: 880, at: 0.12, len: 0.22, gain: 0.12 });
  },
  ceki(ac) {
    [523, 659, 784, 1047].forEach((f, i) => tone(ac, { freq: f, at: i * 0.08, len: 0.2, type: "triangle", gain: 0.13 }));
  },
  camat(ac) {
    [392, 523, 659, 784].forEach((f, i) => tone(ac, { freq: f, at: i * 0.13, len: 0.28, type: "square", gain: 0.05 }));
    tone(ac, { freq: 1047, at: 0.52, len: 0.5, type: "triangle", gain: 0.12 });
  },
};
export const SOUND_NAMES = Object.keys(SOUNDS);

/** Play one of the sounds; answers whether it was started. */
export function playSound(name) {
  const make = SOUNDS[name];
  if (!make) throw new Error(`no sound named ${name}`);
  const ac = context();
  if (!ac) return false;
  make(ac);
  // between sounds the context is suspended: a running one keeps the browser's audio
  // thread working in silence (about 1% of a core for as long as the page is open, a
  // phone's battery); context() resumes it for the next sound
  clearTimeout(resting);
  resting = window.setTimeout(() => {
    if (ctx && ctx.state === "running") ctx.suspend().catch(() => {});
  }, HEARD_WITHIN * 1000);
  return true;
}
