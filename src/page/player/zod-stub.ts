/**
 * The player bundle's `zod`: an inert stand-in. The video modules the player
 * imports declare their zod schemas at load; the player never validates
 * (every prop it reads was parsed by RolloutPropsSchema in Node when the
 * page was written), and the real zod would be 430 KB of the 540 KB bundle.
 * Any chain of calls and property reads on it returns it again.
 */
const inert: unknown = new Proxy(function () {}, {
  get: (_target, key) => (key === Symbol.toPrimitive ? () => "" : inert),
  apply: () => inert,
});

export const z = inert;
