/**
 * Parses `Authorization: Basic base64(client_id:client_secret)`; undefined when absent or malformed. A NUL
 * byte is malformed: no credential has one, and PostgreSQL refuses it in a query parameter.
 */
export function parseBasicCredentials(
  header: string | undefined,
): { clientId: string; secret: string } | undefined {
  if (!header) return undefined;
  const match = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon <= 0 || decoded.includes("\u0000")) return undefined;
  const clientId = decoded.slice(0, colon);
  const secret = decoded.slice(colon + 1);
  if (!secret || clientId.length > 128 || secret.length > 256) return undefined;
  return { clientId, secret };
}
