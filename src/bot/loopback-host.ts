/**
 * Loopback names and the Host header check of the bot's HTTP endpoints (control and metrics). Both bind to a
 * loopback address; a page in a browser on the same machine could still reach them by rebinding its own DNS
 * name to 127.0.0.1, but its requests then carry that name as Host. Answering only a Host that names a
 * loopback address closes that door (DNS rebinding).
 */

/** Host names and addresses the endpoints may bind to and accept in a Host header. */
export const LOOPBACK_HOSTS: readonly string[] = ['127.0.0.1', '::1', 'localhost'];

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.includes(host);
}

/** The host part of a Host header ("127.0.0.1:9465", "[::1]:9465", "localhost"). */
export function hostOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^(?:\[([^\]]+)\]|([^:]+))(?::[0-9]+)?$/.exec(header.trim());
  return match?.[1] ?? match?.[2];
}

/** True when a request's Host header names a loopback address. */
export function loopbackHostHeader(header: string | undefined): boolean {
  const host = hostOf(header);
  return host !== undefined && isLoopbackHost(host);
}
