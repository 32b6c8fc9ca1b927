// Property tests run with one fixed seed, so `npm test` checks the same inputs on every
// machine and a failure reproduces; the fuzz suite (`npm run fuzz`) is where new seeds go.
import fc from 'fast-check';

fc.configureGlobal({ seed: 20261201 });
