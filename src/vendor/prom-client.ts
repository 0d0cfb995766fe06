/**
 * prom-client, the Prometheus text format of the team proxy's /-/metrics (src/proxy/metrics.ts).
 * Loaded by `serve --upstream` when the proxy starts, by no other command: its vendor file
 * (with the tdigest and OpenTelemetry pieces it brings) costs nothing to the CLI's start-up.
 */
export function loadPromClient(): Promise<typeof import('prom-client')> {
  return import('prom-client');
}
