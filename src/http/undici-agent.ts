/**
 * Loads undici's keep-alive Agent and its request() API, and nothing else: undici's index
 * also loads fetch, WebSocket, mocks and caches, which triples the time a one-request
 * command spends starting up (see bench/startup.mjs). This mirrors what undici's own index
 * does for these two pieces.
 */
import type { Agent } from 'undici';

let loaded: Promise<typeof Agent> | undefined;

export function loadAgentClass(): Promise<typeof Agent> {
  loaded ??= Promise.all([
    import('undici/lib/dispatcher/agent.js'),
    import('undici/lib/dispatcher/dispatcher.js'),
    import('undici/lib/api/api-request.js'),
  ]).then(([agent, dispatcher, request]) => {
    const proto = dispatcher.default.prototype as { request?: unknown };
    proto.request ??= request.default;
    return agent.default;
  });
  return loaded;
}
